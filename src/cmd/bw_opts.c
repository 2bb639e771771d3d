/* The command line of bw and lat: one option table (cmd/opts.h) gives the
 * parser and the --help of both, each option's value read by its take_*;
 * the rules that span options are bw/opts.c's. */
#include "bw_opts.h"
#include "../opt/opt_parse.h"
#include "../opt/opts.h"
#include "../bw/rails.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_sizes(const char *s, struct bw_opts *o)
{
	const char *dots = strstr(s, "..");
	char lo[32];
	uint64_t a, b;

	if (!dots || (size_t)(dots - s) >= sizeof(lo))
		return false;
	memcpy(lo, s, (size_t)(dots - s));
	lo[dots - s] = 0;
	if (!opt_parse_bytes(lo, 1ull << 30, &a) || !opt_parse_bytes(dots + 2, 1ull << 30, &b) ||
	    a > b)
		return false;
	if (a & (a - 1) || b & (b - 1))
		return false;	/* powers of two, as perftest -a */
	o->n_sizes = 0;
	for (uint64_t v = a; v <= b && o->n_sizes < 32; v *= 2)
		o->sizes[o->n_sizes++] = v;
	return true;
}

static bool parse_ms(const char *s, double min, double max, uint32_t *out)
{
	double v;

	if (!ctx_parse_seconds(s, min, max, &v))
		return false;
	*out = (uint32_t)llround(v * 1000);
	return true;
}


static int usage(struct ctx *c, const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int usage(struct ctx *c, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", c->prog, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see `%s %s --help`)\n", c->prog, cmd);
	return EXIT_USAGE;
}

/* ---- the options' values ---- */

static int bad(struct ctx *c, struct bw_opts *o, const char *opt, const char *v)
{
	return usage(c, o->cmd, "bad value '%s' for --%s", v, opt);
}

/* A whole number within [lo, hi] for --opt: CMD_GO_ON taken, EXIT_USAGE said. */
static int take_u(struct ctx *c, void *args, const char *opt, const char *v, uint64_t lo,
		  uint64_t hi, uint64_t *out)
{
	return opt_parse_u64(v, lo, hi, out) ? CMD_GO_ON : bad(c, args, opt, v);
}

static int take_ms(struct ctx *c, void *args, const char *opt, const char *v, double lo,
		   double hi, uint32_t *out)
{
	return parse_ms(v, lo, hi, out) ? CMD_GO_ON : bad(c, args, opt, v);
}

#define O(args) ((struct bw_opts *)(args))

static int take_port(struct ctx *c, void *a, const char *v)
{
	uint64_t n = 0;
	int rc = take_u(c, a, "port", v, 1, 65535, &n);

	O(a)->port = (uint16_t)n;
	O(a)->port_set = true;
	return rc;
}

static int take_timeout(struct ctx *c, void *a, const char *v)
{
	return ctx_parse_seconds(v, 0.1, 3600, &O(a)->timeout_s) ? CMD_GO_ON :
		bad(c, a, "timeout", v);
}

static int take_ib_port(struct ctx *c, void *a, const char *v)
{
	uint64_t n = 0;
	int rc = take_u(c, a, "ib-port", v, 1, 255, &n);

	O(a)->ib_port = (int)n;
	return rc;
}

static int take_gid_index(struct ctx *c, void *a, const char *v)
{
	uint64_t n = 0;
	int rc = take_u(c, a, "gid-index", v, 0, 255, &n);

	O(a)->gid_index = (int)n;
	return rc;
}

static int take_gpu(struct ctx *c, void *a, const char *v)
{
	uint64_t n;

	if (strcmp(v, "auto") != 0 && !opt_parse_u64(v, 0, 1023, &n))
		return bad(c, a, "gpu", v);
	O(a)->gpu = v;
	return CMD_GO_ON;
}

/* refused before any device is looked for */
static int take_devices(struct ctx *c, void *a, const char *v)
{
	if (!bw_rails_device_list_ok(v))
		return usage(c, O(a)->cmd, "--devices '%s': give all, or device names joined "
			     "by commas (mlx5_0,mlx5_1)", v);
	O(a)->devices = v;
	return CMD_GO_ON;
}

static int take_max_size(struct ctx *c, void *a, const char *v)
{
	O(a)->server_only = "max-size";
	return opt_parse_bytes(v, 1ull << 30, &O(a)->caps.max_size) ? CMD_GO_ON :
		bad(c, a, "max-size", v);
}

static int take_max_qps(struct ctx *c, void *a, const char *v)
{
	O(a)->server_only = "max-qps";
	uint64_t n = 0;
	int rc = take_u(c, a, "max-qps", v, 1, 65536, &n);

	O(a)->caps.max_qps = (uint32_t)n;
	return rc;
}

static int take_max_duration(struct ctx *c, void *a, const char *v)
{
	O(a)->server_only = "max-duration";
	return take_ms(c, a, "max-duration", v, 1, 24 * 3600, &O(a)->caps.max_duration_ms);
}

static int take_max_memory(struct ctx *c, void *a, const char *v)
{
	O(a)->server_only = "max-memory";
	return opt_parse_bytes(v, 1ull << 50, &O(a)->caps.max_memory) ? CMD_GO_ON :
		bad(c, a, "max-memory", v);
}

static int take_allow(struct ctx *c, void *a, const char *v)
{
	struct bw_err e;

	O(a)->server_only = "allow";
	if (O(a)->n_allow >= BW_ALLOW_MAX)
		return usage(c, O(a)->cmd, "at most %d --allow", BW_ALLOW_MAX);
	if (bw_allow_parse(v, &O(a)->allow[O(a)->n_allow], &e) < 0)
		return usage(c, O(a)->cmd, "--allow: %s", e.msg);
	O(a)->n_allow++;
	return CMD_GO_ON;
}

static int take_idle(struct ctx *c, void *a, const char *v)
{
	O(a)->server_only = "idle-timeout";
	return ctx_parse_seconds(v, 0.1, 3600, &O(a)->idle_s) ? CMD_GO_ON :
		bad(c, a, "idle-timeout", v);
}

static int take_transport(struct ctx *c, void *a, const char *v)
{
	if (strcmp(v, "tcp") != 0 && strcmp(v, "verbs") != 0)
		return bad(c, a, "transport", v);
	O(a)->p.transport = strcmp(v, "verbs") == 0 ? BW_TRANSPORT_VERBS : BW_TRANSPORT_TCP;
	O(a)->transport_set = true;
	return CMD_GO_ON;
}

static int take_op(struct ctx *c, void *a, const char *v)
{
	if (strcmp(v, "write") == 0)
		O(a)->p.op = BW_OP_WRITE;
	else if (strcmp(v, "read") == 0)
		O(a)->p.op = BW_OP_READ;
	else if (strcmp(v, "send") == 0)
		O(a)->p.op = BW_OP_SEND;
	else
		return bad(c, a, "op", v);
	O(a)->test_set |= BW_SET_OP;
	return CMD_GO_ON;
}

static int take_size(struct ctx *c, void *a, const char *v)
{
	if (!opt_parse_bytes(v, 1ull << 30, &O(a)->p.size))
		return bad(c, a, "size", v);
	O(a)->size_set = true;
	O(a)->test_set |= BW_SET_SIZE;
	return CMD_GO_ON;
}

static int take_sizes(struct ctx *c, void *a, const char *v)
{
	if (!parse_sizes(v, a))
		return bad(c, a, "sizes", v);
	O(a)->test_set |= BW_SET_SIZE;
	return CMD_GO_ON;
}

static int take_duration(struct ctx *c, void *a, const char *v)
{
	O(a)->test_set |= BW_SET_DURATION;
	return take_ms(c, a, "duration", v, 0.1, 24 * 3600, &O(a)->p.duration_ms);
}

static int take_warmup(struct ctx *c, void *a, const char *v)
{
	O(a)->warmup_set = true;
	O(a)->test_set |= BW_SET_WARMUP;
	return take_ms(c, a, "warmup", v, 0, 600, &O(a)->p.warmup_ms);
}

static int take_interval(struct ctx *c, void *a, const char *v)
{
	O(a)->test_set |= BW_SET_INTERVAL;
	return take_ms(c, a, "interval", v, 0.1, 60, &O(a)->p.interval_ms);
}

static int take_iters(struct ctx *c, void *a, const char *v)
{
	O(a)->test_set |= BW_SET_ITERS;
	return take_u(c, a, "iters", v, 1, 1ull << 40, &O(a)->p.iters);
}

static int take_u32(struct ctx *c, void *a, const char *opt, const char *v, uint64_t lo,
		    uint32_t *field, unsigned flag)
{
	uint64_t n = 0;
	int rc = take_u(c, a, opt, v, lo, 65536, &n);

	*field = (uint32_t)n;
	O(a)->test_set |= flag;
	return rc;
}

static int take_qps(struct ctx *c, void *a, const char *v)
{
	return take_u32(c, a, "qps", v, 1, &O(a)->p.qps, BW_SET_QPS);
}

static int take_tx_depth(struct ctx *c, void *a, const char *v)
{
	return take_u32(c, a, "tx-depth", v, 1, &O(a)->p.tx_depth, BW_SET_TX_DEPTH);
}

static int take_post_list(struct ctx *c, void *a, const char *v)
{
	return take_u32(c, a, "post-list", v, 1, &O(a)->p.post_list, BW_SET_POST_LIST);
}

static int take_cq_mod(struct ctx *c, void *a, const char *v)
{
	O(a)->cq_mod_set = true;
	return take_u32(c, a, "cq-mod", v, 1, &O(a)->p.cq_mod, BW_SET_CQ_MOD);
}

static int take_inline(struct ctx *c, void *a, const char *v)
{
	return take_u32(c, a, "inline", v, 0, &O(a)->p.inline_size, BW_SET_INLINE);
}

static int take_expect(struct ctx *c, void *a, const char *v)
{
	return opt_parse_number(v, 0, 1e6, &O(a)->expect_gbps) ? CMD_GO_ON :
		bad(c, a, "expect-gbps", v);
}

/* ---- the table ---- */

static const struct cmd_opt bw_opts[] = {
	/* the test: the same on both ends; on the server, checks */
	{ "transport", 0, "verbs|tcp", OPT_CALL_AT(take_transport),
	  .help = "default verbs when this host has an RDMA device, else\n"
		  "tcp; the server serves only the one given" },
	{ "op", 0, "write|read|send", OPT_CALL_AT(take_op),
	  .help = "RDMA operation (default write); tcp: read makes the\n"
		  "server send" },
	{ "size", 0, "B", OPT_CALL_AT(take_size),
	  .help = "bytes per message (default 65536 for bw, 2 for lat;\n"
		  "K, M, G suffixes)" },
	{ "sizes", 0, "A..B", OPT_CALL_AT(take_sizes),
	  .help = "sweep the powers of two from A to B (e.g. 2..8M)" },
	{ "duration", 0, "S", OPT_CALL_AT(take_duration), .help = "measured seconds (default 5)" },
	{ "warmup", 0, "S", OPT_CALL_AT(take_warmup),
	  .help = "seconds before the window (default 1; 0 with --iters)" },
	{ "iters", 0, "N", OPT_CALL_AT(take_iters),
	  .help = "N messages per QP/stream instead of a duration (lat:\n"
		  "N measured round trips after the warm-up)" },
	{ "interval", 0, "S", OPT_CALL_AT(take_interval),
	  .help = "per-interval sample length (default 1)" },
	{ "bidir", 0, NULL, OPT_FLAG_AT(struct bw_opts, p.bidir),
	  .help = "both sides send; each reports what it sent (bw)" },
	{ "qps", 0, "N", OPT_CALL_AT(take_qps),
	  .help = "queue pairs (verbs) or TCP connections (default 1)" },
	{ "streams", 0, "N", OPT_CALL_AT(take_qps), .help = "the same as --qps" },
	{ "tx-depth", 0, "N", OPT_CALL_AT(take_tx_depth),
	  .help = "outstanding work requests per QP (default 128)" },
	{ "post-list", 0, "N", OPT_CALL_AT(take_post_list),
	  .help = "work requests per post call (default 1)" },
	{ "cq-mod", 0, "N", OPT_CALL_AT(take_cq_mod),
	  .help = "one signaled completion in N (default as perftest: 100\n"
		  "up to 8 KiB and in a sweep, else 1)" },
	{ "inline", 0, "N", OPT_CALL_AT(take_inline),
	  .help = "messages up to N bytes go inline (default: bw 0, lat 220; 0 none)" },
	{ "expect-gbps", 0, "X", OPT_CALL_AT(take_expect),
	  .help = "fail (exit 1) when a rail's average at any size is\n"
		  "below X; by default verbs expects the bw_floor_gbps of\n"
		  "the profile check judges by (the site file's, else the\n"
		  "machine's) where it has one, else 90% of the port rate,\n"
		  "at sizes of 64 KiB and up; tcp nothing (verdict \"no\n"
		  "floor\": nothing judged).  The client sends it to the\n"
		  "server, which judges by it unless it has its own" },
	/* this host's side */
	{ "device", 0, "NAME", OPT_STRING_AT(struct bw_opts, device), .flags = OPT_NONEMPTY,
	  .needs = "a device name",
	  .help = "the RDMA device (verbs), or the netdev to bind (tcp)" },
	{ "devices", 0, "all|A,B", OPT_CALL_AT(take_devices),
	  .help = "one rail per device, all at once: a thread each,\n"
		  "pinned to the NIC's NUMA node; per-rail and total" },
	{ "ib-port", 0, "N", OPT_CALL_AT(take_ib_port), .help = "port of the device (default 1)" },
	{ "gid-index", 0, "N", OPT_CALL_AT(take_gid_index),
	  .help = "RoCE GID index (default: the RoCE v2 IPv4 GID on the\n"
		  "interface that reaches the peer)" },
	{ "gpu", 0, "N|auto", OPT_CALL_AT(take_gpu),
	  .help = "buffers in GPU memory (auto: the GPU nearest the NIC)" },
	{ "port", 0, "P", OPT_CALL_AT(take_port), .help = "control port (default 18516)" },
	{ "timeout", 0, "S", OPT_CALL_AT(take_timeout),
	  .help = "limit on every control step (default 10)" },
	{ "token", 0, "SECRET", OPT_STRING_AT(struct bw_opts, token_arg),
	  .help = "shared secret: the server serves only clients that\n"
		  "present it (printable, no spaces, up to 256; seen by\n"
		  "ps: prefer --token-file or RDMADOCTOR_TOKEN)" },
	{ "token-file", 0, "FILE", OPT_STRING_AT(struct bw_opts, token_file),
	  .help = "the shared secret from FILE's first line" },
	/* one host, two of its devices */
	{ "loopback", 0, NULL, OPT_FLAG_AT(struct bw_opts, loopback),
	  .help = "bw: server and client on two devices of this host,\n"
		  "through the switch: the pairs as A B [C D]... after\n"
		  "the options, else rail i with rail i + n/2 (see below)" },
	/* the server's own */
	{ "bind", 0, "ADDR", OPT_STRING_AT(struct bw_opts, bind),
	  .help = "server: listen on ADDR (tcp data connections too)" },
	{ "once", 0, NULL, OPT_FLAG_AT(struct bw_opts, once),
	  .help = "server: exit after the first client that ran a test,\n"
		  "with that test's exit code (1: below the floor, said)" },
	{ "allow", 0, "CIDR", OPT_CALL_AT(take_allow),
	  .help = "server: serve only peers in CIDR (10.0.0.0/8,\n"
		  "fd00::/64, an address); repeatable" },
	{ "open", 0, NULL, OPT_FLAG_AT(struct bw_opts, open),
	  .help = "server: serve anyone who reaches it, with neither\n"
		  "a token nor --allow (needed beyond --bind loopback)" },
	{ "idle-timeout", 0, "S", OPT_CALL_AT(take_idle),
	  .help = "server: cut a client that says nothing for S where\n"
		  "its token or next request is due (default 5)" },
	{ "max-size", 0, "B", OPT_CALL_AT(take_max_size),
	  .help = "server: cap on a client's message size (default 64M,\n"
		  "at most 1G)" },
	{ "max-qps", 0, "N", OPT_CALL_AT(take_max_qps),
	  .help = "server: cap on QPs/streams per rail (default 64)" },
	{ "max-duration", 0, "S", OPT_CALL_AT(take_max_duration),
	  .help = "server: cap on warm-up and window, and the hard limit\n"
		  "of an --iters test (default 60)" },
	{ "max-memory", 0, "B", OPT_CALL_AT(take_max_memory),
	  .help = "server: cap on the buffers of a test (default 2G)" },
	{ 0 }
};

#define BW_USAGE(cmd)                                                            \
	"usage: rdmadoctor [--json] " cmd " server [OPTIONS]\n"                  \
	"       rdmadoctor [--json] " cmd " client HOST [OPTIONS]\n"

#define BW_SERVER_RULES                                                          \
	"The test options (--transport to --expect-gbps) are the same on both\n" \
	"ends, as with perftest; on the server each one given is a check, not a\n" \
	"default: a client whose request differs is refused with the option\n" \
	"named.  --transport serves only that transport; --size/--sizes: the\n" \
	"client's size must be one of them; every other option: the client's\n" \
	"value must be the same.  Options not given leave the client free.\n" \
	"The server runs one test at a time, closes a client after two refused\n" \
	"requests, and keeps serving after a client that failed.  tcp tests: the\n" \
	"data connections are accepted on --bind's address, and only on\n" \
	"--device's interface when it names one.\n" \
	"\n" \
	"The server listens on every address (--bind: one).  Beyond loopback it\n" \
	"needs a way to tell its clients: a shared secret (--token-file FILE,\n" \
	"--token or the RDMADOCTOR_TOKEN environment variable, the same on both\n" \
	"ends, 12 to 256 printable characters: `openssl rand -hex 16` makes\n" \
	"one), --allow (a peer outside is refused before a byte of it is read),\n" \
	"or --open to serve anyone who connects, as perftest does, within its\n" \
	"--max-* caps.  The client presents its token first, and nothing is\n" \
	"allocated for it before it matched; a token file others can read is\n" \
	"said, an empty RDMADOCTOR_TOKEN refused.  An address that presents five\n" \
	"wrong tokens in a row waits 1 s, then twice as long at each further one\n" \
	"(up to 60 s).  Connections are heard several at a time (32, at most 8\n" \
	"from one address): one that says nothing holds nobody up, and is cut\n" \
	"after --idle-timeout.  A second client while a test runs is told at\n" \
	"once to try again in N s.  Every refusal is one line on the server's\n" \
	"stderr (peer address, reason; a flood of them is cut short, with the\n" \
	"count of lines left out); the client prints the reason, exit 3.\n"

#define BW_LOOPBACK_HELP                                                         \
	"bw --loopback tests the rails of this one host against each other, as\n" \
	"acceptance tests do without a second host.  Server and client run in\n" \
	"one process, each on its own RDMA device; the traffic leaves one NIC,\n" \
	"crosses the switch and enters the other, each NIC on its own address\n" \
	"(RoCE: the v2 GID of its netdev's IPv4 address; InfiniBand: its LID),\n" \
	"as in a job.  Name the pairs as device names after the options:\n" \
	"    rdmadoctor bw --loopback mlx5_0 mlx5_4 mlx5_1 mlx5_5\n" \
	"(the first of each pair sends), or name none: each rail with its\n" \
	"partner, rail i with rail i + n/2 of the n rails as `check` numbers\n" \
	"them (the NICs of the profile's rail role, in name order; an odd last\n" \
	"rail is left out, said on stderr).  Pairs run one after another, each\n" \
	"judged as bw judges a rail: --expect-gbps, else the profile's\n" \
	"bw_floor_gbps, else 90% of the slower port's rate (HDR 200G: 180\n" \
	"Gb/s).  --gpu auto puts each side's buffers on its NIC's nearest GPU.\n" \
	"The two sides talk over 127.0.0.1, on a port the kernel picks, with a\n" \
	"secret made for the run: nothing is opened to the network, and\n" \
	"--port, --token and the server's options do not apply.  One line per\n" \
	"pair on stderr as it starts (-q: none).  --json writes one document:\n" \
	"schema, test, role (loopback), pairs [a bw document per pair, role\n" \
	"loopback, with pair {from, to} {device, port, address, rate_gbps}],\n" \
	"verdict (pass, fail, error: a pair that could not run, no floor: a\n" \
	"pair with nothing to judge it by), reason.\n"

const struct cmd_spec bw_spec = {
	.name = "bw",
	.opts = bw_opts,
	.operands = "server | client HOST | --loopback [A B]...",
	.min_operands = 0,	/* counted in bw_cmd_parse: --loopback takes 0 */
	.max_operands = BW_RAILS_MAX,
	.usage = BW_USAGE("bw")
	"       rdmadoctor [--json] bw --loopback [OPTIONS] [A B]...\n",
	.about =
	"Bandwidth between two hosts, perftest-style (ib_write_bw), over RDMA\n"
	"(verbs: RC queue pairs) or TCP.  Start the server on one host, the client\n"
	"on the other; both print the result.  Figures are decimal Gb/s (10^9\n"
	"bit/s) of payload over the measured window (warm-up and drain excluded),\n"
	"with the minimum and maximum of the per-interval samples: a low minimum\n"
	"is a link that stalls or flaps.\n",
	.epilog =
	BW_SERVER_RULES
	"\n"
	"--json writes one document per client run (all sizes of a sweep; the\n"
	"server one per client it served): schema, test, role, transport, op,\n"
	"bidir, params, local, remote, results [{size_bytes, rails [{device, port,\n"
	"numa_node, gid_index, mtu_bytes, gpu, gpu_path, gbps {avg,min,max},\n"
	"msg_rate_mpps, cpu_user_s, cpu_sys_s, seconds, bytes, intervals_gbps}],\n"
	"total, remote_total, bidir_total}], expect_gbps, verdict (pass, fail,\n"
	"error, \"no floor\": nothing to judge by, the reason says so), reason.\n"
	"A client that could not finish writes the sizes that finished, verdict\n"
	"error and the reason.\n"
	"\n"
	BW_LOOPBACK_HELP
	"\n"
	"exit: 0 pass or no floor, 1 below the expectation, 2 usage, 3 could\n"
	"not run (--loopback: the worst pair's; server --once: its client's).\n",
};

const struct cmd_spec lat_spec = {
	.name = "lat",
	.opts = bw_opts,
	.operands = "server | client HOST",
	.min_operands = 1,
	.max_operands = 2,
	.usage = BW_USAGE("lat"),
	.about =
	"Latency between two hosts, perftest-style (ib_write_lat): a ping-pong of\n"
	"--size bytes (default 2), each round trip halved and reported as one-way\n"
	"min, p50, p99, p99.9 and max in microseconds over all samples of the\n"
	"measured window.  One QP/stream, no --bidir.\n",
	.epilog =
	BW_SERVER_RULES
	"\n"
	"--json adds latency_usec {min, p50, p99, p99_9, max, samples,\n"
	"samples_kept, truncated}.  A test without samples could not run (exit 3).\n"
	"\n"
	"exit: 0 ran, 2 usage, 3 could not run.\n",
};

int bw_cmd_parse(struct ctx *c, const char *cmd, enum bw_mode mode, int argc, char **argv,
		 struct bw_opts *o)
{
	const struct cmd_spec *spec = mode == BW_MODE_LAT ? &lat_spec : &bw_spec;
	char why[4096];
	int n, rc;

	bw_opts_defaults(o, cmd, mode);
	rc = opts_parse(c, spec, argc, argv, o, &n);
	if (rc >= 0)
		return rc;
	if (o->loopback) {
		if (bw_opts_loopback(o, mode, n, argv, c->prog, why, sizeof(why)) < 0)
			return usage(c, cmd, "%s", why);
		goto test;
	}
	if (n == 0) {
		fprintf(stderr, "%s %s: missing %s\n`%s %s --help` explains it\n", c->prog, cmd,
			"server | client HOST", c->prog, cmd);
		return EXIT_USAGE;
	}
	if (n > 2 && strcmp(argv[1], "client") == 0) {
		opts_say_unknown(c, spec, argv[3]);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "server") == 0) {
		if (n > 1)
			return usage(c, cmd, "unexpected argument '%s' after `server`", argv[2]);
		o->server = true;
	} else if (strcmp(argv[1], "client") == 0) {
		if (n < 2)
			return usage(c, cmd, "%s", "client needs the server's HOST");
		o->host = argv[2];
	} else {
		return usage(c, cmd, "unknown word '%s': say `server` or `client HOST`", argv[1]);
	}
	if (!o->server && (o->bind || o->once || o->open || o->server_only))
		return usage(c, cmd, "--%s is a server option",
			     o->bind ? "bind" : o->once ? "once" : o->open ? "open" : o->server_only);
	if (bw_opts_token(o, getenv("RDMADOCTOR_TOKEN"), why, sizeof(why)) < 0)
		return usage(c, cmd, "%s", why);
	if (bw_opts_exposure(o, why, sizeof(why)) < 0)
		return usage(c, cmd, "%s", why);
	if (o->token_warning[0])
		fprintf(stderr, "%s %s: warning: %s\n", c->prog, cmd, o->token_warning);
test:
	if (bw_opts_finish(o, mode, why, sizeof(why)) < 0)
		return usage(c, cmd, "%s", why);
	return CMD_GO_ON;
}
