/* bw and lat: `server` on one host, `client HOST` on the other, or bw
 * --loopback on one.  This file chooses each side's rails
 * (pipeline/bw_setup.c), runs the side asked for (bw/client.c,
 * bw/server.c, bw/loopback.c) and prints its report (print/bw_out.c).
 * The command line is cmd/bw_opts.c. */
#include "bw_opts.h"
#include "../pipeline/bw_setup.h"
#include "../bw/client.h"
#include "../bw/expect.h"
#include "../bw/loopback.h"
#include "../bw/rails.h"
#include "../bw/server.h"
#include "../print/bw_out.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void expectation(struct bw_report *r, const struct bw_opts *o, const struct bw_setup *s,
			char *why, size_t whysz)
{
	/* the profile check would judge this machine by (the site file's, else
	 * the one it is), chosen once with the inventory (collect) */
	bw_expectation(r, o->expect_gbps, s->have_inv ? s->pl.profile : NULL, s->rs.min_rate, why,
		       whysz);
}

/* ---- client (bw/client.c) ---- */

struct client {
	struct ctx *c;
	const char *cmd;
	struct bw_setup s;
};

/* The client's report: the sizes that finished, and why the rest did not
 * when error is set (then verdict "error", exit 3; with --json always one
 * complete document, even when no size finished). */
static int client_report(void *arg, const struct bw_session *ss, const char *host,
			 struct bw_outcome *outs, size_t done, const char *error)
{
	const struct client *cl = arg;
	struct ctx *c = cl->c;
	const char *cmd = cl->cmd;
	const struct bw_setup *s = &cl->s;
	const struct bw_opts *o = s->o;
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
	struct client cl = { .c = c, .cmd = cmd };
	struct bw_client_conf cf = { .prog = c->prog, .cmd = cmd, .o = o, .rs = &cl.s.rs,
				     .progress = isatty(STDERR_FILENO) && !c->json && !c->quiet,
				     .always_report = c->json, .report = client_report,
				     .arg = &cl };
	int rc;

	bw_setup_init(&cl.s, c, cmd, o);
	/* verbs by default when it can run here */
	if (!o->transport_set) {
		o->p.transport = BW_TRANSPORT_TCP;
		rc = bw_setup_collect(&cl.s);
		if (rc == EXIT_USAGE)	/* a broken site file or profile: said; fix it first */
			goto out;
		if (rc == EXIT_OK && cl.s.pl.inv.n_nics)
			o->p.transport = BW_TRANSPORT_VERBS;
	}
	rc = bw_setup_rails(&cl.s, o->p.transport);
	if (rc != EXIT_OK)
		goto out;
	rc = bw_client_run(&cf);
	rc = rc == -EINVAL ? EXIT_USAGE : rc < 0 ? EXIT_RUNTIME : rc;
out:
	bw_setup_free(&cl.s);
	return rc;
}

/* ---- server (bw/server.c) ---- */

struct server {
	struct ctx *c;
	struct bw_setup s;	/* the verbs rails, chosen at the first verbs test */
};

static const struct bw_rail_set *server_rails(void *arg)
{
	struct server *sv = arg;

	return bw_setup_rails(&sv->s, BW_TRANSPORT_VERBS) == EXIT_OK ? &sv->s.rs : NULL;
}

/* One report for everything a client ran, as the client prints it: judged
 * by the server's --expect-gbps, else by the one the client asked for, so
 * that both ends give one verdict (and --once the client's exit code). */
static int server_report(void *arg, struct bw_report *rep)
{
	struct server *sv = arg;
	const struct bw_opts *o = sv->s.o;
	bool theirs = isnan(o->expect_gbps) && !isnan(rep->client_expect_gbps);
	char why[256];
	int rc;

	bw_expectation(rep, theirs ? rep->client_expect_gbps : o->expect_gbps,
		       sv->s.have_inv ? sv->s.pl.profile : NULL, sv->s.rs.min_rate, why, sizeof(why));
	if (theirs)
		rep->expect_why = "the client's --expect-gbps";
	rc = emit(sv->c, rep);
	if (rc != EXIT_OK || rep->pass)
		return rc;
	if (rep->could_not_run)
		return EXIT_RUNTIME;	/* said when it happened */
	fprintf(stderr, "%s %s: client %s: below expectation: %s\n", sv->c->prog,
		rep->p.mode == BW_MODE_LAT ? "lat" : "bw", rep->remote_addr ? rep->remote_addr : "-",
		rep->reason);
	return EXIT_PROBLEMS;
}

static int run_server(struct ctx *c, const char *cmd, struct bw_opts *o)
{
	struct server sv = { .c = c };
	struct bw_server_conf cf = { .prog = c->prog, .cmd = cmd, .o = o,
				     .quiet = c->quiet || c->json, .verbs_rails = server_rails,
				     .report = server_report, .arg = &sv };
	int rc;

	bw_setup_init(&sv.s, c, cmd, o);
	/* --transport on the server: the one transport it serves */
	o->caps.has_verbs = !(o->transport_set && o->p.transport == BW_TRANSPORT_TCP);
	if (o->gpu && !o->caps.has_verbs) {
		fprintf(stderr, "%s %s: the tcp transport has no GPU memory: use --transport verbs "
			"for --gpu\n", c->prog, cmd);
		return EXIT_USAGE;
	}
	rc = bw_server_run(&cf);
	bw_setup_free(&sv.s);
	return rc < 0 ? EXIT_RUNTIME : rc;
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
		json_t *doc = bw_loopback_json(pairs, rc == BW_LB_PASS ? "pass" :
					       rc == BW_LB_NO_FLOOR ? "no floor" :
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
	struct bw_setup s;
	char why[512];
	int rc;

	if (!L) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	bw_setup_init(&s, c, "bw", o);
	rc = bw_setup_collect(&s);
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
	bw_setup_free(&s);
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
