/* fabric: every pair of nodes on every rail, in rounds, one task per node
 * under a PMIx launcher (srun --mpi=pmix, mpirun).  How it runs:
 *
 *   1. each rank opens its bw listener and publishes its endpoint (name,
 *      address, port, rails, and a secret of its own that whoever
 *      connects to the listener must prove, fabric/pair_secret.h) through
 *      PMIx; a fence exchanges them; a rank missing after it never
 *      answered;
 *   2. every rank computes the same schedule (fabric/schedule.c; --pairs
 *      FILE was read before the rendezvous) and rank 0 prints it; rank 0
 *      hands out the first round's start time (handout(): a fence, or
 *      once fences fail, fetched from rank 0);
 *   3. round k runs in its own slot of wall-clock time from that start, so
 *      no rank waits for another between rounds: in each pair the lower
 *      node connects, both run the bw engine on every rail at once, and the
 *      slot's end stops the test whatever a peer does (cmd/fabric_test.c);
 *   4. each rank publishes what it measured as a client; a bounded fence
 *      hands it to rank 0, or, once a fence failed (a rank died), rank 0
 *      asks the launcher for each rank's results in turn, within
 *      --timeout; a rank whose results do not come died or never
 *      answered, and is named;
 *   5. rank 0 plans the retest (fabric/judge.c) and hands it out with its
 *      start time; the others wait for it (a rank 0 that died ends them
 *      with an error), run it, and publish again;
 *   6. rank 0 judges everything, tells the others it has their results,
 *      and writes the report (print/fabric_out.c); the other ranks print
 *      nothing but errors.
 * docs/fabric.md is the how-to, docs/json/fabric.md the document. */
#include "fabric_cmd.h"
#include "fabric_load_run.h"
#include "../opt/opt_parse.h"
#include "../opt/opts.h"
#include "../fabric/judge.h"
#include "../fabric/load.h"
#include "../fabric/pmix.h"
#include "../fabric/report.h"
#include "../model/growbuf.h"
#include "../fabric/schedule.h"
#include "../fabric/wire.h"
#include "../print/fabric_out.h"
#include "../print/plural.h"
#include "../profiles/profile.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define KEY_EP "rdmadoctor.fabric.ep"
#define KEY_T0 "rdmadoctor.fabric.t0"
#define KEY_T1 "rdmadoctor.fabric.t1"
#define KEY_RES1 "rdmadoctor.fabric.res1"
#define KEY_RES2 "rdmadoctor.fabric.res2"
#define KEY_RETEST "rdmadoctor.fabric.retest"
#define KEY_DONE "rdmadoctor.fabric.done"
/* how much longer than --timeout the other ranks wait for rank 0, which
 * itself waits up to --timeout for a rank's results */
#define FAB_RANK0_EXTRA_S 10
/* a fence after the rounds: how long it may take (capped by --timeout)
 * before the run goes on without fences */
#define FAB_FENCE_S 10
/* the slot of a round beyond its test (connect, endpoints, results), by
 * default */
#define FAB_GUARD_S 0.5
/* The same under --load: K senders' queues (on tcp, their socket buffers)
 * drain through one port after the window. */
#define FAB_LOAD_GUARD_S 2.0
/* rank 0's start time is this far after it publishes it: the others ask
 * rank 0 for it every 50 ms or so (fabric/pmix.c), and a rank that learns
 * it late would start its first round late */
#define FAB_LEAD_S 0.5

enum fab_mode { MODE_DEFAULT, MODE_FULL, MODE_QUICK, MODE_PAIRS };

struct fab_opts {
	struct bw_cmd_opts bw;	/* bind, device list, ib_port, gid_index, gpu, caps */
	enum fab_mode mode;
	const char *pairs_file, *name, *rails, *profile;
	/* --pairs FILE's text, read (and its form checked) before the
	 * launcher's rendezvous, so that a missing or malformed file stops
	 * every rank at once (exit 2) */
	char *pairs_text;
	size_t pairs_len;
	/* --profile, loaded before the launcher's rendezvous so that a
	 * mistyped one stops the run at once (exit 2), not after it */
	struct profile loaded;
	const struct profile *pr;
	bool transport_set, lat, one_way;
	double tolerance, timeout_s, guard_s, duration_s, warmup_s, expect_gbps;
	uint32_t retest;
	enum fab_load load;	/* --load: congestion rounds (cmd/fabric_load.c) */
	uint32_t fan_in;	/* --fan-in: senders per receiver, 0 every other */
	int traffic_class;	/* --tc, else the profile's PFC priority's; -1 none */
	uint32_t qp_timeout;	/* --qp-timeout; 0 perftest's */
	const char *tc_from;	/* where traffic_class came from */
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

/* A name for the report: printable, no blanks, no '#' (a comment in the
 * --pairs format, which also carries the retest plan), 1 to 64 bytes. */
static bool printable_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > FAB_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f || s[i] == '#')
			return false;
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
		o->mode = MODE_FULL;
	else if (strcmp(v, "quick") == 0)
		o->mode = MODE_QUICK;
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
	o->transport_set = true;
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
	return take_u32(v, 0, 16, &((struct fab_opts *)args)->retest) ? CMD_GO_ON :
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
	if (strlen(v) > FAB_ADDR_MAX || !printable_name(v))
		return usage(c, "--bind takes an address, not '%s'", v);
	((struct fab_opts *)args)->bw.bind = v;
	return CMD_GO_ON;
}

static int take_name(struct ctx *c, void *args, const char *v)
{
	if (!printable_name(v))
		return usage(c, "--name takes 1 to 64 printable characters without blanks "
			     "or '#', not '%s'", v);
	((struct fab_opts *)args)->name = v;
	return CMD_GO_ON;
}

static int take_expect_gbps(struct ctx *c, void *args, const char *v)
{
	return opt_parse_number(v, 0, 1e6, &((struct fab_opts *)args)->expect_gbps) ? CMD_GO_ON :
		usage(c, "--expect-gbps takes a floor in Gb/s from 0 to 1e6, not '%s'", v);
}

static int take_tolerance(struct ctx *c, void *args, const char *v)
{
	return opt_parse_number(v, 0, 1, &((struct fab_opts *)args)->tolerance) ? CMD_GO_ON :
		usage(c, "--tolerance takes a fraction of the rail's median from 0 to 1, "
		      "not '%s'", v);
}

static int take_load(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	if (strcmp(v, "incast") == 0)
		o->load = FAB_LOAD_INCAST;
	else if (strcmp(v, "alltoall") == 0)
		o->load = FAB_LOAD_ALLTOALL;
	else
		return usage(c, "--load '%s': give incast or alltoall", v);
	return CMD_GO_ON;
}

static int take_fan_in(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	return take_u32(v, 1, 4096, &o->fan_in) ? CMD_GO_ON :
	       usage(c, "--fan-in '%s': give senders per receiver, 1 to 4096", v);
}

static int take_tc(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;
	uint32_t tc;

	if (!take_u32(v, 0, 255, &tc))
		return usage(c, "--tc '%s': give a traffic class 0-255 (NCCL_IB_TC's, e.g. 106 for "
			     "DSCP 26)", v);
	o->traffic_class = (int)tc;
	o->tc_from = "--tc";
	return CMD_GO_ON;
}

static int take_qp_timeout(struct ctx *c, void *args, const char *v)
{
	struct fab_opts *o = args;

	return take_u32(v, 1, 31, &o->qp_timeout) ? CMD_GO_ON :
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
	{ "pairs", 0, "FILE", OPT_STRING_AT(struct fab_opts, pairs_file), .flags = OPT_NONEMPTY,
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
	{ "lat", 0, NULL, OPT_FLAG_AT(struct fab_opts, lat),
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
	  .help = "known-good partners per suspect end (default 1; 0: none)" },
	{ "guard", 0, "S", OPT_SECONDS_AT(struct fab_opts, guard_s, 0.05, 600),
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
	{ "timeout", 0, "S", OPT_SECONDS_AT(struct fab_opts, timeout_s, 1, 3600),
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
	"rail; their ends are retested against nodes that passed everything, and\n"
	"the verdict names a node, a rail of a node, or a pair.  A rank that dies\n"
	"or never answers is named; the run goes on without it (Open MPI needs\n"
	"--enable-recovery for that).  Rank 0 prints the plan on stderr, a line\n"
	"per round, then the report.  docs/fabric.md explains it all.\n",
	.epilog =
	"--json: one document (schema, test \"fabric\", nodes, rounds, pairs,\n"
	"rails, suspects, verdict, reason; docs/json/fabric.md), whatever fails.\n"
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
	int n, rc;

	memset(o, 0, sizeof(*o));
	bw_params_defaults(p, BW_MODE_BW);
	bw_caps_defaults(&o->bw.caps);
	o->duration_s = 2;
	o->warmup_s = 0.25;
	o->bw.ib_port = 1;
	o->bw.gid_index = -1;
	o->expect_gbps = NAN;
	o->tolerance = 0.93;
	o->timeout_s = 120;
	o->guard_s = NAN;	/* FAB_GUARD_S, or FAB_LOAD_GUARD_S with --load */
	o->retest = 1;
	o->traffic_class = -1;
	rc = opts_parse(c, &fabric_spec, argc, argv, o, &n);
	if (rc != CMD_GO_ON)
		return rc;
	p->duration_ms = (uint32_t)llround(o->duration_s * 1000);
	p->warmup_ms = (uint32_t)llround(o->warmup_s * 1000);
	p->bidir = !o->one_way;
	if (isnan(o->guard_s))
		o->guard_s = o->load ? FAB_LOAD_GUARD_S : FAB_GUARD_S;
	if (o->load) {
		if (o->pairs_file || o->mode != MODE_DEFAULT)
			return usage(c, "%s", "--load makes its own rounds: no --pairs or --mode");
		if (o->lat || o->one_way)
			return usage(c, "%s", "--load runs bandwidth only: no --lat or --one-way");
		/* incast: the senders send; alltoall: both ways, every pair */
		p->bidir = o->load == FAB_LOAD_ALLTOALL;
		o->retest = 0;
	} else if (o->fan_in) {
		return usage(c, "%s", "--fan-in goes with --load incast");
	}
	if (o->fan_in && o->load == FAB_LOAD_ALLTOALL)
		return usage(c, "%s", "--fan-in goes with --load incast");
	/* every rank runs this one command line: a pair's server takes what
	 * its --size, --qps and --duration ask even past bw server's defaults
	 * (sized for a stranger's link test) */
	if (p->size > o->bw.caps.max_size)
		o->bw.caps.max_size = p->size;
	if ((uint64_t)p->warmup_ms + p->duration_ms > o->bw.caps.max_duration_ms)
		o->bw.caps.max_duration_ms = p->warmup_ms + p->duration_ms;
	if (bw_params_memory(p, BW_RAILS_MAX) > o->bw.caps.max_memory)
		o->bw.caps.max_memory = bw_params_memory(p, BW_RAILS_MAX);
	o->bw.expect_gbps = o->expect_gbps;
	if (o->pairs_file && o->mode != MODE_DEFAULT)
		return usage(c, "%s", "--pairs and --mode are either-or");
	if (o->pairs_file)
		o->mode = MODE_PAIRS;
	if (o->bw.gpu && p->transport == BW_TRANSPORT_TCP && o->transport_set)
		return usage(c, "%s", "--gpu needs the verbs transport");
	if (o->profile) {
		rc = ctx_load_profile(c, "fabric", o->profile, &o->loaded, &o->pr);
		if (rc != CMD_GO_ON)
			return rc;
	}
	return CMD_GO_ON;
}

/* Read --pairs FILE and check its form.  0, or -1 with why in err. */
static int load_pairs(struct fab_opts *o, char *err, size_t errsz)
{
	FILE *f = fopen(o->pairs_file, "re");
	struct fab_schedule form;
	char perr[200];
	size_t cap = 1 << 20;

	if (!f) {
		snprintf(err, errsz, "cannot open --pairs '%s': %s", o->pairs_file,
			 strerror(errno));
		return -1;
	}
	o->pairs_text = malloc(cap);
	if (o->pairs_text)
		o->pairs_len = fread(o->pairs_text, 1, cap, f);
	if (!o->pairs_text || ferror(f) || o->pairs_len == cap) {
		snprintf(err, errsz, "--pairs '%s': %s", o->pairs_file,
			 !o->pairs_text ? "out of memory" : ferror(f) ? "cannot read it" :
			 "over 1 MiB");
		fclose(f);
		return -1;
	}
	fclose(f);
	if (fab_schedule_parse(o->pairs_text, o->pairs_len, NULL, 0, &form, perr,
			       sizeof(perr)) < 0) {
		snprintf(err, errsz, "--pairs '%s': %s", o->pairs_file, perr);
		return -1;
	}
	return 0;
}

/* ---- this rank ---- */

struct fab_run {
	struct ctx *c;
	struct fab_opts *o;
	char floor_why[192];	/* the floor's reason, when floor_of set one */
	uint32_t rank, size;
	bool pmix_up;
	bool fence_broken;	/* a fence after the rounds failed: none is tried again */
	int lfd;
	unsigned char secret[FAB_SECRET_LEN];	/* what a partner proves to lfd */
	struct bw_cmd_setup setup;	/* the rails */
	struct fab_side side;
	struct fab_endpoint *eps;	/* size */
	struct fab_node *nodes;		/* size */
	char **names;			/* size, unique */
	struct fab_schedule main_rounds, retest_rounds;
	struct fab_result *mine;	/* what this rank measured as a client */
	size_t n_mine, cap_mine;
	struct fab_result *all;		/* everybody's, rank 0 after the last fence */
	size_t n_all;
	struct fab_results *decoded;	/* per rank, owning the error texts */
	double slot_s, t_start;
	const char *error;		/* the run could not finish */
	char error_buf[300];
	bool named;			/* nodes[] are filled (the rendezvous went well) */
	struct fab_load_run lr;		/* --load (cmd/fabric_load_run.c) */
};

/* An error on stderr; the first one is also why the run could not
 * finish, should it not. */
static void say(struct fab_run *r, const char *msg)
{
	fprintf(stderr, "%s fabric: rank %u: %s\n", r->c->prog, r->rank, msg);
	if (!r->error_buf[0])
		snprintf(r->error_buf, sizeof(r->error_buf), "rank %u: %s", r->rank, msg);
}

static double now_real(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until a wall-clock time (rounds are slots of wall-clock time, the
 * same on every node whose clock is synchronised). */
static void sleep_until(double t)
{
	for (;;) {
		double d = t - now_real();
		struct timespec ts;

		if (d <= 0)
			return;
		ts.tv_sec = (time_t)d;
		ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

static int choose_rails(struct fab_run *r)
{
	struct fab_opts *o = r->o;
	struct bw_cmd_setup *s = &r->setup;
	int rc;

	s->c = r->c;
	s->cmd = "fabric";
	s->o = &o->bw;
	s->min_rate = NAN;
	if (!o->transport_set) {
		o->bw.p.transport = BW_TRANSPORT_TCP;
		if (bw_cmd_collect(s) == EXIT_OK && s->pl.inv.n_nics)
			o->bw.p.transport = BW_TRANSPORT_VERBS;
	}
	if (o->bw.p.transport == BW_TRANSPORT_VERBS) {
		o->bw.devices = o->rails ? o->rails : "all";
		rc = bw_cmd_verbs_rails(s);
	} else {
		o->bw.devices = o->rails && strcmp(o->rails, "all") != 0 ? o->rails : NULL;
		rc = bw_cmd_tcp_rails(s);
	}
	return rc;
}

static void side_init(struct fab_run *r)
{
	struct fab_side *sd = &r->side;

	/* every build has the verbs engine; the server side serves verbs too */
	r->o->bw.caps.has_verbs = true;
	sd->o = &r->o->bw;
	sd->p = r->o->bw.p;
	sd->transport = r->o->bw.p.transport;
	sd->rails = r->setup.rail;
	sd->n_rails = r->setup.n;
	sd->prog = r->c->prog;
	sd->lat = r->o->lat;
	bw_params_defaults(&sd->lat_p, BW_MODE_LAT);
	sd->lat_p.transport = sd->transport;
	sd->lat_p.duration_ms = 300;
	sd->lat_p.warmup_ms = 50;
	if (r->o->load && r->o->traffic_class < 0) {
		/* the class whose DSCP the usual map puts on the profile's PFC
		 * priority P: DSCP 8P+2 (26 for 3, NVIDIA's RoCE default), ECT(0) */
		const struct profile *pr = r->o->pr ? r->o->pr :
					   r->setup.have_inv ? r->setup.pl.profile : NULL;
		int prio = pr ? pr->role[ROLE_RAIL].pfc_priority : -1;

		r->o->traffic_class = prio >= 0 ? ((8 * prio + 2) << 2) | 2 : 0;
		r->o->tc_from = prio >= 0 ? "the profile's PFC priority" : "the device's default";
	}
	sd->traffic_class = (uint8_t)(r->o->traffic_class > 0 ? r->o->traffic_class : 0);
	sd->qp_timeout = (uint8_t)r->o->qp_timeout;
	r->slot_s = (sd->p.warmup_ms + sd->p.duration_ms) / 1e3 + r->o->guard_s +
		    (sd->lat ? (sd->lat_p.warmup_ms + sd->lat_p.duration_ms) / 1e3 + 0.1 : 0);
	/* a longer ACK timeout than perftest's: room for a last packet lost
	 * and sent again (the pair test's own bound, fabric_test.c) */
	if (r->o->qp_timeout > BW_QP_TIMEOUT_DEFAULT)
		r->slot_s += 4.096e-6 * (double)(1u << r->o->qp_timeout);
}

static int listen_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return -1;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* ---- the rendezvous ---- */

/* A fence of every rank, within --timeout: the launcher leaves a rank that
 * died out (Open MPI with --enable-recovery, Slurm).  When one dies just
 * as the fence forms, the fence may time out: it is tried again, three
 * tries in all. */
static int fence_live(struct fab_run *r, char *err, size_t errsz)
{
	int per = (int)(r->o->timeout_s / 3), rc = -1;

	for (int attempt = 0; attempt < 3 && rc < 0; attempt++)
		rc = fab_pmix_fence(per < 1 ? 1 : per, true, err, errsz);
	return rc;
}

/* Publish text (malloc'd, freed here; NULL: out of memory) under key for
 * every rank.  0, or -1 with the error said. */
static int publish(struct fab_run *r, const char *key, char *text)
{
	char err[256];
	int rc;

	if (!text) {
		say(r, "out of memory");
		return -1;
	}
	rc = fab_pmix_put(key, text, err, sizeof(err));
	free(text);
	if (rc < 0)
		say(r, err);
	return rc;
}

static int publish_endpoint(struct fab_run *r)
{
	struct fab_endpoint ep = { .t0 = 0 };
	char host[256] = "", *pmix_host = fab_pmix_hostname();
	struct bw_err e = { "" };
	int port;

	const char *name, *addr;

	gethostname(host, sizeof(host) - 1);
	name = r->o->name ? r->o->name : pmix_host && printable_name(pmix_host) ? pmix_host : host;
	addr = r->o->bw.bind ? r->o->bw.bind : host;
	if (strlen(name) > FAB_NAME_MAX || strlen(addr) > FAB_ADDR_MAX || !printable_name(name)) {
		free(pmix_host);
		say(r, "this host's name is not a name of 1 to 64 printable characters: give "
		    "--name NAME and --bind ADDR");
		return -1;
	}
	memcpy(ep.name, name, strlen(name) + 1);
	memcpy(ep.addr, addr, strlen(addr) + 1);
	free(pmix_host);
	r->lfd = bw_listen(r->o->bw.bind, 0, 256, &e);
	if (r->lfd < 0) {
		say(r, e.msg);
		return -1;
	}
	port = listen_port(r->lfd);
	if (port <= 0) {
		say(r, "cannot read the listener's port");
		return -1;
	}
	if (fab_secret_new(r->secret) < 0) {
		char msg[200];

		snprintf(msg, sizeof(msg), "cannot read random bytes for the pairing secret: %s",
			 strerror(errno));
		say(r, msg);
		return -1;
	}
	memcpy(ep.secret, r->secret, sizeof(ep.secret));
	ep.port = (uint16_t)port;
	ep.n_rails = r->setup.n;
	snprintf(ep.transport, sizeof(ep.transport), "%s", bw_transport_name(r->side.transport));
	return publish(r, KEY_EP, fab_endpoint_encode(&ep));
}

/* Names as the report gives them: unique (a name twice, as for several
 * ranks on one host, gets ":rank"). */
static int name_nodes(struct fab_run *r)
{
	for (uint32_t i = 0; i < r->size; i++) {
		bool dup = false;

		for (uint32_t k = 0; k < r->size && !dup; k++)
			dup = k != i && r->nodes[k].state != FAB_NODE_NEVER &&
			      r->nodes[i].state != FAB_NODE_NEVER &&
			      strcmp(r->eps[k].name, r->eps[i].name) == 0;
		r->names[i] = malloc(FAB_NAME_MAX + 16);
		if (!r->names[i])
			return -1;
		if (r->nodes[i].state == FAB_NODE_NEVER)
			snprintf(r->names[i], FAB_NAME_MAX + 16, "rank%u", i);
		else if (dup)
			snprintf(r->names[i], FAB_NAME_MAX + 16, "%s:%u", r->eps[i].name, i);
		else
			snprintf(r->names[i], FAB_NAME_MAX + 16, "%s", r->eps[i].name);
		r->nodes[i].name = r->names[i];
	}
	r->named = true;
	return 0;
}

static int gather_endpoints(struct fab_run *r)
{
	char err[256];
	bool tcp = false;

	if (fence_live(r, err, sizeof(err)) < 0) {
		say(r, err);
		return -1;
	}
	for (uint32_t i = 0; i < r->size; i++) {
		char *t = fab_pmix_get(i, KEY_EP);

		r->nodes[i].rank = i;
		r->nodes[i].state = FAB_NODE_NEVER;
		if (t && fab_endpoint_decode(t, strlen(t), &r->eps[i], err, sizeof(err)) == 0) {
			r->nodes[i].state = FAB_NODE_OK;
			r->nodes[i].n_rails = r->eps[i].n_rails;
			tcp |= strcmp(r->eps[i].transport, "tcp") == 0;
		} else if (t && r->rank == 0) {
			fprintf(stderr, "%s fabric: rank %u's endpoint is broken: %s\n",
				r->c->prog, i, err);
		}
		free(t);
	}
	/* one transport for all: tcp when any node cannot run verbs */
	if (tcp && r->side.transport == BW_TRANSPORT_VERBS) {
		if (r->o->transport_set) {
			say(r, "--transport verbs, but some nodes can only run tcp");
			return -1;
		}
		r->side.transport = r->side.p.transport = r->side.lat_p.transport = BW_TRANSPORT_TCP;
		r->side.n_rails = 1;
		for (uint32_t i = 0; i < r->size; i++)
			r->nodes[i].n_rails = 1;
	}
	return name_nodes(r);
}

/* What rank 0 published under key, waited for while rank 0 may itself
 * wait --timeout for the others; NULL with an error said when it did not
 * come. */
static char *from_rank0(struct fab_run *r, const char *key, const char *what)
{
	bool gone;
	double deadline = bw_now() + r->o->timeout_s + FAB_RANK0_EXTRA_S;
	char *text = fab_pmix_get_wait(0, key, deadline, &gone), msg[200];

	if (!text) {
		snprintf(msg, sizeof(msg), "rank 0 sent no %s %s", what,
			 gone ? "(it is gone: it died or was killed)" :
				"within the time given (--timeout): it died or hangs");
		say(r, msg);
	}
	return text;
}

/* A fence of every rank after the rounds, within FAB_FENCE_S: what was
 * published before it is then here, fresh (a launcher may serve a rank's
 * data once, without what it published later: Slurm's does).  Once a rank
 * died the launcher may keep a fence waiting for it (Open MPI 4.1) or fail
 * it; then no fence is tried again and the ranks fetch from each other
 * (fab_pmix_get_wait), which Open MPI serves.  0, or -1. */
static int sync_all(struct fab_run *r)
{
	char err[256];
	int t = (int)(r->o->timeout_s < FAB_FENCE_S ? r->o->timeout_s : FAB_FENCE_S);

	if (r->fence_broken)
		return -1;
	if (fab_pmix_fence(t, true, err, sizeof(err)) == 0)
		return 0;
	r->fence_broken = true;
	if (r->c->verbose)
		say(r, err);
	return -1;
}

/* Rank 0 hands text (malloc'd, rank 0's; NULL elsewhere) out under key;
 * the others get it in *got (malloc'd).  0, or -1 with the error said. */
static int handout(struct fab_run *r, const char *key, char *text, char **got, const char *what)
{
	*got = NULL;
	if (r->rank == 0 && publish(r, key, text) < 0)
		return -1;
	if (sync_all(r) == 0 && r->rank != 0)
		*got = fab_pmix_get(0, key);
	if (r->rank != 0 && !*got)
		*got = from_rank0(r, key, what);
	return r->rank == 0 || *got ? 0 : -1;
}

/* Rank 0's wall-clock start of the next rounds, handed out. */
static int agree_start(struct fab_run *r, const char *key, double *t)
{
	char buf[64], *text = NULL;

	if (r->rank == 0) {
		*t = now_real() + FAB_LEAD_S;
		snprintf(buf, sizeof(buf), "%.6f", *t);
		return handout(r, key, strdup(buf), &text, "start time");
	}
	if (handout(r, key, NULL, &text, "start time") < 0)
		return -1;
	*t = strtod(text, NULL);
	free(text);
	if (!isfinite(*t) || *t <= 0) {
		say(r, "rank 0's start time is broken");
		return -1;
	}
	return 0;
}

/* ---- the schedule ---- */

static int make_schedule(struct fab_run *r)
{
	uint32_t *alive = malloc(r->size * sizeof(*alive)), n = 0;
	struct fab_schedule s = { 0 };
	int rc = -1;

	if (!alive)
		return -1;
	for (uint32_t i = 0; i < r->size; i++)
		if (r->nodes[i].state == FAB_NODE_OK)
			alive[n++] = i;
	if (r->o->mode == MODE_PAIRS) {
		char err[200];

		/* the form was checked before the rendezvous; the names are
		 * the job's */
		rc = fab_schedule_parse(r->o->pairs_text, r->o->pairs_len,
					(const char *const *)r->names, r->size, &r->main_rounds,
					err, sizeof(err));
		if (rc < 0)
			snprintf(r->error_buf, sizeof(r->error_buf), "%s: %s", r->o->pairs_file,
				 err);
		goto out;
	}
	if (r->o->mode == MODE_DEFAULT)
		r->o->mode = n > FAB_FULL_MAX_NODES ? MODE_QUICK : MODE_FULL;
	rc = r->o->load == FAB_LOAD_INCAST ? fab_schedule_incast(n, r->o->fan_in, &s) :
	     r->o->load == FAB_LOAD_ALLTOALL ? fab_schedule_alltoall(n, &s) :
	     r->o->mode == MODE_QUICK ? fab_schedule_quick(n, &s) : fab_schedule_full(n, &s);
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

/* ---- the rounds ---- */

static int record(struct fab_run *r, const struct fab_result *x)
{
	struct fab_result *n = growbuf_reserve(r->mine, &r->cap_mine, r->n_mine + 1, sizeof(*n));

	if (!n)
		return -1;
	r->mine = n;
	r->mine[r->n_mine++] = *x;
	return 0;
}

static void run_round(struct fab_run *r, const struct fab_round *rd, uint32_t round, bool retest,
		      double start)
{
	double deadline;

	sleep_until(start);
	/* the slot's end in wall-clock time, whenever this rank got here */
	deadline = bw_now() + (start + r->slot_s - 0.05 - now_real());
	if (r->o->load) {
		char why[200];

		if (fab_load_run_round(&r->lr, &r->side, r->lfd, r->secret, rd, round, deadline,
				       &r->mine, &r->n_mine, &r->cap_mine, why, sizeof(why)) < 0)
			say(r, why);
		return;
	}
	for (size_t i = 0; i < rd->n_pairs; i++) {
		const struct fab_pair *p = &rd->pairs[i];
		uint32_t peer = p->a == r->rank ? p->b : p->a;
		const struct fab_endpoint *pe = &r->eps[peer];
		struct bw_err e = { "" };

		if (p->a != r->rank && p->b != r->rank)
			continue;
		if (p->b == r->rank) {
			/* the lower node connects and proves this rank's secret */
			struct fab_pair_key key = { r->secret, { peer, r->rank, round } };

			if (r->nodes[peer].state == FAB_NODE_OK &&
			    fab_test_server(&r->side, r->lfd, &key, deadline, &e) < 0 &&
			    r->c->verbose)
				say(r, e.msg);
			return;
		}
		{
			struct fab_measure m = { .lat_usec = NAN };
			struct fab_pair_key key = { pe->secret, { r->rank, peer, round } };
			uint32_t n = r->nodes[peer].n_rails < r->side.n_rails ?
				r->nodes[peer].n_rails : r->side.n_rails;
			int rc = -1;
			const char *err = NULL;

			if (n == 0)
				n = 1;
			if (r->nodes[peer].state == FAB_NODE_OK)
				rc = fab_test_client(&r->side, pe->addr, pe->port, n, &key, deadline, &m,
						     &e);
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
					say(r, "out of memory: a result is lost");
				}
			}
			if (r->c->verbose && rc < 0)
				say(r, e.msg);
		}
		return;
	}
}

static void run_rounds(struct fab_run *r, const struct fab_schedule *s, uint32_t first,
		       bool retest, double t)
{
	for (size_t k = 0; k < s->n_rounds; k++) {
		run_round(r, &s->rounds[k], first + (uint32_t)k, retest, t + (double)k * r->slot_s);
		if (r->rank == 0 && !r->c->quiet) {
			fprintf(stderr, "%s fabric: %sround %zu/%zu done (%zu %s), %.0f s left\n",
				r->c->prog, retest ? "retest " : "", k + 1, s->n_rounds,
				s->rounds[k].n_pairs, plural(s->rounds[k].n_pairs, "pair", "pairs"),
				(double)(s->n_rounds - k - 1) * r->slot_s);
			fflush(stderr);
		}
	}
}

/* Publish what this rank measured.  Rank 0 then fetches every rank's
 * results from the launcher, each within --timeout of now: a rank whose
 * results do not come is named as dead.  The fence before (sync_all) has
 * its own deadline, so a dead rank cannot hold it; when it failed, each
 * rank's results are asked of that rank itself. */
static int exchange_results(struct fab_run *r, const char *key, uint32_t n_rounds)
{
	char err[256];
	double deadline;
	bool fenced;

	if (publish(r, key, fab_results_encode(r->mine, r->n_mine)) < 0)
		return -1;
	fenced = sync_all(r) == 0;
	if (r->rank != 0)
		return 0;
	for (uint32_t i = 0; i < r->size; i++)
		fab_results_free(&r->decoded[i]);
	free(r->all);
	r->all = NULL;
	r->n_all = 0;
	deadline = bw_now() + r->o->timeout_s;
	for (uint32_t i = 0; i < r->size; i++) {
		bool gone = false;
		char *t;

		if (r->nodes[i].state != FAB_NODE_OK)
			continue;
		/* after a fence it is here, or the rank is gone: then asking
		 * its server tells which */
		t = fenced ? fab_pmix_get(i, key) : NULL;
		if (!t)
			t = fab_pmix_get_wait(i, key, deadline, &gone);
		if (!t) {
			fprintf(stderr, "%s fabric: %s (rank %u) gave no results: %s\n", r->c->prog,
				r->names[i], i, gone ? "it died" : "it never answered (--timeout)");
			r->nodes[i].state = FAB_NODE_DIED;
		} else if (fab_results_decode(t, strlen(t), i, r->size, n_rounds, BW_RAILS_MAX,
					      &r->decoded[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "%s fabric: %s (rank %u)'s results are broken: %s\n",
				r->c->prog, r->names[i], i, err);
			r->nodes[i].state = FAB_NODE_DIED;
		}
		free(t);
	}
	for (uint32_t i = 0; i < r->size; i++)
		r->n_all += r->decoded[i].n;
	r->all = calloc(r->n_all ? r->n_all : 1, sizeof(*r->all));
	if (!r->all) {
		say(r, "out of memory");
		return -1;
	}
	r->n_all = 0;
	for (uint32_t i = 0; i < r->size; i++)
		for (size_t k = 0; k < r->decoded[i].n; k++)
			r->all[r->n_all++] = r->decoded[i].r[k];
	return 0;
}

/* ---- the report ---- */

static double floor_of(struct fab_run *r, const char **why)
{
	const struct fab_opts *o = r->o;
	double f = NAN;

	*why = NULL;
	if (isfinite(o->bw.expect_gbps)) {
		*why = "--expect-gbps";
		return o->bw.expect_gbps;
	}
	/* bw's rule (bw_cmd_floor): the profile's bw_floor_gbps, else 90% of
	 * the port rate on verbs, at sizes of 64 KiB and up */
	if (r->side.p.size < BW_EXPECT_MIN_BYTES)
		return NAN;
	if (bw_cmd_floor(o->pr, r->side.transport == BW_TRANSPORT_VERBS ? r->setup.min_rate : NAN,
			 &f, r->floor_why, sizeof(r->floor_why))) {
		*why = r->floor_why;
		return f;
	}
	return NAN;
}

static int report(struct fab_run *r, double wall_s)
{
	/* the test as run, or as asked when the run stopped before its setup */
	const struct bw_params *p = r->side.p.size ? &r->side.p : &r->o->bw.p;
	struct fab_judgement j = { 0 };
	struct fab_report rep = {
		.nodes = r->nodes, .n_nodes = r->named ? r->size : 0, .results = r->all,
		.n_results = r->n_all,
		.main_rounds = &r->main_rounds, .retest_rounds = &r->retest_rounds,
		.transport = bw_transport_name(p->transport),
		.mode = r->o->mode == MODE_QUICK ? "quick" : r->o->mode == MODE_PAIRS ? "pairs" : "full",
		.size = p->size, .duration_s = p->duration_ms / 1e3, .warmup_s = p->warmup_ms / 1e3,
		.slot_s = r->slot_s, .wall_s = wall_s, .qps = p->qps, .bidir = p->bidir,
		.lat = r->o->lat, .tolerance = r->o->tolerance, .error = r->error,
	};
	struct fab_input in = { r->nodes, r->named ? r->size : 0, r->all, r->n_all, NAN,
				r->o->tolerance };
	struct fab_load_judgement lj = { 0 };
	struct fab_load_report lrep = {
		.mode = r->o->load, .fan_in = r->o->fan_in, .tc_from = r->o->tc_from,
		.traffic_class = r->o->traffic_class > 0 ? r->o->traffic_class : 0,
		.priority = fab_sampler_priority(&r->lr.smp, r->o->traffic_class > 0 ?
						 r->o->traffic_class : 0),
		.line_gbps = r->o->bw.expect_gbps, .ports = r->lr.all,
		.n_ports = r->lr.n_all, .j = &lj,
	};
	struct fab_load_input li = {
		r->o->load, r->nodes, r->named ? r->size : 0, r->all, r->n_all, r->lr.all,
		r->lr.n_all, lrep.priority, lrep.line_gbps, FAB_LOAD_GOODPUT_FRAC,
		FAB_LOAD_UNFAIR_FRAC,
	};
	int rc;

	in.floor_gbps = rep.floor_gbps = floor_of(r, &rep.floor_why);
	if (r->o->load) {
		/* the flows of a load round share a port by design: they are
		 * judged together, by receiver, not pair by pair */
		if (fab_load_judge(&li, &lj) < 0) {
			fprintf(stderr, "%s fabric: out of memory\n", r->c->prog);
			return EXIT_RUNTIME;
		}
		rep.load = &lrep;
		rep.mode = fab_load_name(r->o->load);
	} else if (fab_judge(&in, &j) < 0) {
		fprintf(stderr, "%s fabric: out of memory\n", r->c->prog);
		return EXIT_RUNTIME;
	} else {
		rep.j = &j;
	}
	if (r->c->json) {
		json_t *doc = fab_report_to_json(&rep);

		rc = doc ? ctx_emit_json(r->c, doc) : EXIT_RUNTIME;
	} else {
		FILE *out = ctx_open_text(r->c);

		rc = EXIT_RUNTIME;
		if (out) {
			fab_report_print(out, &rep);
			rc = ctx_close_text(r->c, out);
		}
	}
	if (rc == EXIT_OK && r->o->load)
		rc = r->error || strcmp(lj.verdict, "error") == 0 ? EXIT_RUNTIME :
		     strcmp(lj.verdict, "pass") != 0 ? EXIT_PROBLEMS : EXIT_OK;
	else if (rc == EXIT_OK)
		rc = r->error || j.could_not_run ? EXIT_RUNTIME : j.n_suspects ? EXIT_PROBLEMS
									       : EXIT_OK;
	fab_judgement_free(&j);
	fab_load_judgement_free(&lj);
	return rc;
}

/* ---- the whole run ---- */

/* The retest plan as rank 0 hands it out: the --pairs format, with the
 * report's names (unique, and without '#'), "" for none; malloc'd. */
static char *plan_text(const struct fab_run *r)
{
	struct {
		char *s;
		size_t len, cap;
	} t = { NULL, 0, 0 };

	for (size_t k = 0; k < r->retest_rounds.n_rounds; k++)
		for (size_t p = 0; p < r->retest_rounds.rounds[k].n_pairs; p++) {
			const struct fab_pair *x = &r->retest_rounds.rounds[k].pairs[p];
			size_t need = 2 * (FAB_NAME_MAX + 16) + 32;
			char *n = growbuf_reserve(t.s, &t.cap, t.len + need, 1);

			if (!n) {
				free(t.s);
				return NULL;
			}
			t.s = n;
			t.len += (size_t)snprintf(t.s + t.len, need, "%zu %s %s\n", k + 1,
						  r->names[x->a], r->names[x->b]);
		}
	return t.s ? t.s : strdup("");
}

/* Rank 0 plans the retest from everybody's results and publishes it with
 * its start; the others fetch both from rank 0. */
static int share_retest_plan(struct fab_run *r)
{
	char err[256], *text = NULL;
	int rc = 0;

	if (r->rank == 0) {
		struct fab_input in = { r->nodes, r->size, r->all, r->n_all, NAN,
					r->o->tolerance };
		const char *why;

		in.floor_gbps = floor_of(r, &why);
		if (fab_retest_plan(&in, r->o->retest, &r->retest_rounds) < 0) {
			say(r, "out of memory planning the retest");
			return -1;
		}
		return handout(r, KEY_RETEST, plan_text(r), &text, "retest plan");
	}
	if (handout(r, KEY_RETEST, NULL, &text, "retest plan") < 0)
		return -1;
	if (*text && fab_schedule_parse(text, strlen(text), (const char *const *)r->names,
					r->size, &r->retest_rounds, err, sizeof(err)) < 0) {
		char msg[320];

		snprintf(msg, sizeof(msg), "rank 0's retest plan is broken: %s", err);
		say(r, msg);
		rc = -1;
	}
	free(text);
	return rc;
}

static int retest(struct fab_run *r)
{
	double t1;

	if (share_retest_plan(r) < 0)
		return -1;
	if (!r->retest_rounds.n_rounds)
		return 0;
	if (r->rank == 0 && !r->c->quiet) {
		size_t pairs = fab_schedule_pairs(&r->retest_rounds);

		fprintf(stderr, "%s fabric: retest: %zu %s in %zu %s\n", r->c->prog, pairs,
			plural(pairs, "pair", "pairs"), r->retest_rounds.n_rounds,
			plural(r->retest_rounds.n_rounds, "round", "rounds"));
		for (size_t k = 0; k < r->retest_rounds.n_rounds; k++) {
			fprintf(stderr, "%s fabric: retest round %zu:", r->c->prog, k + 1);
			for (size_t p = 0; p < r->retest_rounds.rounds[k].n_pairs; p++)
				fprintf(stderr, " %s-%s",
					r->names[r->retest_rounds.rounds[k].pairs[p].a],
					r->names[r->retest_rounds.rounds[k].pairs[p].b]);
			fputc('\n', stderr);
		}
	}
	if (agree_start(r, KEY_T1, &t1) < 0)
		return -1;
	run_rounds(r, &r->retest_rounds, (uint32_t)r->main_rounds.n_rounds, true, t1);
	return exchange_results(r, KEY_RES2,
				(uint32_t)(r->main_rounds.n_rounds + r->retest_rounds.n_rounds));
}

/* Rank 0 has everybody's results: it says so, and the others, which wait
 * for that (so that their results stay with the launcher until fetched,
 * and a rank 0 that died is an error of theirs), end. */
static int finish(struct fab_run *r)
{
	char *text = NULL;
	int rc = handout(r, KEY_DONE, r->rank == 0 ? strdup("1") : NULL, &text,
			 "word that it has the results");

	free(text);
	/* rank 0's report comes all the same */
	return r->rank == 0 ? 0 : rc;
}

/* A step every rank needs failed: rank 0 still writes the report (one
 * JSON document whatever fails), with why. */
static int could_not_run(struct fab_run *r)
{
	if (!r->error_buf[0])
		snprintf(r->error_buf, sizeof(r->error_buf), "the run could not finish");
	r->error = r->error_buf;
	return r->rank == 0 ? report(r, bw_now() - r->t_start) : EXIT_RUNTIME;
}

static int run(struct fab_run *r)
{
	char err[256];
	double t0;

	if (fab_pmix_init(&r->rank, &r->size, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s fabric: %s\n", r->c->prog, err);
		return EXIT_RUNTIME;
	}
	r->pmix_up = true;
	r->t_start = bw_now();
	r->eps = calloc(r->size ? r->size : 1, sizeof(*r->eps));
	r->nodes = calloc(r->size ? r->size : 1, sizeof(*r->nodes));
	r->names = calloc(r->size ? r->size : 1, sizeof(*r->names));
	r->decoded = calloc(r->size ? r->size : 1, sizeof(*r->decoded));
	if (!r->eps || !r->nodes || !r->names || !r->decoded) {
		say(r, "out of memory");
		return EXIT_RUNTIME;
	}
	if (choose_rails(r) != EXIT_OK) {
		say(r, "cannot choose the rails (see above)");
		return could_not_run(r);
	}
	side_init(r);
	if (publish_endpoint(r) < 0 || gather_endpoints(r) < 0)
		return could_not_run(r);
	if (make_schedule(r) < 0) {
		if (r->rank == 0)
			fprintf(stderr, "%s fabric: %s\n", r->c->prog, r->error);
		/* a schedule every rank fails the same way: rank 0 reports it */
		return r->rank == 0 ? report(r, bw_now() - r->t_start) : EXIT_RUNTIME;
	}
	if (r->rank == 0 && !r->c->quiet) {
		struct fab_report plan = {
			.nodes = r->nodes, .n_nodes = r->size, .main_rounds = &r->main_rounds,
			.transport = bw_transport_name(r->side.transport), .slot_s = r->slot_s,
			.mode = r->o->load ? fab_load_name(r->o->load) :
				r->o->mode == MODE_QUICK ? "quick" :
				r->o->mode == MODE_PAIRS ? "pairs" : "full",
		};
		struct fab_load_report lp = { .mode = r->o->load };

		plan.load = r->o->load ? &lp : NULL;
		fab_plan_print(stderr, &plan);
	}
	if (r->o->load && fab_load_run_init(&r->lr, r->rank, r->size, r->eps, r->nodes, &r->setup,
					    r->side.transport) < 0) {
		say(r, "out of memory");
		return could_not_run(r);
	}
	if (agree_start(r, KEY_T0, &t0) < 0)
		return could_not_run(r);
	run_rounds(r, &r->main_rounds, 0, false, t0);
	/* the counters go with the results' fence; rank 0 takes them after */
	if (r->o->load && publish(r, FAB_KEY_LOAD, fab_load_run_text(&r->lr)) < 0)
		return could_not_run(r);
	if (exchange_results(r, KEY_RES1, (uint32_t)r->main_rounds.n_rounds) < 0)
		return could_not_run(r);
	if (r->o->load && r->rank == 0 &&
	    fab_load_run_gather(&r->lr, r->nodes, (uint32_t)r->main_rounds.n_rounds,
				r->c->prog) < 0) {
		say(r, "out of memory");
		return could_not_run(r);
	}
	if (r->o->retest && retest(r) < 0) {
		if (r->rank != 0)
			return EXIT_RUNTIME;
		snprintf(r->error_buf, sizeof(r->error_buf), "the retest could not run (see "
			 "rank messages); the first pass is reported");
		r->error = r->error_buf;
	}
	if (finish(r) < 0)
		return EXIT_RUNTIME;
	return r->rank == 0 ? report(r, bw_now() - r->t_start) : EXIT_OK;
}

static void run_free(struct fab_run *r)
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
	bw_cmd_setup_free(&r->setup);
	if (r->pmix_up)
		fab_pmix_finalize();
}

/* A --pairs FILE that cannot be used, found before the rendezvous: a
 * usage error on every rank; with --json rank 0 (as the launcher numbers
 * it) still writes its one document, verdict error. */
static int bad_pairs(struct fab_run *r)
{
	const char *rank = getenv("PMIX_RANK");

	fprintf(stderr, "%s fabric: %s\n(see `%s fabric --help`)\n", r->c->prog, r->error_buf,
		r->c->prog);
	r->error = r->error_buf;
	/* report's exit (3: the run did not happen) gives way to the usage
	 * error; a document it could not write it has said so itself */
	if (r->c->json && rank && strcmp(rank, "0") == 0)
		(void)report(r, 0);
	return EXIT_USAGE;
}

int cmd_fabric(struct ctx *c, int argc, char **argv)
{
	struct fab_opts o;
	struct fab_run r = { .c = c, .o = &o, .lfd = -1 };
	int rc = parse(c, argc, argv, &o);

	if (rc != CMD_GO_ON) {
		if (o.pr == &o.loaded)
			profile_free(&o.loaded);
		return rc;
	}
	if (o.pairs_file && load_pairs(&o, r.error_buf, sizeof(r.error_buf)) < 0) {
		rc = bad_pairs(&r);
	} else if (!fab_pmix_launched()) {
		fprintf(stderr,
			"%s fabric: not started by a PMIx launcher: start one task per node,\n"
			"  srun -N NODES --ntasks-per-node=1 --mpi=pmix %s fabric ...\n"
			"  mpirun -np NODES --map-by ppr:1:node --enable-recovery %s fabric ...\n"
			"(see `%s fabric --help`)\n", c->prog, c->prog, c->prog, c->prog);
		rc = EXIT_USAGE;
	} else {
		signal(SIGPIPE, SIG_IGN);
		rc = run(&r);
		run_free(&r);
	}
	if (o.pr == &o.loaded)
		profile_free(&o.loaded);
	free(o.pairs_text);
	return rc;
}
