/* Latency ping-pong of the verbs transport on QP 0, as ib_write_lat and
 * ib_send_lat do it (perftest's ib_write_lat and ib_send_lat):
 *   write: each side RDMA-writes its message into the peer's receive area
 *          and busy-polls the last byte of its own receive area for the
 *          peer's answer (the last byte lands last: no relaxed ordering);
 *   send:  SEND with immediate data, receives posted ahead, the receive CQ
 *          polled.
 * The server sends first.  The client decides when the run is over (after
 * iters round trips, or when the sampler's window closes) and then sends
 * STOP instead of an answer; the server returns when it sees STOP.
 * Samples: the time between two successive posts of one side is one round
 * trip; RTT/2 is stored in microseconds, inside the measured window only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sched.h>

#include "verbs_priv.h"

/* The last-byte counter runs 1..254; 255 is STOP (0 is a fresh buffer). */
#define LAST_STOP 255u

static uint8_t next_val(uint8_t v)
{
	return v >= 254 ? 1 : (uint8_t)(v + 1);
}

struct lat_ctx {
	struct verbs_state *s;
	struct verbs_qp *q;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct bw_result *out;
	size_t cap;
	double deadline;
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

/* Post the next message (value v in the last byte, or as immediate data)
 * and wait for its completion, so the source may be changed again. */
static int post_one(struct lat_ctx *c, uint32_t v, struct bw_err *e)
{
	struct verbs_state *s = c->s;
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int rc, n;

	if (s->p.op == BW_OP_WRITE)
		((volatile uint8_t *)c->q->send_area)[s->p.size - 1] = (uint8_t)v;
	else
		c->wr.imm_data = htonl(v);
	rc = ibv_post_send(c->q->qp, &c->wr, &bad);
	if (rc)
		return verbs_err(e, "%s: posting the ping-pong message failed: %s", s->devname, strerror(rc));
	for (unsigned spin = 1; (n = ibv_poll_cq(s->scq, 1, &wc)) == 0; spin++) {
		if (spin >= VERBS_SPIN_BEFORE_YIELD)
			sched_yield();
		if ((spin & 1023) == 0 && bw_now() > c->deadline)
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
			if (spin >= VERBS_SPIN_BEFORE_YIELD)
				sched_yield();
			if ((++spin & 1023) == 0 && bw_now() > c->deadline)
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
			if (verbs_post_recv(s, c->q) != 0)
				return verbs_err(e, "%s: cannot repost a receive", s->devname);
			*got = ntohl(wc.imm_data);
			return 0;
		}
		if (spin >= VERBS_SPIN_BEFORE_YIELD)
			sched_yield();
		if ((++spin & 1023) == 0 && bw_now() > c->deadline)
			return verbs_err(e, "%s: no answer from the peer within the time bound", s->devname);
	}
}

int verbs_run_lat(struct verbs_state *s, struct bw_result *out, struct bw_err *e)
{
	struct lat_ctx c = { .s = s, .q = &s->q[0], .out = out };
	uint32_t stop = s->p.op == BW_OP_WRITE ? LAST_STOP : VERBS_IMM_STOP;
	bool inl = !s->gpu_buf && s->p.size <= s->max_inline && s->p.size <= s->inline_want;
	struct bw_sampler sm;
	uint64_t rounds = 0;
	uint8_t cur = 1;
	double prev = 0;
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
	bw_sampler_start(&sm, &s->p, out);

	if (s->is_server) {
		prev = bw_now();
		if (post_one(&c, cur, e) != 0)
			return -1;
	}
	for (;;) {
		uint32_t got = 0;	/* set by wait_one on success; gcc -O2 cannot see it */
		double now;

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
		if (!s->is_server) {
			bool more = s->p.duration_ms ? bw_sampler_tick(&sm, rounds * s->p.size, rounds)
						     : rounds < s->p.iters;

			if (!more) {
				rc = post_one(&c, stop, e);
				break;
			}
		} else {
			cur = next_val(cur);
		}
		now = bw_now();
		if (prev > 0) {
			/* from our previous post to this one: one round trip */
			if (sm.phase == 1 && push_sample(&c, (now - prev) * 1e6 / 2, e) != 0) {
				rc = -1;
				break;
			}
			rounds++;
			/* the sampler only where it has a phase to change: a
			 * warm-up to end, or the server's window to close (the
			 * client ticks above in duration mode) */
			if ((s->is_server || !s->p.duration_ms) && (s->p.duration_ms || s->p.warmup_ms))
				(void)bw_sampler_tick(&sm, rounds * s->p.size, rounds);
		}
		prev = now;
		if (post_one(&c, cur, e) != 0) {
			rc = -1;
			break;
		}
		if (!s->is_server)
			cur = next_val(cur);
	}
	bw_sampler_finish(&sm, rounds * s->p.size, rounds);
	return rc;
}
