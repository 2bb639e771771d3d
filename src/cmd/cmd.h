/* The command layer: one file per verb, its option table, the pipeline
 * call and the printer call.  Exit codes and the context are
 * pipeline/exit.h and pipeline/ctx.h; the option tables opt/opts.h.
 *
 * Adding a command: write src/cmd/<verb>.c with cmd_<verb>() and its
 * option table (opt/opts.h says how), declare both here, and add a row to
 * the table in src/main.c. */
#ifndef RD_CMD_CMD_H
#define RD_CMD_CMD_H

#include <stdbool.h>

#include <jansson.h>
#include <stdio.h>

#include "../model/inventory.h"
#include "../opt/opts.h"
#include "../pipeline/ctx.h"
#include "../pipeline/exit.h"
#include "../print/check_out.h"
#include "../sysfs/root.h"

/* The option tables of the commands that declare one (opts.h). */
extern const struct cmd_spec check_spec, inventory_spec, gids_spec, topo_spec, snapshot_spec,
	profiles_spec, watch_spec, serve_spec, ethtool_stats_spec, fabric_spec,
	record_spec, fleet_spec;
extern const struct cmd_spec bw_spec, lat_spec;	/* cmd/bw_opts.c */

int cmd_inventory(struct ctx *c, int argc, char **argv);	/* cmd/view.c */
int cmd_gids(struct ctx *c, int argc, char **argv);	/* cmd/view.c */
int cmd_topo(struct ctx *c, int argc, char **argv);	/* cmd/view.c */
int cmd_snapshot(struct ctx *c, int argc, char **argv);
int cmd_profiles(struct ctx *c, int argc, char **argv);
int cmd_check(struct ctx *c, int argc, char **argv);
int cmd_watch(struct ctx *c, int argc, char **argv);
int cmd_ethtool_stats(struct ctx *c, int argc, char **argv);
int cmd_bw(struct ctx *c, int argc, char **argv);	/* cmd/bw.c */
int cmd_lat(struct ctx *c, int argc, char **argv);	/* cmd/bw.c */
int cmd_record(struct ctx *c, int argc, char **argv);
int cmd_fleet(struct ctx *c, int argc, char **argv);
int cmd_serve(struct ctx *c, int argc, char **argv);
int cmd_plan(struct ctx *c, int argc, char **argv);
extern const struct cmd_spec plan_spec;
int cmd_fabric(struct ctx *c, int argc, char **argv);	/* cmd/fabric.c */
int cmd_nccl(struct ctx *c, int argc, char **argv);	/* cmd/nccl.c */
extern const struct cmd_spec nccl_spec;
int cmd_labels(struct ctx *c, int argc, char **argv);	/* cmd/labels.c */
int cmd_clear(struct ctx *c, int argc, char **argv);	/* cmd/clear.c */
extern const struct cmd_spec clear_spec;
extern const struct cmd_spec labels_spec;

#endif
