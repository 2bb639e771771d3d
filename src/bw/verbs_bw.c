/* Bandwidth loops of the verbs transport, in perftest's shape (ib_write_bw's
 * run_iter_bw): one thread, QPs visited in turn, each kept at tx_depth
 * outstanding WRs, posted in chains of post_list, one signaled WR in
 * cq_mod, completions polled in batches from the one shared send CQ.  The
 * sampler keeps warm-up and drain out of the figures.
 *
 * What perftest's loop does NOT do, and this one therefore does not either:
 * read a clock while it runs.  In duration mode ib_write_bw's loop only
 * posts and polls; an alarm signal moves it from warm-up to sampling to the
 * end, and the cycle counter is read at those edges.  This loop used to
 * read CLOCK_MONOTONIC on every completion and every 16 empty turns.
 * Where the kernel's clock source has no user-space reader (HPET, or a TSC
 * the kernel marked unstable, as in virtual machines: the Soft-RoCE test VM
 * runs on HPET) each such read is a system call plus a device access, on
 * the posting thread, between posts: at small messages, where the message
 * rate is all the loop's own overhead, ib_write_bw led by 20% there.  The
 * loop now checks the coarse clock (a memory read) and reads the precise
 * one only at the window's edges (bw_sampler_poll), so the figures keep
 * their precision.
 *
 * Point by point against ib_write_bw -D (run_iter_bw, post_send_method):
 *   the same: tx_depth WRs outstanding per QP (128); one WR per post call
 *     (post list 1); WR number k (from 1) signaled when k % cq_mod == 0,
 *     a completion standing for cq_mod WRs; cq_mod 100 up to 8 KiB, 1
 *     above; no inline for bandwidth (perftest turns it off on devices
 *     it does not know, rxe among them); the window counts completions
 *     only, between two clock reads one duration apart, after a warm-up
 *     (perftest: duration / 4 each side); Gb/s are 10^9 bits (perftest's
 *     MB/s without --report_gbits are 2^20 bytes); page-aligned buffers,
 *     one QP unless asked.
 *   different, on purpose: at most INFLIGHT_MAX bytes posted per QP
 *     (verbs_engine.c), where perftest keeps 128 WRs of any size (1 GiB
 *     at 8 MiB): the wire needs a few bandwidth-delay products (Soft-RoCE
 *     sends no more than 128 packets ahead of its acknowledgements,
 *     whatever is posted), and more only lengthens the drain; busy-polling gives way after
 *     VERBS_SPIN_BEFORE_YIELD empty polls (perftest spins: on Soft-RoCE
 *     the NIC's work then waits for the scheduler); CQ polled in batches
 *     of VERBS_POLL_BATCH (perftest 16); after the window the loop stops
 *     posting and drains (perftest posts on for its trailing margin); the
 *     same buffer address for every WR (perftest walks a 4 KiB buffer
 *     for messages up to 2 KiB); CLOCK_MONOTONIC (perftest: the cycle
 *     counter over a CPU MHz taken from /proc/cpuinfo when it is within
 *     2% of one it measures).
 *
 * Roles: the client sends (write, send) or pulls (read); the server is
 * passive unless bidir.  When a side's loop is over it sends a zero-length
 * DONE message on QP 0; every side returns once it has its own loop behind
 * it and the peer's DONE (or when verbs_time_bound passes), so the passive
 * side keeps its queue pairs and memory alive until the peer is finished. */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "verbs_priv.h"

static int build_wrs(struct verbs_state *s, struct verbs_qp *q, struct bw_err *e)
{
	uint32_t n = s->post_list;
	enum ibv_wr_opcode op = s->p.op == BW_OP_WRITE ? IBV_WR_RDMA_WRITE
				: s->p.op == BW_OP_READ ? IBV_WR_RDMA_READ : IBV_WR_SEND;
	/* inline makes the CPU copy the payload: never from GPU memory */
	bool inl = s->p.op != BW_OP_READ && !s->gpu_buf && s->p.size <= s->max_inline &&
		   s->p.size <= s->inline_want;

	q->wr = calloc(n, sizeof(*q->wr));
	q->sge = calloc(n, sizeof(*q->sge));
	if (!q->wr || !q->sge)
		return verbs_err(e, "out of memory for work requests");
	for (uint32_t i = 0; i < n; i++) {
		/* read: the peer's buffer lands in our receive area */
		q->sge[i] = (struct ibv_sge){
			.addr = (uintptr_t)(s->p.op == BW_OP_READ ? q->recv_area : q->send_area),
			.length = (uint32_t)s->p.size,
			.lkey = s->mr->lkey,
		};
		q->wr[i] = (struct ibv_send_wr){
			.wr_id = (uint64_t)(q - s->q),
			.sg_list = &q->sge[i],
			.num_sge = 1,
			.opcode = op,
			.send_flags = inl ? IBV_SEND_INLINE : 0,
			.next = i + 1 < n ? &q->wr[i + 1] : NULL,
		};
		if (op != IBV_WR_SEND) {
			q->wr[i].wr.rdma.remote_addr = q->peer.addr;
			q->wr[i].wr.rdma.rkey = q->peer.rkey;
		}
	}
	return 0;
}

/* Post one chain on q if it fits; 1 posted, 0 nothing to do, -1 error. */
static int post_chain(struct verbs_state *s, struct verbs_qp *q, struct bw_err *e)
{
	uint64_t n = s->post_list;
	struct ibv_send_wr *bad;
	int rc;

	if (s->p.duration_ms == 0) {
		if (q->scnt >= s->p.iters)
			return 0;
		if (s->p.iters - q->scnt < n)
			n = s->p.iters - q->scnt;
	}
	if (q->scnt + n > q->ccnt + s->tx_depth)
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t no = q->scnt + i + 1;	/* this WR's number, from 1 */
		bool sig = no % s->cq_mod == 0 || (s->p.duration_ms == 0 && no == s->p.iters);

		if (sig) {
			q->wr[i].send_flags |= IBV_SEND_SIGNALED;
			/* the CQE stands for every WR since the last signal */
			q->wr[i].wr_id = (no - q->signaled_upto) << 16 | (uint64_t)(q - s->q);
			q->signaled_upto = no;
		} else {
			q->wr[i].send_flags &= ~(unsigned)IBV_SEND_SIGNALED;
		}
	}
	q->wr[n - 1].next = NULL;
	rc = ibv_post_send(q->qp, q->wr, &bad);
	if (n < s->post_list)
		q->wr[n - 1].next = &q->wr[n];
	if (rc)
		return verbs_err(e, "%s: posting to qpn 0x%x failed: %s", s->devname, q->qp->qp_num, strerror(rc));
	q->scnt += n;
	return 1;
}

/* Receive completions: data for send/recv (counted, receive reposted) and
 * the peer's DONE.  Returns the number seen, or -1. */
static int service_recv(struct verbs_state *s, struct bw_err *e)
{
	struct ibv_wc wc[VERBS_POLL_BATCH];
	int n = ibv_poll_cq(s->rcq, VERBS_POLL_BATCH, wc);

	if (n < 0)
		return verbs_err(e, "%s: polling the receive queue failed", s->devname);
	for (int i = 0; i < n; i++) {
		struct verbs_qp *q;

		if (wc[i].status != IBV_WC_SUCCESS)
			return verbs_wc_err(e, s, &wc[i]);
		if (wc[i].wr_id >= s->nq)
			return verbs_err(e, "%s: receive completion for an unknown queue pair", s->devname);
		q = &s->q[wc[i].wr_id];
		if ((wc[i].wc_flags & IBV_WC_WITH_IMM) && ntohl(wc[i].imm_data) == VERBS_IMM_DONE) {
			s->peer_done = true;
		} else {
			s->rx_bytes += wc[i].byte_len;
			s->rx_msgs++;
		}
		if (verbs_post_recv(s, q) != 0)
			return verbs_err(e, "%s: cannot repost a receive", s->devname);
	}
	return n;
}

static bool all_drained(const struct verbs_state *s)
{
	for (uint32_t i = 0; i < s->nq; i++)
		if (s->q[i].ccnt != s->q[i].signaled_upto)
			return false;
	return true;
}

/* The sending loop: post, poll, sample, then drain what is in flight. */
static int active_loop(struct verbs_state *s, struct bw_result *out, struct bw_err *e)
{
	struct ibv_wc wc[VERBS_POLL_BATCH];
	struct bw_sampler sm;
	uint64_t bytes = 0, msgs = 0, completed = 0;
	uint64_t target = s->p.iters * s->nq;	/* iterations mode */
	bool stopping = false, iters_mode = s->p.duration_ms == 0;
	double last = 0, hard_end = verbs_hard_end(s);
	unsigned idle = 0;
	unsigned spin = 0;

	for (uint32_t i = 0; i < s->nq; i++)
		if (build_wrs(s, &s->q[i], e) != 0)
			return -1;
	bw_sampler_start(&sm, &s->p, out);
	for (;;) {
		int n;

		/* whatever the peer does, the test ends by its limit */
		if ((++spin & 1023) == 0 && bw_now_coarse() > hard_end)
			return verbs_err(e, "%s: the test ran past its time limit; it is stopped",
					 s->devname);
		if (!stopping)
			for (uint32_t i = 0; i < s->nq; i++)
				while (true) {
					int r = post_chain(s, &s->q[i], e);

					if (r < 0)
						return -1;
					if (r == 0)
						break;
				}
		n = ibv_poll_cq(s->scq, VERBS_POLL_BATCH, wc);
		if (n < 0)
			return verbs_err(e, "%s: polling the send queue failed", s->devname);
		for (int i = 0; i < n; i++) {
			uint64_t cnt = wc[i].wr_id >> 16, qi = wc[i].wr_id & 0xffff;

			if (wc[i].status != IBV_WC_SUCCESS)
				return verbs_wc_err(e, s, &wc[i]);
			if (wc[i].wr_id == VERBS_WRID_DONE || qi >= s->nq)
				continue;
			s->q[qi].ccnt += cnt;
			completed += cnt;
			if (!stopping) {
				msgs += cnt;
				bytes += cnt * s->p.size;
			}
		}
		/* the peer's traffic (bidir send) and its DONE */
		if ((s->p.op == BW_OP_SEND && s->p.bidir) || (spin & 63) == 0)
			if (service_recv(s, e) < 0)
				return -1;
		if (!stopping) {
			if (iters_mode && completed == target) {
				bw_sampler_finish(&sm, bytes, msgs);
				return 0;
			}
			/* on progress, else every 16 empty turns (one turn can
			 * be long where posting runs the NIC's work in the
			 * caller, Soft-RoCE); the precise clock only at the
			 * window's edges (bw_sampler_poll) */
			if ((n > 0 || (spin & 15) == 0) && !bw_sampler_poll(&sm, bytes, msgs))
				stopping = true;	/* drain: bounded by the stall check */
		} else if (all_drained(s)) {
			return 0;
		}
		/* the clock only every 4096 empty polls: the fast path stays cheap */
		if (n > 0) {
			idle = 0;
			last = 0;
		} else {
			if (++idle >= VERBS_SPIN_BEFORE_YIELD)
				sched_yield();
			if ((idle & 4095) == 0) {
				double now = bw_now_coarse();

				if (last == 0)
					last = now;
				else if (now - last > VERBS_STALL_S)
					return verbs_err(e, "%s: no completion for %.0f s with work requests in flight (the peer stopped answering?)",
							 s->devname, VERBS_STALL_S);
			}
		}
	}
}

/* Sleep until the receive CQ has something (or 100 ms pass).  A passive
 * write/read side has nothing to do but wait for DONE: spinning there would
 * take a core from the NIC driver (Soft-RoCE's kernel threads) and from the
 * other rails; perftest's write server sleeps on its TCP socket likewise. */
static int sleep_on_rcq(struct verbs_state *s, struct bw_err *e)
{
	struct pollfd pfd = { .fd = s->chan->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *ctx;
	int rc;

	if (ibv_req_notify_cq(s->rcq, 0) != 0)
		return verbs_err(e, "%s: cannot arm the receive queue", s->devname);
	rc = service_recv(s, e);	/* what came before arming */
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	rc = poll(&pfd, 1, 100);
	if (rc < 0 && errno != EINTR)
		return verbs_err(e, "%s: waiting on the completion channel: %s", s->devname, strerror(errno));
	if (rc > 0) {
		if (ibv_get_cq_event(s->chan, &cq, &ctx) != 0)
			return verbs_err(e, "%s: reading a completion event failed", s->devname);
		s->rcq_events++;
	}
	return 0;
}

/* Wait for the peer's DONE, receiving (and, on a passive send/recv side,
 * measuring) what arrives meanwhile. */
static int wait_peer(struct verbs_state *s, struct bw_result *out, bool measure, struct bw_err *e)
{
	double deadline = verbs_hard_end(s);
	struct bw_sampler sm;
	bool measuring = measure;
	unsigned spin = 0, idle = 0;

	if (measure)
		bw_sampler_start(&sm, &s->p, out);
	while (!s->peer_done) {
		if (!measure && s->p.op != BW_OP_SEND) {
			if (sleep_on_rcq(s, e) < 0)
				return -1;
		} else {
			int r = service_recv(s, e);

			if (r < 0)
				return -1;
			idle = r > 0 ? 0 : idle + 1;
			if (idle >= VERBS_SPIN_BEFORE_YIELD)
				sched_yield();
		}
		if ((++spin & 15) != 0)
			continue;	/* the clock every 16 turns, as in active_loop */
		if (measuring && !bw_sampler_poll(&sm, s->rx_bytes, s->rx_msgs))
			measuring = false;
		if (bw_now_coarse() > deadline)
			return verbs_err(e, "%s: the peer did not finish within %.0f s", s->devname,
					 verbs_time_bound(&s->p));
	}
	if (measuring)
		bw_sampler_finish(&sm, s->rx_bytes, s->rx_msgs);
	return 0;
}

/* Our DONE's own completion, so no WR is in flight when the QPs go. */
static int finish_done(struct verbs_state *s, struct bw_err *e)
{
	double deadline = bw_now_coarse() + VERBS_STALL_S;
	struct ibv_wc wc;

	for (;;) {
		int n = ibv_poll_cq(s->scq, 1, &wc);

		if (n < 0)
			return verbs_err(e, "%s: polling the send queue failed", s->devname);
		if (n == 1 && wc.status != IBV_WC_SUCCESS)
			return verbs_wc_err(e, s, &wc);
		if (n == 1 && wc.wr_id == VERBS_WRID_DONE)
			return 0;
		if (bw_now_coarse() > deadline)
			return verbs_err(e, "%s: the end-of-test message was not acknowledged", s->devname);
	}
}

int verbs_run_bw(struct verbs_state *s, struct bw_result *out, struct bw_err *e)
{
	bool active = s->p.bidir || !s->is_server;

	if (active) {
		if (active_loop(s, out, e) != 0)
			return -1;
		if (verbs_post_imm(s, VERBS_IMM_DONE, e) != 0 || finish_done(s, e) != 0)
			return -1;
		return wait_peer(s, out, false, e);
	}
	/* passive: send/recv is measured here too (what arrived) */
	if (wait_peer(s, out, s->p.op == BW_OP_SEND, e) != 0)
		return -1;
	if (verbs_post_imm(s, VERBS_IMM_DONE, e) != 0)
		return -1;
	return finish_done(s, e);
}
