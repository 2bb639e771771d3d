/* The rules between bw's and lat's options that the option table cannot
 * say (bw/opts.h): defaults, the shared secret, --loopback's operands, the
 * exclusions, a size's HELLO, and the server's checks of a request. */
#include "opts.h"
#include "token.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static int say(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void bw_opts_defaults(struct bw_opts *o, const char *cmd, enum bw_mode mode)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	bw_params_defaults(&o->p, mode);
	bw_caps_defaults(&o->caps);
	o->port = BW_DEFAULT_PORT;
	o->ib_port = 1;
	o->gid_index = -1;
	o->expect_gbps = NAN;
	o->timeout_s = BW_OPTS_DEFAULT_TIMEOUT_S;
	o->idle_s = BW_OPTS_DEFAULT_IDLE_S;
}

int bw_opts_token(struct bw_opts *o, const char *env, char *why, size_t whysz)
{
	struct bw_err e;

	if (o->token_arg && o->token_file)
		return say(why, whysz, "%s", "--token and --token-file exclude each other");
	if (o->token_file) {
		struct bw_err warn;

		if (bw_token_read_file(o->token_file, o->token_buf, sizeof(o->token_buf), &e,
				       &warn) < 0)
			return say(why, whysz, "--token-file: %s", e.msg);
		snprintf(o->token_warning, sizeof(o->token_warning), "%s", warn.msg);
	} else if (o->token_arg || env) {
		const char *t = o->token_arg ? o->token_arg : env;

		/* set but empty is a mistake (an unset variable in a script),
		 * not a wish for an open server */
		if (!o->token_arg && !*env)
			return say(why, whysz, "%s", "RDMADOCTOR_TOKEN is set but empty: give the "
				   "secret, or unset it for no token");

		if (bw_token_take(t, strlen(t), o->token_buf, sizeof(o->token_buf), &e) < 0)
			return say(why, whysz, "%s: %s", o->token_arg ? "--token" :
				   "RDMADOCTOR_TOKEN", e.msg);
	} else {
		return 0;
	}
	o->token = o->token_buf;
	return 0;
}

int bw_opts_exposure(const struct bw_opts *o, char *why, size_t whysz)
{
	if (!o->server || o->open || o->token || o->n_allow || bw_addr_loopback(o->bind))
		return 0;
	return say(why, whysz, "a server without a token or --allow would serve anyone who "
		   "reaches %s port %u: give --token-file FILE (or RDMADOCTOR_TOKEN), --allow "
		   "CIDR, --bind 127.0.0.1, or --open to serve anyone as perftest does",
		   o->bind ? o->bind : "every address on", o->port);
}

int bw_opts_loopback(struct bw_opts *o, enum bw_mode mode, int n, char **argv,
		     const char *prog, char *why, size_t whysz)
{
	if (mode != BW_MODE_BW)
		return say(why, whysz, "%s", "--loopback is a bandwidth test: `bw --loopback`");
	if (n >= 1 && (strcmp(argv[1], "server") == 0 || strcmp(argv[1], "client") == 0))
		return say(why, whysz, "--loopback runs server and client itself: no `%s`",
			   argv[1]);
	if (n % 2)
		return say(why, whysz, "--loopback takes devices in pairs (A B [C D]...): %d name%s "
			   "given, '%s' has no partner", n, n == 1 ? "" : "s", argv[n]);
	for (int i = 1; i <= n; i++) {
		size_t len = strlen(argv[i]);

		if (len == 0 || len > 63 || strchr(argv[i], '/') || strchr(argv[i], ','))
			return say(why, whysz, "--loopback: '%s' is no RDMA device name (see `%s "
				   "inventory`)", argv[i], prog);
		if (i % 2 == 0 && strcmp(argv[i], argv[i - 1]) == 0)
			return say(why, whysz, "--loopback: '%s' twice in pair %d: a pair is two "
				   "devices, the sender and the receiver", argv[i], i / 2);
	}
	if (o->device || o->devices)
		return say(why, whysz, "--%s does not apply to --loopback: name the pairs after "
			   "the options (A B [C D]...)", o->device ? "device" : "devices");
	if (o->transport_set && o->p.transport != BW_TRANSPORT_VERBS)
		return say(why, whysz, "%s", "--loopback runs the verbs transport (RDMA devices): "
			   "no --transport tcp");
	if (o->bind || o->once || o->server_only)
		return say(why, whysz, "--%s is a server option; --loopback runs its own server",
			   o->bind ? "bind" : o->once ? "once" : o->server_only);
	if (o->port_set || o->token_arg || o->token_file)
		return say(why, whysz, "--%s does not apply to --loopback: its two sides talk over "
			   "127.0.0.1 with a secret of their own", o->port_set ? "port" :
			   o->token_arg ? "token" : "token-file");
	o->p.transport = BW_TRANSPORT_VERBS;
	o->transport_set = true;
	o->lb_names = argv + 1;
	o->n_lb_names = n;
	return 0;
}

int bw_opts_finish(struct bw_opts *o, enum bw_mode mode, char *why, size_t whysz)
{
	if (o->size_set && o->n_sizes)
		return say(why, whysz, "%s", "--size and --sizes exclude each other");
	if ((o->test_set & BW_SET_ITERS) && (o->test_set & BW_SET_DURATION))
		return say(why, whysz, "%s", "--iters and --duration exclude each other");
	if (o->test_set & BW_SET_ITERS) {
		o->p.duration_ms = 0;
		if (!o->warmup_set)
			o->p.warmup_ms = 0;
	}
	if (o->device && o->devices)
		return say(why, whysz, "%s", "--device and --devices exclude each other");
	if (mode == BW_MODE_LAT && (o->p.bidir || o->p.qps != 1))
		return say(why, whysz, "%s", "a latency test runs one QP/stream one way: no --bidir "
			   "or --qps");
	if (o->p.cq_mod > o->p.tx_depth || o->p.post_list > o->p.tx_depth)
		return say(why, whysz, "%s", "--cq-mod and --post-list must not exceed --tx-depth");
	if (!o->n_sizes)
		o->sizes[o->n_sizes++] = o->p.size;
	o->p.size = o->sizes[0];
	return 0;
}

void bw_opts_hello(const struct bw_opts *o, uint64_t size, uint32_t n_rails,
		   const char *host, struct bw_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->p = o->p;
	h->p.size = size;
	if (!o->cq_mod_set && h->p.mode == BW_MODE_BW)
		h->p.cq_mod = bw_params_cq_mod(h->p.size, h->p.tx_depth, o->n_sizes > 1);
	h->n_rails = n_rails;
	snprintf(h->host, sizeof(h->host), "%s", host);
	h->expect_gbps = o->expect_gbps;	/* NAN: none */
}

int bw_opts_admit(const struct bw_opts *o, const struct bw_params *q, struct bw_err *e)
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
