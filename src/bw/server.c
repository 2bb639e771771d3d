/* The server side of bw and lat (server.h). */
#include "server.h"
#include "door.h"
#include "../model/growbuf.h"

#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct bw_report_rail tcp_rail = { .numa_node = -1, .gpu = -1, .rate_gbps = NAN };

struct server {
	const struct bw_server_conf *cf;
	struct bw_opts *o;
	const struct bw_rail_set *rs;	/* the verbs rails, chosen at the first verbs test */
	bool verbs_tried;
	struct bw_session *ss;
	struct bw_door door;
	/* the tests of the current client: one report when it leaves */
	struct bw_hello first;
	struct bw_outcome *outs;
	size_t n_outs, cap_outs;
	size_t accepted;	/* HELLOs of this client that were accepted */
	double accept_said;	/* bw_now() of the last accept failure said */
};

/* the pause after an accept that failed for now (accept_again) */
#define ACCEPT_RETRY_MS 100

static int server_setup(void *arg, const struct bw_hello *h, struct bw_rails *r,
			struct bw_err *e)
{
	struct server *sv = arg;

	if (bw_opts_admit(sv->o, &h->p, e) < 0)
		return -1;
	if (h->p.transport == BW_TRANSPORT_TCP) {
		/* the data connections: on --bind's address, and on --device
		 * when it names a network interface (an RDMA device name is for
		 * verbs tests and does not apply) */
		const char *dev = sv->o->device && if_nametoindex(sv->o->device) ? sv->o->device
									       : NULL;

		bw_rails_fill(&tcp_rail, 1, sv->o->ib_port, sv->o->gid_index, h->p.transport,
			      h->n_rails, sv->ss->peer_addr, r);
		sv->accepted++;
		for (uint32_t i = 0; i < r->n; i++) {
			r->local[i].device = dev;
			r->local[i].bind_addr = sv->o->bind;
			r->local[i].max_run_ms =
				bw_params_run_bound_ms(&h->p, sv->o->caps.max_duration_ms);
		}
		return 0;
	}
	if (!sv->verbs_tried) {
		sv->verbs_tried = true;
		sv->rs = sv->cf->verbs_rails(sv->cf->arg);
	}
	if (!sv->rs || !sv->rs->n) {
		bw_errf(e, "this server cannot run the verbs transport on its RDMA devices "
			"(see its messages; --transport tcp needs none)");
		return -1;
	}
	if (h->n_rails > sv->rs->n && sv->rs->n > 1) {
		bw_errf(e, "the client asks for %u rails, this server has %u devices", h->n_rails,
			sv->rs->n);
		return -1;
	}
	bw_rails_fill(sv->rs->rail, sv->rs->n, sv->o->ib_port, sv->o->gid_index, h->p.transport,
		      h->n_rails, sv->ss->peer_addr, r);
	for (uint32_t i = 0; i < r->n; i++)
		r->local[i].max_run_ms = bw_params_run_bound_ms(&h->p, sv->o->caps.max_duration_ms);
	sv->accepted++;
	return 0;
}

/* Keep each test's outcome (taking it over) for the client's report. */
static void server_done(void *arg, const struct bw_hello *h, struct bw_outcome *o)
{
	struct server *sv = arg;
	struct bw_outcome *n = growbuf_reserve(sv->outs, &sv->cap_outs, sv->n_outs + 1, sizeof(*n));

	if (!n)
		return;	/* the report lacks this size; the test itself went well */
	sv->outs = n;
	if (!sv->n_outs)
		sv->first = *h;
	memcpy(&sv->outs[sv->n_outs++], o, sizeof(*o));
	memset(o, 0, sizeof(*o));
}

static void server_drop_outcomes(struct server *sv)
{
	for (size_t k = 0; k < sv->n_outs; k++)
		bw_outcome_free(&sv->outs[k]);
	free(sv->outs);
	sv->outs = NULL;
	sv->n_outs = sv->cap_outs = 0;
}

/* One report for everything the client ran, as the client prints it. */
static int server_report(struct server *sv, const char *error)
{
	struct bw_report rep;
	char host[BW_HOST_MAX + 1] = "";
	const struct bw_hello *h = &sv->first;
	bool verbs = h->p.transport == BW_TRANSPORT_VERBS;

	gethostname(host, sizeof(host) - 1);
	memset(&rep, 0, sizeof(rep));
	rep.is_server = true;
	rep.p = h->p;
	rep.local_host = host;
	rep.local_addr = sv->ss->local_addr;
	rep.remote_host = sv->ss->peer_host;
	rep.remote_addr = sv->ss->peer_addr;
	rep.n_rails = h->n_rails;
	for (uint32_t i = 0; i < h->n_rails; i++)
		rep.rails[i] = verbs ? sv->rs->rail[i % sv->rs->n] : tcp_rail;
	rep.outcomes = sv->outs;
	rep.n_outcomes = sv->n_outs;
	rep.error = error;
	rep.client_expect_gbps = h->expect_gbps;
	return sv->cf->report(sv->cf->arg, &rep);
}

/* One line per refusal, from the session or the doorman's thread. */
static void server_refused(void *arg, const char *peer, const char *why)
{
	struct server *sv = arg;

	fprintf(stderr, "%s %s: refused %s: %s\n", sv->cf->prog, sv->cf->cmd, peer, why);
}

static void server_busy(void *arg, double until)
{
	struct server *sv = arg;

	bw_door_busy_until(&sv->door, until);
}

/* After an accept that failed but leaves the listener fine: said at most
 * once a minute (a client that keeps failing, or a shortage that lasts,
 * cannot fill the log); after a shortage, a pause, so that it cannot spin
 * the server while the connection waits in the backlog. */
static void accept_again(struct server *sv, const char *why, bool shortage)
{
	const struct timespec pause = { 0, ACCEPT_RETRY_MS * 1000000L };
	double now = bw_now();

	if (now - sv->accept_said >= 60) {
		fprintf(stderr, "%s %s: %s (going on)\n", sv->cf->prog, sv->cf->cmd, why);
		sv->accept_said = now;
	}
	if (shortage)
		nanosleep(&pause, NULL);
}

int bw_server_run(const struct bw_server_conf *cf)
{
	struct bw_opts *o = cf->o;
	struct server sv = { .cf = cf, .o = o };
	struct bw_server_ops ops = { server_setup, server_done, &sv, server_refused, server_busy };
	struct bw_err e = { "" };
	int lfd, rc = 0;

	lfd = bw_listen(o->bind, o->port, 16, &e);
	if (lfd < 0) {
		fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		return -1;
	}
	sv.door = (struct bw_door){ .lfd = lfd, .allow = o->allow, .n_allow = o->n_allow,
				    .log = server_refused, .log_arg = &sv,
				    .handoff = { .fd = -1 } };
	if (!cf->quiet)
		fprintf(stderr, "%s %s: listening on port %u%s%s\n", cf->prog, cf->cmd, o->port,
			o->n_allow ? ", --allow" : "", o->token ? ", token required" : "");
	for (;;) {
		struct bw_session ss = { .fd = -1, .timeout_ms = (int)(o->timeout_s * 1000) };
		int tests;

		if (sv.door.handoff.fd >= 0) {
			ss = sv.door.handoff;	/* came as the last session ended */
			sv.door.handoff.fd = -1;
		} else if ((rc = bw_session_accept(lfd, &ss, -1, &e)) < 0) {
			if (rc == -BW_E_AGAIN || rc == -BW_E_SHORT) {
				/* the connection's trouble, or a shortage that
				 * passes: the server goes on */
				accept_again(&sv, e.msg, rc == -BW_E_SHORT);
				rc = 0;
				continue;
			}
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
			rc = -1;
			break;
		}
		/* a peer outside --allow: refused before a byte of it is read */
		if (!bw_door_allowed(&sv.door, ss.fd)) {
			server_refused(&sv, ss.peer_addr, "not allowed (--allow)");
			bw_door_refuse(ss.fd, "refused: this address is not in the server's "
				       "--allow list");
			continue;
		}
		ss.timeout_ms = (int)(o->timeout_s * 1000);
		ss.idle_ms = (int)(o->idle_s * 1000);
		ss.iters_wait_ms = (int)o->caps.max_duration_ms;
		ss.token = o->token;
		sv.ss = &ss;
		/* everyone else who comes meanwhile is answered at once */
		bw_door_busy_until(&sv.door, bw_now() + o->idle_s);
		if (bw_door_open(&sv.door, &e) < 0)
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		tests = bw_session_serve(&ss, &o->caps, &ops, &e);
		bw_door_shut(&sv.door);
		if (tests == -BW_E_REFUSED) {
			/* said and logged; close so that the client reads why */
			bw_door_close(ss.fd);
			ss.fd = -1;
		} else if (tests < 0) {
			fprintf(stderr, "%s %s: client %s: %s\n", cf->prog, cf->cmd, ss.peer_addr,
				e.msg);
		}
		/* what ran, even if a later size failed */
		rc = sv.n_outs ? server_report(&sv, tests < 0 ? e.msg : NULL) : 0;
		if (tests < 0)
			rc = -1;
		server_drop_outcomes(&sv);
		bw_session_close(&ss);
		/* --once: the first client that got a test (not a port probe,
		 * nor a refused request) */
		if (o->once && sv.accepted)
			break;
		sv.accepted = 0;
	}
	bw_session_close(&sv.door.handoff);	/* --once: one who came as it ended */
	close(lfd);
	return rc;
}
