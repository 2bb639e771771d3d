/* One pair's test inside a fabric round (pair_test.h).  The round's
 * deadline is kept by a watchdog thread that shuts the control connection
 * down when it passes: every control step then fails at once, and each
 * transport's run() is bounded by bw_local.max_run_ms, so neither side
 * outlives its round for a peer that stalls, dies or never comes.  Before
 * the test the connecting rank proves the pairing secret
 * (fabric/pair_secret.h) to the listening rank's door (admit.c):
 * whoever connects first to a listener does not take the partner's
 * place. */
#include "pair_test.h"
#include "../bw/rails.h"
#include "../bw/stats.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ---- the watchdog ---- */

struct watchdog {
	pthread_t t;
	pthread_mutex_t m;
	pthread_cond_t cv;
	int fd;
	double deadline;
	bool stop, started;
};

static void *watch(void *arg)
{
	struct watchdog *w = arg;

	pthread_mutex_lock(&w->m);
	while (!w->stop) {
		double now = bw_now();
		struct timespec ts;

		if (now >= w->deadline) {
			shutdown(w->fd, SHUT_RDWR);
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (time_t)(w->deadline - now);
		ts.tv_nsec += (long)(((w->deadline - now) - (double)(time_t)(w->deadline - now)) * 1e9);
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&w->cv, &w->m, &ts);
	}
	pthread_mutex_unlock(&w->m);
	return NULL;
}

static void watchdog_start(struct watchdog *w, int fd, double deadline)
{
	pthread_condattr_t ca;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->deadline = deadline;
	pthread_mutex_init(&w->m, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	/* without the thread the control timeouts still bound each step */
	w->started = pthread_create(&w->t, NULL, watch, w) == 0;
}

static void watchdog_stop(struct watchdog *w)
{
	if (w->started) {
		pthread_mutex_lock(&w->m);
		w->stop = true;
		pthread_cond_signal(&w->cv);
		pthread_mutex_unlock(&w->m);
		pthread_join(w->t, NULL);
	}
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->m);
}

/* ms left to the deadline, at least 1 and at most cap */
static int left_ms(double deadline, int cap)
{
	double ms = (deadline - bw_now()) * 1e3;

	return ms < 1 ? 1 : ms > cap ? cap : (int)ms;
}

static void fill_rails(const struct fab_side *s, uint32_t n_rails, const char *peer,
		       const struct bw_params *p, struct bw_rails *r)
{
	bw_rails_fill(s->rails, s->n_rails, s->ib_port, s->gid_index, s->transport, n_rails, peer, r);
	for (uint32_t i = 0; i < r->n; i++) {
		/* the round's own bound: its window, half a second to drain, and
		 * an ACK timeout, for a last packet lost and sent again */
		r->local[i].max_run_ms = p->warmup_ms + p->duration_ms + 500 +
					 (uint32_t)(4.096e-3 * (double)(1u << (s->qp_timeout ?
					 s->qp_timeout : BW_QP_TIMEOUT_DEFAULT)));
		if (s->transport == BW_TRANSPORT_TCP)
			r->local[i].bind_addr = s->bind;
		r->local[i].traffic_class = s->traffic_class;
		r->local[i].qp_timeout = s->qp_timeout;
	}
}

void fab_caps_fit(struct bw_caps *c, const struct bw_params *p)
{
	if (p->size > c->max_size)
		c->max_size = p->size;
	if ((uint64_t)p->warmup_ms + p->duration_ms > c->max_duration_ms)
		c->max_duration_ms = p->warmup_ms + p->duration_ms;
	if (bw_params_memory(p, BW_RAILS_MAX) > c->max_memory)
		c->max_memory = bw_params_memory(p, BW_RAILS_MAX);
}

/* ---- client ---- */

/* Prove k to the listener on fd, and check its answer: it knew the
 * secret too, so it is the rank it published itself as. */
static int client_prove(int fd, const struct fab_pair_key *k, double deadline, struct bw_err *e)
{
	unsigned char nonce[FAB_NONCE_LEN], proof[FAB_PROOF_LEN], ack[FAB_ACK_LEN];

	if (fab_nonce_new(nonce) < 0) {
		bw_errf(e, "cannot read random bytes for the pairing proof: %s", strerror(errno));
		return -1;
	}
	fab_proof_make(k->secret, nonce, &k->id, proof);
	if (bw_write_all(fd, proof, sizeof(proof), deadline, e) < 0 ||
	    bw_read_all(fd, ack, sizeof(ack), deadline, "the answer to this rank's proof", e) < 0)
		return -1;
	if (!fab_ack_check(k->secret, nonce, &k->id, ack)) {
		bw_errf(e, "the peer's port does not know the peer's secret (not the rank "
			"it published?)");
		return -1;
	}
	return 0;
}

/* A side that measured (its window ran) and moved nothing moved 0 Gb/s:
 * a starved flow is a figure, not a missing one. */
static double gbps(const struct bw_result *r)
{
	return r->seconds > 0 ? bw_gbps_of(r->bytes, r->seconds) : NAN;
}

int fab_test_client(const struct fab_side *s, const char *addr, uint16_t port, uint32_t n_rails,
		    const struct fab_pair_key *k, double deadline, struct fab_measure *m,
		    struct bw_err *e)
{
	struct bw_session ss = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails rails;
	struct bw_outcome o;
	struct watchdog w;
	int rc = -1;

	for (uint32_t i = 0; i < BW_RAILS_MAX; i++)
		m->ab[i] = m->ba[i] = NAN;
	m->lat_usec = NAN;
	ss.source_addr = s->bind;
	if (bw_session_connect(&ss, addr, port, left_ms(deadline, 5000), e) < 0)
		return -1;
	ss.timeout_ms = left_ms(deadline, 5000);
	watchdog_start(&w, ss.fd, deadline);
	if (client_prove(ss.fd, k, deadline, e) < 0 || bw_session_auth(&ss, e) < 0)
		goto out;
	memset(&h, 0, sizeof(h));
	h.p = s->p;
	h.n_rails = n_rails;
	gethostname(h.host, sizeof(h.host) - 1);
	fill_rails(s, n_rails, ss.peer_addr, &h.p, &rails);
	if (bw_session_test(&ss, &h, &rails, &o, e) < 0)
		goto out;
	for (uint32_t i = 0; i < n_rails; i++) {
		/* both ways: each side's own sending; one way: whoever counted */
		if (h.p.bidir) {
			m->ab[i] = gbps(&o.local[i]);
			m->ba[i] = gbps(&o.remote[i]);
		} else {
			m->ab[i] = o.local[i].seconds > 0 ? gbps(&o.local[i]) : gbps(&o.remote[i]);
		}
	}
	bw_outcome_free(&o);
	if (s->lat) {
		struct bw_lat_stats ls;

		h.p = s->lat_p;
		h.n_rails = 1;
		fill_rails(s, 1, ss.peer_addr, &h.p, &rails);
		if (bw_session_test(&ss, &h, &rails, &o, e) < 0)
			goto out;
		if (bw_lat_stats(o.local[0].lat_usec, o.local[0].n_lat, &ls) == 0)
			m->lat_usec = ls.p50;
		bw_outcome_free(&o);
	}
	bw_session_bye(&ss);
	rc = 0;
out:
	watchdog_stop(&w);
	if (rc < 0 && bw_now() >= deadline) {
		char why[sizeof(e->msg)];

		snprintf(why, sizeof(why), "%s", e->msg);
		bw_errf(e, "the round ended before the test did (%.150s)", why);
	}
	bw_session_close(&ss);
	return rc;
}

/* ---- server ---- */

struct serve_arg {
	const struct fab_side *s;
	const char *peer;
};

static int serve_setup(void *arg, const struct bw_hello *h, struct bw_rails *r, struct bw_err *e)
{
	struct serve_arg *a = arg;

	if (h->p.transport != a->s->transport) {
		bw_errf(e, "this rank runs the %s transport", bw_transport_name(a->s->transport));
		return -1;
	}
	fill_rails(a->s, h->n_rails, a->peer, &h->p, r);
	return 0;
}

static void serve_done(void *arg, const struct bw_hello *h, struct bw_outcome *o)
{
	/* the client reports the pair; the server keeps nothing */
	(void)arg;
	(void)h;
	(void)o;
}

int fab_test_server(const struct fab_side *s, int lfd, const struct fab_pair_key *k,
		    double deadline, struct bw_err *e)
{
	struct bw_session ss = { .fd = -1 };

	if (fab_admit(lfd, k, s->prog, deadline, &ss, e) < 0)
		return -1;
	return fab_test_serve(s, &ss, deadline, e);
}

int fab_test_serve(const struct fab_side *s, struct bw_session *in, double deadline,
		   struct bw_err *e)
{
	struct bw_session ss = *in;
	struct serve_arg a = { s, NULL };
	struct bw_server_ops ops = { serve_setup, serve_done, &a, NULL, NULL };
	struct watchdog w;
	int tests;

	a.peer = ss.peer_addr;
	ss.timeout_ms = left_ms(deadline, 5000);
	ss.iters_wait_ms = ss.timeout_ms;
	watchdog_start(&w, ss.fd, deadline);
	tests = bw_session_serve(&ss, s->caps, &ops, e);
	watchdog_stop(&w);
	bw_session_close(&ss);
	return tests < 0 ? -1 : 0;
}
