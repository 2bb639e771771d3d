/* Defaults follow perftest where it has one (ib_write_bw's own defaults):
 * 64 KiB writes, TX depth 128, one QP; latency 2 bytes.  The
 * check is what the server applies to every HELLO. */
#include "params.h"
#include "proto.h"

#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>

void bw_params_defaults(struct bw_params *p, enum bw_mode mode)
{
	memset(p, 0, sizeof(*p));
	p->mode = mode;
	p->transport = BW_TRANSPORT_TCP;
	p->op = BW_OP_WRITE;
	p->size = mode == BW_MODE_LAT ? 2 : 65536;
	p->qps = 1;
	p->tx_depth = mode == BW_MODE_LAT ? 1 : 128;
	p->post_list = 1;
	p->cq_mod = 1;
	p->inline_size = mode == BW_MODE_LAT ? BW_LAT_INLINE_DEFAULT : 0;
	p->duration_ms = 5000;
	p->warmup_ms = 1000;
	p->iters = 0;
	p->interval_ms = 1000;
}

/* Sized for a link test, not for whatever a stranger asks: a server is
 * reachable by anyone who can connect, and its buffers (pinned with verbs)
 * are taken before a test runs.  64 MiB messages are past any link's
 * plateau, a minute is long enough to see a link flap, 2 GiB is 32 QPs of
 * the largest message.  --max-* raise them. */
void bw_caps_defaults(struct bw_caps *c)
{
	c->max_size = 64ull << 20;
	c->max_qps = 64;
	c->max_duration_ms = 60 * 1000;
	c->max_memory = 2ull << 30;
	c->max_rails = BW_RAILS_MAX;
	c->has_verbs = false;
}

uint64_t bw_params_memory(const struct bw_params *p, uint32_t n_rails)
{
	/* a send and a receive buffer per QP/stream; sizes are bounded before
	 * this is called, so it cannot overflow (2^30 * 2^16 * 2 * 32 < 2^64) */
	return p->size * p->qps * 2 * (uint64_t)n_rails;
}

uint32_t bw_params_cq_mod(uint64_t size, uint32_t tx_depth, bool sweep)
{
	uint32_t m = size <= BW_CQ_MOD_SIZE_LIMIT || sweep ? BW_CQ_MOD_DEFAULT : 1;

	if (tx_depth == 0)
		tx_depth = BW_TX_DEPTH_DEFAULT;
	return m < tx_depth ? m : tx_depth;
}

uint32_t bw_params_run_bound_ms(const struct bw_params *p, uint32_t cap_ms)
{
	uint64_t ms;

	if (p->iters)
		return cap_ms;
	ms = (uint64_t)p->warmup_ms + p->duration_ms;
	if (cap_ms && ms > cap_ms)
		ms = cap_ms;
	ms += BW_RUN_MARGIN_MS;
	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

const char *bw_op_name(enum bw_op op)
{
	switch (op) {
	case BW_OP_WRITE:
		return "write";
	case BW_OP_READ:
		return "read";
	case BW_OP_SEND:
		return "send";
	}
	return "?";
}

const char *bw_transport_name(enum bw_transport t)
{
	return t == BW_TRANSPORT_VERBS ? "verbs" : "tcp";
}

static bool out_of_range(uint64_t v, uint64_t lo, uint64_t hi, const char *what,
			 struct bw_err *e)
{
	if (v >= lo && v <= hi)
		return false;
	bw_errf(e, "%s %" PRIu64 " is out of range (%" PRIu64 "..%" PRIu64 ")", what, v, lo, hi);
	return true;
}

#define RANGE(v, lo, hi, what)                         \
	do {                                           \
		if (out_of_range(v, lo, hi, what, e))  \
			return -1;                     \
	} while (0)

int bw_params_check(const struct bw_params *p, uint32_t n_rails, const struct bw_caps *c,
		    struct bw_err *e)
{
	/* what any side could ever run */
	RANGE(p->size, 1, 1ull << 30, "message size");
	RANGE(p->qps, 1, 65536, "queue pairs/streams");
	RANGE(p->tx_depth, 1, 65536, "tx depth");
	RANGE(p->post_list, 1, p->tx_depth, "post list");
	RANGE(p->cq_mod, 1, p->tx_depth, "cq moderation");
	RANGE(p->inline_size, 0, 65536, "inline size");
	RANGE(p->duration_ms, 0, 24u * 3600 * 1000, "duration (ms)");
	RANGE(p->warmup_ms, 0, 600u * 1000, "warm-up (ms)");
	RANGE(p->iters, 0, 1ull << 40, "iterations");
	RANGE(p->interval_ms, 100, 60000, "interval (ms)");
	RANGE(n_rails, 1, BW_RAILS_MAX, "rails");
	if ((p->duration_ms == 0) == (p->iters == 0)) {
		bw_errf(e, "exactly one of duration and iterations must be set");
		return -1;
	}
	if ((double)p->iters * (double)p->size > 0x1p60) {
		bw_errf(e, "iterations times message size is too large");
		return -1;
	}
	if (p->mode == BW_MODE_LAT && (p->bidir || p->qps != 1)) {
		bw_errf(e, "a latency test runs one queue pair/stream, one way at a time");
		return -1;
	}
	if (p->transport == BW_TRANSPORT_TCP) {
		/* one descriptor per stream and rail: refuse what this process
		 * cannot open rather than fail half-way (EMFILE) */
		struct rlimit rl;
		uint64_t need = (uint64_t)p->qps * n_rails;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
		    need + BW_FD_MARGIN > rl.rlim_cur) {
			bw_errf(e, "%" PRIu32 " streams x %" PRIu32 " rails need more open files "
				"than the limit of %llu allows (raise ulimit -n)", p->qps,
				n_rails, (unsigned long long)rl.rlim_cur);
			return -1;
		}
	}
	if (!c)
		return 0;
	if (p->size > c->max_size) {
		bw_errf(e, "message size %" PRIu64 " is over this server's cap of %" PRIu64
			" bytes (--max-size)", p->size, c->max_size);
		return -1;
	}
	if (p->qps > c->max_qps) {
		bw_errf(e, "%" PRIu32 " queue pairs/streams is over this server's cap of %" PRIu32
			" (--max-qps)", p->qps, c->max_qps);
		return -1;
	}
	if (n_rails > c->max_rails) {
		bw_errf(e, "%" PRIu32 " rails is over this server's cap of %" PRIu32, n_rails,
			c->max_rails);
		return -1;
	}
	if ((uint64_t)p->duration_ms + p->warmup_ms > c->max_duration_ms) {
		bw_errf(e, "warm-up plus duration of %.1f s is over this server's cap of %.1f s "
			"(--max-duration)", ((double)p->duration_ms + p->warmup_ms) / 1e3,
			c->max_duration_ms / 1e3);
		return -1;
	}
	if (p->iters) {
		/* iterations mode: refuse what could not end within the cap even
		 * at BW_MAX_BYTES_PER_S over all streams and rails (both ways
		 * when bidirectional), or at BW_MIN_RTT_S per round trip (lat),
		 * so that a test cannot hold the server past its cap; the
		 * engines' max_run_ms enforces the cap whatever the peer does */
		double bytes = (double)p->iters * (double)p->size * p->qps * n_rails *
			       (p->bidir ? 2 : 1);
		double need_s = bytes / BW_MAX_BYTES_PER_S;

		if (p->mode == BW_MODE_LAT && (double)p->iters * BW_MIN_RTT_S > need_s)
			need_s = (double)p->iters * BW_MIN_RTT_S;
		if (need_s * 1e3 + p->warmup_ms > c->max_duration_ms) {
			bw_errf(e, "%" PRIu64 " iterations of %" PRIu64 " bytes on %" PRIu32
				" streams x %" PRIu32 " rails could not finish in this server's "
				"cap of %.1f s (--max-duration)", p->iters, p->size, p->qps,
				n_rails, c->max_duration_ms / 1e3);
			return -1;
		}
	}
	if (bw_params_memory(p, n_rails) > c->max_memory) {
		bw_errf(e, "the test needs %" PRIu64 " MiB of buffers, over this server's cap of %"
			PRIu64 " MiB (--max-memory)", bw_params_memory(p, n_rails) >> 20,
			c->max_memory >> 20);
		return -1;
	}
	if (p->transport == BW_TRANSPORT_VERBS && !c->has_verbs) {
		bw_errf(e, "this server does not serve the verbs transport (started with "
			"--transport tcp); use --transport tcp");
		return -1;
	}
	return 0;
}
