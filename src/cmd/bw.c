/* bw and lat: `server` on one host, `client HOST` on the other.  This file
 * runs the two sides: the client asks for each size of a sweep, the server
 * serves one client at a time; both print one report (print/bw_out.c).  The
 * command line is cmd/bw_opts.c, the choice of rails cmd/bw_rails.c. */
#include "bw_cmd.h"
#include "../bw/door.h"
#include "../print/bw_out.h"
#include "../print/safe_stream.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- progress ---- */

/* Once a second on stderr (a terminal): the last second's rate and the
 * average so far, fixed width, as git and curl do. */
void bw_cmd_show_progress(void *arg, double elapsed, uint64_t bytes)
{
	struct bw_cmd_progress *pg = arg;
	double now_gbps = elapsed > pg->last_t ?
		(double)(bytes - pg->last_bytes) * 8 / 1e9 / (elapsed - pg->last_t) : 0;
	double avg_gbps = elapsed > 0 ? (double)bytes * 8 / 1e9 / elapsed : 0;

	fprintf(stderr, "\r%s %s: %10llu bytes %4.0f/%-4.0f s %9.2f Gb/s now %9.2f Gb/s avg ",
		pg->c->prog, pg->cmd, (unsigned long long)pg->size, elapsed, pg->total, now_gbps,
		avg_gbps);
	pg->last_t = elapsed;
	pg->last_bytes = bytes;
	pg->shown = true;
}

void bw_cmd_end_progress(struct bw_cmd_progress *pg)
{
	if (pg->shown)
		fputc('\n', stderr);
	pg->shown = false;
	pg->last_t = 0;
	pg->last_bytes = 0;
}

/* ---- output ---- */

static int emit(struct ctx *c, struct bw_report *r)
{
	FILE *out;

	bw_judge(r);
	if (c->json) {
		json_t *doc = bw_report_to_json(r);

		if (!doc) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			return EXIT_RUNTIME;
		}
		return ctx_emit_json(c, doc);
	}
	out = ctx_open_text(c);	/* filtered: peer names come from the network */
	if (!out)
		return EXIT_RUNTIME;
	bw_report_print(out, r);
	return ctx_close_text(c, out);
}

void bw_cmd_expectation(struct bw_report *r, const struct bw_cmd_opts *o,
			const struct profile *pr, double min_rate, char *why, size_t whysz)
{
	r->expect_gbps = o->expect_gbps;
	r->expect_why = NULL;
	r->expect_min_bytes = 0;
	if (!isnan(o->expect_gbps)) {
		/* asked for: every size of the sweep is held to it */
		r->expect_why = "--expect-gbps";
		return;
	}
	if (r->p.transport != BW_TRANSPORT_VERBS || r->p.mode != BW_MODE_BW)
		return;	/* tcp has no line rate we can trust; latency no floor */
	/* small messages cannot fill a link (perftest's own line-rate figures
	 * are for 64 KiB and up): smaller sizes are not judged */
	r->expect_min_bytes = BW_EXPECT_MIN_BYTES;
	if (bw_cmd_floor(pr, min_rate, &r->expect_gbps, why, whysz))
		r->expect_why = why;
	else
		r->expect_min_bytes = 0;
}

static void expectation(struct bw_report *r, const struct bw_cmd_opts *o,
			const struct bw_cmd_setup *s, char *why, size_t whysz)
{
	/* the profile check would judge this machine by (the site file's, else
	 * the one it is), chosen once with the inventory (bw_cmd_collect) */
	bw_cmd_expectation(r, o, s->have_inv ? s->pl.profile : NULL, s->min_rate, why, whysz);
}

void bw_cmd_hello(const struct bw_cmd_opts *o, uint64_t size, uint32_t n_rails,
		  const char *host, struct bw_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->p = o->p;
	h->p.size = size;
	if (!o->cq_mod_set && h->p.mode == BW_MODE_BW)
		h->p.cq_mod = bw_params_cq_mod(h->p.size, h->p.tx_depth, o->n_sizes > 1);
	h->n_rails = n_rails;
	snprintf(h->host, sizeof(h->host), "%s", host);
}

/* ---- client ---- */

/* The client's report: the sizes that finished, and why the rest did not
 * when error is set (then verdict "error", exit 3; with --json always one
 * complete document, even when no size finished). */
static int client_report(struct ctx *c, const char *cmd, const struct bw_cmd_opts *o,
			 const struct bw_cmd_setup *s, const struct bw_session *ss,
			 const char *host, struct bw_outcome *outs, size_t done, const char *error)
{
	struct bw_report rep;
	char why[256];
	int rc;

	memset(&rep, 0, sizeof(rep));
	rep.is_server = false;
	rep.p = done ? outs[0].p : o->p;	/* as sent: per-size defaults applied */
	rep.local_host = host;
	rep.local_addr = ss->local_addr;
	rep.remote_host = ss->peer_host;
	rep.remote_addr = ss->peer_addr;
	rep.n_rails = s->n;
	memcpy(rep.rails, s->rail, sizeof(s->rail));
	rep.outcomes = outs;
	rep.n_outcomes = done;
	rep.error = error;
	expectation(&rep, o, s, why, sizeof(why));
	rc = emit(c, &rep);
	if (rc != EXIT_OK || rep.pass)
		return rc;
	if (rep.could_not_run) {
		if (!error)	/* an error was said when it happened */
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, rep.reason);
		return EXIT_RUNTIME;
	}
	fprintf(stderr, "%s %s: below expectation: %s\n", c->prog, cmd, rep.reason);
	return EXIT_PROBLEMS;
}

static int run_client(struct ctx *c, const char *cmd, struct bw_cmd_opts *o)
{
	struct bw_cmd_setup s = { .c = c, .cmd = cmd, .o = o, .min_rate = NAN };
	struct bw_session ss = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails rails;
	struct bw_outcome *outs = NULL;
	struct bw_cmd_progress pg = { .c = c, .cmd = cmd };
	struct bw_err e = { "" };
	char host[BW_HOST_MAX + 1] = "";
	size_t done = 0;
	int rc;

	/* verbs by default when it can run here */
	if (!o->transport_set) {
		o->p.transport = BW_TRANSPORT_TCP;
		rc = bw_cmd_collect(&s);
		if (rc == EXIT_USAGE)	/* a broken site file or profile: said; fix it first */
			goto out;
		if (rc == EXIT_OK && s.pl.inv.n_nics)
			o->p.transport = BW_TRANSPORT_VERBS;
	}
	rc = o->p.transport == BW_TRANSPORT_VERBS ? bw_cmd_verbs_rails(&s) : bw_cmd_tcp_rails(&s);
	if (rc != EXIT_OK)
		goto out;
	if (bw_params_check(&o->p, s.n, NULL, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		rc = EXIT_USAGE;
		goto out;
	}
	gethostname(host, sizeof(host) - 1);
	ss.token = o->token;
	if (bw_session_connect(&ss, o->host, o->port, (int)(o->timeout_s * 1000), &e) < 0 ||
	    bw_session_auth(&ss, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		rc = c->json ? client_report(c, cmd, o, &s, &ss, host, NULL, 0, e.msg)
			     : EXIT_RUNTIME;
		if (rc == EXIT_OK)
			rc = EXIT_RUNTIME;
		goto out;
	}
	if (isatty(STDERR_FILENO) && !c->json && !c->quiet) {
		ss.progress = bw_cmd_show_progress;
		ss.progress_arg = &pg;
	}
	outs = calloc(o->n_sizes, sizeof(*outs));
	if (!outs) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
		goto out;
	}
	/* the numeric address the control channel reached: both sides then
	 * name the same peer (GID choice, tcp data connections) */
	bw_cmd_fill_locals(o, s.rail, s.n, o->p.transport, s.n, ss.peer_addr, &rails);
	/* the client's own bound on each run (engine.h): its window and a
	 * margin; iterations mode has none of its own (the server's cap) */
	for (uint32_t i = 0; i < rails.n; i++)
		rails.local[i].max_run_ms = bw_params_run_bound_ms(&o->p, 0);
	for (size_t k = 0; k < o->n_sizes; k++) {
		bw_cmd_hello(o, o->sizes[k], s.n, host, &h);
		if (bw_params_check(&h.p, s.n, NULL, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = EXIT_USAGE;
			goto out;
		}
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		rc = bw_session_test(&ss, &h, &rails, &outs[k], &e);
		bw_cmd_end_progress(&pg);
		if (rc < 0) {
			/* what finished is still reported (and with --json there
			 * is always one document), with why the rest did not */
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = done || c->json ? client_report(c, cmd, o, &s, &ss, host, outs, done,
							     e.msg)
					     : EXIT_RUNTIME;
			if (rc == EXIT_OK)
				rc = EXIT_RUNTIME;
			goto out;
		}
		done++;
	}
	bw_session_bye(&ss);
	rc = client_report(c, cmd, o, &s, &ss, host, outs, done, NULL);
out:
	for (size_t k = 0; outs && k < o->n_sizes; k++)
		bw_outcome_free(&outs[k]);
	free(outs);
	bw_session_close(&ss);
	bw_cmd_setup_free(&s);
	return rc;
}

/* ---- server ---- */

static const struct bw_report_rail tcp_rail = { .numa_node = -1, .gpu = -1, .rate_gbps = NAN };

struct server {
	struct ctx *c;
	const char *cmd;
	struct bw_cmd_opts *o;
	struct bw_cmd_setup s;		/* the verbs rails, chosen at the first verbs test */
	bool verbs_tried;
	int verbs_rc;
	struct bw_session *ss;
	struct bw_door door;
	/* the tests of the current client: one report when it leaves */
	struct bw_hello first;
	struct bw_outcome *outs;
	size_t n_outs, cap_outs;
	size_t accepted;	/* HELLOs of this client that were accepted */
};

/* The server's own test options are checks of the client's request (the
 * same command line on both ends, as perftest compares its parameters):
 * 0, or -1 with e naming the option and both values. */
static int server_constraints(const struct bw_cmd_opts *o, const struct bw_params *q,
			      struct bw_err *e)
{
	const struct bw_params *p = &o->p;
	bool size_ok = false;

#define BW_CHECK(flag, field, name)                                                        \
	if ((o->test_set & (flag)) && (uint64_t)q->field != (uint64_t)p->field) {          \
		bw_errf(e, "this server takes only %s %llu tests; the client asks for %llu", \
			name, (unsigned long long)p->field, (unsigned long long)q->field);  \
		return -1;                                                                 \
	}
	if (o->transport_set && q->transport != p->transport) {
		bw_errf(e, "this server serves only --transport %s tests; the client asks for %s",
			bw_transport_name(p->transport), bw_transport_name(q->transport));
		return -1;
	}
	if ((o->test_set & BW_SET_OP) && q->op != p->op) {
		bw_errf(e, "this server takes only --op %s tests; the client asks for %s",
			bw_op_name(p->op), bw_op_name(q->op));
		return -1;
	}
	if ((o->test_set & BW_SET_BIDIR) && !q->bidir) {
		bw_errf(e, "this server takes only --bidir tests; the client asks for one way");
		return -1;
	}
	for (size_t k = 0; k < o->n_sizes; k++)
		size_ok |= o->sizes[k] == q->size;
	if ((o->test_set & BW_SET_SIZE) && !size_ok) {
		bw_errf(e, "this server takes only the sizes of its --size/--sizes (%llu..%llu "
			"bytes); the client asks for %llu", (unsigned long long)o->sizes[0],
			(unsigned long long)o->sizes[o->n_sizes - 1], (unsigned long long)q->size);
		return -1;
	}
	BW_CHECK(BW_SET_DURATION, duration_ms, "--duration (ms)")
	BW_CHECK(BW_SET_WARMUP, warmup_ms, "--warmup (ms)")
	BW_CHECK(BW_SET_INTERVAL, interval_ms, "--interval (ms)")
	BW_CHECK(BW_SET_ITERS, iters, "--iters")
	BW_CHECK(BW_SET_QPS, qps, "--qps")
	BW_CHECK(BW_SET_TX_DEPTH, tx_depth, "--tx-depth")
	BW_CHECK(BW_SET_POST_LIST, post_list, "--post-list")
	BW_CHECK(BW_SET_CQ_MOD, cq_mod, "--cq-mod")
	BW_CHECK(BW_SET_INLINE, inline_size, "--inline")
#undef BW_CHECK
	return 0;
}

static int server_setup(void *arg, const struct bw_hello *h, struct bw_rails *r,
			struct bw_err *e)
{
	struct server *sv = arg;

	if (server_constraints(sv->o, &h->p, e) < 0)
		return -1;
	if (h->p.transport == BW_TRANSPORT_TCP) {
		/* the data connections: on --bind's address, and on --device
		 * when it names a network interface (an RDMA device name is for
		 * verbs tests and does not apply) */
		const char *dev = sv->o->device && if_nametoindex(sv->o->device) ? sv->o->device
									       : NULL;

		bw_cmd_fill_locals(sv->o, &tcp_rail, 1, h->p.transport, h->n_rails,
				   sv->ss->peer_addr, r);
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
		sv->verbs_rc = bw_cmd_verbs_rails(&sv->s);
	}
	if (sv->verbs_rc != EXIT_OK || !sv->s.n) {
		bw_errf(e, "this server cannot run the verbs transport on its RDMA devices "
			"(see its messages; --transport tcp needs none)");
		return -1;
	}
	if (h->n_rails > sv->s.n && sv->s.n > 1) {
		bw_errf(e, "the client asks for %u rails, this server has %u devices", h->n_rails,
			sv->s.n);
		return -1;
	}
	bw_cmd_fill_locals(sv->o, sv->s.rail, sv->s.n, h->p.transport, h->n_rails,
			   sv->ss->peer_addr, r);
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
	char host[BW_HOST_MAX + 1] = "", why[256];
	const struct bw_hello *h = &sv->first;
	bool verbs = h->p.transport == BW_TRANSPORT_VERBS;
	int rc;

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
		rep.rails[i] = verbs ? sv->s.rail[i % sv->s.n] : tcp_rail;
	rep.outcomes = sv->outs;
	rep.n_outcomes = sv->n_outs;
	rep.error = error;
	expectation(&rep, sv->o, &sv->s, why, sizeof(why));
	rc = emit(sv->c, &rep);
	if (rc != EXIT_OK || rep.pass)
		return rc;
	return rep.could_not_run ? EXIT_RUNTIME : EXIT_PROBLEMS;
}

/* One line per refusal, from the session or the doorman's thread. */
static void server_refused(void *arg, const char *peer, const char *why)
{
	struct server *sv = arg;

	fprintf(stderr, "%s %s: refused %s: %s\n", sv->c->prog, sv->cmd, peer, why);
}

static void server_busy(void *arg, double until)
{
	struct server *sv = arg;

	bw_door_busy_until(&sv->door, until);
}

static int run_server(struct ctx *c, const char *cmd, struct bw_cmd_opts *o)
{
	struct server sv = { .c = c, .cmd = cmd, .o = o, .s = { .c = c, .cmd = cmd, .o = o, .min_rate = NAN } };
	struct bw_server_ops ops = { server_setup, server_done, &sv, server_refused, server_busy };
	struct bw_err e = { "" };
	int lfd, rc = EXIT_OK;

	/* --transport on the server: the one transport it serves */
	o->caps.has_verbs = !(o->transport_set && o->p.transport == BW_TRANSPORT_TCP);
	if (o->gpu && !o->caps.has_verbs) {
		fprintf(stderr, "%s %s: the tcp transport has no GPU memory: use --transport verbs "
			"for --gpu\n", c->prog, cmd);
		return EXIT_USAGE;
	}
	lfd = bw_listen(o->bind, o->port, 16, &e);
	if (lfd < 0) {
		fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		return EXIT_RUNTIME;
	}
	sv.door = (struct bw_door){ .lfd = lfd, .allow = o->allow, .n_allow = o->n_allow,
				    .log = server_refused, .log_arg = &sv,
				    .handoff = { .fd = -1 } };
	if (!c->quiet && !c->json)
		fprintf(stderr, "%s %s: listening on port %u%s%s\n", c->prog, cmd, o->port,
			o->n_allow ? ", --allow" : "", o->token ? ", token required" : "");
	for (;;) {
		struct bw_session ss = { .fd = -1, .timeout_ms = (int)(o->timeout_s * 1000) };
		int tests;

		if (sv.door.handoff.fd >= 0) {
			ss = sv.door.handoff;	/* came as the last session ended */
			sv.door.handoff.fd = -1;
		} else if (bw_session_accept(lfd, &ss, -1, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = EXIT_RUNTIME;
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
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		tests = bw_session_serve(&ss, &o->caps, &ops, &e);
		bw_door_shut(&sv.door);
		if (tests == -BW_E_REFUSED) {
			/* said and logged; close so that the client reads why */
			bw_door_close(ss.fd);
			ss.fd = -1;
		} else if (tests < 0) {
			fprintf(stderr, "%s %s: client %s: %s\n", c->prog, cmd, ss.peer_addr,
				e.msg);
		}
		/* what ran, even if a later size failed */
		rc = sv.n_outs ? server_report(&sv, tests < 0 ? e.msg : NULL) : EXIT_OK;
		if (tests < 0)
			rc = EXIT_RUNTIME;
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
	bw_cmd_setup_free(&sv.s);
	return rc;
}

static int cmd_bwlat(struct ctx *c, int argc, char **argv, enum bw_mode mode)
{
	const char *cmd = mode == BW_MODE_LAT ? "lat" : "bw";
	struct bw_cmd_opts o;
	int rc = bw_cmd_parse(c, cmd, mode, argc, argv, &o);

	if (rc >= 0)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	if (o.loopback)
		return bw_cmd_loopback(c, &o);
	return o.server ? run_server(c, cmd, &o) : run_client(c, cmd, &o);
}

int cmd_bw(struct ctx *c, int argc, char **argv)
{
	return cmd_bwlat(c, argc, argv, BW_MODE_BW);
}

int cmd_lat(struct ctx *c, int argc, char **argv)
{
	return cmd_bwlat(c, argc, argv, BW_MODE_LAT);
}
