/* clear: forget what the agent remembers (docs/state.md).  Edits
 * DIR/latched under its lock, as `serve` and `check --state DIR` do, so
 * that a reading under way keeps no event that was cleared meanwhile. */
#include "cmd.h"
#include "../state/latch_file.h"
#include "../check/catalog.h"
#include "../print/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct clear_args {
	const char *dir;
	const char *subject;
};

static const struct cmd_opt clear_opts[] = {
	{ "state", 0, "DIR", OPT_STRING_AT(struct clear_args, dir), .flags = OPT_NONEMPTY,
	  .needs = "a directory",
	  .help = "the memory to edit (default " LATCH_DIR_DEFAULT ",\n"
		  "serve's; `check --state DIR`'s DIR)" },
	{ "subject", 0, "TEXT", OPT_STRING_AT(struct clear_args, subject),
	  .flags = OPT_NONEMPTY,
	  .help = "only the event on this subject, as the finding names\n"
		  "it ('mlx5_0 port 1')" },
	{ 0 }
};

const struct cmd_spec clear_spec = {
	.name = "clear",
	.opts = clear_opts,
	.operands = "ID|all",
	.min_operands = 1,
	.max_operands = 1,
	.about =
	"Forget what `serve` and `check --state DIR` remember: a port that went\n"
	"down and came back, a flap, error counters that grew, a kernel-log fault\n"
	"stay in the verdict until they expire or are cleared here, once fixed.\n"
	"ID is a check id (`rdmadoctor check --list`): every event of it, or with\n"
	"--subject the one on that subject; `all` forgets every event (the\n"
	"counter baselines of this boot are kept).  Says what it cleared.\n",
	.epilog =
	"Clearing a kernel-log fault (kmsg.*, or all) also acknowledges its lines,\n"
	"which the kernel log keeps until a reboot: the next readings leave them\n"
	"out, and only a line logged after them is a new fault.\n"
	"\n"
	"exit: 0 cleared (or `all` with nothing remembered), 1 nothing remembered\n"
	"under ID, 2 usage (an ID that is no check id), 3 the memory could not be\n"
	"read or written (it is then as it was).\n",
};

static void utc(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "%lld", (long long)t);
}

struct said {
	FILE *out;
	json_t *done;	/* JSON: the cleared events; NULL: text on out */
};

/* One event cleared, said on out (text) or put in done (JSON). */
static void say(const struct latch_event *e, void *arg)
{
	struct said *sd = arg;
	char first[40], last[40];

	if (sd->done) {
		json_array_append_new(sd->done, json_pack("{s:s, s:s, s:I, s:I, s:I}", "id",
			e->id, "subject", e->subject, "since", (json_int_t)e->first,
			"last_seen", (json_int_t)e->last, "count", (json_int_t)e->count));
		return;
	}
	utc(e->first, first, sizeof(first));
	utc(e->last, last, sizeof(last));
	fprintf(sd->out, "cleared %s on %s (seen %llu time%s, first %s, last %s)\n", e->id,
		e->subject, (unsigned long long)e->count, e->count == 1 ? "" : "s", first, last);
}

static int clear_file(struct ctx *c, const struct clear_args *a, const char *id)
{
	struct latch_file lf;
	char problem[700];
	const char *stage;
	json_t *done = c->json ? json_array() : NULL;
	size_t n;
	int rc = latch_file_open(a->dir, false, &lf, problem, sizeof(problem));

	if (rc == -ENOENT) {
		/* no directory: nothing was ever remembered there */
		rc = 0;
	} else if (rc < 0 || problem[0]) {
		rc = ctx_fail(c, "%s clear: %s", c->prog, rc == -ENOMEM ? "out of memory" : problem);
		latch_file_close(&lf);
		json_decref(done);
		return rc;
	}
	n = latch_state_clear(&lf.st, id, a->subject, say, &(struct said){ stdout, done });
	if (n && (rc = latch_file_save(&lf, &stage)) < 0) {
		ctx_fail(c, "%s clear: cannot write '%s' (%s: %s): it is as it was", c->prog,
			 lf.path, stage, strerror(-rc));
		latch_file_close(&lf);
		json_decref(done);
		return EXIT_RUNTIME;
	}
	rc = EXIT_OK;
	if (!n && strcmp(id, "all") != 0) {
		fprintf(stderr, "%s clear: nothing remembered under '%s'%s%s%s in '%s'\n", c->prog,
			id, a->subject ? " on '" : "", a->subject ? a->subject : "",
			a->subject ? "'" : "", a->dir);
		rc = EXIT_PROBLEMS;
	} else if (!n && !c->json && !c->quiet) {
		printf("nothing remembered in '%s'\n", a->dir);
	}
	if (done) {
		int out = ctx_emit_json(c, json_pack("{s:i, s:s, s:o}", "schema", 1, "state",
						     a->dir, "cleared", done));

		if (out != EXIT_OK)
			rc = out;
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		rc = ctx_fail(c, "%s: cannot write to standard output: %s", c->prog,
			      strerror(errno));
	}
	latch_file_close(&lf);
	return rc;
}

/* The check id closest to a mistyped one; NULL when none is close. */
static const char *nearest_id(const char *word)
{
	size_t n;
	const struct check_entry *rows = check_catalog(&n);
	const char **ids = calloc(n ? n : 1, sizeof(*ids));
	const char *near;

	if (!ids)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ids[i] = rows[i].id;
	near = opts_nearest(word, ids, n);
	free(ids);
	return near;
}

int cmd_clear(struct ctx *c, int argc, char **argv)
{
	struct clear_args a = { LATCH_DIR_DEFAULT, NULL };
	int n, rc = opts_parse(c, &clear_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (strcmp(argv[1], "all") != 0 && !check_catalog_find(argv[1])) {
		const char *near = nearest_id(argv[1]);

		fprintf(stderr, "%s clear: '%s' is no check id (`%s check --list` names them), "
			"nor `all`%s%s%s\n", c->prog, argv[1], c->prog,
			near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
		return EXIT_USAGE;
	}
	return clear_file(c, &a, argv[1]);
}
