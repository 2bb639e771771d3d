/* bw and lat: `server` on one host, `client HOST` on the other.  This file
 * joins the command line, the inventory (devices, NUMA nodes, port rates,
 * GPU affinity), the test engine (bw/session.c with a transport) and the
 * report (out/bw_out.c). */
#include "cmd.h"
#include "../bw/params.h"
#include "../bw/report.h"
#include "../bw/session.h"
#include "../out/bw_out.h"
#include "../out/safe_stream.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The verbs transport (bw/verbs_*.c), referenced strongly so that the
 * static library links it in. */
extern const struct bw_engine_ops bw_verbs_engine;

static const struct bw_engine_ops *verbs_engine(void)
{
	return &bw_verbs_engine;
}

#define DEFAULT_TIMEOUT_S 10.0

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
	"client options:\n"
	"  --transport verbs|tcp  default verbs when this host has an RDMA device,\n"
	"                     else tcp\n"
	"  --op write|read|send   RDMA operation (default write); tcp: read makes\n"
	"                     the server send\n"
	"  --size B           bytes per message (default 65536; K, M, G suffixes)\n"
	"  --sizes A..B       sweep the powers of two from A to B (e.g. 2..8M)\n"
	"  --duration S       measured seconds (default 5)\n"
	"  --warmup S         seconds before the window (default 1; 0 with --iters)\n"
	"  --iters N          N messages per QP/stream instead of a duration\n"
	"  --interval S       per-interval sample length (default 1)\n"
	"  --bidir            both sides send; each reports what it sent\n"
	"  --qps N, --streams N   queue pairs (verbs) or TCP connections (default 1)\n"
	"  --tx-depth N       outstanding work requests per QP (default 128)\n"
	"  --post-list N      work requests per post call (default 1)\n"
	"  --cq-mod N         one signaled completion in N (default 1)\n"
	"  --inline N         messages up to N bytes go inline (default 0)\n"
	"  --device NAME      the RDMA device (verbs), or the netdev to bind (tcp)\n"
	"  --devices all|A,B  one rail per device, all at once: a thread each,\n"
	"                     pinned to the NIC's NUMA node; per-rail and total\n"
	"  --ib-port N        port of the device (default 1)\n"
	"  --gid-index N      RoCE GID index (default: the RoCE v2 IPv4 GID on the\n"
	"                     interface that reaches the peer)\n"
	"  --gpu N|auto       buffers in GPU memory (auto: the GPU nearest the NIC)\n"
	"  --expect-gbps X    fail (exit 1) when a rail's average is below X; by\n"
	"                     default verbs expects 90%% of the port rate, tcp nothing\n"
	"  --port P           control port (default 18516)\n"
	"  --timeout S        limit on every control step (default 10)\n"
	"\n"
	"server options: --port P, --bind ADDR, --once (exit after one client),\n"
	"  --timeout S, the device options above, and caps on what a client may ask:\n"
	"  --max-size B (default 1G), --max-qps N (64), --max-duration S (3600),\n"
	"  --max-memory B (8G).  The server runs one test at a time and keeps\n"
	"  serving after a client that failed.\n"
	"\n"
	"--json writes one document per test: schema, test, role, transport, op,\n"
	"bidir, params, local, remote, results [{size_bytes, rails [{device, port,\n"
	"numa_node, gid_index, mtu_bytes, gpu, gpu_path, gbps {avg,min,max},\n"
	"msg_rate_mpps, cpu_user_s, cpu_sys_s, seconds, bytes, intervals_gbps}],\n"
	"total, remote_total}], expect_gbps, verdict, reason.\n"
	"\n"
	"exit: 0 pass, 1 below the expectation, 2 usage, 3 could not run.\n";

static const char help_lat[] =
	"usage: rdmadoctor [--json] lat server [OPTIONS]\n"
	"       rdmadoctor [--json] lat client HOST [OPTIONS]\n"
	"\n"
	"Latency between two hosts, perftest-style (ib_write_lat): a ping-pong of\n"
	"--size bytes (default 2), each round trip halved and reported as one-way\n"
	"min, p50, p99, p99.9 and max in microseconds over all samples of the\n"
	"measured window.  Options as `rdmadoctor bw --help` (one QP/stream, no\n"
	"--bidir).  --json adds latency_usec {min, p50, p99, p99_9, max, samples}.\n"
	"\n"
	"exit: 0 ran, 2 usage, 3 could not run.\n";

struct opts {
	bool server, once;
	const char *host, *bind, *device, *devices, *gpu;
	uint16_t port;
	bool transport_set, warmup_set;
	struct bw_params p;
	uint64_t sizes[32];
	size_t n_sizes;
	int ib_port, gid_index;
	double expect_gbps, timeout_s;
	struct bw_caps caps;
};

/* ---- parsing ---- */

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

static bool parse_sizes(const char *s, struct opts *o)
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

static int parse(struct ctx *c, const char *cmd, enum bw_mode mode, int argc, char **argv,
		 struct opts *o)
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
	o->timeout_s = DEFAULT_TIMEOUT_S;
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
		} else if (strcmp(a, "--bidir") == 0 && !o->server) {
			o->p.bidir = true;
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
			ok = parse_u64(v, 0, 255, &n) || strcmp(v, "0") == 0;
			o->gid_index = (int)n;
		} else if (strcmp(a, "--gpu") == 0) {
			ok = strcmp(v, "auto") == 0 || parse_u64(v, 0, 1023, &n) ||
			     strcmp(v, "0") == 0;
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
		} else if (o->server) {
			return usage(c, cmd, "unknown server option '%s'", a);
		} else if (strcmp(a, "--transport") == 0) {
			ok = strcmp(v, "tcp") == 0 || strcmp(v, "verbs") == 0;
			o->p.transport = strcmp(v, "verbs") == 0 ? BW_TRANSPORT_VERBS :
								   BW_TRANSPORT_TCP;
			o->transport_set = true;
		} else if (strcmp(a, "--op") == 0) {
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
		} else if (strcmp(a, "--sizes") == 0) {
			ok = parse_sizes(v, o);
		} else if (strcmp(a, "--duration") == 0) {
			ok = parse_ms(v, 0.1, 24 * 3600, &o->p.duration_ms);
			duration_set = true;
		} else if (strcmp(a, "--warmup") == 0) {
			ok = parse_ms(v, 0, 600, &o->p.warmup_ms);
			o->warmup_set = true;
		} else if (strcmp(a, "--interval") == 0) {
			ok = parse_ms(v, 0.1, 60, &o->p.interval_ms);
		} else if (strcmp(a, "--iters") == 0) {
			ok = parse_u64(v, 1, 1ull << 40, &o->p.iters);
			iters_set = true;
		} else if (strcmp(a, "--qps") == 0 || strcmp(a, "--streams") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->p.qps = (uint32_t)n;
		} else if (strcmp(a, "--tx-depth") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->p.tx_depth = (uint32_t)n;
		} else if (strcmp(a, "--post-list") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->p.post_list = (uint32_t)n;
		} else if (strcmp(a, "--cq-mod") == 0) {
			ok = parse_u64(v, 1, 65536, &n);
			o->p.cq_mod = (uint32_t)n;
		} else if (strcmp(a, "--inline") == 0) {
			ok = parse_u64(v, 0, 65536, &n) || strcmp(v, "0") == 0;
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

/* ---- rails ---- */

struct setup {
	struct ctx *c;
	struct opts *o;
	struct inventory inv;
	struct root root;
	bool have_inv;
	/* chosen rails: inventory NIC indices (verbs), or netdev names (tcp) */
	size_t nic[BW_RAILS_MAX];
	char *names[BW_RAILS_MAX];
	uint32_t n;
	struct bw_report_rail rail[BW_RAILS_MAX];
	double min_rate;
};

static int collect(struct setup *s)
{
	int rc;

	if (s->have_inv)
		return EXIT_OK;
	rc = ctx_collect(s->c, &s->root, &s->inv, false);
	if (rc == EXIT_OK)
		s->have_inv = true;
	return rc;
}

static void setup_free(struct setup *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->names[i]);
	if (s->have_inv) {
		inventory_free(&s->inv);
		root_close(&s->root);
	}
}

static const struct port *nic_port(const struct nic *n, int num)
{
	for (size_t k = 0; k < n->n_ports; k++)
		if (n->ports[k].num == num)
			return &n->ports[k];
	return NULL;
}

/* The GPU for a rail: a number as given, or auto: the nearest by topology. */
static void pick_gpu(struct setup *s, uint32_t i, size_t nic)
{
	struct bw_report_rail *rr = &s->rail[i];
	const char *g = s->o->gpu;
	int best = -1;
	enum path_type bp = PATH_SYS;

	rr->gpu = -1;
	rr->gpu_path = NULL;
	if (!g)
		return;
	for (size_t a = 0; a < s->inv.n_affinity; a++) {
		const struct affinity *af = &s->inv.affinity[a];

		if (af->nic != nic)
			continue;
		if (strcmp(g, "auto") == 0 ? (best < 0 || af->path < bp) :
					     (long)af->gpu == strtol(g, NULL, 10)) {
			best = (int)af->gpu;
			bp = af->path;
		}
	}
	rr->gpu = best >= 0 ? best : (strcmp(g, "auto") == 0 ? 0 : (int)strtol(g, NULL, 10));
	rr->gpu_path = best >= 0 ? path_type_name(bp) : NULL;
}

static int add_nic(struct setup *s, size_t k)
{
	const struct nic *n = &s->inv.nics[k];
	const struct port *pt = nic_port(n, s->o->ib_port);
	struct bw_report_rail *rr = &s->rail[s->n];

	if (s->n >= BW_RAILS_MAX) {
		fprintf(stderr, "%s: more than %d rails\n", s->c->prog, BW_RAILS_MAX);
		return EXIT_USAGE;
	}
	s->nic[s->n] = k;
	rr->device = n->name;
	rr->port = s->o->ib_port;
	rr->numa_node = n->has_pci && !IS_NA(n->pci.numa_node) ? (int)n->pci.numa_node : -1;
	rr->rate_gbps = pt ? pt->rate_gbps : NAN;
	if (!isnan(rr->rate_gbps) && (isnan(s->min_rate) || rr->rate_gbps < s->min_rate))
		s->min_rate = rr->rate_gbps;
	pick_gpu(s, s->n, k);
	s->n++;
	return EXIT_OK;
}

/* The verbs rails from --device / --devices, or the first device. */
static int choose_verbs_rails(struct setup *s)
{
	const char *list = s->o->devices ? s->o->devices : s->o->device;
	int rc = collect(s);

	if (rc != EXIT_OK)
		return rc;
	if (!s->inv.n_nics) {
		fprintf(stderr, "%s: this host has no RDMA device: use --transport tcp\n",
			s->c->prog);
		return EXIT_RUNTIME;
	}
	if (!list)
		return add_nic(s, 0);
	if (strcmp(list, "all") == 0) {
		for (size_t k = 0; k < s->inv.n_nics && rc == EXIT_OK; k++)
			rc = add_nic(s, k);
		return rc;
	}
	for (const char *p = list; *p && rc == EXIT_OK;) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < s->inv.n_nics; k++)
			if (strlen(s->inv.nics[k].name) == len &&
			    strncmp(s->inv.nics[k].name, p, len) == 0)
				break;
		if (k == s->inv.n_nics) {
			fprintf(stderr, "%s: no RDMA device '%.*s' here (see `%s inventory`)\n",
				s->c->prog, (int)len, p, s->c->prog);
			return EXIT_RUNTIME;
		}
		rc = add_nic(s, k);
		p += len + (p[len] == ',');
	}
	return rc;
}

/* tcp: one rail, or one per netdev of --device / --devices (bound to it). */
static int choose_tcp_rails(struct setup *s)
{
	const char *list = s->o->devices ? s->o->devices : s->o->device;

	if (s->o->gpu) {
		fprintf(stderr, "%s: the tcp transport has no GPU memory: use --transport verbs "
			"for --gpu\n", s->c->prog);
		return EXIT_USAGE;
	}
	if (list && strcmp(list, "all") == 0) {
		fprintf(stderr, "%s: --devices all is for the verbs transport; with tcp name "
			"the network interfaces (--devices eth0,eth1) or use --streams\n",
			s->c->prog);
		return EXIT_USAGE;
	}
	if (!list) {
		s->rail[0] = (struct bw_report_rail){ NULL, 0, -1, -1, NULL, NAN };
		s->n = 1;
		return EXIT_OK;
	}
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (s->n >= BW_RAILS_MAX || len == 0 || len >= 16) {
			fprintf(stderr, "%s: bad interface list '%s'\n", s->c->prog, list);
			return EXIT_USAGE;
		}
		s->names[s->n] = strndup(p, len);
		if (!s->names[s->n]) {
			fprintf(stderr, "%s: out of memory\n", s->c->prog);
			return EXIT_RUNTIME;
		}
		s->rail[s->n] = (struct bw_report_rail){ s->names[s->n], 0, -1, -1, NULL, NAN };
		s->n++;
		p += len + (p[len] == ',');
	}
	return EXIT_OK;
}

/* The engine and each rail's local side; rail i of the test runs on
 * rails[i % n] (a server with fewer devices than the client asks for runs
 * several rails on one). */
static void fill_locals(const struct opts *o, const struct bw_report_rail *rails, uint32_t n,
			enum bw_transport t, uint32_t n_rails, const char *peer, struct bw_rails *r)
{
	r->eng = t == BW_TRANSPORT_VERBS ? verbs_engine() : &bw_tcp_engine;
	r->n = n_rails;
	for (uint32_t i = 0; i < n_rails; i++) {
		const struct bw_report_rail *rr = &rails[i % n];

		r->local[i] = (struct bw_local){
			.device = rr->device,
			.ib_port = o->ib_port,
			.gid_index = o->gid_index,
			.gpu = rr->gpu,
			.numa_node = rr->numa_node,
			.peer_addr = peer,
		};
	}
}

/* ---- progress ---- */

struct progress {
	struct ctx *c;
	const char *cmd;
	uint64_t size;
	double total;
	bool shown;
};

static void show_progress(void *arg, double elapsed)
{
	struct progress *pg = arg;

	if (pg->total > 0)
		fprintf(stderr, "\r%s %s: %llu bytes: %.0f of %.0f s ", pg->c->prog, pg->cmd,
			(unsigned long long)pg->size, elapsed, pg->total);
	else
		fprintf(stderr, "\r%s %s: %llu bytes: %.0f s ", pg->c->prog, pg->cmd,
			(unsigned long long)pg->size, elapsed);
	pg->shown = true;
}

static void end_progress(struct progress *pg)
{
	if (pg->shown)
		fputc('\n', stderr);
	pg->shown = false;
}

/* ---- output ---- */

static int emit(struct ctx *c, struct bw_report *r)
{
	FILE *out;
	int rc = 0;

	bw_judge(r);
	if (c->json) {
		json_t *doc = bw_report_to_json(r);

		if (!doc) {
			fprintf(stderr, "%s: out of memory\n", c->prog);
			return EXIT_RUNTIME;
		}
		return ctx_emit_json(c, doc);
	}
	out = safe_stream(stdout);	/* peer names come from the network */
	if (!out) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	bw_report_print(out, r);
	if (ferror(out) || fclose(out) != 0 || fflush(stdout) != 0 || ferror(stdout))
		rc = errno ? errno : EIO;
	if (rc) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n", c->prog,
			strerror(rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static void expectation(struct bw_report *r, const struct opts *o, const struct setup *s,
			char *why, size_t whysz)
{
	r->expect_gbps = o->expect_gbps;
	r->expect_why = NULL;
	if (!isnan(o->expect_gbps)) {
		r->expect_why = "--expect-gbps";
		return;
	}
	/* machines.md section 4: NVIDIA's pass line is 90% of the port rate,
	 * per direction; tcp has no line rate we can trust */
	if (r->p.transport == BW_TRANSPORT_VERBS && r->p.mode == BW_MODE_BW &&
	    !isnan(s->min_rate) && s->min_rate > 0) {
		r->expect_gbps = 0.9 * s->min_rate;
		snprintf(why, whysz, "90%% of the %g Gb/s port rate", s->min_rate);
		r->expect_why = why;
	}
}

/* ---- client ---- */

static int run_client(struct ctx *c, const char *cmd, struct opts *o)
{
	struct setup s = { .c = c, .o = o, .min_rate = NAN };
	struct bw_session ss = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails rails;
	struct bw_report rep;
	struct bw_outcome *outs = NULL;
	struct progress pg = { .c = c, .cmd = cmd };
	struct bw_err e = { "" };
	char host[BW_HOST_MAX + 1] = "", why[128];
	size_t done = 0;
	int rc;

	/* verbs by default when it can run here */
	if (!o->transport_set) {
		o->p.transport = BW_TRANSPORT_TCP;
		if (verbs_engine() && collect(&s) == EXIT_OK && s.inv.n_nics)
			o->p.transport = BW_TRANSPORT_VERBS;
	}
	if (o->p.transport == BW_TRANSPORT_VERBS && !verbs_engine()) {
		fprintf(stderr, "%s %s: this build has no verbs transport: use --transport tcp\n",
			c->prog, cmd);
		setup_free(&s);
		return EXIT_RUNTIME;
	}
	rc = o->p.transport == BW_TRANSPORT_VERBS ? choose_verbs_rails(&s) : choose_tcp_rails(&s);
	if (rc != EXIT_OK)
		goto out;
	if (bw_params_check(&o->p, s.n, NULL, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		rc = EXIT_USAGE;
		goto out;
	}
	gethostname(host, sizeof(host) - 1);
	if (bw_session_connect(&ss, o->host, o->port, (int)(o->timeout_s * 1000), &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (isatty(STDERR_FILENO) && !c->json && !c->quiet) {
		ss.progress = show_progress;
		ss.progress_arg = &pg;
	}
	outs = calloc(o->n_sizes, sizeof(*outs));
	if (!outs) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
		goto out;
	}
	fill_locals(o, s.rail, s.n, o->p.transport, s.n, o->host, &rails);
	for (size_t k = 0; k < o->n_sizes; k++) {
		memset(&h, 0, sizeof(h));
		h.p = o->p;
		h.p.size = o->sizes[k];
		h.n_rails = s.n;
		snprintf(h.host, sizeof(h.host), "%s", host);
		if (bw_params_check(&h.p, s.n, NULL, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = EXIT_USAGE;
			goto out;
		}
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		rc = bw_session_test(&ss, &h, &rails, &outs[k], &e);
		end_progress(&pg);
		if (rc < 0) {
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = EXIT_RUNTIME;
			goto out;
		}
		done++;
	}
	bw_session_bye(&ss);
	memset(&rep, 0, sizeof(rep));
	rep.is_server = false;
	rep.p = o->p;
	rep.local_host = host;
	rep.local_addr = ss.local_addr;
	rep.remote_host = ss.peer_host;
	rep.remote_addr = ss.peer_addr;
	rep.n_rails = s.n;
	memcpy(rep.rails, s.rail, sizeof(s.rail));
	rep.outcomes = outs;
	rep.n_outcomes = done;
	expectation(&rep, o, &s, why, sizeof(why));
	rc = emit(c, &rep);
	if (rc == EXIT_OK && !rep.pass) {
		fprintf(stderr, "%s %s: below expectation: %s\n", c->prog, cmd, rep.reason);
		rc = EXIT_PROBLEMS;
	}
out:
	for (size_t k = 0; outs && k < o->n_sizes; k++)
		bw_outcome_free(&outs[k]);
	free(outs);
	bw_session_close(&ss);
	setup_free(&s);
	return rc;
}

/* ---- server ---- */

static const struct bw_report_rail tcp_rail = { NULL, 0, -1, -1, NULL, NAN };

struct server {
	struct ctx *c;
	const char *cmd;
	struct opts *o;
	struct setup s;		/* the verbs rails, chosen at the first verbs test */
	bool verbs_tried;
	int verbs_rc;
	struct bw_session *ss;
	/* the tests of the current client: one report when it leaves */
	struct bw_hello first;
	struct bw_outcome *outs;
	size_t n_outs;
};

static int server_setup(void *arg, const struct bw_hello *h, struct bw_rails *r,
			struct bw_err *e)
{
	struct server *sv = arg;

	if (h->p.transport == BW_TRANSPORT_TCP) {
		fill_locals(sv->o, &tcp_rail, 1, h->p.transport, h->n_rails, sv->ss->peer_addr, r);
		return 0;
	}
	if (!verbs_engine()) {
		bw_errf(e, "this server's build has no verbs transport: use --transport tcp");
		return -1;
	}
	if (!sv->verbs_tried) {
		sv->verbs_tried = true;
		sv->verbs_rc = choose_verbs_rails(&sv->s);
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
	fill_locals(sv->o, sv->s.rail, sv->s.n, h->p.transport, h->n_rails, sv->ss->peer_addr, r);
	return 0;
}

/* Keep each test's outcome (taking it over) for the client's report. */
static void server_done(void *arg, const struct bw_hello *h, struct bw_outcome *o)
{
	struct server *sv = arg;
	struct bw_outcome *n = realloc(sv->outs, (sv->n_outs + 1) * sizeof(*n));

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
	sv->n_outs = 0;
}

/* One report for everything the client ran, as the client prints it. */
static int server_report(struct server *sv)
{
	struct bw_report rep;
	char host[BW_HOST_MAX + 1] = "", why[128];
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
	expectation(&rep, sv->o, &sv->s, why, sizeof(why));
	rc = emit(sv->c, &rep);
	return rc == EXIT_OK && !rep.pass ? EXIT_PROBLEMS : rc;
}

static int run_server(struct ctx *c, const char *cmd, struct opts *o)
{
	struct server sv = { .c = c, .cmd = cmd, .o = o, .s = { .c = c, .o = o, .min_rate = NAN } };
	struct bw_server_ops ops = { server_setup, server_done, &sv };
	struct bw_err e = { "" };
	int lfd, rc = EXIT_OK;

	o->caps.has_verbs = verbs_engine() != NULL;
	if (o->gpu && !verbs_engine()) {
		fprintf(stderr, "%s %s: this build has no verbs transport, so no --gpu\n",
			c->prog, cmd);
		return EXIT_RUNTIME;
	}
	lfd = bw_listen(o->bind, o->port, &e);
	if (lfd < 0) {
		fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
		return EXIT_RUNTIME;
	}
	if (!c->quiet && !c->json)
		fprintf(stderr, "%s %s: listening on port %u\n", c->prog, cmd, o->port);
	for (;;) {
		struct bw_session ss = { .fd = -1, .timeout_ms = (int)(o->timeout_s * 1000) };
		int tests;

		if (bw_session_accept(lfd, &ss, -1, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", c->prog, cmd, e.msg);
			rc = EXIT_RUNTIME;
			break;
		}
		ss.timeout_ms = (int)(o->timeout_s * 1000);
		sv.ss = &ss;
		tests = bw_session_serve(&ss, &o->caps, &ops, &e);
		if (tests < 0)
			fprintf(stderr, "%s %s: client %s: %s\n", c->prog, cmd, ss.peer_addr, e.msg);
		/* what ran, even if a later size failed */
		rc = sv.n_outs ? server_report(&sv) : EXIT_OK;
		if (tests < 0)
			rc = EXIT_RUNTIME;
		server_drop_outcomes(&sv);
		bw_session_close(&ss);
		if (o->once)
			break;
	}
	close(lfd);
	setup_free(&sv.s);
	return rc;
}

static int cmd_bwlat(struct ctx *c, int argc, char **argv, enum bw_mode mode)
{
	const char *cmd = mode == BW_MODE_LAT ? "lat" : "bw";
	struct opts o;
	int rc = parse(c, cmd, mode, argc, argv, &o);

	if (rc >= 0)
		return rc;
	signal(SIGPIPE, SIG_IGN);
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
