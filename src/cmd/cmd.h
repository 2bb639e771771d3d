/* The command layer: the only place that joins readers and consumers.
 *
 * Errors: a function of this layer returns an exit code (EXIT_*) once it
 * has said why on stderr, or CMD_GO_ON when it decided nothing and the
 * caller goes on (`if (rc != CMD_GO_ON) return rc;`).  The layers below
 * return negative errnos and never print; only this layer prints, once,
 * where it knows what the user asked for.
 *
 * Adding a command: write src/cmd/<verb>.c with cmd_<verb>() and its
 * option table (opts.h says how), declare both here, and add a row to
 * the table in src/main.c. */
#ifndef RD_CMD_CMD_H
#define RD_CMD_CMD_H

#include <stdbool.h>

#include <jansson.h>
#include <stdio.h>

#include "../model/inventory.h"
#include "../print/check_out.h"
#include "opts.h"
#include "../sysfs/root.h"

/* Exit codes, for every command (docs/exit-codes.md). */
enum {
	CMD_GO_ON = -1,		/* not an exit code: nothing decided yet */
	EXIT_OK = 0,		/* ran, nothing at error severity */
	EXIT_PROBLEMS = 1,	/* ran and found problems */
	EXIT_USAGE = 2,
	EXIT_RUNTIME = 3,	/* could not run */
};

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct ctx {
	const char *root_dir;	/* --root, default "/" */
	bool json;
	enum color_mode color;
	bool verbose, quiet;
	const char *prog;
	/* the first "could not run" message said on stderr, so that a --json
	 * document can still say why (ctx_fail); "" when none */
	char error[512];
};

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

/* A window of samples for check --window (collect/counter_window.h, said
 * here): the inventory's counters become the start; then either wait
 * window_s seconds and read them again from r (live), or read them from
 * the root until (a later snapshot).  Sets inv->window_s.  EXIT_OK or
 * EXIT_RUNTIME (printed). */
int ctx_window(struct ctx *c, struct root *r, struct inventory *inv, double window_s,
	       const char *until);
/* The end of a window begun already, from the root until, a snapshot taken
 * duration seconds later (check --window --until, watch --until). */
int ctx_window_until(struct ctx *c, struct inventory *inv, const char *until,
		     double duration);
/* A number of seconds in [min, max] ("0.5", "60"); false if not. */
bool ctx_parse_seconds(const char *s, double min, double max, double *out);

/* Open the root and read the inventory; prints the error itself.
 * Returns EXIT_OK or EXIT_RUNTIME.  record: keep a tape for snapshot. */
int ctx_collect(struct ctx *c, struct root *r, struct inventory *inv, bool record);
/* The -v notes: what could not be read and why. */
void ctx_print_notes(const struct ctx *c, const struct root *r);
/* Write a JSON document to stdout; EXIT_OK or EXIT_RUNTIME. */
int ctx_emit_json(struct ctx *c, json_t *doc);
/* Say why the command could not run: one line on stderr, and the first
 * one kept in c->error.  Returns EXIT_RUNTIME. */
int ctx_fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text for people goes to stdout through a filter of control characters:
 * open it (NULL after saying why), print, then close it, which says
 * whether everything reached stdout: EXIT_OK or EXIT_RUNTIME. */
FILE *ctx_open_text(struct ctx *c);
int ctx_close_text(struct ctx *c, FILE *out);
/* How text for people is written to stdout: colour (--color, NO_COLOR,
 * a terminal) and width; colour codes go to stdout itself (raw), past
 * the safe stream. */
struct text_opts ctx_text_opts(const struct ctx *c);
/* The three steps for a printer of the inventory. */
int ctx_emit_text(struct ctx *c, void (*print)(FILE *, const struct inventory *,
					       const struct text_opts *),
		  const struct inventory *inv);
/* --profile ARG of command verb: a built-in name, else a profile file
 * read into *loaded; a broken file stops everything (printed).  CMD_GO_ON and
 * *out set, or EXIT_USAGE / EXIT_RUNTIME. */
struct profile;
int ctx_load_profile(struct ctx *c, const char *verb, const char *arg, struct profile *loaded,
		     const struct profile **out);
/* Said once when the machine has no RDMA device. */
void ctx_hint_no_devices(const struct ctx *c);

#endif
