/* The server side of bw and lat (server.h). */
#include "server.h"
#include "door.h"
#include "lobby.h"
#include "../model/growbuf.h"

#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct bw_report_rail tcp_rail = { .numa_node = -1, .gpu = -1, .rate_gbps = NAN };

struct server {
	const struct bw_server_conf *cf;
	struct bw_opts *o;
	const struct bw_rail_set *rs;	/* the verbs rails, chosen at the first verbs test */
	bool verbs_tried;
	struct bw_session *ss;
	struct bw_lobby lobby;		/* the door (lobby.h) */
	struct bw_door door;		/* its doorman while a client runs */
	/* the tests of the current client: one report when it leaves */
	struct bw_hello first;
	struct bw_outcome *outs;
	size_t n_outs, cap_outs;
	size_t accepted;	/* HELLOs of this client that were accepted */
};

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

/* One line per refusal, from the session or the door (lobby.h; peer NULL:
 * the door's own trouble, which it goes on after). */
static void server_refused(void *arg, const char *peer, const char *why)
{
	struct server *sv = arg;

	if (peer)
		fprintf(stderr, "%s %s: refused %s: %s\n", sv->cf->prog, sv->cf->cmd, peer, why);
	else
		fprintf(stderr, "%s %s: %s (going on)\n", sv->cf->prog, sv->cf->cmd, why);
}

static void server_busy(void *arg, double until)
{
	struct server *sv = arg;

	bw_door_busy_until(&sv->door, until);
}

int bw_server_run(const struct bw_server_conf *cf)
{
	struct bw_opts *o = cf->o;
	struct server sv = { .cf = cf, .o = o };
	struct bw_server_ops ops = { server_setup, server_done, &sv, server_refused, server_busy };
	struct bw_err e = { "" };
	int lfd, rc = 0;

	lfd = bw_listen(o->bind, o->port, BW_LOBBY_BACKLOG, &e);
	if (lfd < 0) {
		fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		return -1;
	}
	sv.lobby = (struct bw_lobby){ .lfd = lfd, .allow = o->allow, .n_allow = o->n_allow,
				      .token = o->token, .auth_s = o->idle_s,
				      .log = server_refused, .log_arg = &sv };
	bw_lobby_init(&sv.lobby);
	sv.door.lobby = &sv.lobby;
	if (!cf->quiet)
		fprintf(stderr, "%s %s: listening on port %u%s%s\n", cf->prog, cf->cmd, o->port,
			o->n_allow ? ", --allow" : "", o->token ? ", token required" : "");
	for (;;) {
		struct bw_session ss = { .fd = -1 };
		int tests;

		/* the next client that showed its token; strangers, the silent
		 * and whoever --allow keeps out are refused meanwhile */
		if (bw_lobby_admit(&sv.lobby, &ss, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
			rc = -1;
			break;
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
			/* said and logged; closed so that the client reads why */
			bw_lobby_refuse(&sv.lobby, ss.fd, NULL);
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
	bw_lobby_end(&sv.lobby);	/* --once: those who came as it ended */
	close(lfd);
	return rc;
}
