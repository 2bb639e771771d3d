/* Leaf helpers of the verbs transport, used by verbs_engine.c (setup),
 * verbs_bw.c and verbs_lat.c (the tests); they call nothing of those
 * files.  Errors follow bw/'s convention (engine.h): -1 with e set. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "verbs_priv.h"

int verbs_wc_err(struct bw_err *e, const struct verbs_state *s, const struct ibv_wc *wc)
{
	const char *hint = "";

	switch (wc->status) {
	case IBV_WC_RETRY_EXC_ERR:
		hint = ": the peer stopped acknowledging (peer gone, wrong gid or route, or mtu/pfc trouble on the path)";
		break;
	case IBV_WC_RNR_RETRY_EXC_ERR:
		hint = ": the peer had no receive posted";
		break;
	case IBV_WC_REM_ACCESS_ERR:
		hint = ": the peer refused the access (rkey or address mismatch)";
		break;
	case IBV_WC_WR_FLUSH_ERR:
		hint = ": the queue pair was already in error";
		break;
	default:
		break;
	}
	return verbs_err(e, "%s: work completion failed on qpn 0x%x: %s (status %d, vendor error 0x%x)%s",
			 s->devname, wc->qp_num, ibv_wc_status_str(wc->status), (int)wc->status,
			 wc->vendor_err, hint);
}

double verbs_time_bound(const struct bw_params *p)
{
	double t = 10.0 + (double)p->warmup_ms / 1e3;

	if (p->duration_ms)
		return t + (double)p->duration_ms / 1e3;
	/* iterations mode: generous for a slow link (50 MB/s, Soft-RoCE under
	 * emulation), plus 20 us per message of software overhead */
	return t + 20.0 + (double)p->iters * (p->bidir ? 2 : 1) *
			  ((double)p->size * (p->qps ? p->qps : 1) / 50e6 + 20e-6);
}

double verbs_hard_end(const struct verbs_state *s)
{
	double t = verbs_time_bound(&s->p);

	if (s->max_run_ms && (double)s->max_run_ms / 1e3 < t)
		t = (double)s->max_run_ms / 1e3;
	return bw_now() + t;
}

int verbs_post_recv(struct verbs_state *s, struct verbs_qp *q)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)q->recv_area,
		.length = (uint32_t)(s->slot > UINT32_MAX ? UINT32_MAX : s->slot),
		.lkey = s->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = (uint64_t)(q - s->q), .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(q->qp, &wr, &bad);
}

int verbs_post_imm(struct verbs_state *s, uint32_t imm, struct bw_err *e)
{
	struct ibv_send_wr wr = {
		.wr_id = VERBS_WRID_DONE,
		.opcode = IBV_WR_SEND_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(imm),
	};
	struct ibv_send_wr *bad;
	int rc = ibv_post_send(s->q[0].qp, &wr, &bad);

	if (rc)
		return verbs_err(e, "%s: cannot post the end-of-test message: %s", s->devname, strerror(rc));
	return 0;
}

