/* bw_params: defaults, the server's caps, and the check of a request
 * against them (a HELLO is untrusted). */
#ifndef RD_BW_PARAMS_H
#define RD_BW_PARAMS_H

#include "engine.h"

/* What a server accepts; a request over any of them gets an ERROR naming it. */
struct bw_caps {
	uint64_t max_size;		/* bytes per message */
	uint32_t max_qps;		/* QPs or streams per rail */
	uint32_t max_duration_ms;	/* warm-up + measured window */
	uint64_t max_memory;		/* buffers over all rails */
	uint32_t max_rails;
	bool has_verbs;			/* this build and host can run verbs */
};

void bw_params_defaults(struct bw_params *p, enum bw_mode mode);
void bw_caps_defaults(struct bw_caps *c);
/* The memory one side needs for the buffers of a test (an estimate both
 * sides compute the same way). */
uint64_t bw_params_memory(const struct bw_params *p, uint32_t n_rails);
/* 0, or -1 with a message saying which field and what the bound is.
 * Structural checks (sane ranges) always; caps when c is not NULL. */
int bw_params_check(const struct bw_params *p, uint32_t n_rails, const struct bw_caps *c,
		    struct bw_err *e);

/* CQ moderation, the one place its default is decided (perftest's rule):
 * one signaled work request in BW_CQ_MOD_DEFAULT up to
 * BW_CQ_MOD_SIZE_LIMIT bytes and throughout a sweep of sizes (perftest -a
 * keeps 100), every one above (a completion per large message costs
 * nothing and keeps the send queue short of stalls); never more than the
 * send depth (0: BW_TX_DEPTH_DEFAULT). */
#define BW_CQ_MOD_DEFAULT 100u
#define BW_CQ_MOD_SIZE_LIMIT 8192u
#define BW_TX_DEPTH_DEFAULT 128u
/* Latency sends messages up to this size inline unless told (perftest's
 * ib_*_lat default, capped by the verbs engine at what the device takes);
 * bandwidth none.  An explicit 0 is "none" in both. */
#define BW_LAT_INLINE_DEFAULT 220u
uint32_t bw_params_cq_mod(uint64_t size, uint32_t tx_depth, bool sweep);

/* bw_local.max_run_ms for a test: warm-up + duration + BW_RUN_MARGIN_MS
 * (drain, the peer's start), capped by cap_ms + the margin when cap_ms is
 * not 0; in iterations mode cap_ms itself (0: no bound). */
#define BW_RUN_MARGIN_MS 10000u
uint32_t bw_params_run_bound_ms(const struct bw_params *p, uint32_t cap_ms);
/* The fewest seconds one round trip of a message may take (lat), and the
 * most bytes per second all rails together may move (bw), for the bound on
 * an iterations test against --max-duration. */
#define BW_MIN_RTT_S 1e-6
#define BW_MAX_BYTES_PER_S 60e9	/* 480 Gb/s */
/* The verbs QPs' ACK timeout exponent unless told (perftest's -u default):
 * 4.096 us x 2^14, about 67 ms. */
#define BW_QP_TIMEOUT_DEFAULT 14u
/* Descriptors a tcp test needs beyond its streams (control, listener, ...). */
#define BW_FD_MARGIN 32u

const char *bw_op_name(enum bw_op op);
const char *bw_transport_name(enum bw_transport t);

#endif
