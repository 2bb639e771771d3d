/* The verbs transport's state, shared by its files: verbs_engine.c (device,
 * memory, queue pairs, connection) calls verbs_bw.c (bandwidth loops) and
 * verbs_lat.c (ping-pong); all three call the leaf helpers of
 * verbs_common.c.  Private to src/bw/verbs_*. */
#ifndef RD_BW_VERBS_PRIV_H
#define RD_BW_VERBS_PRIV_H

#include <infiniband/verbs.h>

#include "engine.h"
#include "gid_pick.h"
#include "verbs_endpoint.h"

/* Immediate data of the zero-length SEND that tells the peer this side is
 * done ("DONE"), and of the latency ping-pong's last message ("STOP"). */
#define VERBS_IMM_DONE 0x444f4e45u
#define VERBS_IMM_STOP 0x53544f50u
/* wr_id of that message: never a data WR (those carry a QP index < 65536). */
#define VERBS_WRID_DONE UINT64_MAX

#define VERBS_POLL_BATCH 64
/* Busy-polling gives way (sched_yield) after this many empty polls of a
 * completion queue in a row: far longer than a round trip or a completion
 * gap on real NICs (tens of microseconds), so it never costs there (a read
 * of one byte is far cheaper than a poll: the write ping-pong's spin has
 * its own bound, verbs_lat.c); on Soft-RoCE the NIC's
 * work runs in kernel threads (ksoftirqd) that a spinning poller would
 * otherwise starve until the next timer tick, milliseconds later. */
#define VERBS_SPIN_BEFORE_YIELD 4096u

/* An active side that sees no completion for this long gives up. */
#define VERBS_STALL_S 10.0

struct verbs_qp {
	struct ibv_qp *qp;
	uint32_t psn;
	uint8_t *send_area, *recv_area;	/* halves of this QP's slot */
	uint64_t scnt, ccnt;		/* WRs posted, WRs known complete */
	uint64_t signaled_upto;		/* scnt at the last signaled WR */
	struct ibv_send_wr *wr;		/* post_list WRs, chained, built once */
	struct ibv_sge *sge;
	struct verbs_ep_qp peer;
};

struct verbs_state {
	struct bw_params p;
	bool is_server;
	uint32_t max_run_ms;		/* bw_local.max_run_ms: 0 none */
	uint8_t traffic_class;		/* bw_local's: the GRH's, 0 default */
	uint8_t qp_timeout;		/* bw_local's: the ACK timeout exponent, 0 default */
	int gpu, numa_node, ib_port;
	enum bw_peermem peermem;	/* bw_local's, for the GPU advice */
	char devname[64];

	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_comp_channel *chan;	/* rcq's: a passive side sleeps on it */
	unsigned rcq_events;		/* events taken, acknowledged in destroy */
	struct ibv_mr *mr;
	uint8_t *buf;			/* host buffer (NULL with a GPU) */
	struct gpu_mem *gpu_buf;
	size_t buf_len, slot;		/* slot: one half of a QP's area */

	struct ibv_port_attr port;
	int is_roce;
	struct gid_pick_result gid;
	uint32_t dest_rd_atomic, init_rd_atomic;
	uint32_t inline_want;		/* asked (settle_params) */
	uint32_t max_inline;		/* what the QPs accept */
	uint32_t tx_depth, rx_depth, cq_mod, post_list;
	enum ibv_mtu mtu;		/* after connect: min of both ports */

	struct verbs_qp *q;
	uint32_t nq;
	bool connected;
	bool peer_done;			/* the peer's DONE arrived */
	uint64_t rx_bytes, rx_msgs;	/* send/recv: payload received */
};

/* ---- verbs_common.c ---- */
/* An error worth -1 (engine.h): `return verbs_err(e, ...);` */
#define verbs_err(e, ...) bw_errc((e), BW_E_FAILED, __VA_ARGS__)
/* A failed work completion, worded with its cause and what to check. */
int verbs_wc_err(struct bw_err *e, const struct verbs_state *s, const struct ibv_wc *wc);
/* Post one receive on q covering its receive area. */
int verbs_post_recv(struct verbs_state *s, struct verbs_qp *q);
/* Send the zero-length DONE (or STOP) message on QP 0, signaled. */
int verbs_post_imm(struct verbs_state *s, uint32_t imm, struct bw_err *e);
/* Seconds the passive side waits for the peer at most. */
double verbs_time_bound(const struct bw_params *p);
/* When run() must have ended, started now: the engine's own bound for the
 * parameters, cut to bw_local.max_run_ms (what the server allows). */
double verbs_hard_end(const struct verbs_state *s);

/* ---- verbs_bw.c, verbs_lat.c: the tests, called by verbs_engine.c ---- */
int verbs_run_bw(struct verbs_state *s, struct bw_result *out, struct bw_err *e);
int verbs_run_lat(struct verbs_state *s, struct bw_result *out, struct bw_err *e);

#endif
