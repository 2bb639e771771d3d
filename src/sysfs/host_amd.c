/* AMD Instinct's GPUDirect parts (host_amd.h). */
#include "host_amd.h"
#include "host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Where amdkfd's memory-peer version file appears: RCCL's net_ib
 * (ncclIbGdrSupport, ROCm/rccl src/transport/net_ib.cc) looks at these
 * three, as the peer-memory module of the OFED or distribution in use
 * puts its memory_peers directory under /sys/kernel/mm (kernel 5.15),
 * /sys/kernel or /sys. */
static const char *const peer_paths[] = {
	"sys/kernel/mm/memory_peers/amdkfd/version",
	"sys/kernel/memory_peers/amdkfd/version",
	"sys/memory_peers/amdkfd/version",
};

int host_read_amd(struct root *r, struct host *h)
{
	char *modules = NULL;

	h->amd.read = true;
	h->amd.amdgpu.name = "amdgpu";
	if (root_read(r, "proc/modules", &modules) < 0)
		modules = NULL;
	host_module_read(r, modules, &h->amd.amdgpu);
	free(modules);
	for (size_t i = 0; i < sizeof(peer_paths) / sizeof(peer_paths[0]); i++) {
		char *text = NULL;
		int rc = root_read(r, peer_paths[i], &text);

		if (rc == -ENOMEM)
			return rc;
		if (rc < 0)
			continue;
		free(text);
		h->amd.memory_peer = strdup(peer_paths[i]);
		if (!h->amd.memory_peer)
			return -ENOMEM;
		break;
	}
	return 0;
}
