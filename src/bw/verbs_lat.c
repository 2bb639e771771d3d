/* Latency ping-pong of the verbs transport on QP 0, as ib_write_lat and
 * ib_send_lat do it (perftest's run_iter_lat_write / run_iter_lat_send):
 *   write: each side RDMA-writes its message into the peer's receive area
 *          and busy-polls the last byte of its own receive area for the
 *          peer's answer (the last byte lands last: no relaxed ordering);
 *   send:  SEND with immediate data, receives posted ahead, the receive CQ
 *          polled.
 * The server sends first.  The client decides when the run is over (after
 * iters round trips, or when the sampler's window closes) and then sends
 * STOP instead of an answer; the server returns when it sees STOP.
 * Samples: the time between two successive posts of one side is one round
 * trip; RTT/2 is stored in microseconds, inside the measured window only.
 *
 * Why this loop matches ib_write_lat now: perftest's loop, per round,
 * spins on the last byte, stamps the cycle counter (rdtsc / cntvct_el0),
 * writes its own last byte and posts, then polls its send completion; it
 * computes nothing until the run is over.  Ours did, between seeing the
 * peer's byte and posting the answer: a clock_gettime (a system call and
 * an HPET read where the clock source has no user-space reader, as in the
 * test VM), storing the sample (with reallocation), the sampler.  All of
 * that is inside the round trip being measured, on both sides, and made
 * our p50 1.1-1.3 times ib_write_lat's on the same device.  Now only a
 * cycle-counter stamp (cycles.h) lies between the two; the sample, the
 * sampler, the receive to post again (send) and our own send completion
 * are dealt with while the answer is in flight, samples are preallocated,
 * and the cycles are converted once at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sched.h>

#include "cycles.h"
#include "verbs_priv.h"

/* The last-byte counter runs 1..254; 255 is STOP (0 is a fresh buffer). */
#define LAST_STOP 255u

static uint8_t next_val(uint8_t v)
{
	return v >= 254 ? 1 : (uint8_t)(v + 1);
}

/* The write ping-pong's wait gives way (sched_yield) after this many reads
 * of the last byte.  VERBS_SPIN_BEFORE_YIELD counts completion-queue polls,
 * library calls that take tens of microseconds to reach 4096; a read of a
 * cached byte takes under a nanosecond, and 4096 of them took 3.2-3.5 us on
 * an AMD EPYC (this loop, timed in user space).  That is less than a round
 * trip through a RoCE switch, and than every round trip of messages of a
 * few KiB.  From there on every spin made a system call (0.54-0.57 us on
 * that EPYC, 1.8 us in the test VM), and an answer that landed during one
 * was seen that much later, on both sides.  ib_write_lat spins on the byte
 * and never yields.  In the VM, where 4096 reads took 22 us, the build
 * with this bound had a p50 1.3% (2 B) and 1.4% (4 KiB) lower than the one
 * without, in the same rounds.  2^16 reads are 50-60 us on that EPYC,
 * beyond a healthy round trip, and still far short of a scheduler tick
 * where the peer or the NIC's kernel threads need this CPU (Soft-RoCE on
 * few cores). */
#define LAT_BYTE_SPIN_BEFORE_YIELD (1u << 16)

/* Iterations mode keeps every sample; up to this many are allocated before
 * the loop starts (more grow as they come). */
#define BW_LAT_PREALLOC_MAX (1u << 22)

struct lat_ctx {
	struct verbs_state *s;
	struct verbs_qp *q;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct bw_result *out;
	size_t cap;
	double deadline;
	unsigned repost;	/* receives consumed, to post again */
};

static int push_sample(struct lat_ctx *c, double usec, struct bw_err *e)
{
	struct bw_result *o = c->out;

	if (o->n_lat == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4096;
		double *n = realloc(o->lat_usec, cap * sizeof(*n));

		if (!n)
			return verbs_err(e, "out of memory for %zu latency samples", cap);
		o->lat_usec = n;
		c->cap = cap;
	}
	o->lat_usec[o->n_lat++] = usec;
	return 0;
}

/* Post the next message: value v in the last byte (write) or as immediate
 * data (send).  Its completion is taken by await_sent, after the caller's
 * bookkeeping: the message is in flight meanwhile. */
static int post_msg(struct lat_ctx *c, uint32_t v, struct bw_err *e)
{
	struct verbs_state *s = c->s;
	struct ibv_send_wr *bad;
	int rc;

	if (s->p.op == BW_OP_WRITE)
		((volatile uint8_t *)c->q->send_area)[s->p.size - 1] = (uint8_t)v;
	else
		c->wr.imm_data = htonl(v);
	rc = ibv_post_send(c->q->qp, &c->wr, &bad);
	if (rc)
		return verbs_err(e, "%s: posting the ping-pong message failed: %s", s->devname, strerror(rc));
	return 0;
}

/* The completion of the message just posted, so that its source may be
 * changed again. */
static int await_sent(struct lat_ctx *c, struct bw_err *e)
{
	struct verbs_state *s = c->s;
	struct ibv_wc wc;
	int n;

	for (unsigned spin = 1; (n = ibv_poll_cq(s->scq, 1, &wc)) == 0; spin++) {
		if (spin >= VERBS_SPIN_BEFORE_YIELD)
			sched_yield();
		if ((spin & 1023) == 0 && bw_now_coarse() > c->deadline)
			return verbs_err(e, "%s: the ping-pong message was not acknowledged", s->devname);
	}
	if (n < 0)
		return verbs_err(e, "%s: polling the send queue failed", s->devname);
	if (wc.status != IBV_WC_SUCCESS)
		return verbs_wc_err(e, s, &wc);
	return 0;
}

/* Wait for the peer's message; *got is its value (last byte or immediate). */
static int wait_one(struct lat_ctx *c, uint8_t want, uint32_t *got, struct bw_err *e)
{
	struct verbs_state *s = c->s;
	unsigned spin = 0;

	if (s->p.op == BW_OP_WRITE) {
		volatile uint8_t *last = (volatile uint8_t *)c->q->recv_area + s->p.size - 1;

		for (;;) {
			uint8_t v = *last;

			if (v == want || v == LAST_STOP) {
				*got = v;
				return 0;
			}
			if (spin >= LAT_BYTE_SPIN_BEFORE_YIELD)
				sched_yield();
			if ((++spin & 1023) == 0 && bw_now_coarse() > c->deadline)
				return verbs_err(e, "%s: no answer from the peer within the time bound", s->devname);
		}
	}
	for (;;) {
		struct ibv_wc wc;
		int n = ibv_poll_cq(s->rcq, 1, &wc);

		if (n < 0)
			return verbs_err(e, "%s: polling the receive queue failed", s->devname);
		if (n == 1) {
			if (wc.status != IBV_WC_SUCCESS)
				return verbs_wc_err(e, s, &wc);
			/* reposted after our answer is out (receives are
			 * posted LAT_RX_DEPTH ahead): not on the round trip */
			c->repost++;
			*got = ntohl(wc.imm_data);
			return 0;
		}
		if (spin >= VERBS_SPIN_BEFORE_YIELD)
			sched_yield();
		if ((++spin & 1023) == 0 && bw_now_coarse() > c->deadline)
			return verbs_err(e, "%s: no answer from the peer within the time bound", s->devname);
	}
}

int verbs_run_lat(struct verbs_state *s, struct bw_result *out, struct bw_err *e)
{
	struct lat_ctx c = { .s = s, .q = &s->q[0], .out = out };
	uint32_t stop = s->p.op == BW_OP_WRITE ? LAST_STOP : VERBS_IMM_STOP;
	bool inl = !s->gpu_buf && s->p.size <= s->max_inline && s->p.size <= s->inline_want;
	bool duration = s->p.duration_ms != 0, more = true;
	struct bw_sampler sm;
	uint64_t rounds = 0;
	uint8_t cur = 1;
	uint64_t prev = 0, now, c0;
	double t0;
	int rc = 0;

	c.sge = (struct ibv_sge){ .addr = (uintptr_t)c.q->send_area, .length = (uint32_t)s->p.size,
				  .lkey = s->mr->lkey };
	c.wr = (struct ibv_send_wr){
		.wr_id = 0, .sg_list = &c.sge, .num_sge = 1,
		.opcode = s->p.op == BW_OP_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_SEND_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED | (inl ? IBV_SEND_INLINE : 0),
	};
	c.wr.wr.rdma.remote_addr = c.q->peer.addr;
	c.wr.wr.rdma.rkey = c.q->peer.rkey;
	c.deadline = verbs_hard_end(s);
	if (!duration && s->p.iters <= BW_LAT_PREALLOC_MAX) {
		/* every sample's room up front, and written once: the kernel
		 * maps a fresh page at its first write, and a fault inside the
		 * loop lands inside a round trip (sample 147 of 1000, where
		 * the array crossed into its next page, was slow in 8 of 8
		 * runs in the test VM).  Not zeros: the compiler may turn
		 * malloc and a zero memset into calloc, which skips writing
		 * memory it knows is fresh. */
		out->lat_usec = malloc((size_t)s->p.iters * sizeof(*out->lat_usec));
		if (out->lat_usec)
			memset(out->lat_usec, 0xff, (size_t)s->p.iters * sizeof(*out->lat_usec));
		c.cap = out->lat_usec ? (size_t)s->p.iters : 0;
	}
	bw_sampler_start(&sm, &s->p, out);
	t0 = bw_now();
	c0 = bw_cycles();

	if (s->is_server) {
		prev = bw_cycles();
		if (post_msg(&c, cur, e) != 0 || await_sent(&c, e) != 0)
			return -1;
	}
	for (;;) {
		uint32_t got = 0;	/* set by wait_one on success; gcc -O2 cannot see it */

		if (wait_one(&c, cur, &got, e) != 0) {
			rc = -1;
			break;
		}
		if (got == stop)
			break;	/* server: the client is done */
		if (s->p.op == BW_OP_SEND && got != cur) {
			rc = verbs_err(e, "%s: ping-pong out of step (got %u, expected %u)", s->devname, got, cur);
			break;
		}
		/* The answer goes out at once, as in ib_write_lat: between
		 * seeing the peer's message and posting ours only the stamp.
		 * Whether to stop was decided in the previous round's
		 * bookkeeping. */
		if (!s->is_server && (duration ? !more : rounds >= s->p.iters)) {
			rc = post_msg(&c, stop, e);
			if (rc == 0)
				rc = await_sent(&c, e);
			break;
		}
		if (s->is_server)
			cur = next_val(cur);
		now = bw_cycles();
		if (post_msg(&c, cur, e) != 0) {
			rc = -1;
			break;
		}
		/* bookkeeping while our message is in flight */
		for (; c.repost; c.repost--)
			if (verbs_post_recv(s, c.q) != 0) {
				rc = verbs_err(e, "%s: cannot repost a receive", s->devname);
				goto out;
			}
		if (prev > 0) {
			/* from our previous post to this one: one round trip,
			 * in cycles until the run's end converts them (a
			 * counter that went back, a move to a core whose
			 * counter lags, gives no sample) */
			if (sm.phase == 1 && now > prev &&
			    push_sample(&c, (double)(now - prev) / 2, e) != 0) {
				rc = -1;
				break;
			}
			rounds++;
		}
		prev = now;
		/* the sampler only where it has a phase to change: the client's
		 * window (it decides the end), a warm-up to end, or the
		 * server's window to close */
		if (!s->is_server && duration)
			more = bw_sampler_poll(&sm, rounds * s->p.size, rounds);
		else if (rounds && (duration || s->p.warmup_ms))
			(void)bw_sampler_poll(&sm, rounds * s->p.size, rounds);
		if (await_sent(&c, e) != 0) {
			rc = -1;
			break;
		}
		if (!s->is_server)
			cur = next_val(cur);
	}
out:
	bw_sampler_finish(&sm, rounds * s->p.size, rounds);
	{
		uint64_t c1 = bw_cycles();
		double t1 = bw_now();
		/* microseconds per cycle over the whole run */
		double us = c1 > c0 && t1 > t0 ? (t1 - t0) * 1e6 / (double)(c1 - c0) : 0;

		if (rc == 0 && out->n_lat && !(us > 0))
			rc = verbs_err(e, "%s: the cpu cycle counter did not advance with the clock; no latency figures",
				       s->devname);
		for (size_t i = 0; i < out->n_lat; i++)
			out->lat_usec[i] *= us;
	}
	return rc;
}
