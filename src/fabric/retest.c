/* A fabric run's retest (retest.h). */
#include "retest.h"
#include "exchange.h"
#include "rounds.h"
#include "../model/growbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The retest plan as rank 0 hands it out: the --pairs format, with the
 * report's names (unique, and without '#'), "" for none; malloc'd. */
static char *plan_text(const struct fab_run *r)
{
	struct {
		char *s;
		size_t len, cap;
	} t = { NULL, 0, 0 };

	for (size_t k = 0; k < r->retest_rounds.n_rounds; k++)
		for (size_t p = 0; p < r->retest_rounds.rounds[k].n_pairs; p++) {
			const struct fab_pair *x = &r->retest_rounds.rounds[k].pairs[p];
			size_t need = 2 * (FAB_NAME_MAX + 16) + 32;
			char *n = growbuf_reserve(t.s, &t.cap, t.len + need, 1);

			if (!n) {
				free(t.s);
				return NULL;
			}
			t.s = n;
			t.len += (size_t)snprintf(t.s + t.len, need, "%zu %s %s\n", k + 1,
						  r->names[x->a], r->names[x->b]);
		}
	return t.s ? t.s : strdup("");
}

/* Rank 0 plans the retest from everybody's results and publishes it with
 * its start; the others fetch both from rank 0. */
static int share_retest_plan(struct fab_run *r)
{
	char err[256], *text = NULL;
	int rc = 0;

	if (r->rank == 0) {
		struct fab_input in = { r->nodes, r->size, r->all, r->n_all, r->floor_gbps,
					r->cf->tolerance };

		if (fab_retest_plan(&in, r->cf->retest, &r->retest_rounds) < 0) {
			fab_say(r, "out of memory planning the retest");
			return -1;
		}
		return fab_handout(r, FAB_KEY_RETEST, plan_text(r), &text, "retest plan");
	}
	if (fab_handout(r, FAB_KEY_RETEST, NULL, &text, "retest plan") < 0)
		return -1;
	if (*text && fab_schedule_parse(text, strlen(text), (const char *const *)r->names,
					r->size, &r->retest_rounds, err, sizeof(err)) < 0) {
		char msg[320];

		snprintf(msg, sizeof(msg), "rank 0's retest plan is broken: %s", err);
		fab_say(r, msg);
		rc = -1;
	}
	free(text);
	return rc;
}

int fab_retest(struct fab_run *r)
{
	double t1;

	if (share_retest_plan(r) < 0)
		return -1;
	if (!r->retest_rounds.n_rounds)
		return 0;
	if (r->rank == 0 && !r->cf->quiet && r->cf->show_retest)
		r->cf->show_retest(r->cf->log, r->cf->prog, &r->retest_rounds, r->names);
	if (fab_agree_start(r, FAB_KEY_T1, &t1) < 0)
		return -1;
	fab_run_rounds(r, &r->retest_rounds, (uint32_t)r->main_rounds.n_rounds, true, t1);
	return fab_exchange_results(r, FAB_KEY_RES2,
				    (uint32_t)(r->main_rounds.n_rounds + r->retest_rounds.n_rounds));
}
