/* A rank's fabric run, step by step (run.h). */
#include "run.h"
#include "exchange.h"
#include "pmix.h"
#include "retest.h"
#include "rounds.h"
#include "../profiles/profile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fab_run_open(struct fab_run *r)
{
	char err[256];

	if (fab_pmix_init(&r->rank, &r->size, err, sizeof(err)) < 0) {
		fprintf(r->cf->log, "%s fabric: %s\n", r->cf->prog, err);
		return -1;
	}
	r->pmix_up = true;
	r->t_start = bw_now();
	r->eps = calloc(r->size ? r->size : 1, sizeof(*r->eps));
	r->nodes = calloc(r->size ? r->size : 1, sizeof(*r->nodes));
	r->names = calloc(r->size ? r->size : 1, sizeof(*r->names));
	r->decoded = calloc(r->size ? r->size : 1, sizeof(*r->decoded));
	if (!r->eps || !r->nodes || !r->names || !r->decoded) {
		fab_say(r, "out of memory");
		return -1;
	}
	return 0;
}

void fab_run_side(struct fab_run *r, const struct profile *pr)
{
	struct fab_side *sd = &r->side;
	struct fab_conf *cf = r->cf;

	sd->prog = cf->prog;
	sd->lat = cf->lat;
	bw_params_defaults(&sd->lat_p, BW_MODE_LAT);
	sd->lat_p.transport = sd->transport;
	sd->lat_p.duration_ms = 300;
	sd->lat_p.warmup_ms = 50;
	if (cf->load && cf->traffic_class < 0) {
		/* the class whose DSCP the usual map puts on the profile's PFC
		 * priority P: DSCP 8P+2 (26 for 3, NVIDIA's RoCE default), ECT(0) */
		int prio = pr ? pr->role[ROLE_RAIL].pfc_priority : -1;

		cf->traffic_class = prio >= 0 ? ((8 * prio + 2) << 2) | 2 : 0;
		cf->tc_from = prio >= 0 ? "the profile's PFC priority" : "the device's default";
	}
	sd->traffic_class = (uint8_t)(cf->traffic_class > 0 ? cf->traffic_class : 0);
	sd->qp_timeout = (uint8_t)cf->qp_timeout;
	r->slot_s = (sd->p.warmup_ms + sd->p.duration_ms) / 1e3 + cf->guard_s +
		    (sd->lat ? (sd->lat_p.warmup_ms + sd->lat_p.duration_ms) / 1e3 + 0.1 : 0);
	/* a longer ACK timeout than perftest's: room for a last packet lost
	 * and sent again (the pair test's own bound, pair_test.c) */
	if (cf->qp_timeout > BW_QP_TIMEOUT_DEFAULT)
		r->slot_s += 4.096e-6 * (double)(1u << cf->qp_timeout);
}

int fab_run_schedule(struct fab_run *r)
{
	struct fab_conf *cf = r->cf;
	uint32_t *alive = malloc(r->size * sizeof(*alive)), n = 0;
	struct fab_schedule s = { 0 };
	int rc = -1;

	if (!alive)
		return -1;
	for (uint32_t i = 0; i < r->size; i++)
		if (r->nodes[i].state == FAB_NODE_OK)
			alive[n++] = i;
	if (cf->mode == FAB_MODE_PAIRS) {
		char err[200];

		/* the form was checked before the rendezvous; the names are
		 * the job's */
		rc = fab_schedule_parse(cf->pairs_text, cf->pairs_len,
					(const char *const *)r->names, r->size, &r->main_rounds,
					err, sizeof(err));
		if (rc < 0)
			snprintf(r->error_buf, sizeof(r->error_buf), "%s: %s", cf->pairs_file,
				 err);
		goto out;
	}
	if (cf->mode == FAB_MODE_DEFAULT)
		cf->mode = n > FAB_FULL_MAX_NODES ? FAB_MODE_QUICK : FAB_MODE_FULL;
	rc = cf->load == FAB_LOAD_INCAST ? fab_schedule_incast(n, cf->fan_in, &s) :
	     cf->load == FAB_LOAD_ALLTOALL ? fab_schedule_alltoall(n, &s) :
	     cf->mode == FAB_MODE_QUICK ? fab_schedule_quick(n, &s) : fab_schedule_full(n, &s);
	if (rc < 0)
		goto out;
	/* from indices among the live nodes to node indices (the connecting
	 * side stays first: incast's senders) */
	for (size_t k = 0; k < s.n_rounds; k++)
		for (size_t p = 0; p < s.rounds[k].n_pairs; p++)
			if (fab_schedule_add_directed(&r->main_rounds, k,
						      alive[s.rounds[k].pairs[p].a],
						      alive[s.rounds[k].pairs[p].b]) < 0)
				rc = -1;
	fab_schedule_free(&s);
out:
	if (rc < 0 && !r->error_buf[0])
		snprintf(r->error_buf, sizeof(r->error_buf), "out of memory");
	if (rc < 0)
		r->error = r->error_buf;
	free(alive);
	return rc;
}

/* Rank 0 has everybody's results: it says so, and the others, which wait
 * for that (so that their results stay with the launcher until fetched,
 * and a rank 0 that died is an error of theirs), end. */
static int finish(struct fab_run *r)
{
	char *text = NULL;
	int rc = fab_handout(r, FAB_KEY_DONE, r->rank == 0 ? strdup("1") : NULL, &text,
			     "word that it has the results");

	free(text);
	/* rank 0's report comes all the same */
	return r->rank == 0 ? 0 : rc;
}

enum fab_end fab_run_go(struct fab_run *r, const struct fab_machine *m)
{
	struct fab_conf *cf = r->cf;
	uint32_t n_main = (uint32_t)r->main_rounds.n_rounds;
	double t0;

	if (cf->load && fab_load_run_init(&r->lr, r->rank, r->size, r->eps, r->nodes, m,
					  r->side.transport) < 0) {
		fab_say(r, "out of memory");
		return FAB_END_BROKEN;
	}
	if (fab_agree_start(r, FAB_KEY_T0, &t0) < 0)
		return FAB_END_BROKEN;
	fab_run_rounds(r, &r->main_rounds, 0, false, t0);
	/* the counters go with the results' fence; rank 0 takes them after */
	if (cf->load && fab_publish(r, FAB_KEY_LOAD, fab_load_run_text(&r->lr)) < 0)
		return FAB_END_BROKEN;
	if (fab_exchange_results(r, FAB_KEY_RES1, n_main) < 0)
		return FAB_END_BROKEN;
	if (cf->load && r->rank == 0 &&
	    fab_load_run_gather(&r->lr, r->nodes, n_main, cf->prog) < 0) {
		fab_say(r, "out of memory");
		return FAB_END_BROKEN;
	}
	if (cf->retest && fab_retest(r) < 0) {
		if (r->rank != 0)
			return FAB_END_FAILED;
		snprintf(r->error_buf, sizeof(r->error_buf), "the retest could not run (see "
			 "rank messages); the first pass is reported");
		r->error = r->error_buf;
	}
	return finish(r) < 0 ? FAB_END_FAILED : FAB_END_DONE;
}

void fab_run_broken(struct fab_run *r)
{
	if (!r->error_buf[0])
		snprintf(r->error_buf, sizeof(r->error_buf), "the run could not finish");
	r->error = r->error_buf;
}

void fab_run_free(struct fab_run *r)
{
	if (r->lfd >= 0)
		close(r->lfd);
	for (size_t i = 0; i < r->n_mine; i++)
		free((char *)r->mine[i].error);
	free(r->mine);
	free(r->all);
	for (uint32_t i = 0; r->decoded && i < r->size; i++)
		fab_results_free(&r->decoded[i]);
	free(r->decoded);
	for (uint32_t i = 0; r->names && i < r->size; i++)
		free(r->names[i]);
	free(r->names);
	free(r->nodes);
	free(r->eps);
	fab_schedule_free(&r->main_rounds);
	fab_schedule_free(&r->retest_rounds);
	fab_load_run_free(&r->lr);
	if (r->pmix_up)
		fab_pmix_finalize();
}
