/* fabric --load: one load round of this rank (load_round.h).  A round
 * under load is many pair tests at once: in incast K senders into one
 * receiver, in alltoall every node with every other.  Each test is a
 * fabric pair test (fabric/pair_test.c: the pairing proof, the watchdog,
 * the bounded engines), each in its own thread, so that the flows run
 * side by side and congest the ports they share.  The receiving side lets
 * its partners in through the round's door (fabric/admit.c) one by
 * one as they prove themselves, and serves each in a thread of its own. */
#include "load_round.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct client {
	pthread_t t;
	bool started;
	const struct fab_side *s;
	const struct fab_peer *peer;
	struct fab_pair_key key;
	double deadline;
	struct fab_load_flow *flow;
};

static void *client_main(void *arg)
{
	struct client *c = arg;
	struct bw_err e = { "" };

	if (fab_test_client(c->s, c->peer->addr, c->peer->port, c->flow->n_rails, &c->key,
			    c->deadline, &c->flow->m, &e) < 0)
		snprintf(c->flow->error, sizeof(c->flow->error), "%s", e.msg[0] ? e.msg :
			 "the test failed");
	return NULL;
}

struct server {
	pthread_t t;
	bool started;
	const struct fab_side *s;
	struct bw_session ss;
	double deadline;
};

static void *server_main(void *arg)
{
	struct server *v = arg;
	struct bw_err e = { "" };

	/* the connecting side reports the flow; a failure here shows there */
	(void)fab_test_serve(v->s, &v->ss, v->deadline, &e);
	return NULL;
}

/* A partner the door let in: served in a thread of its own. */
static void serve_one(void *arg, size_t which, struct bw_session *ss)
{
	struct server *v = &((struct server *)arg)[which];

	v->ss = *ss;
	v->started = pthread_create(&v->t, NULL, server_main, v) == 0;
	if (!v->started)
		bw_session_close(&v->ss);
}

int fab_load_round(const struct fab_side *s, int lfd, const unsigned char *secret,
		   const struct fab_peer *peers, uint32_t self, const struct fab_round *rd,
		   uint32_t round, double deadline, struct fab_load_flow **flows,
		   size_t *n_flows)
{
	size_t n_out = 0, n_in = 0, k_out = 0, k_in = 0;
	struct client *cl;
	struct server *sv;
	struct fab_pair_key *keys;
	struct fab_load_flow *fl;

	*flows = NULL;
	*n_flows = 0;
	for (size_t i = 0; i < rd->n_pairs; i++) {
		n_out += rd->pairs[i].a == self;
		n_in += rd->pairs[i].b == self && peers[rd->pairs[i].a].ok;
	}
	cl = calloc(n_out ? n_out : 1, sizeof(*cl));
	fl = calloc(n_out ? n_out : 1, sizeof(*fl));
	sv = calloc(n_in ? n_in : 1, sizeof(*sv));
	keys = calloc(n_in ? n_in : 1, sizeof(*keys));
	if (!cl || !fl || !sv || !keys) {
		free(cl);
		free(fl);
		free(sv);
		free(keys);
		return -1;
	}
	for (size_t i = 0; i < rd->n_pairs; i++) {
		const struct fab_pair *p = &rd->pairs[i];

		if (p->b == self && peers[p->a].ok)
			keys[k_in++] = (struct fab_pair_key){ secret, { p->a, self, round } };
		if (p->a != self)
			continue;
		fl[k_out].peer = p->b;
		fl[k_out].n_rails = peers[p->b].n_rails < s->n_rails ? peers[p->b].n_rails :
				    s->n_rails;
		if (fl[k_out].n_rails == 0)
			fl[k_out].n_rails = 1;
		for (uint32_t r = 0; r < BW_RAILS_MAX; r++)
			fl[k_out].m.ab[r] = fl[k_out].m.ba[r] = NAN;
		fl[k_out].m.lat_usec = NAN;
		cl[k_out] = (struct client){
			.s = s, .peer = &peers[p->b],
			.key = { peers[p->b].secret, { self, p->b, round } },
			.deadline = deadline, .flow = &fl[k_out],
		};
		if (!peers[p->b].ok)
			snprintf(fl[k_out].error, sizeof(fl[k_out].error),
				 "the peer never answered the rendezvous");
		else
			cl[k_out].started = pthread_create(&cl[k_out].t, NULL, client_main,
							   &cl[k_out]) == 0;
		if (peers[p->b].ok && !cl[k_out].started)
			snprintf(fl[k_out].error, sizeof(fl[k_out].error),
				 "cannot start a thread for this flow");
		k_out++;
	}
	for (size_t i = 0; i < n_in; i++) {
		sv[i].s = s;
		sv[i].deadline = deadline;
	}
	if (n_in) {
		struct bw_err e = { "" };

		/* a sender that never came reports it; the door names strangers */
		(void)fab_admit_each(lfd, keys, n_in, s->prog, deadline, serve_one, sv, &e);
	}
	for (size_t i = 0; i < n_out; i++)
		if (cl[i].started)
			pthread_join(cl[i].t, NULL);
	for (size_t i = 0; i < n_in; i++)
		if (sv[i].started)
			pthread_join(sv[i].t, NULL);
	free(cl);
	free(sv);
	free(keys);
	*flows = fl;
	*n_flows = n_out;
	return 0;
}
