/* A fabric run's rounds (rounds.h). */
#include "rounds.h"
#include "timing.h"
#include "../model/growbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sleep until a wall-clock time. */
static void sleep_until(double t)
{
	for (;;) {
		double d = t - fab_now_real();
		struct timespec ts;

		if (d <= 0)
			return;
		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

static int record(struct fab_run *r, const struct fab_result *x)
{
	struct fab_result *n = growbuf_reserve(r->mine, &r->cap_mine, r->n_mine + 1, sizeof(*n));

	if (!n)
		return -1;
	r->mine = n;
	r->mine[r->n_mine++] = *x;
	return 0;
}

/* The connecting side of the pair with peer: its test, a result per rail. */
static void run_client(struct fab_run *r, uint32_t peer, uint32_t round, bool retest,
		       double deadline)
{
	const struct fab_endpoint *pe = &r->eps[peer];
	struct bw_err e = { "" };
	struct fab_measure m = { .lat_usec = NAN };
	struct fab_pair_key key = { pe->secret, { r->rank, peer, round } };
	uint32_t n = r->nodes[peer].n_rails < r->side.n_rails ?
		r->nodes[peer].n_rails : r->side.n_rails;
	int rc = -1;
	const char *err = NULL;

	if (n == 0)
		n = 1;
	if (r->nodes[peer].state == FAB_NODE_OK)
		rc = fab_test_client(&r->side, pe->addr, pe->port, n, &key, deadline, &m, &e);
	else
		bw_errf(&e, "the peer never answered the rendezvous");
	if (rc < 0)
		err = e.msg;
	for (uint32_t k = 0; k < n; k++) {
		const char *why = err ? err : (!isfinite(m.ab[k]) ?
					       "no figures for this rail" : NULL);
		struct fab_result x = {
			.a = r->rank, .b = peer, .rail = k, .round = round,
			.retest = retest, .ab = rc < 0 ? NAN : m.ab[k],
			.ba = rc < 0 ? NAN : m.ba[k],
			.lat_usec = rc < 0 ? NAN : m.lat_usec,
			/* every text here is this rank's own copy */
			.error = why ? fab_wire_error(why) : NULL,
		};

		if (record(r, &x) < 0) {
			free((char *)x.error);
			fab_say(r, "out of memory: a result is lost");
		}
	}
	if (r->cf->verbose && rc < 0)
		fab_say(r, e.msg);
}

static void run_round(struct fab_run *r, const struct fab_round *rd, uint32_t round, bool retest,
		      double start)
{
	double deadline;

	sleep_until(start);
	/* the slot's end in wall-clock time, whenever this rank got here */
	deadline = bw_now() + (start + r->slot_s - 0.05 - fab_now_real());
	if (r->cf->load) {
		char why[200];

		if (fab_load_run_round(&r->lr, &r->side, r->lfd, r->secret, rd, round, deadline,
				       &r->mine, &r->n_mine, &r->cap_mine, why, sizeof(why)) < 0)
			fab_say(r, why);
		return;
	}
	for (size_t i = 0; i < rd->n_pairs; i++) {
		const struct fab_pair *p = &rd->pairs[i];
		uint32_t peer = p->a == r->rank ? p->b : p->a;
		struct bw_err e = { "" };

		if (p->a != r->rank && p->b != r->rank)
			continue;
		if (p->b == r->rank) {
			/* the lower node connects and proves this rank's secret */
			struct fab_pair_key key = { r->secret, { peer, r->rank, round } };

			if (r->nodes[peer].state == FAB_NODE_OK &&
			    fab_test_server(&r->side, r->lfd, &key, deadline, &e) < 0 &&
			    r->cf->verbose)
				fab_say(r, e.msg);
			return;
		}
		run_client(r, peer, round, retest, deadline);
		return;
	}
}

void fab_run_rounds(struct fab_run *r, const struct fab_schedule *s, uint32_t first,
		    bool retest, double t)
{
	for (size_t k = 0; k < s->n_rounds; k++) {
		run_round(r, &s->rounds[k], first + (uint32_t)k, retest, t + (double)k * r->slot_s);
		if (r->rank == 0 && !r->cf->quiet && r->cf->show_round)
			r->cf->show_round(r->cf->log, r->cf->prog, retest, k, s, r->slot_s);
	}
}
