#include "collect.h"
#include "lldp.h"
#include "../ascend/npu_read.h"
#include "../nvml/fabric.h"
#include "../sysfs/access_read.h"
#include "../sysfs/drv_stack.h"
#include "../sysfs/host.h"
#include "../sysfs/host_amd.h"
#include "../sysfs/ib.h"
#include "../sysfs/ib_smp.h"
#include "../sysfs/kmsg.h"
#include "../sysfs/pci.h"
#include "../sysfs/verbs_user.h"

#include <string.h>

static bool any_amd_gpu(const struct inventory *inv)
{
	for (size_t i = 0; i < inv->n_gpus; i++)
		if (inv->gpus[i].vendor == GPU_VENDOR_AMD)
			return true;
	return false;
}

int inventory_collect(struct root *r, struct inventory *inv)
{
	int rc;

	memset(inv, 0, sizeof(*inv));
	rc = ib_read_nics(r, &inv->nics, &inv->n_nics);
	if (rc == 0)
		rc = npu_read(r, &inv->npu);
	if (rc == 0)
		rc = pci_read_gpus(r, &inv->gpus, &inv->n_gpus);
	if (rc == 0)
		rc = host_read(r, inv->nics, inv->n_nics, &inv->host);
	if (rc == 0 && any_amd_gpu(inv))
		rc = host_read_amd(r, &inv->host);
	if (rc == 0)
		rc = nvml_read_fabric(r, inv->gpus, inv->n_gpus);
	if (rc == 0)
		rc = ib_smp_read(r, inv->nics, inv->n_nics);
	/* after the ports have their netdevs and LAG slaves */
	if (rc == 0)
		rc = lldp_read(r, inv->nics, inv->n_nics);
	if (rc == 0)
		rc = access_read(r, inv->nics, inv->n_nics, &inv->host.access);
	if (rc == 0 && inv->n_nics)
		rc = verbs_user_read(r, &inv->host.verbs_user);
	if (rc == 0 && inv->n_nics)
		rc = drv_stack_read(r, inv->host.kernel, &inv->host.drv_stack);
	if (rc == 0)
		rc = kmsg_collect(r, &inv->host.kmsg);
	return rc;
}
