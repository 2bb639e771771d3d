/* The command line of bw and lat: options, their checks, the help. */
#include "bw_cmd.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help_bw[] =
	"usage: rdmadoctor [--json] bw server [OPTIONS]\n"
	"       rdmadoctor [--json] bw client HOST [OPTIONS]\n"
	"\n"
	"Bandwidth between two hosts, perftest-style (ib_write_bw), over RDMA\n"
	"(verbs: RC queue pairs) or TCP.  Start the server on one host, the client\n"
	"on the other; both print the result.  Figures are decimal Gb/s (10^9\n"
	"bit/s) of payload over the measured window (warm-up and drain excluded),\n"
	"with the minimum and maximum of the per-interval samples: a low minimum\n"
	"is a link that stalls or flaps.\n"
	"\n"
	"test options (the same command line on both ends, as with perftest):\n"
	"  --transport verbs|tcp  default verbs when this host has an RDMA device,\n"
	"                     else tcp\n"
	"  --op write|read|send   RDMA operation (default write); tcp: read makes\n"
	"                     the server send\n"
	"  --size B           bytes per message (default 65536; K, M, G suffixes)\n"
	"  --sizes A..B       sweep the powers of two from A to B (e.g. 2..8M)\n"
	"  --duration S       measured seconds (default 5)\n"
	"  --warmup S         seconds before the window (default 1; 0 with --iters)\n"
	"  --iters N          N messages per QP/stream instead of a duration (lat:\n"
	"                     N measured round trips after the warm-up)\n"
	"  --interval S       per-interval sample length (default 1)\n"
	"  --bidir            both sides send; each reports what it sent\n"
	"  --qps N, --streams N   queue pairs (verbs) or TCP connections (default 1)\n"
	"  --tx-depth N       outstanding work requests per QP (default 128)\n"
	"  --post-list N      work requests per post call (default 1)\n"
	"  --cq-mod N         one signaled completion in N (default as perftest:\n"
	"                     100 up to 8 KiB and in a sweep, else 1)\n"
	"  --inline N         messages up to N bytes go inline (default 0)\n"
	"  --expect-gbps X    fail (exit 1) when a rail's average at any size is\n"
	"                     below X; by default verbs expects the profile's\n"
	"                     bw_floor_gbps where a profile is known, else 90% of\n"
	"                     the port rate, at sizes of 64 KiB and up; tcp nothing\n"
	"  On the server each test option given is a check, not a default: a\n"
	"  client whose request differs is refused with the option named.\n"
	"  --transport serves only that transport; --size/--sizes: the client's\n"
	"  size must be one of them; every other option: the client's value must\n"
	"  be the same.  Options not given leave the client free.\n"
	"\n"
	"local options (both ends):\n"
	"  --device NAME      the RDMA device (verbs), or the netdev to bind (tcp)\n"
	"  --devices all|A,B  one rail per device, all at once: a thread each,\n"
	"                     pinned to the NIC's NUMA node; per-rail and total\n"
	"  --ib-port N        port of the device (default 1)\n"
	"  --gid-index N      RoCE GID index (default: the RoCE v2 IPv4 GID on the\n"
	"                     interface that reaches the peer)\n"
	"  --gpu N|auto       buffers in GPU memory (auto: the GPU nearest the NIC)\n"
	"  --port P           control port (default 18516)\n"
	"  --timeout S        limit on every control step (default 10)\n"
	"\n"
	"server options: --bind ADDR, --once (exit after the first client that ran\n"
	"  a test), and caps on what a client may ask: --max-size B (default 1G),\n"
	"  --max-qps N (64), --max-duration S (3600: warm-up and window, and the\n"
	"  hard limit of an --iters test), --max-memory B (8G).  The server runs\n"
	"  one test at a time, closes a client after two refused requests, and\n"
	"  keeps serving after a client that failed.  tcp tests: the data\n"
	"  connections are accepted on --bind's address, and only on --device's\n"
	"  interface when it names one.\n"
	"\n"
	"--json writes one document per client run (all sizes of a sweep; the\n"
	"server one per client it served): schema, test, role, transport, op,\n"
	"bidir, params, local, remote, results [{size_bytes, rails [{device, port,\n"
	"numa_node, gid_index, mtu_bytes, gpu, gpu_path, gbps {avg,min,max},\n"
	"msg_rate_mpps, cpu_user_s, cpu_sys_s, seconds, bytes, intervals_gbps}],\n"
	"total, remote_total, bidir_total}], expect_gbps, verdict (pass, fail,\n"
	"error), reason.  A client that could not finish writes the sizes that\n"
	"finished, verdict error and the reason.\n"
	"\n"
	"exit: 0 pass, 1 below the expectation, 2 usage, 3 could not run.\n";

static const char help_lat[] =
	"usage: rdmadoctor [--json] lat server [OPTIONS]\n"
	"       rdmadoctor [--json] lat client HOST [OPTIONS]\n"
	"\n"
	"Latency between two hosts, perftest-style (ib_write_lat): a ping-pong of\n"
	"--size bytes (default 2), each round trip halved and reported as one-way\n"
	"min, p50, p99, p99.9 and max in microseconds over all samples of the\n"
	"measured window.  Options as `rdmadoctor bw --help`, the server's test\n"
	"options being checks as there (one QP/stream, no --bidir).  --json adds latency_usec {min, p50, p99, p99_9, max, samples,\n"
	"samples_kept, truncated}.  A test without samples could not run (exit 3).\n"
	"\n"
	"exit: 0 ran, 2 usage, 3 could not run.\n";

static bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* "65536", "64K", "8M", "1G": binary multiples, as perftest's sizes */
static bool parse_bytes(const char *s, uint64_t max, uint64_t *out)
{
	char buf[32], *end;
	size_t n = s ? strlen(s) : 0;
	uint64_t mul = 1, v;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n + 1);
	end = buf + n - 1;
	if (*end == 'K' || *end == 'k')
		mul = 1ull << 10;
	else if (*end == 'M' || *end == 'm')
		mul = 1ull << 20;
	else if (*end == 'G' || *end == 'g')
		mul = 1ull << 30;
	if (mul > 1)
		*end = 0;
	if (!parse_u64(buf, 1, max / mul, &v))
		return false;
	*out = v * mul;
	return true;
}

static bool parse_sizes(const char *s, struct bw_cmd_opts *o)
{
	const char *dots = strstr(s, "..");
	char lo[32];
	uint64_t a, b;

	if (!dots || (size_t)(dots - s) >= sizeof(lo))
		return false;
	memcpy(lo, s, (size_t)(dots - s));
	lo[dots - s] = 0;
	if (!parse_bytes(lo, 1ull << 30, &a) || !parse_bytes(dots + 2, 1ull << 30, &b) || a > b)
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

int bw_cmd_parse(struct ctx *c, const char *cmd, enum bw_mode mode, int argc, char **argv,
		 struct bw_cmd_opts *o)
{
	const char *help = mode == BW_MODE_LAT ? help_lat : help_bw;
	bool size_set = false, iters_set = false, duration_set = false;

	memset(o, 0, sizeof(*o));
	bw_params_defaults(&o->p, mode);
	bw_caps_defaults(&o->caps);
	o->port = BW_DEFAULT_PORT;
	o->ib_port = 1;
	o->gid_index = -1;
	o->expect_gbps = NAN;
	o->timeout_s = BW_CMD_DEFAULT_TIMEOUT_S;
	if (argc < 2)
		return usage(c, cmd, "%s", "say `server` or `client HOST`");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "server") == 0) {
		o->server = true;
	} else if (strcmp(argv[1], "client") == 0) {
		if (argc < 3 || argv[2][0] == '-')
			return usage(c, cmd, "%s", "client needs the server's HOST");
		o->host = argv[2];
	} else {
		return usage(c, cmd, "unknown word '%s': say `server` or `client HOST`", argv[1]);
	}
	for (int i = o->server ? 2 : 3; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n;
		bool takes = true, ok = true;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(help, stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--json") == 0) {
			c->json = true;
			takes = false;
		} else if (strcmp(a, "--once") == 0 && o->server) {
			o->once = true;
			takes = false;
		} else if (strcmp(a, "--bidir") == 0) {
			o->p.bidir = true;
			o->test_set |= BW_SET_BIDIR;
			takes = false;
		} else if (!v) {
			if (strncmp(a, "--", 2) == 0)
				return usage(c, cmd, "%s needs a value, or is unknown", a);
			return usage(c, cmd, "unexpected argument '%s'", a);
		} else if (strcmp(a, "--port") == 0) {
			ok = parse_u64(v, 1, 65535, &n);
			o->port = (uint16_t)n;
		} else if (strcmp(a, "--timeout") == 0) {
			ok = ctx_parse_seconds(v, 0.1, 3600, &o->timeout_s);
		} else if (strcmp(a, "--device") == 0) {
			o->device = v;
		} else if (strcmp(a, "--devices") == 0) {
			o->devices = v;
		} else if (strcmp(a, "--ib-port") == 0) {
			ok = parse_u64(v, 1, 255, &n);
			o->ib_port = (int)n;
		} else if (strcmp(a, "--gid-index") == 0) {
			ok = parse_u64(v, 0, 255, &n);
			o->gid_index = (int)n;
		} else if (strcmp(a, "--gpu") == 0) {
			ok = strcmp(v, "auto") == 0 || parse_u64(v, 0, 1023, &n);
			o->gpu = v;
		} else if (o->server && strcmp(a, "--bind") == 0) {
			o->bind = v;
		} else if (o->server && strcmp(a, "--max-size") == 0) {
			ok = parse_bytes(v, 1ull << 30, &o->caps.max_size);
		} else if (o->server && strcmp(a, "--max-qps") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->caps.max_qps = (uint32_t)n;
		} else if (o->server && strcmp(a, "--max-duration") == 0) {
			ok = parse_ms(v, 1, 24 * 3600, &o->caps.max_duration_ms);
		} else if (o->server && strcmp(a, "--max-memory") == 0) {
			ok = parse_bytes(v, 1ull << 50, &o->caps.max_memory);
		} else if (strcmp(a, "--transport") == 0) {
			ok = strcmp(v, "tcp") == 0 || strcmp(v, "verbs") == 0;
			o->p.transport = strcmp(v, "verbs") == 0 ? BW_TRANSPORT_VERBS :
								   BW_TRANSPORT_TCP;
			o->transport_set = true;
		} else if (strcmp(a, "--op") == 0) {
			o->test_set |= BW_SET_OP;
			ok = true;
			if (strcmp(v, "write") == 0)
				o->p.op = BW_OP_WRITE;
			else if (strcmp(v, "read") == 0)
				o->p.op = BW_OP_READ;
			else if (strcmp(v, "send") == 0)
				o->p.op = BW_OP_SEND;
			else
				ok = false;
		} else if (strcmp(a, "--size") == 0) {
			ok = parse_bytes(v, 1ull << 30, &o->p.size);
			size_set = true;
			o->test_set |= BW_SET_SIZE;
		} else if (strcmp(a, "--sizes") == 0) {
			ok = parse_sizes(v, o);
			o->test_set |= BW_SET_SIZE;
		} else if (strcmp(a, "--duration") == 0) {
			ok = parse_ms(v, 0.1, 24 * 3600, &o->p.duration_ms);
			duration_set = true;
			o->test_set |= BW_SET_DURATION;
		} else if (strcmp(a, "--warmup") == 0) {
			o->test_set |= BW_SET_WARMUP;
			ok = parse_ms(v, 0, 600, &o->p.warmup_ms);
			o->warmup_set = true;
		} else if (strcmp(a, "--interval") == 0) {
			o->test_set |= BW_SET_INTERVAL;
			ok = parse_ms(v, 0.1, 60, &o->p.interval_ms);
		} else if (strcmp(a, "--iters") == 0) {
			ok = parse_u64(v, 1, 1ull << 40, &o->p.iters);
			iters_set = true;
			o->test_set |= BW_SET_ITERS;
		} else if (strcmp(a, "--qps") == 0 || strcmp(a, "--streams") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->p.qps = (uint32_t)n;
			o->test_set |= BW_SET_QPS;
		} else if (strcmp(a, "--tx-depth") == 0) {
			o->test_set |= BW_SET_TX_DEPTH;
			ok = parse_u64(v, 1, 65536, &n);
			o->p.tx_depth = (uint32_t)n;
		} else if (strcmp(a, "--post-list") == 0) {
			o->test_set |= BW_SET_POST_LIST;
			ok = parse_u64(v, 1, 65536, &n);
			o->p.post_list = (uint32_t)n;
		} else if (strcmp(a, "--cq-mod") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->p.cq_mod = (uint32_t)n;
			o->cq_mod_set = true;
			o->test_set |= BW_SET_CQ_MOD;
		} else if (strcmp(a, "--inline") == 0) {
			o->test_set |= BW_SET_INLINE;
			ok = parse_u64(v, 0, 65536, &n);
			o->p.inline_size = (uint32_t)n;
		} else if (strcmp(a, "--expect-gbps") == 0) {
			ok = ctx_parse_seconds(v, 0, 1e6, &o->expect_gbps);
		} else {
			return usage(c, cmd, "unknown option '%s'", a);
		}
		if (!ok)
			return usage(c, cmd, "bad value for %s", a);
		if (takes)
			i++;
	}
	if (size_set && o->n_sizes)
		return usage(c, cmd, "%s", "--size and --sizes exclude each other");
	if (iters_set && duration_set)
		return usage(c, cmd, "%s", "--iters and --duration exclude each other");
	if (iters_set) {
		o->p.duration_ms = 0;
		if (!o->warmup_set)
			o->p.warmup_ms = 0;
	}
	if (o->device && o->devices)
		return usage(c, cmd, "%s", "--device and --devices exclude each other");
	if (mode == BW_MODE_LAT && (o->p.bidir || o->p.qps != 1))
		return usage(c, cmd, "%s", "a latency test runs one QP/stream one way: no --bidir "
				      "or --qps");
	if (o->p.cq_mod > o->p.tx_depth || o->p.post_list > o->p.tx_depth)
		return usage(c, cmd, "%s", "--cq-mod and --post-list must not exceed --tx-depth");
	if (!o->n_sizes)
		o->sizes[o->n_sizes++] = o->p.size;
	o->p.size = o->sizes[0];
	return -1;
}
