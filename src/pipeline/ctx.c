/* What every command does the same way: open the root, read, report notes,
 * write JSON or text, load a profile. */
#include "ctx.h"
#include "../print/check_out.h"
#include "../print/json.h"
#include "../print/safe_stream.h"
#include "../model/affinity.h"
#include "../profiles/profile.h"
#include "../profiles/site.h"
#include "../collect/collect.h"
#include "../collect/counter_window.h"
#include "../state/einval_file.h"
#include "until_same.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The site file's exclude = goes to the readers before anything is read:
 * a device not to touch must not be touched even once.  A site file that
 * cannot be read or parsed gives none here; the pipeline that reads it
 * next says why (and a judging command stops).  0 or -ENOMEM. */
static int site_exclusions(struct root *r)
{
	struct profile_error err;
	struct site site;
	char *text = NULL;
	int rc = root_read(r, SITE_FILE, &text);

	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		return 0;
	rc = site_parse(text, strlen(text), SITE_FILE, &site, &err);
	free(text);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		root_note(r, SITE_FILE, "not applied (line %d: %s): no device excluded", err.line,
			  err.message);
		return 0;
	}
	root_exclude(r, &site.exclude);
	site_free(&site);
	return 0;
}

int ctx_collect(struct ctx *c, struct root *r, struct inventory *inv, bool record)
{
	int rc = root_open(r, c->root_dir);

	memset(inv, 0, sizeof(*inv));
	if (rc < 0)
		return ctx_fail(c, "%s: cannot open root '%s': %s", c->prog, c->root_dir,
				strerror(-rc));
	/* the live system's EINVAL memo (state/einval_file.h) */
	(void)einval_file_load(r, NULL, false);
	if (record && root_record(r) < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	if (site_exclusions(r) < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	rc = inventory_collect(r, inv);
	root_memo_save(r);
	if (rc == 0)
		rc = affinity_compute(inv);
	ctx_print_notes(c, r);
	if (rc < 0)
		return ctx_fail(c, "%s: cannot read the inventory under '%s': %s", c->prog,
				c->root_dir, strerror(-rc));
	return EXIT_OK;
}

void ctx_print_notes(const struct ctx *c, const struct root *r)
{
	FILE *err;

	if (!c->verbose || !r->n_notes)
		return;
	/* notes quote file contents: filter them like any text output */
	err = safe_stream(stderr);
	if (!err)
		return;
	for (size_t i = 0; i < r->n_notes; i++)
		fprintf(err, "%s: note: %s: %s\n", c->prog, r->notes[i].path,
			r->notes[i].what);
	fclose(err);
}

FILE *ctx_open_text(struct ctx *c)
{
	FILE *out = safe_stream(stdout);

	if (!out)
		fprintf(stderr, "%s: out of memory\n", c->prog);
	return out;
}

int ctx_close_text(struct ctx *c, FILE *out)
{
	int rc = 0;

	if (ferror(out) || fclose(out) != 0 || fflush(stdout) != 0 || ferror(stdout))
		rc = errno ? errno : EIO;
	if (rc) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
			strerror(rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* --color always or never as given.  auto colours a terminal, unless
 * NO_COLOR is set to anything but "" (https://no-color.org); an explicit
 * --color=always still colours, as that page asks of a command-line
 * flag. */
static bool want_color(const struct ctx *c)
{
	const char *no = getenv("NO_COLOR");

	if (c->color != COLOR_AUTO)
		return c->color == COLOR_ALWAYS;
	return !(no && *no) && isatty(STDOUT_FILENO);
}

/* Text wraps to the terminal; 80 columns when not a terminal. */
static size_t text_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

struct text_opts ctx_text_opts(const struct ctx *c)
{
	return (struct text_opts){ .color = want_color(c), .width = text_width(),
				   .raw = stdout };
}

int ctx_emit_text(struct ctx *c, void (*print)(FILE *, const struct inventory *,
					       const struct text_opts *),
		  const struct inventory *inv)
{
	struct text_opts o = ctx_text_opts(c);
	FILE *out = ctx_open_text(c);

	if (!out)
		return EXIT_RUNTIME;
	print(out, inv, &o);
	return ctx_close_text(c, out);
}

int ctx_fail(struct ctx *c, const char *fmt, ...)
{
	char what[sizeof(c->error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", what);
	if (!c->error[0])
		memcpy(c->error, what, sizeof(what));
	return EXIT_RUNTIME;
}

int ctx_emit_json(struct ctx *c, json_t *doc)
{
	int rc = json_write(stdout, doc);

	json_decref(doc);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot write JSON to standard output: %s\n", c->prog,
			strerror(-rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

void ctx_hint_no_devices(const struct ctx *c)
{
	if (c->quiet)
		return;
	fprintf(stderr,
		"%s: no RDMA devices under '%s%ssys/class/infiniband' (no RDMA NIC, or its driver\n"
		"  (mlx5_ib, bnxt_re, irdma, rdma_rxe...) is not loaded).\n"
		"  To see what rdmadoctor shows on a GPU machine, try a bundled example:\n"
		"    %s --root examples/dgx-h100 check\n",
		c->prog, c->root_dir, c->root_dir[strlen(c->root_dir) - 1] == '/' ? "" : "/",
		c->prog);
}

int ctx_load_profile(struct ctx *c, const char *verb, const char *arg, struct profile *loaded,
		     const struct profile **out)
{
	struct profile_error err;
	int rc;

	*out = profile_builtin(arg);
	if (*out)
		return CMD_GO_ON;
	if (access(arg, F_OK) != 0) {
		const char *near = profile_builtin_nearest(arg);

		fprintf(stderr, "%s %s: no built-in profile '%s' and no such file%s%s%s "
			"(`%s profiles` lists them)\n", c->prog, verb, arg,
			near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "", c->prog);
		return EXIT_USAGE;
	}
	memset(&err, 0, sizeof(err));
	rc = profile_load_file(arg, loaded, &err);
	if (rc < 0) {
		if (err.line)
			fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
		else
			fprintf(stderr, "%s: %s\n", err.file[0] ? err.file : arg,
				err.message[0] ? err.message : strerror(-rc));
		return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	}
	*out = loaded;
	return CMD_GO_ON;
}

int ctx_window_until(struct ctx *c, struct root *first, struct inventory *inv,
		     const char *until, double duration)
{
	struct root later;
	struct ctx lc = *c;
	char why[400];
	int rc = root_open(&later, until);

	if (rc < 0) {
		fprintf(stderr, "%s: cannot open root '%s': %s\n", c->prog, until,
			strerror(-rc));
		return EXIT_RUNTIME;
	}
	rc = until_same(first, inv, &later, why, sizeof(why));
	if (rc != 0) {
		root_close(&later);
		if (rc < 0)
			return ctx_fail(c, "%s: out of memory", c->prog);
		fprintf(stderr, "%s: '%s' is not a later reading of '%s': %s; a window's two "
			"readings must be of one machine in one boot\n", c->prog, until,
			c->root_dir, why);
		return EXIT_USAGE;
	}
	(void)einval_file_load(&later, NULL, false);
	rc = counter_window_until(&later, inv, duration);
	lc.root_dir = until;
	ctx_print_notes(&lc, &later);
	root_close(&later);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot read the counters under '%s': %s\n", c->prog, until,
			strerror(-rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int ctx_window(struct ctx *c, struct root *r, struct inventory *inv, double window_s,
	       const char *until)
{
	struct counter_window w = { .interval = window_s, .duration = window_s };
	int rc;

	if (counter_window_begin(inv) < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	if (until)
		return ctx_window_until(c, r, inv, until, window_s);
	rc = counter_window_run(r, inv, &w);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot read the counters under '%s': %s\n", c->prog,
			c->root_dir, strerror(-rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
