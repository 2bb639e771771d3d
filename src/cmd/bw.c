/* bw and lat: `server` on one host, `client HOST` on the other, or bw
 * --loopback on one.  This file runs the two sides: the client asks for
 * each size of a sweep, the server serves one client at a time; both print
 * one report (print/bw_out.c).  The command line is cmd/bw_opts.c, the
 * choice of rails bw/rails.c, the loopback engine bw/loopback.c. */
#include "bw_opts.h"
#include "../pipeline/pipeline.h"
#include "../bw/door.h"
#include "../bw/expect.h"
#include "../bw/loopback.h"
#include "../bw/progress.h"
#include "../bw/rails.h"
#include "../print/bw_out.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the machine and its rails ---- */

/* The rails of a test on this side, from the inventory (verbs) or the
 * command line (tcp), and the machine as check reads it (cmd/pipeline.h):
 * the root, the inventory, the site file, and the profile (the site file's,
 * else the one the machine is), whose rail floor a verbs test is held to. */
struct setup {
	struct ctx *c;
	const char *cmd;	/* "bw" or "lat", for messages */
	struct bw_opts *o;
	struct pipeline pl;
	bool collected;		/* collect ran; collect_rc is its answer */
	int collect_rc;
	bool have_inv;		/* pl's inventory and profile are there */
	struct bw_rail_set rs;
};

static void setup_init(struct setup *s, struct ctx *c, const char *cmd, struct bw_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->c = c;
	s->cmd = cmd;
	s->o = o;
	bw_rails_init(&s->rs);
}

/* The inventory, the site file and the profile, read once (pipeline_collect
 * and pipeline_choose, as check); EXIT_OK, or the exit code after saying
 * why: EXIT_USAGE for a broken site file or profile, as check. */
static int collect(struct setup *s)
{
	if (s->collected)	/* once: a failure is said once */
		return s->collect_rc;
	s->collected = true;
	s->collect_rc = pipeline_collect(s->c, s->cmd, &s->pl, false);
	if (s->collect_rc == EXIT_OK)
		s->collect_rc = pipeline_choose(s->c, &s->pl, NULL);
	s->have_inv = s->collect_rc == EXIT_OK;
	return s->collect_rc;
}

static void setup_free(struct setup *s)
{
	bw_rails_free(&s->rs);
	if (s->collected)
		pipeline_free(&s->pl);
	s->collected = s->have_inv = false;
}

/* The rails of a test over transport t (bw/rails.h): verbs, the devices
 * of --device / --devices, or the first; tcp, one rail, or one per netdev
 * of them.  EXIT_OK, or the exit code after saying why. */
static int choose_rails(struct setup *s, enum bw_transport t)
{
	const char *list = s->o->devices ? s->o->devices : s->o->device;
	char why[512];
	int rc = t == BW_TRANSPORT_VERBS ? collect(s) : EXIT_OK;

	if (rc != EXIT_OK)
		return rc;
	rc = t == BW_TRANSPORT_VERBS ?
		bw_rails_verbs(&s->rs, &s->pl.r, &s->pl.inv, list, s->o->ib_port, s->o->gpu,
			       s->c->prog, why, sizeof(why)) :
		bw_rails_tcp(&s->rs, list, s->o->gpu, why, sizeof(why));
	if (rc == 0)
		return EXIT_OK;
	fprintf(stderr, "%s %s: %s\n", s->c->prog, s->cmd, why);
	return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
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

static void expectation(struct bw_report *r, const struct bw_opts *o, const struct setup *s,
			char *why, size_t whysz)
{
	/* the profile check would judge this machine by (the site file's, else
	 * the one it is), chosen once with the inventory (collect) */
	bw_expectation(r, o->expect_gbps, s->have_inv ? s->pl.profile : NULL, s->rs.min_rate, why,
		       whysz);
}

/* ---- client ---- */

/* The client's report: the sizes that finished, and why the rest did not
 * when error is set (then verdict "error", exit 3; with --json always one
 * complete document, even when no size finished). */
static int client_report(struct ctx *c, const char *cmd, const struct bw_opts *o,
			 const struct setup *s, const struct bw_session *ss,
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
	rep.n_rails = s->rs.n;
	memcpy(rep.rails, s->rs.rail, sizeof(s->rs.rail));
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

static int run_client(struct ctx *c, const char *cmd, struct bw_opts *o)
{
	struct setup s;
	struct bw_session ss = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails rails;
	struct bw_outcome *outs = NULL;
	struct bw_progress pg = { .out = stderr, .prog = c->prog, .cmd = cmd };
	struct bw_err e = { "" };
	char host[BW_HOST_MAX + 1] = "";
	size_t done = 0;
	int rc;

	setup_init(&s, c, cmd, o);
	/* verbs by default when it can run here */
	if (!o->transport_set) {
		o->p.transport = BW_TRANSPORT_TCP;
		rc = collect(&s);
		if (rc == EXIT_USAGE)	/* a broken site file or profile: said; fix it first */
			goto out;
		if (rc == EXIT_OK && s.pl.inv.n_nics)
			o->p.transport = BW_TRANSPORT_VERBS;
	}
	rc = choose_rails(&s, o->p.transport);
	if (rc != EXIT_OK)
		goto out;
	if (bw_params_check(&o->p, s.rs.n, NULL, &e) < 0) {
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
		ss.progress = bw_progress_show;
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
	bw_rails_fill(s.rs.rail, s.rs.n, o->ib_port, o->gid_index, o->p.transport, s.rs.n,
		      ss.peer_addr, &rails);
	/* the client's own bound on each run (engine.h): its window and a
	 * margin; iterations mode has none of its own (the server's cap) */
	for (uint32_t i = 0; i < rails.n; i++)
		rails.local[i].max_run_ms = bw_params_run_bound_ms(&o->p, 0);
	for (size_t k = 0; k < o->n_sizes; k++) {
		bw_opts_hello(o, o->sizes[k], s.rs.n, host, &h);
		if (bw_params_check(&h.p, s.rs.n, NULL, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = EXIT_USAGE;
			goto out;
		}
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		rc = bw_session_test(&ss, &h, &rails, &outs[k], &e);
		bw_progress_end(&pg);
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
	setup_free(&s);
	return rc;
}

/* ---- server ---- */

static const struct bw_report_rail tcp_rail = { .numa_node = -1, .gpu = -1, .rate_gbps = NAN };

struct server {
	struct ctx *c;
	const char *cmd;
	struct bw_opts *o;
	struct setup s;		/* the verbs rails, chosen at the first verbs test */
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
		sv->verbs_rc = choose_rails(&sv->s, BW_TRANSPORT_VERBS);
	}
	if (sv->verbs_rc != EXIT_OK || !sv->s.rs.n) {
		bw_errf(e, "this server cannot run the verbs transport on its RDMA devices "
			"(see its messages; --transport tcp needs none)");
		return -1;
	}
	if (h->n_rails > sv->s.rs.n && sv->s.rs.n > 1) {
		bw_errf(e, "the client asks for %u rails, this server has %u devices", h->n_rails,
			sv->s.rs.n);
		return -1;
	}
	bw_rails_fill(sv->s.rs.rail, sv->s.rs.n, sv->o->ib_port, sv->o->gid_index, h->p.transport,
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
		rep.rails[i] = verbs ? sv->s.rs.rail[i % sv->s.rs.n] : tcp_rail;
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

static int run_server(struct ctx *c, const char *cmd, struct bw_opts *o)
{
	struct server sv = { .c = c, .cmd = cmd, .o = o };
	struct bw_server_ops ops = { server_setup, server_done, &sv, server_refused, server_busy };
	struct bw_err e = { "" };
	int lfd, rc = EXIT_OK;

	setup_init(&sv.s, c, cmd, o);
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
	setup_free(&sv.s);
	return rc;
}

/* ---- bw --loopback ---- */

struct lb_print {
	struct ctx *c;
	json_t *pairs;		/* --json: the pairs' documents */
};

/* Each pair as it ends: its text now, or its document into pairs. */
static int lb_pair_done(void *arg, const struct bw_loopback *L, size_t k,
			const struct bw_report *rep)
{
	struct ctx *c = ((struct lb_print *)arg)->c;
	FILE *out;

	if (c->json) {
		json_t *doc = bw_loopback_pair_json(L, k, rep);

		if (!doc || json_array_append_new(((struct lb_print *)arg)->pairs, doc)) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			return -1;
		}
		return 0;
	}
	out = ctx_open_text(c);
	if (!out)
		return -1;
	bw_loopback_pair_print(out, L, k, rep);
	return ctx_close_text(c, out) == EXIT_OK ? 0 : -1;
}

/* Every pair, one after the other; the worst pair's exit code. */
static int loopback_all(struct ctx *c, struct bw_loopback *L)
{
	json_t *pairs = c->json ? json_array() : NULL;
	struct lb_print lp = { c, pairs };
	int worst, rc;

	if (c->json && !pairs) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	L->pair_done = lb_pair_done;
	L->arg = &lp;
	rc = bw_loopback_run(L);
	if (rc < 0) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		json_decref(pairs);
		return EXIT_RUNTIME;
	}
	worst = rc == BW_LB_ERROR ? EXIT_RUNTIME : rc == BW_LB_FAIL ? EXIT_PROBLEMS : EXIT_OK;
	if (c->json) {
		json_t *doc = bw_loopback_json(pairs, worst == EXIT_OK ? "pass" :
					       worst == EXIT_PROBLEMS ? "fail" : "error", L->reason);

		if (!doc) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			return EXIT_RUNTIME;
		}
		rc = ctx_emit_json(c, doc);
		if (rc != EXIT_OK)
			return rc;
	} else if (worst != EXIT_OK) {
		fprintf(stderr, "%s bw --loopback: %s\n", c->prog, L->reason);
	}
	return worst;
}

static int run_loopback(struct ctx *c, struct bw_opts *o)
{
	struct bw_loopback *L = calloc(1, sizeof(*L));
	struct setup s;
	char why[512];
	int rc;

	if (!L) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	setup_init(&s, c, "bw", o);
	rc = collect(&s);
	if (rc != EXIT_OK)
		goto out;
	*L = (struct bw_loopback){ .o = o, .r = &s.pl.r, .inv = &s.pl.inv, .pr = s.pl.profile,
				   .site = s.pl.has_site ? &s.pl.site : NULL, .prog = c->prog,
				   .err = stderr, .quiet = c->quiet,
				   .progress = isatty(STDERR_FILENO) && !c->json && !c->quiet };
	rc = bw_loopback_pairs(L, why, sizeof(why));
	if (rc < 0) {
		fprintf(stderr, "%s%s: %s\n", c->prog, rc == -ENOMEM ? "" : " bw", why);
		rc = rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	rc = loopback_all(c, L);
out:
	bw_loopback_free(L);
	free(L);
	setup_free(&s);
	return rc;
}

static int cmd_bwlat(struct ctx *c, int argc, char **argv, enum bw_mode mode)
{
	const char *cmd = mode == BW_MODE_LAT ? "lat" : "bw";
	struct bw_opts o;
	int rc = bw_cmd_parse(c, cmd, mode, argc, argv, &o);

	if (rc >= 0)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	if (o.loopback)
		return run_loopback(c, &o);
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
