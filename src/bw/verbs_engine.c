/* The verbs transport (engine.h): RC queue pairs over libibverbs.  This file
 * opens the device, allocates and registers memory, creates the CQs and
 * QPs, describes them as endpoint bytes and connects them to the peer's;
 * verbs_bw.c and verbs_lat.c run the tests, and all three use the leaf
 * helpers of verbs_common.c (errors, receives, the end message, time
 * bounds), so that calls go one way: engine -> tests -> common.
 *
 * Defaults follow perftest where the params leave a field 0: tx_depth 128,
 * post_list 1, and CQ moderation by bw_params_cq_mod (bw/params.h).
 * An explicit cq_mod is honoured, capped at tx_depth; the depth itself is
 * capped at 16 MiB in flight per QP (settle_params says why). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "gpu_mem.h"
#include "params.h"
#include "verbs_priv.h"

#define LAT_RX_DEPTH 64
#define INFLIGHT_MAX (16ull << 20)

static struct ibv_context *open_device(const char *name, char *out, size_t outlen, struct bw_err *e)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	struct ibv_context *ctx = NULL;

	if (!list || n == 0) {
		if (list)
			ibv_free_device_list(list);
		verbs_err(e, "no rdma device found (load the nic driver or rdma_rxe; see `rdmadoctor check`), or use --transport tcp");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		if (name && strcmp(ibv_get_device_name(list[i]), name) != 0)
			continue;
		snprintf(out, outlen, "%s", ibv_get_device_name(list[i]));
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			verbs_err(e, "cannot open rdma device %s: %s", out, strerror(errno));
		break;
	}
	if (!ctx && name && !out[0])
		verbs_err(e, "no rdma device named '%s' (see `ibv_devices`)", name);
	ibv_free_device_list(list);
	return ctx;
}

static uint32_t mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

static enum ibv_mtu mtu_enum(uint32_t bytes)
{
	for (enum ibv_mtu m = IBV_MTU_256; m <= IBV_MTU_4096; m++)
		if (mtu_bytes(m) == bytes)
			return m;
	return 0;
}

static uint32_t random24(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		v = (uint32_t)time(NULL) ^ (uint32_t)getpid() * 2654435761u;
	return v & 0xffffff;
}

/* Derived settings: perftest's defaults and caps (see the file comment). */
static void settle_params(struct verbs_state *s)
{
	const struct bw_params *p = &s->p;

	s->tx_depth = p->tx_depth ? p->tx_depth : BW_TX_DEPTH_DEFAULT;
	if (p->duration_ms == 0 && p->iters && p->iters < s->tx_depth)
		s->tx_depth = (uint32_t)p->iters;
	/* At most 16 MiB in flight per QP (at least 2 messages): a few
	 * bandwidth-delay products are all a link needs (400 Gb/s x 10 us is
	 * 500 KB), and more only lengthens the drain after the window, which
	 * on a slow link (Soft-RoCE) would outlast the peer's time bound. */
	if (p->mode == BW_MODE_BW && (uint64_t)s->tx_depth * p->size > INFLIGHT_MAX) {
		uint64_t d = INFLIGHT_MAX / p->size;

		s->tx_depth = d < 2 ? 2 : (uint32_t)d;
	}
	if (s->tx_depth < 1)
		s->tx_depth = 1;
	s->post_list = p->post_list ? p->post_list : 1;
	if (s->post_list > s->tx_depth)
		s->post_list = s->tx_depth;
	if (p->cq_mod)
		s->cq_mod = p->cq_mod;
	else
		s->cq_mod = bw_params_cq_mod(p->size, s->tx_depth, false);
	if (s->cq_mod < s->post_list)
		s->cq_mod = s->post_list;	/* one signal per chain at least, as perftest */
	if (s->cq_mod > s->tx_depth)
		s->cq_mod = s->tx_depth;
	/* Signals must fall on chain ends: posting waits for the signaled
	 * completion that frees room, and a signal inside a chain that never
	 * fits (post list 64, moderation 100, depth 128) would never come. */
	s->cq_mod -= s->cq_mod % s->post_list;
	/* inline: as asked (the default is bw_params_defaults'), capped at
	 * what the device takes (create_qps) */
	s->inline_want = p->inline_size;
	if (p->mode == BW_MODE_LAT) {
		s->tx_depth = 4;	/* one message in flight, plus the STOP */
		s->rx_depth = LAT_RX_DEPTH;
	} else {
		s->rx_depth = p->op == BW_OP_SEND ? s->tx_depth : 2;
	}
}

/* Host memory after the runner pinned this thread, written once so that
 * first touch places it on this NUMA node. */
static int alloc_buffer(struct verbs_state *s, struct bw_err *e)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pg = page > 0 ? (size_t)page : 4096;
	size_t want = s->p.size < 64 ? 64 : (size_t)s->p.size;

	s->slot = (want + pg - 1) / pg * pg;
	if (s->slot > SIZE_MAX / 2 / s->nq)
		return verbs_err(e, "buffer of %u x 2 x %zu bytes is too large", s->nq, s->slot);
	s->buf_len = s->slot * 2 * s->nq;
	if (s->gpu >= 0) {
		char m[256];

		if (gpu_mem_alloc(s->gpu, s->buf_len, &s->gpu_buf, m, sizeof(m)) != 0)
			return verbs_err(e, "%s", m);
		return 0;
	}
	if (posix_memalign((void **)&s->buf, pg, s->buf_len) != 0)
		return verbs_err(e, "cannot allocate %zu bytes of test buffer", s->buf_len);
	memset(s->buf, 0, s->buf_len);
	return 0;
}

static int register_buffer(struct verbs_state *s, struct bw_err *e)
{
	int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	/* Relaxed ordering lets the NIC reorder PCIe writes: faster on
	 * GPU servers, and the library ignores it where unsupported.  Not for
	 * write latency: it polls the last byte, which must land last. */
	bool relaxed = !(s->p.mode == BW_MODE_LAT && s->p.op == BW_OP_WRITE);

	if (s->gpu_buf) {
		char m[768];

		s->mr = gpu_mem_register(s->gpu_buf, s->pd, acc | (relaxed ? IBV_ACCESS_RELAXED_ORDERING : 0),
					 s->peermem, m, sizeof(m));
		if (!s->mr)
			return verbs_err(e, "%.250s", m);
		s->buf = gpu_mem_ptr(s->gpu_buf);
		return 0;
	}
	if (relaxed)
		s->mr = ibv_reg_mr(s->pd, s->buf, s->buf_len, acc | IBV_ACCESS_RELAXED_ORDERING);
	if (!s->mr)
		s->mr = ibv_reg_mr(s->pd, s->buf, s->buf_len, acc);
	if (!s->mr) {
		int err = errno;

		return verbs_err(e, "%s: cannot register %zu bytes of memory: %s%s", s->devname, s->buf_len,
				 strerror(err),
				 err == ENOMEM || err == EPERM ? " (raise the memlock limit: ulimit -l unlimited)" : "");
	}
	return 0;
}

static int create_qps(struct verbs_state *s, const struct ibv_device_attr *da, struct bw_err *e)
{
	uint32_t want_inline = s->inline_want;

	s->q = calloc(s->nq, sizeof(*s->q));
	if (!s->q)
		return verbs_err(e, "out of memory for %u queue pairs", s->nq);
	for (uint32_t i = 0; i < s->nq; i++) {
		struct verbs_qp *q = &s->q[i];
		struct ibv_qp_init_attr ia = {
			.send_cq = s->scq,
			.recv_cq = s->rcq,
			.qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = s->tx_depth, .max_recv_wr = s->rx_depth,
				 .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = want_inline },
		};
		struct ibv_qp_attr a = {
			.qp_state = IBV_QPS_INIT,
			.pkey_index = 0,
			.port_num = (uint8_t)s->ib_port,
			.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
		};
		int rc;

		/* Ask for the inline size wanted; a device that offers less
		 * gets halved requests down to what it has (perftest queries
		 * the same way). */
		while (!(q->qp = ibv_create_qp(s->pd, &ia)) && ia.cap.max_inline_data > 0)
			ia.cap.max_inline_data /= 2;
		if (!q->qp)
			return verbs_err(e, "%s: cannot create queue pair %u of %u (send depth %u, device max %d): %s",
					 s->devname, i + 1, s->nq, s->tx_depth, da->max_qp_wr, strerror(errno));
		want_inline = ia.cap.max_inline_data;
		s->max_inline = ia.cap.max_inline_data;
		rc = ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
		if (rc)
			return verbs_err(e, "%s: cannot move queue pair %u to init: %s", s->devname, i + 1, strerror(rc));
		q->psn = random24();
		q->send_area = s->buf + (size_t)i * 2 * s->slot;
		q->recv_area = q->send_area + s->slot;
	}
	return 0;
}

static int prepare(void **state, const struct bw_params *p, const struct bw_local *l, bool is_server,
		   uint8_t *ep, size_t *ep_len, struct bw_err *e)
{
	struct verbs_state *s = calloc(1, sizeof(*s));
	struct ibv_device_attr da;
	struct verbs_ep_qp *rec;
	int rc;

	*state = s;
	if (!s)
		return verbs_err(e, "out of memory");
	s->p = *p;
	s->is_server = is_server;
	s->max_run_ms = l->max_run_ms;
	s->traffic_class = l->traffic_class;
	s->qp_timeout = l->qp_timeout ? l->qp_timeout : BW_QP_TIMEOUT_DEFAULT;
	s->gpu = l->gpu;
	s->peermem = l->peermem;
	s->numa_node = l->numa_node;
	s->ib_port = l->ib_port > 0 ? l->ib_port : 1;
	s->nq = p->mode == BW_MODE_LAT ? 1 : (p->qps ? p->qps : 1);
	if (s->nq > VERBS_EP_MAX_QPS)
		return verbs_err(e, "%u queue pairs asked, at most %d", s->nq, VERBS_EP_MAX_QPS);
	if (p->size == 0 || p->size > UINT32_MAX)
		return verbs_err(e, "message size %llu is outside 1..%u bytes", (unsigned long long)p->size, UINT32_MAX);
	if (p->duration_ms == 0 && p->iters == 0)
		return verbs_err(e, "neither a duration nor an iteration count was given");
	if (p->mode == BW_MODE_LAT && p->op == BW_OP_READ)
		return verbs_err(e, "latency runs with write or send, not read");
	if (p->mode == BW_MODE_LAT && p->op == BW_OP_WRITE && l->gpu >= 0)
		return verbs_err(e, "write latency polls the buffer with the cpu, which cannot read gpu memory: use --op send with --gpu");
	settle_params(s);

	s->ctx = open_device(l->device, s->devname, sizeof(s->devname), e);
	if (!s->ctx)
		return -1;
	if (ibv_query_device(s->ctx, &da) != 0)
		return verbs_err(e, "%s: cannot query the device: %s", s->devname, strerror(errno));
	if (ibv_query_port(s->ctx, (uint8_t)s->ib_port, &s->port) != 0)
		return verbs_err(e, "%s: cannot query port %d: %s (does the port exist?)", s->devname, s->ib_port,
				 strerror(errno));
	if (s->port.state != IBV_PORT_ACTIVE)
		return verbs_err(e, "%s port %d is %s, not active (cable, switch or subnet manager: see `rdmadoctor check`)",
				 s->devname, s->ib_port, ibv_port_state_str(s->port.state));
	if (p->size > s->port.max_msg_sz)
		return verbs_err(e, "%s: message size %llu exceeds the port's maximum of %u bytes", s->devname,
				 (unsigned long long)p->size, s->port.max_msg_sz);
	s->is_roce = s->port.link_layer == IBV_LINK_LAYER_ETHERNET;
	{
		char m[256];

		if (gid_pick(s->ctx, s->ib_port, s->is_roce, l->gid_index, l->peer_addr, &s->gid, m, sizeof(m)) != 0)
			return verbs_err(e, "%s", m);
	}
	s->dest_rd_atomic = da.max_qp_rd_atom > 0 ? (uint32_t)da.max_qp_rd_atom : 1;
	if (s->dest_rd_atomic > 255)
		s->dest_rd_atomic = 255;
	s->init_rd_atomic = da.max_qp_init_rd_atom > 0 ? (uint32_t)da.max_qp_init_rd_atom : 1;
	if ((uint64_t)s->tx_depth * s->nq + 1 > (uint64_t)da.max_cqe)
		return verbs_err(e, "%s: %u queue pairs x send depth %u need a completion queue larger than the device's %d entries",
				 s->devname, s->nq, s->tx_depth, da.max_cqe);

	if (alloc_buffer(s, e) != 0)
		return -1;
	s->pd = ibv_alloc_pd(s->ctx);
	if (!s->pd)
		return verbs_err(e, "%s: cannot allocate a protection domain: %s", s->devname, strerror(errno));
	if (register_buffer(s, e) != 0)
		return -1;
	s->chan = ibv_create_comp_channel(s->ctx);
	if (!s->chan)
		return verbs_err(e, "%s: cannot create a completion channel: %s", s->devname, strerror(errno));
	s->scq = ibv_create_cq(s->ctx, (int)(s->tx_depth * s->nq + 1), NULL, NULL, 0);
	s->rcq = s->scq ? ibv_create_cq(s->ctx, (int)(s->rx_depth * s->nq + 1), NULL, s->chan, 0) : NULL;
	if (!s->scq || !s->rcq)
		return verbs_err(e, "%s: cannot create completion queues: %s", s->devname, strerror(errno));
	if (create_qps(s, &da, e) != 0)
		return -1;

	rec = calloc(s->nq, sizeof(*rec));
	if (!rec)
		return verbs_err(e, "out of memory");
	for (uint32_t i = 0; i < s->nq; i++) {
		rec[i] = (struct verbs_ep_qp){
			.qpn = s->q[i].qp->qp_num,
			.psn = s->q[i].psn,
			.rkey = s->mr->rkey,
			.addr = (uint64_t)(uintptr_t)s->q[i].recv_area,
			.len = s->slot,
			.lid = s->port.lid,
			.mtu = (uint16_t)mtu_bytes(s->port.active_mtu),
			.link = s->is_roce ? VERBS_EP_LINK_ETH : VERBS_EP_LINK_IB,
			.gid_type = (uint8_t)(s->is_roce ? s->gid.type : 0),
			.rd_atomic = (uint8_t)s->dest_rd_atomic,
		};
		memcpy(rec[i].gid, s->gid.gid, 16);
	}
	*ep_len = verbs_ep_encode(rec, s->nq, ep, BW_ENDPOINT_MAX);
	free(rec);
	rc = *ep_len ? 0 : verbs_err(e, "cannot describe %u queue pairs in %d bytes", s->nq, BW_ENDPOINT_MAX);
	return rc;
}

static const char *gid_type_name(unsigned t)
{
	return t == VERBS_EP_GID_ROCE_V2 ? "roce v2" : t == VERBS_EP_GID_ROCE_V1 ? "roce v1" : "none";
}

/* The peer's endpoint against ours: same shape, same kind of port. */
static int check_peer(struct verbs_state *s, const struct verbs_ep *pe, struct bw_err *e)
{
	const struct verbs_ep_qp *r = &pe->qp[0];

	if (pe->n != s->nq)
		return verbs_err(e, "the peer offers %u queue pairs, this side has %u", pe->n, s->nq);
	if (r->link != (s->is_roce ? VERBS_EP_LINK_ETH : VERBS_EP_LINK_IB))
		return verbs_err(e, "link layers differ: this side is %s, the peer %s",
				 s->is_roce ? "ethernet (roce)" : "infiniband",
				 r->link == VERBS_EP_LINK_ETH ? "ethernet (roce)" : "infiniband");
	if (s->is_roce && r->gid_type != s->gid.type)
		return verbs_err(e, "gid types differ: this side uses %s (index %d), the peer %s: pass --gid-index on one side so both use roce v2",
				 gid_type_name(s->gid.type), s->gid.index, gid_type_name(r->gid_type));
	for (uint32_t i = 0; i < pe->n; i++)
		if (pe->qp[i].len < s->p.size)
			return verbs_err(e, "the peer's buffer for qp %u is %llu bytes, smaller than the %llu-byte message",
					 i, (unsigned long long)pe->qp[i].len, (unsigned long long)s->p.size);
	return 0;
}

static int to_rtr_rts(struct verbs_state *s, struct verbs_qp *q, struct bw_err *e)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = s->mtu,
		.dest_qp_num = q->peer.qpn,
		.rq_psn = q->peer.psn,
		.max_dest_rd_atomic = (uint8_t)s->dest_rd_atomic,
		.min_rnr_timer = 12,
		.ah_attr = { .dlid = q->peer.lid, .sl = 0, .src_path_bits = 0, .port_num = (uint8_t)s->ib_port },
	};
	int rc;

	if (s->is_roce) {
		a.ah_attr.is_global = 1;
		memcpy(a.ah_attr.grh.dgid.raw, q->peer.gid, 16);
		a.ah_attr.grh.sgid_index = (uint8_t)s->gid.index;
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.grh.traffic_class = s->traffic_class;
		a.ah_attr.dlid = 0;
	}
	rc = ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
					     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (rc)
		return verbs_err(e, "%s: cannot move qpn 0x%x to ready-to-receive: %s (gid index %d, peer qpn 0x%x)",
				 s->devname, q->qp->qp_num, strerror(rc), s->gid.index, q->peer.qpn);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = s->qp_timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = q->psn;
	a.max_rd_atomic = (uint8_t)(s->init_rd_atomic < q->peer.rd_atomic ? s->init_rd_atomic : q->peer.rd_atomic);
	rc = ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
					     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	if (rc)
		return verbs_err(e, "%s: cannot move qpn 0x%x to ready-to-send: %s", s->devname, q->qp->qp_num,
				 strerror(rc));
	return 0;
}

static int connect_peer(void *state, const uint8_t *peer_ep, size_t peer_len, struct bw_err *e)
{
	struct verbs_state *s = state;
	struct verbs_ep pe;
	char m[200];
	uint32_t mine, theirs;

	if (verbs_ep_decode(peer_ep, peer_len, &pe, m, sizeof(m)) != 0)
		return verbs_err(e, "bad verbs endpoint from the peer: %s", m);
	if (check_peer(s, &pe, e) != 0) {
		verbs_ep_free(&pe);
		return -1;
	}
	mine = mtu_bytes(s->port.active_mtu);
	theirs = pe.qp[0].mtu;
	s->mtu = mtu_enum(mine < theirs ? mine : theirs);
	for (uint32_t i = 0; i < s->nq; i++) {
		s->q[i].peer = pe.qp[i];
		/* receives before RTR: the peer may send as soon as it is RTS */
		for (uint32_t k = 0; k < s->rx_depth; k++)
			if (verbs_post_recv(s, &s->q[i]) != 0) {
				verbs_ep_free(&pe);
				return verbs_err(e, "%s: cannot post receive buffers", s->devname);
			}
		if (to_rtr_rts(s, &s->q[i], e) != 0) {
			verbs_ep_free(&pe);
			return -1;
		}
	}
	verbs_ep_free(&pe);
	s->connected = true;
	return 0;
}

static int run(void *state, struct bw_result *out, struct bw_err *e)
{
	struct verbs_state *s = state;

	memset(out, 0, sizeof(*out));
	if (!s->connected)
		return verbs_err(e, "verbs run before connect");
	out->mtu = mtu_bytes(s->mtu);
	out->gid_index = s->gid.index;
	snprintf(out->gid, sizeof(out->gid), "%s", s->gid.text);
	snprintf(out->device, sizeof(out->device), "%s", s->devname);
	out->numa_node = s->numa_node;
	snprintf(out->mem_path, sizeof(out->mem_path), "%s", s->gpu_buf ? gpu_mem_path(s->gpu_buf) : "host");
	if (s->p.mode == BW_MODE_LAT)
		return verbs_run_lat(s, out, e);
	return verbs_run_bw(s, out, e);
}

static void destroy(void *state)
{
	struct verbs_state *s = state;

	if (!s)
		return;
	for (uint32_t i = 0; s->q && i < s->nq; i++) {
		if (s->q[i].qp)
			ibv_destroy_qp(s->q[i].qp);
		free(s->q[i].wr);
		free(s->q[i].sge);
	}
	free(s->q);
	if (s->rcq) {
		if (s->rcq_events)
			ibv_ack_cq_events(s->rcq, s->rcq_events);
		ibv_destroy_cq(s->rcq);
	}
	if (s->chan)
		ibv_destroy_comp_channel(s->chan);
	if (s->scq)
		ibv_destroy_cq(s->scq);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	if (s->gpu_buf)
		gpu_mem_free(s->gpu_buf);
	else
		free(s->buf);
	if (s->ctx)
		ibv_close_device(s->ctx);
	free(s);
}

/* The verbs transport, as engine.h declares it. */
const struct bw_engine_ops bw_verbs_engine = {
	.name = "verbs",
	.prepare = prepare,
	.connect = connect_peer,
	.run = run,
	.destroy = destroy,
};
