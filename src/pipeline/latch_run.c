/* The agent's memory around one reading (latch_run.h). */
#include "latch_run.h"
#include "../check/run.h"
#include "../model/kmsg_log.h"
#include "../state/latch_base.h"
#include "ctx.h"
#include "../model/window.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void latch_opts_init(struct latch_opts *o)
{
	memset(o, 0, sizeof(*o));
	latch_holds_default(&o->holds);
}

/* The counters whose baselines are kept: those the counter checks judge
 * over a window (the error ones, and the PHY's link-down count). */
static bool keep(const char *driver, const char *name, int set)
{
	return check_counter_is_error(driver, name, set) ||
	       (set == WIN_ETH && strcmp(name, "link_down_events_phy") == 0);
}

static uint64_t acked_of(const void *st, const char *id)
{
	return latch_state_acked(st, id);
}

/* A problem on stderr, unless it is the one said last. */
static void say(struct ctx *c, struct latch_opts *o, const char *verb, const char *what)
{
	if (strcmp(o->said, what) == 0)
		return;
	fprintf(stderr, "%s %s: %s\n", c->prog, verb, what);
	snprintf(o->said, sizeof(o->said), "%s", what);
}

int latch_run_begin(struct ctx *c, struct pipeline *pl, struct latch_opts *o,
		    struct latch_run *lr)
{
	char boot[BOOT_ID_LEN + 1];
	int rc;

	memset(lr, 0, sizeof(*lr));
	lr->o = o;
	lr->f.lock_fd = -1;
	if (!o->dir)
		return EXIT_OK;
	/* the site file's hold_* where --hold said nothing (the same order) */
	lr->holds = o->holds;
	for (int k = 0; k < LATCH_CLASSES && pl->has_site; k++)
		if (!o->hold_given[k] && pl->site.hold_given[k])
			lr->holds.s[k] = pl->site.hold_s[k];
	lr->now = (int64_t)time(NULL);
	rc = boot_id_read(&pl->r, boot);
	if (rc < 0)
		return ctx_fail(c, "%s %s: cannot read the boot id '%s%s%s' (%s): the memory "
				"in '%s' is kept per boot", c->prog, pl->verb, c->root_dir,
				c->root_dir[strlen(c->root_dir) - 1] == '/' ? "" : "/", BOOT_ID_PATH,
				rc == -EINVAL ? "not a boot id" : strerror(-rc), o->dir);
	rc = latch_file_open(o->dir, true, &lr->f, lr->problem, sizeof(lr->problem));
	if (rc == -ENOMEM) {
		latch_file_close(&lr->f);
		return ctx_fail(c, "%s: out of memory", c->prog);
	}
	lr->opened = true;
	if (lr->problem[0]) {
		char what[sizeof(lr->problem) + 64];

		snprintf(what, sizeof(what), "%s: %s", lr->problem,
			 rc < 0 ? "nothing is remembered in this reading"
				: "what it remembered is lost; a fresh memory is begun");
		say(c, o, pl->verb, what);
	}
	if (lr->f.st.boot[0] && strcmp(lr->f.st.boot, boot) != 0) {
		if (!c->quiet)
			fprintf(stderr, "%s %s: '%s' is of another boot (%s): forgotten, a fresh "
				"memory is begun for boot %s\n", c->prog, pl->verb, lr->f.path,
				lr->f.st.boot, boot);
		latch_state_free(&lr->f.st);
	}
	memcpy(lr->f.st.boot, boot, sizeof(boot));
	/* the kernel log's faults that `clear` acknowledged stay out of this
	 * reading, though the ring still holds them */
	lr->kmsg_newest = kmsg_log_newest(pl->inv.host.kmsg);
	kmsg_log_drop_acked(pl->inv.host.kmsg, acked_of, &lr->f.st);
	/* --window gave the ports a window already: it stands */
	if (latch_base_start(&pl->inv, &lr->f.st, lr->now) < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	return EXIT_OK;
}

int latch_run_end(struct ctx *c, struct pipeline *pl, struct latch_run *lr)
{
	struct latch_state *st = &lr->f.st;
	bool windowed = pl->inv.window_s > 0;
	const char *stage = "";
	int rc = 0;

	if (!lr->o->dir)
		return EXIT_OK;
	if (latch_record(st, &pl->findings, lr->now, &lr->holds, windowed) < 0)
		rc = -ENOMEM;
	latch_state_expire(st, lr->now);
	if (rc == 0)
		rc = latch_merge(st, &pl->findings);
	if (rc == 0 && lr->problem[0])
		rc = latch_unkept(&pl->findings, lr->f.path, lr->problem);
	if (rc == 0)
		rc = latch_base_take(st, &pl->inv, keep, lr->now);
	if (lr->kmsg_newest > st->kmsg_seen)
		st->kmsg_seen = lr->kmsg_newest;
	if (rc == 0 && lr->f.lock_fd >= 0) {
		int err = latch_file_save(&lr->f, &stage);

		if (err == -ENOMEM) {
			rc = err;
		} else if (err < 0) {
			char what[600];

			snprintf(what, sizeof(what), "cannot write it (%s: %s): the memory there is "
				 "kept as it was, and what this reading saw is not remembered", stage,
				 strerror(-err));
			rc = latch_unkept(&pl->findings, lr->f.path, what);
			snprintf(what, sizeof(what), "cannot write '%s' (%s: %s): the memory there is "
				 "kept as it was", lr->f.path, stage, strerror(-err));
			say(c, lr->o, pl->verb, what);
		} else if (!lr->problem[0]) {
			lr->o->said[0] = '\0';	/* all well: a problem that returns is said again */
		}
	}
	if (rc < 0)
		return ctx_fail(c, "%s: out of memory", c->prog);
	check_waive(&pl->findings, pl->has_site ? &pl->site : NULL);
	check_sort(&pl->findings);
	latch_file_close(&lr->f);
	lr->opened = false;
	return EXIT_OK;
}

void latch_run_free(struct latch_run *lr)
{
	if (lr->opened)
		latch_file_close(&lr->f);
	lr->opened = false;
}

int latch_pipeline_run(struct ctx *c, const char *verb, struct pipeline *pl,
		       const struct pipeline_option *option, struct latch_opts *o)
{
	struct latch_run lr = { .opened = false };
	int rc = pipeline_collect(c, verb, pl, false);

	if (rc == EXIT_OK)
		rc = pipeline_choose(c, pl, option);
	if (rc == EXIT_OK)
		rc = latch_run_begin(c, pl, o, &lr);
	if (rc == EXIT_OK)
		rc = pipeline_judge(c, pl, false);
	if (rc == EXIT_OK)
		rc = latch_run_end(c, pl, &lr);
	latch_run_free(&lr);
	return rc;
}
