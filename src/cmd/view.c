/* inventory, gids and topo: one view command, three views of the same
 * inventory.  Each reads the machine the same way and prints one view of
 * it as text or JSON; only the printers differ. */
#include "cmd.h"
#include "../pipeline/pipeline.h"
#include "../print/json.h"
#include "../print/text.h"

#include <stdio.h>

struct view {
	json_t *(*to_json)(const struct inventory *inv);
	void (*to_text)(FILE *out, const struct inventory *inv, const struct text_opts *o);
	bool hint_no_devices;	/* say so when there is no RDMA device */
	bool npu_note;		/* with --json, say where an NPU machine's ports are */
};

/* The JSON of gids and topo has no NPU ports: its empty lists are true of
 * verbs, and stderr says where the NPUs' network is (the text says it on
 * stdout, print/text_npu_ports.c). */
static void note_npu_ports(const struct ctx *c, const char *verb)
{
	if (!c->quiet)
		fprintf(stderr, "%s %s: no RDMA verbs devices; the NPU RoCE ports are managed by "
			"hccn_tool: see `%s inventory`\n", c->prog, verb, c->prog);
}

static int run_view(struct ctx *c, const struct cmd_spec *spec, const struct view *v,
		    int argc, char **argv)
{
	struct pipeline pl;
	int n, rc = opts_parse(c, spec, argc, argv, NULL, &n);

	if (rc != CMD_GO_ON)
		return rc;
	/* read as check reads, so each NIC's role is the one check judges */
	rc = pipeline_view(c, spec->name, &pl);
	if (rc == EXIT_OK) {
		if (!inventory_has_network(&pl.inv) && v->hint_no_devices)
			ctx_hint_no_devices(c);
		if (c->json && v->npu_note && text_npu_only(&pl.inv))
			note_npu_ports(c, spec->name);
		if (c->json)
			rc = ctx_emit_json(c, v->to_json(&pl.inv));
		else
			rc = ctx_emit_text(c, v->to_text, &pl.inv);
	}
	pipeline_free(&pl);
	return rc;
}

const struct cmd_spec inventory_spec = {
	.name = "inventory",
	.about =
	"Show what is here: every RDMA device with its model, firmware, ports\n"
	"(state, rate, MTU, netdev, GIDs, counters; on RoCE the QoS, transceiver,\n"
	"link modes and FEC, and for a RoCE LAG each bond member's), its PCIe\n"
	"link and every bridge above it; every NVIDIA GPU; and which GPU sits\n"
	"next to which NIC.\n"
	"\n"
	"Everything is read from the kernel's own files (/sys, /proc) plus the\n"
	"verbs port query for the active MTU, DCB and ethtool netlink for QoS,\n"
	"modules, link modes and FEC.  Values that cannot be read are\n"
	"shown as '?' (null in JSON); -v says why.  The JSON keys are listed in\n"
	"docs/json/inventory.md.\n",
	.epilog =
	"examples:\n"
	"  rdmadoctor inventory\n"
	"  rdmadoctor --root examples/dgx-h100 inventory --json\n",
};

const struct cmd_spec gids_spec = {
	.name = "gids",
	.about =
	"The GID table of every RDMA port, as show_gids prints it (device, port,\n"
	"index, GID, IPv4, RoCE version, netdev), and for every RoCE port the\n"
	"recommended GID index: the first RoCE v2 entry with an IPv4 address.\n"
	"That is the value for NCCL_IB_GID_INDEX and perftest's -x.\n"
	"Unused (all-zero) entries are left out.\n",
};

const struct cmd_spec topo_spec = {
	.name = "topo",
	.about =
	"The GPU x NIC matrix that `nvidia-smi topo -m` prints, computed from the\n"
	"PCI tree in sysfs (no NVIDIA driver needed):\n"
	"  PIX   at most one PCIe bridge between them (same switch)\n"
	"  PXB   several bridges, no host bridge\n"
	"  PHB   through a PCIe host bridge (the CPU)\n"
	"  NODE  between host bridges of one NUMA node\n"
	"  SYS   across NUMA nodes (UPI / Infinity Fabric)\n"
	"NCCL uses GPUDirect RDMA by default only up to PXB, so a rail NIC whose\n"
	"nearest GPU is PHB or worse moves its traffic through host memory.\n",
};

int cmd_inventory(struct ctx *c, int argc, char **argv)
{
	static const struct view v = { inventory_to_json, text_inventory, true, false };

	return run_view(c, &inventory_spec, &v, argc, argv);
}

int cmd_gids(struct ctx *c, int argc, char **argv)
{
	static const struct view v = { gids_to_json, text_gids, true, true };

	return run_view(c, &gids_spec, &v, argc, argv);
}

int cmd_topo(struct ctx *c, int argc, char **argv)
{
	static const struct view v = { topo_to_json, text_topo, false, true };

	return run_view(c, &topo_spec, &v, argc, argv);
}
