#include "cmd.h"
#include "pipeline.h"
#include "../out/json.h"
#include "../out/text.h"

#include <stdio.h>

static const char help[] =
	"usage: rdmadoctor [--root DIR] [--json] topo\n"
	"\n"
	"The GPU x NIC matrix that `nvidia-smi topo -m` prints, computed from the\n"
	"PCI tree in sysfs (no NVIDIA driver needed):\n"
	"  PIX   at most one PCIe bridge between them (same switch)\n"
	"  PXB   several bridges, no host bridge\n"
	"  PHB   through a PCIe host bridge (the CPU)\n"
	"  NODE  between host bridges of one NUMA node\n"
	"  SYS   across NUMA nodes (UPI / Infinity Fabric)\n"
	"NCCL uses GPUDirect RDMA by default only up to PXB, so a rail NIC whose\n"
	"nearest GPU is PHB or worse moves its traffic through host memory.\n";

int cmd_topo(struct ctx *c, int argc, char **argv)
{
	struct pipeline pl;
	int rc = ctx_no_args(c, argc, argv, help);

	if (rc >= 0)
		return rc;
	rc = pipeline_view(c, "topo", &pl);
	if (rc == EXIT_OK) {
		if (c->json)
			rc = ctx_emit_json(c, topo_to_json(&pl.inv));
		else
			rc = ctx_emit_text(c, text_topo, &pl.inv);
	}
	pipeline_free(&pl);
	return rc;
}
