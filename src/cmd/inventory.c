#include "cmd.h"
#include "pipeline.h"
#include "../out/json.h"
#include "../out/text.h"

#include <stdio.h>

static const char help[] =
	"usage: rdmadoctor [--root DIR] [--json] [-v] inventory\n"
	"\n"
	"Show what is here: every RDMA device with its model, firmware, ports\n"
	"(state, rate, MTU, netdev, GIDs, counters; on RoCE the QoS, transceiver,\n"
	"link modes and FEC, and for a RoCE LAG each bond member's), its PCIe\n"
	"link and every bridge above it; every NVIDIA GPU; and which GPU sits\n"
	"next to which NIC.\n"
	"\n"
	"Everything is read from the kernel's own files (/sys, /proc) plus the\n"
	"verbs port query for the active MTU, DCB and ethtool netlink for QoS,\n"
	"modules, link modes and FEC.  Values that cannot be read are\n"
	"shown as '?' (null in JSON); -v says why.\n"
	"\n"
	"  --json     one JSON document on stdout (stable keys: DESIGN.md section 4)\n"
	"  --root DIR read a captured machine (see `rdmadoctor snapshot`) instead of /\n"
	"\n"
	"examples:\n"
	"  rdmadoctor inventory\n"
	"  rdmadoctor --root examples/dgx-h100 inventory --json\n";

int cmd_inventory(struct ctx *c, int argc, char **argv)
{
	struct pipeline pl;
	int rc = ctx_no_args(c, argc, argv, help);

	if (rc >= 0)
		return rc;
	rc = pipeline_view(c, "inventory", &pl);
	if (rc == EXIT_OK) {
		if (!pl.inv.n_nics)
			ctx_hint_no_devices(c);
		if (c->json)
			rc = ctx_emit_json(c, inventory_to_json(&pl.inv));
		else
			rc = ctx_emit_text(c, text_inventory, &pl.inv);
	}
	pipeline_free(&pl);
	return rc;
}
