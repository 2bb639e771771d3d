#include "cmd.h"
#include "../out/json.h"
#include "../out/text.h"

#include <stdio.h>

static const char help[] =
	"usage: rdmadoctor [--root DIR] [--json] gids\n"
	"\n"
	"The GID table of every RDMA port, as show_gids prints it (device, port,\n"
	"index, GID, IPv4, RoCE version, netdev), and for every RoCE port the\n"
	"recommended GID index: the first RoCE v2 entry with an IPv4 address.\n"
	"That is the value for NCCL_IB_GID_INDEX and perftest's -x.\n"
	"Unused (all-zero) entries are left out.\n";

int cmd_gids(struct ctx *c, int argc, char **argv)
{
	struct inventory inv;
	struct root r;
	int rc = ctx_no_args(c, argc, argv, help);

	if (rc >= 0)
		return rc;
	rc = ctx_collect(c, &r, &inv, false);
	if (rc == EXIT_OK) {
		if (!inv.n_nics)
			ctx_hint_no_devices(c);
		if (c->json)
			rc = ctx_emit_json(c, gids_to_json(&inv));
		else
			rc = ctx_emit_text(c, text_gids, &inv);
	}
	inventory_free(&inv);
	root_close(&r);
	return rc;
}
