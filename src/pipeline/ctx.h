/* The context every command runs in (struct ctx: the global options and
 * the first error said) and what every command does the same way with it:
 * open the root, read, report notes, write JSON or text, load a profile
 * (pipeline/ctx.c). */
#ifndef RD_PIPELINE_CTX_H
#define RD_PIPELINE_CTX_H

#include <stdbool.h>

#include <jansson.h>
#include <stdio.h>

#include "exit.h"
#include "../model/inventory.h"
#include "../print/check_out.h"
#include "../sysfs/root.h"

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

/* A window of samples for check --window (collect/counter_window.h): the
 * inventory's counters become the start; then either wait window_s seconds
 * and read them again from r (live), or read them from the root until (a
 * later snapshot).  Sets inv->window_s.  EXIT_OK or EXIT_RUNTIME (printed). */
int ctx_window(struct ctx *c, struct root *r, struct inventory *inv, double window_s,
	       const char *until);
/* The end of a window begun already on the root first, from the root
 * until, a snapshot taken duration seconds later (check --window --until,
 * watch --until); EXIT_USAGE (said) when until is of another host, boot or
 * card (pipeline/until_same.h). */
int ctx_window_until(struct ctx *c, struct root *first, struct inventory *inv,
		     const char *until, double duration);

#endif
