/* fabric: every pair of nodes on every rail, in rounds, one task per node
 * under a PMIx launcher (srun --mpi=pmix, mpirun).  The command: its
 * options, this rank's rails (bw's choice, as `bw` makes it), the run's
 * steps (fabric/run.h tells how a run goes) and rank 0's report
 * (print/fabric_out.c).  docs/fabric.md is the how-to, docs/json/fabric.md
 * the document. */
#include "cmd.h"
#include "../opt/opt_parse.h"
#include "../opt/opts.h"
#include "../bw/opts.h"
#include "../bw/rails.h"
#include "../fabric/conf.h"
#include "../fabric/floor.h"
#include "../fabric/pairs_file.h"
#include "../fabric/pmix.h"
#include "../fabric/run.h"
#include "../fabric/run_report.h"
#include "../fabric/timing.h"
#include "../pipeline/bw_setup.h"
#include "../print/fabric_out.h"
#include "../print/fabric_progress.h"
#include "../profiles/profile.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fab_opts {
	struct bw_opts bw;		/* bind, device list, ib_port, gid_index, gpu, caps */
	struct fab_conf cf;	/* what the run takes (fabric/run_state.h) */
	const char *rails, *profile;
	/* --profile, loaded before the launcher's rendezvous so that a
	 * mistyped one stops the run at once (exit 2), not after it */
	struct profile loaded;
	const struct profile *pr;
	bool one_way;
	double duration_s, warmup_s;
};

/* ---- the command line (an option table: src/cmd/opts.h) ---- */

static int usage(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s fabric: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see `%s fabric --help`)\n", c->prog);
	return EXIT_USAGE;
}

/* A whole number in [min, max] into a uint32_t. */
static bool take_u32(const char *v, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t n;

	if (!opt_parse_u64(v, min, max, &n))
		return false;
	*out = (uint32_t)n;
	return true;
}

static int take_rails(struct ctx *c, void *args, const char *v)
{
	if (!bw_rails_device_list_ok(v))
		return usage(c, "--rails '%s': give all, or names joined by commas "
			     "(mlx5_0,mlx5_1 or eth0,eth1)", v);
	((struct fab_opts *)args)->rails = v;
	return CMD_GO_ON;
}

static int take_mode(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	if (strcmp(v, "full") == 0)
		o->cf.mode = FAB_MODE_FULL;
	else if (strcmp(v, "quick") == 0)
		o->cf.mode = FAB_MODE_QUICK;
	else
		return usage(c, "--mode is full or quick, not '%s'", v);
	return CMD_GO_ON;
}

static int take_transport(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	if (strcmp(v, "tcp") == 0)
		o->bw.p.transport = BW_TRANSPORT_TCP;
	else if (strcmp(v, "verbs") == 0)
		o->bw.p.transport = BW_TRANSPORT_VERBS;
	else
		return usage(c, "--transport is verbs or tcp, not '%s'", v);
	o->cf.transport_set = true;
	return CMD_GO_ON;
}

static int take_size(struct ctx *c, void *args, const char *v)
{
	return opt_parse_bytes(v, 1ull << 30, &((struct fab_opts *)args)->bw.p.size) ? CMD_GO_ON :
		usage(c, "--size takes bytes from 1 to 1G (K, M, G), not '%s'", v);
}

static int take_qps(struct ctx *c, void *args, const char *v)
{
	return take_u32(v, 1, 64, &((struct fab_opts *)args)->bw.p.qps) ? CMD_GO_ON :
		usage(c, "--qps takes 1 to 64, not '%s'", v);
}

static int take_retest(struct ctx *c, void *args, const char *v)
{
	return take_u32(v, 0, 16, &((struct fab_opts *)args)->cf.retest) ? CMD_GO_ON :
		usage(c, "--retest takes 0 to 16, not '%s'", v);
}

static int take_ib_port(struct ctx *c, void *args, const char *v)
{
	uint32_t n;

	if (!take_u32(v, 1, 255, &n))
		return usage(c, "--ib-port takes 1 to 255, not '%s'", v);
	((struct fab_opts *)args)->bw.ib_port = (int)n;
	return CMD_GO_ON;
}

static int take_gid_index(struct ctx *c, void *args, const char *v)
{
	uint32_t n;

	if (!take_u32(v, 0, 65535, &n))
		return usage(c, "--gid-index takes 0 to 65535, not '%s'", v);
	((struct fab_opts *)args)->bw.gid_index = (int)n;
	return CMD_GO_ON;
}

static int take_bind(struct ctx *c, void *args, const char *v)
{
	if (strlen(v) > FAB_ADDR_MAX || !fab_name_printable(v))
		return usage(c, "--bind takes an address, not '%s'", v);
	((struct fab_opts *)args)->bw.bind = v;
	return CMD_GO_ON;
}

static int take_name(struct ctx *c, void *args, const char *v)
{
	if (!fab_name_printable(v))
		return usage(c, "--name takes 1 to 64 printable characters without blanks "
			     "or '#', not '%s'", v);
	((struct fab_opts *)args)->cf.name = v;
	return CMD_GO_ON;
}

static int take_expect_gbps(struct ctx *c, void *args, const char *v)
{
	return opt_parse_number(v, 0, 1e6, &((struct fab_opts *)args)->cf.expect_gbps) ? CMD_GO_ON :
		usage(c, "--expect-gbps takes a floor in Gb/s from 0 to 1e6, not '%s'", v);
}

static int take_tolerance(struct ctx *c, void *args, const char *v)
{
	return opt_parse_number(v, 0, 1, &((struct fab_opts *)args)->cf.tolerance) ? CMD_GO_ON :
		usage(c, "--tolerance takes a fraction of the rail's median from 0 to 1, "
		      "not '%s'", v);
}

static int take_load(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	if (strcmp(v, "incast") == 0)
		o->cf.load = FAB_LOAD_INCAST;
	else if (strcmp(v, "alltoall") == 0)
		o->cf.load = FAB_LOAD_ALLTOALL;
	else
		return usage(c, "--load '%s': give incast or alltoall", v);
	return CMD_GO_ON;
}

static int take_fan_in(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	return take_u32(v, 1, 4096, &o->cf.fan_in) ? CMD_GO_ON :
	       usage(c, "--fan-in '%s': give senders per receiver, 1 to 4096", v);
}

static int take_tc(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;
	uint32_t tc;

	if (!take_u32(v, 0, 255, &tc))
		return usage(c, "--tc '%s': give a traffic class 0-255 (NCCL_IB_TC's, e.g. 106 for "
			     "DSCP 26)", v);
	o->cf.traffic_class = (int)tc;
	o->cf.tc_from = "--tc";
	return CMD_GO_ON;
}

static int take_qp_timeout(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	return take_u32(v, 1, 31, &o->cf.qp_timeout) ? CMD_GO_ON :
	       usage(c, "--qp-timeout '%s': give the exponent 1-31 (4.096 us x 2^N)", v);
}

static int take_gpu(struct ctx *c, void *args, const char *v)
{
	(void)c;
	((struct fab_opts *)args)->bw.gpu = v;
	return CMD_GO_ON;
}

static const struct cmd_opt fabric_opts[] = {
	{ "mode", 0, "full|quick", OPT_CALL_AT(take_mode),
	  .help = "full: a round-robin tournament, every pair once\n"
		  "(n-1 rounds; the default up to 128 nodes); quick:\n"
		  "one round, lower half against upper half" },
	{ "pairs", 0, "FILE", OPT_STRING_AT(struct fab_opts, cf.pairs_file), .flags = OPT_NONEMPTY,
	  .help = "the rounds from FILE: lines `ROUND NODE_A NODE_B`" },
	{ "rails", 0, "all|LIST", OPT_CALL_AT(take_rails),
	  .help = "RDMA devices (verbs, default all) or network\n"
		  "interfaces (tcp, default one unbound rail); rail i\n"
		  "of one node meets rail i of the other" },
	{ "transport", 0, "verbs|tcp", OPT_CALL_AT(take_transport),
	  .help = "default verbs where every node has an RDMA device" },
	{ "size", 0, "B", OPT_CALL_AT(take_size),
	  .help = "bytes per message (default 65536; K, M, G)" },
	{ "duration", 0, "S", OPT_SECONDS_AT(struct fab_opts, duration_s, 0.1, 3600),
	  .help = "measured seconds per round (default 2)" },
	{ "warmup", 0, "S", OPT_SECONDS_AT(struct fab_opts, warmup_s, 0, 60),
	  .help = "seconds before the window (default 0.25)" },
	{ "qps", 0, "N", OPT_CALL_AT(take_qps),
	  .help = "queue pairs (verbs) or TCP streams per rail (default 1)" },
	{ "one-way", 0, NULL, OPT_FLAG_AT(struct fab_opts, one_way),
	  .help = "the lower node sends only (default both directions)" },
	{ "lat", 0, NULL, OPT_FLAG_AT(struct fab_opts, cf.lat),
	  .help = "a latency test per pair after the bandwidth test" },
	{ "gpu", 0, "N|auto", OPT_CALL_AT(take_gpu), .help = "buffers in GPU memory (verbs)" },
	{ "ib-port", 0, "N", OPT_CALL_AT(take_ib_port), .help = "as in `rdmadoctor bw`" },
	{ "gid-index", 0, "N", OPT_CALL_AT(take_gid_index), .help = "as in `rdmadoctor bw`" },
	{ "bind", 0, "ADDR", OPT_CALL_AT(take_bind),
	  .help = "the address this rank serves on, connects from\n"
		  "and publishes (default: any, published as the host\n"
		  "name)" },
	{ "name", 0, "NAME", OPT_CALL_AT(take_name),
	  .help = "this rank's name in the report (default: the host name)" },
	{ "expect-gbps", 0, "X", OPT_CALL_AT(take_expect_gbps),
	  .help = "the floor per rail and direction (default: the\n"
		  "--profile's bw_floor_gbps, else 90% of the port\n"
		  "rate with verbs, none with tcp)" },
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct fab_opts, profile), .flags = OPT_NONEMPTY,
	  .help = "the machine profile whose floor applies" },
	{ "tolerance", 0, "F", OPT_CALL_AT(take_tolerance),
	  .help = "slow below F x the rail's median (default 0.93)" },
	{ "retest", 0, "N", OPT_CALL_AT(take_retest),
	  .help = "known-good partners per suspect end (default 1; 0:\n"
		  "no retest, and no slow pair re-run alone)" },
	{ "guard", 0, "S", OPT_SECONDS_AT(struct fab_opts, cf.guard_s, 0.05, 600),
	  .help = "each round's time beyond its test, for connecting,\n"
		  "setting up and draining (default 0.5; --load 2)" },
	{ "load", 0, "incast|alltoall", OPT_CALL_AT(take_load),
	  .help = "congestion rounds instead of pairs: incast, K\n"
		  "senders into one receiver per round; alltoall,\n"
		  "every node with every other at once.  Counters are\n"
		  "read around each round and each receiver is judged\n"
		  "lossless, lossy, no-ecn, unfair or slow" },
	{ "fan-in", 0, "K", OPT_CALL_AT(take_fan_in),
	  .help = "incast: senders per receiver (default every other\n"
		  "node)" },
	{ "tc", 0, "N", OPT_CALL_AT(take_tc),
	  .help = "the traffic class of the test's packets, as\n"
		  "NCCL_IB_TC (default with --load: DSCP 8P+2 of the\n"
		  "profile's PFC priority P, e.g. 106 for 3)" },
	{ "qp-timeout", 0, "N", OPT_CALL_AT(take_qp_timeout),
	  .help = "verbs: the QPs' ACK timeout, 4.096 us x 2^N, as\n"
		  "NCCL_IB_TIMEOUT (default 14, about 67 ms, as\n"
		  "perftest); a retransmit after it is a loss to --load" },
	{ "timeout", 0, "S", OPT_SECONDS_AT(struct fab_opts, cf.timeout_s, 1, 3600),
	  .help = "the longest a wait on other ranks may take: the\n"
		  "rendezvous, rank 0 fetching results (default 120)" },
	{ 0 }
};

const struct cmd_spec fabric_spec = {
	.name = "fabric",
	.opts = fabric_opts,
	.max_operands = 0,
	.usage =
	"usage: srun -N NODES --ntasks-per-node=1 --mpi=pmix \\\n"
	"           rdmadoctor [--json] fabric [OPTIONS]\n"
	"       mpirun -np NODES --map-by ppr:1:node --enable-recovery \\\n"
	"           rdmadoctor [--json] fabric [OPTIONS]\n",
	.about =
	"Bandwidth between every pair of nodes on every rail, in rounds of\n"
	"simultaneous pairs, one task per node, started by the job launcher (PMIx).\n"
	"Slow pairs are judged against the floor and against the median of their\n"
	"rail; their ends are retested against nodes that passed everything, each\n"
	"slow pair is re-run alone (slow again: confirmed; else cleared, not\n"
	"named), and the verdict names a node, a rail of a node, or a pair.  A\n"
	"rank that dies or never answers is named; the run goes on without it\n"
	"(Open MPI needs --enable-recovery for that).  Rank 0 prints the plan on\n"
	"stderr, a line per round, then the report.  docs/fabric.md explains it\n"
	"all.\n",
	.epilog =
	"--json: one document (schema, test \"fabric\", nodes, rounds, pairs,\n"
	"rails, suspects, cleared, verdict, reason; docs/json/fabric.md), whatever\n"
	"fails.\n"
	"Started outside a launcher it says how to start it (exit 2).\n"
	"\n"
	"With --load, every receiver and rail gets a verdict from its goodput and\n"
	"its ports' counters (PFC pauses, CNPs, drops, retransmits); see\n"
	"docs/fabric.md, \"Under load\".\n"
	"\n"
	"exit: 0 no suspects (--load: every receiver lossless), 1 suspects (--load:\n"
	"any other verdict), 2 usage, 3 could not run.\n",
};

static int parse(struct ctx *c, int argc, char **argv, struct fab_opts *o)
{
	struct bw_params *p = &o->bw.p;
	char why[128];
	int n, rc;

	memset(o, 0, sizeof(*o));
	bw_params_defaults(p, BW_MODE_BW);
	bw_caps_defaults(&o->bw.caps);
	o->duration_s = 2;
	o->warmup_s = 0.25;
	o->bw.ib_port = 1;
	o->bw.gid_index = -1;
	fab_conf_defaults(&o->cf);
	rc = opts_parse(c, &fabric_spec, argc, argv, o, &n);
	if (rc != CMD_GO_ON)
		return rc;
	p->duration_ms = (uint32_t)llround(o->duration_s * 1000);
	p->warmup_ms = (uint32_t)llround(o->warmup_s * 1000);
	if (fab_conf_finish(&o->cf, p, o->one_way, o->bw.gpu, why, sizeof(why)) < 0)
		return usage(c, "%s", why);
	fab_caps_fit(&o->bw.caps, p);
	o->bw.expect_gbps = o->cf.expect_gbps;
	if (o->profile) {
		rc = ctx_load_profile(c, "fabric", o->profile, &o->loaded, &o->pr);
		if (rc != CMD_GO_ON)
			return rc;
	}
	return CMD_GO_ON;
}

/* ---- this rank ---- */

struct fab_cmd {
	struct ctx *c;
	struct fab_opts *o;
	struct bw_setup setup;	/* the rails */
	char floor_why[192];	/* the floor's reason, when floor_of set one */
	struct fab_run r;
};

static int choose_rails(struct fab_cmd *fc)
{
	struct fab_opts *o = fc->o;
	struct bw_setup *s = &fc->setup;

	if (!o->cf.transport_set) {
		o->bw.p.transport = BW_TRANSPORT_TCP;
		if (bw_setup_collect(s) == EXIT_OK && s->pl.inv.n_nics)
			o->bw.p.transport = BW_TRANSPORT_VERBS;
	}
	if (o->bw.p.transport == BW_TRANSPORT_VERBS)
		o->bw.devices = o->rails ? o->rails : "all";
	else
		o->bw.devices = o->rails && strcmp(o->rails, "all") != 0 ? o->rails : NULL;
	return bw_setup_rails(s, o->bw.p.transport);
}

/* This rank's side of every pair test: bw's part here, the rest the run's. */
static void side_init(struct fab_cmd *fc)
{
	struct fab_opts *o = fc->o;
	struct fab_side *sd = &fc->r.side;

	/* every build has the verbs engine; the server side serves verbs too */
	o->bw.caps.has_verbs = true;
	sd->ib_port = o->bw.ib_port;
	sd->gid_index = o->bw.gid_index;
	sd->bind = o->bw.bind;
	sd->caps = &o->bw.caps;
	sd->p = o->bw.p;
	sd->transport = o->bw.p.transport;
	sd->rails = fc->setup.rs.rail;
	sd->n_rails = fc->setup.rs.n;
	fab_run_side(&fc->r, o->pr ? o->pr : fc->setup.have_inv ? fc->setup.pl.profile : NULL);
}

static double floor_of(struct fab_cmd *fc, const char **why)
{
	return fab_floor(fc->o->bw.expect_gbps, fc->o->pr, &fc->r.side, fc->setup.rs.min_rate,
			 fc->floor_why, sizeof(fc->floor_why), why);
}

static int report(struct fab_cmd *fc, double wall_s)
{
	struct fab_run *r = &fc->r;
	/* the test as run, or as asked when the run stopped before its setup */
	const struct bw_params *p = r->side.p.size ? &r->side.p : &fc->o->bw.p;
	struct fab_run_verdict v;
	const char *why;
	double floor = floor_of(fc, &why);
	int rc;

	if (fab_run_judge(r, p, wall_s, floor, why, &v) < 0) {
		fprintf(stderr, "%s fabric: out of memory\n", fc->c->prog);
		return EXIT_RUNTIME;
	}
	if (fc->c->json) {
		json_t *doc = fab_report_to_json(&v.rep);

		rc = doc ? ctx_emit_json(fc->c, doc) : EXIT_RUNTIME;
	} else {
		FILE *out = ctx_open_text(fc->c);

		rc = EXIT_RUNTIME;
		if (out) {
			fab_report_print(out, &v.rep);
			rc = ctx_close_text(fc->c, out);
		}
	}
	if (rc == EXIT_OK && r->cf->load)
		rc = r->error || strcmp(v.lj.verdict, "error") == 0 ? EXIT_RUNTIME :
		     strcmp(v.lj.verdict, "pass") != 0 ? EXIT_PROBLEMS : EXIT_OK;
	else if (rc == EXIT_OK)
		rc = r->error || v.j.could_not_run ? EXIT_RUNTIME : v.j.n_suspects ? EXIT_PROBLEMS
										   : EXIT_OK;
	fab_run_verdict_free(&v);
	return rc;
}

/* A step every rank needs failed: rank 0 still writes the report (one
 * JSON document whatever fails), with why. */
static int could_not_run(struct fab_cmd *fc)
{
	fab_run_broken(&fc->r);
	return fc->r.rank == 0 ? report(fc, bw_now() - fc->r.t_start) : EXIT_RUNTIME;
}

static int run(struct fab_cmd *fc)
{
	struct fab_run *r = &fc->r;
	struct fab_machine m = { 0 };
	const char *why;
	enum fab_end end;

	if (fab_run_open(r) < 0)
		return EXIT_RUNTIME;
	if (choose_rails(fc) != EXIT_OK) {
		fab_say(r, "cannot choose the rails (see above)");
		return could_not_run(fc);
	}
	side_init(fc);
	if (fab_meet(r) < 0)
		return could_not_run(fc);
	if (fab_run_schedule(r) < 0) {
		if (r->rank == 0)
			fprintf(stderr, "%s fabric: %s\n", fc->c->prog, r->error);
		/* a schedule every rank fails the same way: rank 0 reports it */
		return r->rank == 0 ? report(fc, bw_now() - r->t_start) : EXIT_RUNTIME;
	}
	if (r->rank == 0 && !fc->c->quiet) {
		struct fab_report plan;
		struct fab_load_report lp;

		fab_run_plan(r, &plan, &lp);
		fab_plan_print(stderr, &plan);
	}
	if (r->cf->load) {
		/* the counters around each round: the machine as check reads it */
		if (!fc->setup.collected)
			(void)bw_setup_collect(&fc->setup);
		m = (struct fab_machine){ fc->setup.have_inv ? &fc->setup.pl.r : NULL,
					  fc->setup.have_inv ? &fc->setup.pl.inv : NULL,
					  fc->setup.rs.rail, fc->setup.rs.nic, fc->setup.rs.n };
	}
	r->floor_gbps = floor_of(fc, &why);
	end = fab_run_go(r, &m);
	if (end == FAB_END_BROKEN)
		return could_not_run(fc);
	return end == FAB_END_FAILED ? EXIT_RUNTIME :
	       r->rank == 0 ? report(fc, bw_now() - r->t_start) : EXIT_OK;
}

/* A --pairs FILE that cannot be used, found before the rendezvous: a
 * usage error on every rank; with --json rank 0 (as the launcher numbers
 * it) still writes its one document, verdict error. */
static int bad_pairs(struct fab_cmd *fc)
{
	const char *rank = getenv("PMIX_RANK");

	fprintf(stderr, "%s fabric: %s\n(see `%s fabric --help`)\n", fc->c->prog,
		fc->r.error_buf, fc->c->prog);
	fc->r.error = fc->r.error_buf;
	/* report's exit (3: the run did not happen) gives way to the usage
	 * error; a document it could not write it has said so itself */
	if (fc->c->json && rank && strcmp(rank, "0") == 0)
		(void)report(fc, 0);
	return EXIT_USAGE;
}

int cmd_fabric(struct ctx *c, int argc, char **argv)
{
	struct fab_opts o;
	struct fab_cmd fc = { .c = c, .o = &o, .r = { .cf = &o.cf, .lfd = -1 } };
	int rc = parse(c, argc, argv, &o);

	if (rc != CMD_GO_ON) {
		if (o.pr == &o.loaded)
			profile_free(&o.loaded);
		return rc;
	}
	bw_setup_init(&fc.setup, c, "fabric", &o.bw);
	o.cf.prog = c->prog;
	o.cf.log = stderr;
	o.cf.verbose = c->verbose;
	o.cf.quiet = c->quiet;
	o.cf.show_round = fab_round_done_print;
	o.cf.show_retest = fab_retest_print;
	if (o.cf.pairs_file && fab_pairs_read(o.cf.pairs_file, &o.cf.pairs_text, &o.cf.pairs_len,
					      fc.r.error_buf, sizeof(fc.r.error_buf)) < 0) {
		rc = bad_pairs(&fc);
	} else if (!fab_pmix_launched()) {
		fab_launch_hint_print(stderr, c->prog);
		rc = EXIT_USAGE;
	} else {
		signal(SIGPIPE, SIG_IGN);
		rc = run(&fc);
		fab_run_free(&fc.r);
		bw_setup_free(&fc.setup);
	}
	if (o.pr == &o.loaded)
		profile_free(&o.loaded);
	free(o.cf.pairs_text);
	return rc;
}
