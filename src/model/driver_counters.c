/* The counter vocabulary (driver_counters.h): one table per RDMA driver,
 * each row a hw_counters file name and what it counts.  Each table names
 * the kernel source it was read from; the reasons for the judgement calls
 * are in docs/research/driver-counters.md.  The "none" rows are names the
 * driver has that count no class (shown raw); a name missing from a table
 * reads the same. */
#include "driver_counters.h"

#include <stddef.h>
#include <string.h>

#define ROWS(t) t, (unsigned)(sizeof(t) / sizeof(t[0]))
#define R(n, c) { n, CTR_##c, 0 }
#define RF(n, c, f) { n, CTR_##c, f }

/* mlx5: drivers/infiniband/hw/mlx5/counters.c, torvalds/linux commit
 * 10d4de4189533840f296ce7e48eac05b985d96bc (q counters, retransmission and
 * enhanced-error q counters, roce_accl, congestion counters, PPCNT's
 * rx_icrc_encapsulated).  The op counters (cc_rx_ce_pkts, ...) are
 * IB_STAT_FLAG_OPTIONAL: netlink only, never sysfs files.  Kept in this
 * order: counters.errors lists what it judges in table order. */
static const struct drv_counter mlx5[] = {
	R("rx_write_requests", NONE),
	R("rx_read_requests", NONE),
	R("rx_atomic_requests", NONE),
	R("rx_dct_connect", NONE),
	R("out_of_buffer", DROP),		/* no receive WQE: dropped */
	R("out_of_sequence", RETRANSMIT),	/* a PSN gap received: a packet lost on the way in */
	RF("duplicate_request", RETRANSMIT, CTR_F_ECHO),
	R("rnr_nak_retry_err", RNR),
	R("packet_seq_err", SEQ_ERR),
	R("implied_nak_seq_err", SEQ_ERR),
	R("local_ack_timeout_err", ACK_TIMEOUT),
	R("resp_local_length_error", NONE),
	R("resp_cqe_error", NONE),
	R("req_cqe_error", NONE),
	R("req_remote_invalid_request", NONE),
	R("req_remote_access_errors", NONE),
	R("resp_remote_access_errors", NONE),
	R("resp_cqe_flush_error", NONE),
	R("req_cqe_flush_error", NONE),
	R("req_transport_retries_exceeded", RETRY_EXCEEDED),
	R("req_rnr_retries_exceeded", RNR),
	R("roce_adp_retrans", RETRANSMIT),
	R("roce_adp_retrans_to", ACK_TIMEOUT),
	/* slow restart follows a retransmission timeout; fabric --load has
	 * counted it with the retransmits since it was written */
	R("roce_slow_restart", RETRANSMIT),
	R("roce_slow_restart_cnps", NONE),	/* the CNPs rp_cnp_handled counts */
	R("roce_slow_restart_trans", NONE),
	R("rp_cnp_ignored", NONE),
	R("rp_cnp_handled", CNP_HANDLED),
	R("np_ecn_marked_roce_packets", ECN_MARKED),
	R("np_cnp_sent", CNP_SENT),
	R("rx_icrc_encapsulated", PHY_ERR),	/* corrupted packets */
};

/* bnxt_re (Broadcom): both spellings.  Before the rename:
 * drivers/infiniband/hw/bnxt_re/hw_counters.c, torvalds/linux commit
 * 73a98bc5a947f7db6e7e3e614284e3026341fcd7 (hw_counters.h
 * 9a381f7e5aa299de3500b8afa2237e5d1eab63fb); "missin_resp" is the oldest
 * kernels' typo.  After: "RDMA/bnxt_re: RoCE related hardware counters
 * update", Message-ID
 * 20250814112555.221665-7-kalesh-anakkur.purayil@broadcom.com (rdma-next,
 * likely v6.18; mainline commit not found), which took mlx5's names.
 * Broadcom's out-of-tree driver (netxtreme-bnxt_en) spells the CNPs sent
 * np_cnp_sent where mainline has np_cnp_pkts, and adds mlx5's adaptive
 * retransmission and ICRC names. */
static const struct drv_counter bnxt_re[] = {
	/* before the rename */
	R("to_retransmits", ACK_TIMEOUT),	/* retransmissions after a timeout */
	R("seq_err_naks_rcvd", SEQ_ERR),
	R("max_retry_exceeded", RETRY_EXCEEDED),	/* both spellings */
	R("rnr_naks_rcvd", RNR),
	R("missing_resp", SEQ_ERR),
	R("missin_resp", SEQ_ERR),
	RF("dup_req", RETRANSMIT, CTR_F_ECHO),
	R("oos_drop_count", RETRANSMIT),	/* an out-of-sequence packet dropped */
	R("rx_out_of_buffer", DROP),
	R("tx_cnp_pkts", CNP_SENT),
	R("rx_cnp_pkts", CNP_HANDLED),
	R("rx_ecn_marked_pkts", ECN_MARKED),
	R("rx_atomic_req", NONE),
	R("rx_read_req", NONE),
	R("rx_write_req", NONE),
	R("remote_invalid_req_err", NONE),
	R("remote_access_err", NONE),
	R("res_length_mismatch", NONE),
	/* the same in both spellings */
	R("rx_roce_discards", DROP),
	R("tx_roce_discards", DROP),
	R("rx_roce_errors", NONE),
	R("rx_roce_drops", NONE),	/* older kernels' name of rx_roce_errors' slot */
	R("tx_roce_errors", NONE),
	R("recoverable_errors", NONE),
	R("unrecoverable_err", NONE),
	R("bad_resp_err", NONE),
	R("local_qp_op_err", NONE),
	R("local_protection_err", NONE),
	R("mem_mgmt_op_err", NONE),
	R("remote_op_err", NONE),
	R("rx_pkts", NONE),
	R("rx_bytes", NONE),
	R("tx_pkts", NONE),
	R("tx_bytes", NONE),
	/* after the rename (mlx5's names) */
	R("local_ack_timeout_err", ACK_TIMEOUT),
	R("packet_seq_err", SEQ_ERR),
	R("rnr_nak_retry_err", RNR),
	R("implied_nak_seq_err", SEQ_ERR),
	RF("duplicate_request", RETRANSMIT, CTR_F_ECHO),
	R("out_of_sequence", RETRANSMIT),
	R("out_of_buffer", DROP),
	R("np_cnp_pkts", CNP_SENT),
	R("np_cnp_sent", CNP_SENT),		/* the out-of-tree driver */
	R("rp_cnp_handled", CNP_HANDLED),
	R("np_ecn_marked_roce_packets", ECN_MARKED),
	R("rx_atomic_requests", NONE),
	R("rx_read_requests", NONE),
	R("rx_write_requests", NONE),
	R("req_remote_invalid_request", NONE),
	R("req_remote_access_errors", NONE),
	R("resp_local_length_error", NONE),
	R("req_cqe_error", NONE),
	R("resp_cqe_error", NONE),
	R("resp_remote_access_errors", NONE),
	/* the out-of-tree driver only */
	R("req_cqe_flush_error", NONE),
	R("resp_cqe_flush_error", NONE),
	R("roce_adp_retrans", RETRANSMIT),
	R("roce_adp_retrans_to", ACK_TIMEOUT),
	R("roce_slow_restart", RETRANSMIT),
	R("roce_slow_restart_cnps", NONE),
	R("roce_slow_restart_trans", NONE),
	R("rp_cnp_ignored", NONE),
	R("rx_icrc_encapsulated", PHY_ERR),
};

/* irdma (Intel E810, X722, IPU E2000): drivers/infiniband/hw/irdma/verbs.c,
 * torvalds/linux commit 01798df19878e87718487046581ef6cdd114f2e0 (gen1 and
 * gen2 names), and "RDMA/irdma: Add GEN3 HW statistics support",
 * Message-ID 20250827152545.2056-7-tatyana.e.nikolova@intel.com (merge
 * version not confirmed, likely v6.18), which adds the GEN3 names (with
 * spaces, kept in the file names) and drops the tcp/iw prefixes of the
 * older ones; both spellings are here.  RetransSegs counts TCP (iWARP)
 * retransmits. */
static const struct drv_counter irdma[] = {
	R("ip4InDiscards", DROP),
	R("ip6InDiscards", DROP),
	R("ip4InTruncatedPkts", DROP),
	R("ip6InTruncatedPkts", DROP),
	R("ip4OutNoRoutes", NONE),
	R("ip6OutNoRoutes", NONE),
	R("rxVlanErrors", NONE),
	R("tcpRetransSegs", RETRANSMIT),
	R("RetransSegs", RETRANSMIT),
	R("tcpInOptErrors", NONE),
	R("InOptErrors", NONE),
	R("tcpInProtoErrors", NONE),
	R("InProtoErrors", NONE),
	R("tcpInSegs", NONE),
	R("InSegs", NONE),
	R("tcpOutSegs", NONE),
	R("OutSegs", NONE),
	R("cnpHandled", CNP_HANDLED),
	R("cnpIgnored", NONE),
	R("cnpSent", CNP_SENT),
	R("RxECNMrkd", ECN_MARKED),
	R("RNR sent", RNR),
	R("RNR received", RNR),
	R("ord limit count", NONE),
	R("ird limit count", NONE),
	R("Rx atomics", NONE),
	R("Tx atomics", NONE),
	R("Nak Sequence Error", SEQ_ERR),
	R("Nak Sequence Error Implied", SEQ_ERR),
	R("RTO", ACK_TIMEOUT),			/* retransmission timeouts */
	R("Rcvd Out of order packets", RETRANSMIT),
	R("CRC errors", PHY_ERR),		/* ICRC */
};

/* efa (AWS): drivers/infiniband/hw/efa/efa_verbs.c, torvalds/linux commit
 * e51b3c59a782f567335c4618ca97901529451e4f (device and port stats apart),
 * and "RDMA/efa: Add Network HW statistics counters", Message-ID
 * 20250706070740.22534-1-mrgolin@amazon.com (retrans_*, *_events).  Older
 * kernels put every name in the port's directory.  no_completion_cmds is
 * an admin command that timed out, not a network ACK timeout. */
static const struct drv_counter efa[] = {
	R("tx_bytes", NONE),
	R("tx_pkts", NONE),
	R("rx_bytes", NONE),
	R("rx_pkts", NONE),
	R("rx_drops", DROP),
	R("send_bytes", NONE),
	R("send_wrs", NONE),
	R("recv_bytes", NONE),
	R("recv_wrs", NONE),
	R("rdma_read_wrs", NONE),
	R("rdma_read_bytes", NONE),
	R("rdma_read_resp_bytes", NONE),
	R("rdma_read_wr_err", NONE),
	R("rdma_write_wrs", NONE),
	R("rdma_write_bytes", NONE),
	R("rdma_write_recv_bytes", NONE),
	R("rdma_write_wr_err", NONE),
	RF("retrans_bytes", RETRANSMIT, CTR_F_BYTES),
	R("retrans_pkts", RETRANSMIT),
	R("retrans_timeout_events", ACK_TIMEOUT),
	R("unresponsive_remote_events", NONE),
	R("impaired_remote_conn_events", NONE),
	RF("submitted_cmds", NONE, CTR_F_DEVICE),
	RF("completed_cmds", NONE, CTR_F_DEVICE),
	RF("cmds_err", NONE, CTR_F_DEVICE),
	RF("no_completion_cmds", NONE, CTR_F_DEVICE),
	RF("keep_alive_rcvd", NONE, CTR_F_DEVICE),
	RF("alloc_pd_err", NONE, CTR_F_DEVICE),
	RF("create_qp_err", NONE, CTR_F_DEVICE),
	RF("create_cq_err", NONE, CTR_F_DEVICE),
	RF("reg_mr_err", NONE, CTR_F_DEVICE),
	RF("alloc_ucontext_err", NONE, CTR_F_DEVICE),
	RF("create_ah_err", NONE, CTR_F_DEVICE),
	RF("mmap_err", NONE, CTR_F_DEVICE),
};

/* ionic (AMD Pensando): drivers/infiniband/hw/ionic/ionic_hw_stats.c,
 * torvalds/linux commit 4f38da1f027ea2c9f01bb71daa7a299c191b6940, holds
 * no names: the firmware gives them (IONIC_V1_ADMIN_STATS_HDRS).  These
 * are from Pensando's firmware HAL table (2019) and ROCm/RCCL's telemetry
 * tables (rocm-systems PRs 5016, 5153, 5777); "outouf" is the firmware's
 * own spelling.  Port 1 only. */
static const struct drv_counter ionic[] = {
	R("tx_rdma_ucast_bytes", NONE),
	R("tx_rdma_ucast_pkts", NONE),
	R("tx_rdma_mcast_bytes", NONE),
	R("tx_rdma_mcast_pkts", NONE),
	R("rx_rdma_ucast_bytes", NONE),
	R("rx_rdma_ucast_pkts", NONE),
	R("rx_rdma_mcast_bytes", NONE),
	R("rx_rdma_mcast_pkts", NONE),
	R("tx_rdma_cnp_pkts", CNP_SENT),
	R("rx_rdma_cnp_pkts", CNP_HANDLED),	/* CNPs received */
	R("rx_rdma_ecn_pkts", ECN_MARKED),
	R("req_rx_pkt_seq_err", SEQ_ERR),
	R("req_rx_rnr_retry_err", RNR),
	R("req_rx_rmt_acc_err", NONE),
	R("req_rx_rmt_req_err", NONE),
	R("req_rx_oper_err", NONE),
	R("req_rx_impl_nak_seq_err", SEQ_ERR),
	R("req_rx_cqe_err", NONE),
	R("req_rx_cqe_flush", NONE),
	/* a response arriving twice: the echo of this requester's retransmit */
	RF("req_rx_dup_response", RETRANSMIT, CTR_F_ECHO),
	R("req_rx_inval_pkts", NONE),
	R("req_tx_loc_acc_err", NONE),
	R("req_tx_loc_oper_err", NONE),
	R("req_tx_mem_mgmt_err", NONE),
	R("req_tx_loc_sgl_inv_err", NONE),
	R("req_tx_retry_excd_err", RETRY_EXCEEDED),
	RF("resp_rx_dup_request", RETRANSMIT, CTR_F_ECHO),
	R("resp_rx_outof_buf", DROP),
	R("resp_rx_outouf_seq", RETRANSMIT),
	R("resp_rx_cqe_err", NONE),
	R("resp_rx_cqe_flush", NONE),
	R("resp_rx_loc_len_err", NONE),
	R("resp_rx_inval_request", NONE),
	R("resp_rx_loc_oper_err", NONE),
	R("resp_rx_outof_atomic", NONE),
	/* the NAK this responder sent for the gap resp_rx_outouf_seq counts */
	RF("resp_tx_pkt_seq_err", SEQ_ERR, CTR_F_ECHO),
	R("resp_tx_rmt_inval_req_err", NONE),
	R("resp_tx_rmt_acc_err", NONE),
	R("resp_tx_rmt_oper_err", NONE),
	R("resp_tx_loc_sgl_inv_err", NONE),
	R("resp_tx_rnr_retry_err", RNR),
	R("tx_rdma_retx_pkts", RETRANSMIT),
	RF("tx_rdma_retx_bytes", RETRANSMIT, CTR_F_BYTES),
	R("tx_rdma_ack_timeout", ACK_TIMEOUT),
	R("rx_rdma_mtu_discard_pkts", DROP),
	R("tx_rdma_ccl_cts_bytes", NONE),
	R("tx_rdma_ccl_cts_pkts", NONE),
	R("rx_rdma_ccl_cts_bytes", NONE),
	R("rx_rdma_ccl_cts_pkts", NONE),
	RF("tx_rdma_ccl_cts_retx_bytes", RETRANSMIT, CTR_F_BYTES),
	R("tx_rdma_ccl_cts_retx_pkts", RETRANSMIT),
	R("tx_rdma_ccl_cts_ack_timeout", ACK_TIMEOUT),
	R("resp_rx_ccl_cts_outouf_seq", RETRANSMIT),
	R("resp_rx_s0_table_err", NONE),
};

/* hns (HiSilicon): drivers/infiniband/hw/hns/hns_roce_main.c,
 * kernelorg-mirror/linux_kernel_git_leon_linux-rdma commit
 * 7f26fb9efc0321447c4fc0a765a3c3a1b93091c5 (HIP09 and later, PFs only).
 * No retransmit, sequence, RNR, timeout, drop or ECN counter; the meaning
 * of ecn_doorbell and rx_buffer is not said. */
static const struct drv_counter hns[] = {
	R("rx_rc_pkt", NONE), R("rx_uc_pkt", NONE), R("rx_ud_pkt", NONE),
	R("rx_xrc_pkt", NONE), R("rx_pkt", NONE), R("rx_err_pkt", NONE),
	R("rx_cnp_pkt", CNP_HANDLED),		/* CNPs received */
	R("tx_rc_pkt", NONE), R("tx_uc_pkt", NONE), R("tx_ud_pkt", NONE),
	R("tx_xrc_pkt", NONE), R("tx_pkt", NONE), R("tx_err_pkt", NONE),
	R("tx_cnp_pkt", CNP_SENT),
	R("trp_get_mpt_err_pkt", NONE), R("trp_get_irrl_err_pkt", NONE),
	R("ecn_doorbell", NONE), R("rx_buffer", NONE), R("trp_rx_sof", NONE),
	R("cq_cqe", NONE), R("cq_poe", NONE), R("cq_notify", NONE),
};

/* erdma (Alibaba): drivers/infiniband/hw/erdma/erdma_verbs.c,
 * torvalds/linux commit f33e46a0c6bddd341d0989484a2546bba7ac4a3c.  Its
 * drops are a disabled queue's and the rate limiter's. */
static const struct drv_counter erdma[] = {
	R("tx_reqs_cnt", NONE),
	R("tx_packets_cnt", NONE),
	R("tx_bytes_cnt", NONE),
	R("tx_disable_drop_cnt", DROP),
	R("tx_bps_limit_drop_cnt", DROP),
	R("tx_pps_limit_drop_cnt", DROP),
	R("rx_packets_cnt", NONE),
	R("rx_bytes_cnt", NONE),
	R("rx_disable_drop_cnt", DROP),
	R("rx_bps_limit_drop_cnt", DROP),
	R("rx_pps_limit_drop_cnt", DROP),
};

/* rxe (soft-RoCE): drivers/infiniband/sw/rxe/rxe_hw_counters.c,
 * torvalds/linux commit 0f2cb7cf80335db55cd3c406134e8def59f16814 (today's
 * names) and 8335cb5c1fe8d000a94fcb6fe4947aa6080f57ed (2017:
 * out_of_sequence, ack_deffered).  Software counters. */
static const struct drv_counter rxe[] = {
	R("sent_pkts", NONE),
	R("rcvd_pkts", NONE),
	RF("duplicate_request", RETRANSMIT, CTR_F_ECHO),
	R("out_of_seq_request", RETRANSMIT),
	R("out_of_sequence", RETRANSMIT),
	R("rcvd_rnr_err", RNR),
	R("send_rnr_err", RNR),
	R("rcvd_seq_err", SEQ_ERR),
	R("ack_deferred", NONE),
	R("ack_deffered", NONE),
	R("retry_exceeded_err", RETRY_EXCEEDED),
	R("retry_rnr_exceeded_err", RNR),
	R("completer_retry_err", RETRANSMIT),
	/* rxe_xmit_packet failed: the packet never left, lost all the same
	 * (fabric --load has counted it a drop since it was written) */
	R("send_err", DROP),
	R("link_downed", LINK_DOWNED),
	R("rdma_sends", NONE),
	R("rdma_recvs", NONE),
};

/* nic.driver is the PCI function's driver (the RDMA driver sits on an
 * auxiliary device of it): ice (E810) and i40e (X722) carry irdma, idpf
 * carries its GEN3; bnxt_en carries bnxt_re, hns3 hns_roce_hw_v2. */
static const char *const mlx5_drv[] = { "mlx5_core", "mlx5_ib", NULL };
static const char *const bnxt_drv[] = { "bnxt_en", "bnxt_re", NULL };
static const char *const irdma_drv[] = { "irdma", "ice", "i40e", "idpf", NULL };
static const char *const efa_drv[] = { "efa", NULL };
static const char *const ionic_drv[] = { "ionic", "ionic_rdma", NULL };
static const char *const hns_drv[] = { "hns3", "hns_roce_hw_v2", "hns_roce", NULL };
static const char *const erdma_drv[] = { "erdma", NULL };
static const char *const rxe_drv[] = { "rdma_rxe", "rxe", NULL };

static const struct drv_table tables[] = {
	{ "mlx5", mlx5_drv, ROWS(mlx5) },
	{ "bnxt_re", bnxt_drv, ROWS(bnxt_re) },
	{ "irdma", irdma_drv, ROWS(irdma) },
	{ "efa", efa_drv, ROWS(efa) },
	{ "ionic", ionic_drv, ROWS(ionic) },
	{ "hns", hns_drv, ROWS(hns) },
	{ "erdma", erdma_drv, ROWS(erdma) },
	{ "rxe", rxe_drv, ROWS(rxe) },
};

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

const struct drv_table *drv_tables(unsigned *n)
{
	*n = (unsigned)N_TABLES;
	return tables;
}

const struct drv_table *drv_table_of(const char *driver)
{
	if (!driver)
		return NULL;
	for (size_t i = 0; i < N_TABLES; i++)
		for (const char *const *d = tables[i].drivers; *d; d++)
			if (strcmp(*d, driver) == 0)
				return &tables[i];
	return NULL;
}

static const struct drv_counter *in_table(const struct drv_table *t, const char *name,
					  bool device)
{
	for (unsigned i = 0; i < t->n; i++)
		if (!(t->rows[i].flags & CTR_F_DEVICE) == !device &&
		    strcmp(t->rows[i].name, name) == 0)
			return &t->rows[i];
	return NULL;
}

static const struct drv_counter *find(const char *driver, const char *name, bool device)
{
	const struct drv_table *t;

	if (!name || !driver)
		return NULL;
	if (strcmp(driver, DRV_ANY) != 0)
		return (t = drv_table_of(driver)) ? in_table(t, name, device) : NULL;
	for (size_t i = 0; i < N_TABLES; i++) {
		const struct drv_counter *r = in_table(&tables[i], name, device);

		if (r)
			return r;
	}
	return NULL;
}

const struct drv_counter *drv_counter_find(const char *driver, const char *name)
{
	return find(driver, name, false);
}

const struct drv_counter *drv_device_counter_find(const char *driver, const char *name)
{
	return find(driver, name, true);
}

enum ctr_class counter_class(const char *driver, const char *name)
{
	const struct drv_counter *r = drv_counter_find(driver, name);

	return r ? (enum ctr_class)r->cls : CTR_NONE;
}

unsigned drv_classes(const char *driver)
{
	const struct drv_table *t = drv_table_of(driver);
	unsigned m = 0;

	for (unsigned i = 0; t && i < t->n; i++)
		if (t->rows[i].cls != CTR_NONE && !(t->rows[i].flags & CTR_F_DEVICE))
			m |= CTR_BIT(t->rows[i].cls);
	return m;
}

const char *ctr_class_name(enum ctr_class c)
{
	static const char *const names[CTR_N] = {
		[CTR_NONE] = "none", [CTR_RETRANSMIT] = "retransmit",
		[CTR_SEQ_ERR] = "seq_err", [CTR_RNR] = "rnr",
		[CTR_ACK_TIMEOUT] = "ack_timeout", [CTR_DROP] = "drop",
		[CTR_CNP_SENT] = "cnp_sent", [CTR_CNP_HANDLED] = "cnp_handled",
		[CTR_ECN_MARKED] = "ecn_marked", [CTR_PHY_ERR] = "phy_err",
		[CTR_LINK_DOWNED] = "link_downed", [CTR_RETRY_EXCEEDED] = "retry_exceeded",
	};

	return (unsigned)c < CTR_N ? names[c] : "none";
}
