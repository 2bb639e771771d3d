/* fabric --load's judge (src/fabric/load.c, load_counters.c) on recorded deltas of
 * real mlx5 and rxe names: a fabric whose PFC and ECN work is lossless; a
 * drop or retransmit makes it lossy and names the counter, the node and
 * the PFC priorities; pauses with no CNP are no-ecn; a starved sender is
 * unfair; a short goodput is slow; what was not read is never lossless;
 * two sources of the same frames count once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "fabric/load.h"

#define MAXN 16
#define MAXP 64
#define MAXC 24

struct scene {
	struct fab_node nodes[MAXN];
	char names[MAXN][16];
	struct fab_result res[128];
	size_t n_res;
	struct fab_port_load ports[MAXP];
	struct fab_cdelta c[MAXP][MAXC];
	size_t n_ports;
	struct fab_load_input in;
	struct fab_load_judgement j;
};

static struct scene *scene_new(enum fab_load mode, uint32_t n)
{
	struct scene *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(s->names[i], sizeof(s->names[i]), "node%u", i);
		s->nodes[i] = (struct fab_node){ s->names[i], i, 1, FAB_NODE_OK };
	}
	s->in = (struct fab_load_input){ .mode = mode, .nodes = s->nodes, .n_nodes = n,
					 .results = s->res, .ports = s->ports, .priority = 3,
					 .line_gbps = NAN, .goodput_frac = FAB_LOAD_GOODPUT_FRAC,
					 .unfair_frac = FAB_LOAD_UNFAIR_FRAC };
	return s;
}

static void scene_free(struct scene *s)
{
	fab_load_judgement_free(&s->j);
	free(s);
}

static void flow(struct scene *s, uint32_t round, uint32_t rail, uint32_t a, uint32_t b,
		 double ab, double ba, const char *error)
{
	assert_true(s->n_res < sizeof(s->res) / sizeof(s->res[0]));
	s->res[s->n_res++] = (struct fab_result){ .a = a, .b = b, .rail = rail, .round = round,
						  .ab = ab, .ba = ba, .lat_usec = NAN,
						  .error = error };
}

static size_t port(struct scene *s, uint32_t round, uint32_t rail, uint32_t rank, double rate,
		   int pfc)
{
	size_t i = s->n_ports++;

	assert_true(i < MAXP);
	s->ports[i] = (struct fab_port_load){ .rank = rank, .rail = rail, .round = round,
					      .rate_gbps = rate, .pfc_mask = pfc, .c = s->c[i] };
	return i;
}

static void ctr_as(struct scene *s, size_t p, const char *name, uint64_t delta, bool reset)
{
	struct fab_port_load *pl = &s->ports[p];

	assert_true(pl->n < MAXC);
	s->c[p][pl->n++] = (struct fab_cdelta){ name, delta, reset };
}

static void ctr(struct scene *s, size_t p, const char *name, uint64_t delta)
{
	ctr_as(s, p, name, delta, false);
}

/* What an mlx5 receiver and sender of an incast read: every loss counter
 * there (at 0), the pauses and CNPs as given. */
static void recv_ctrs(struct scene *s, size_t p, uint64_t pause, uint64_t cnp)
{
	ctr(s, p, "eth:tx_prio3_pause", pause);
	ctr(s, p, "eth:rx_prio3_pause", 0);
	ctr(s, p, "hw:np_cnp_sent", cnp);
	ctr(s, p, "hw:np_ecn_marked_roce_packets", cnp);
	ctr(s, p, "eth:rx_discards_phy", 0);
	ctr(s, p, "eth:rx_out_of_buffer", 0);
	ctr(s, p, "hw:out_of_buffer", 0);
	ctr(s, p, "hw:out_of_sequence", 0);
}

static void send_ctrs(struct scene *s, size_t p, uint64_t pause, uint64_t cnp)
{
	ctr(s, p, "eth:rx_prio3_pause", pause);
	ctr(s, p, "eth:tx_prio3_pause", 0);
	ctr(s, p, "hw:rp_cnp_handled", cnp);
	ctr(s, p, "eth:tx_discards_phy", 0);
	ctr(s, p, "hw:packet_seq_err", 0);
	ctr(s, p, "hw:local_ack_timeout_err", 0);
}

/* node1..node8 into node0 at share Gb/s each; 400G ports, PFC on
 * priority 3 (mask 0x08), the traffic on priority 3. */
static struct scene *incast8(double share, uint64_t pause, uint64_t cnp)
{
	struct scene *s = scene_new(FAB_LOAD_INCAST, 9);

	recv_ctrs(s, port(s, 0, 0, 0, 400, 0x08), pause * 8, cnp);
	for (uint32_t k = 1; k <= 8; k++) {
		flow(s, 0, 0, k, 0, share, NAN, NULL);
		send_ctrs(s, port(s, 0, 0, k, 400, 0x08), pause, cnp / 8);
	}
	return s;
}

static const struct fab_load_row *judge(struct scene *s)
{
	s->in.n_results = s->n_res;
	s->in.n_ports = s->n_ports;
	assert_int_equal(fab_load_judge(&s->in, &s->j), 0);
	assert_true(s->j.n_rows >= 1);
	return &s->j.rows[0];
}

static bool says(const char *reason, const char *what)
{
	if (!strstr(reason, what)) {
		print_error("'%s' not in '%s'\n", what, reason);
		return false;
	}
	return true;
}

/* ---- the counters ---- */

static void counter_kinds(void **state)
{
	static const struct {
		const char *name;
		enum fab_ckind k;
		int prio;
	} t[] = {
		/* mlx5 hw_counters (drivers/infiniband/hw/mlx5/counters.c) */
		{ "hw:out_of_sequence", FAB_CK_RETRANS, -1 },
		{ "hw:packet_seq_err", FAB_CK_RETRANS, -1 },
		{ "hw:local_ack_timeout_err", FAB_CK_RETRANS, -1 },
		{ "hw:duplicate_request", FAB_CK_RETRANS, -1 },
		{ "hw:implied_nak_seq_err", FAB_CK_RETRANS, -1 },
		{ "hw:req_transport_retries_exceeded", FAB_CK_RETRANS, -1 },
		{ "hw:roce_adp_retrans", FAB_CK_RETRANS, -1 },
		{ "hw:roce_adp_retrans_to", FAB_CK_RETRANS, -1 },
		{ "hw:roce_slow_restart", FAB_CK_RETRANS, -1 },
		{ "hw:roce_slow_restart_cnps", FAB_CK_NONE, -1 },
		{ "hw:out_of_buffer", FAB_CK_DROP, -1 },
		{ "hw:rnr_nak_retry_err", FAB_CK_NONE, -1 },
		{ "hw:req_rnr_retries_exceeded", FAB_CK_NONE, -1 },
		{ "hw:np_cnp_sent", FAB_CK_CNP_SENT, -1 },
		{ "hw:rp_cnp_handled", FAB_CK_CNP_HANDLED, -1 },
		{ "hw:np_ecn_marked_roce_packets", FAB_CK_ECN_MARKED, -1 },
		{ "hw:rp_cnp_ignored", FAB_CK_NONE, -1 },
		{ "hw:rx_write_requests", FAB_CK_NONE, -1 },
		/* rxe (drivers/infiniband/sw/rxe/rxe_hw_counters.c) */
		{ "hw:rcvd_seq_err", FAB_CK_RETRANS, -1 },
		{ "hw:out_of_seq_request", FAB_CK_RETRANS, -1 },
		{ "hw:retry_exceeded_err", FAB_CK_RETRANS, -1 },
		{ "hw:completer_retry_err", FAB_CK_RETRANS, -1 },
		{ "hw:retry_rnr_exceeded_err", FAB_CK_NONE, -1 },
		{ "hw:rcvd_rnr_err", FAB_CK_NONE, -1 },
		{ "hw:send_err", FAB_CK_DROP, -1 },
		{ "hw:sent_pkts", FAB_CK_NONE, -1 },
		/* other drivers, by the one vocabulary (model/driver_counters.h) */
		{ "hw:to_retransmits", FAB_CK_RETRANS, -1 },		/* bnxt_re */
		{ "hw:oos_drop_count", FAB_CK_RETRANS, -1 },
		{ "hw:rx_roce_discards", FAB_CK_DROP, -1 },
		{ "hw:np_cnp_pkts", FAB_CK_CNP_SENT, -1 },
		{ "hw:rx_ecn_marked_pkts", FAB_CK_ECN_MARKED, -1 },
		{ "hw:cnpSent", FAB_CK_CNP_SENT, -1 },			/* irdma */
		{ "hw:RTO", FAB_CK_RETRANS, -1 },
		{ "hw:RNR sent", FAB_CK_NONE, -1 },
		{ "hw:retrans_pkts", FAB_CK_RETRANS, -1 },		/* efa */
		{ "hw:retrans_bytes", FAB_CK_NONE, -1 },		/* bytes, not events */
		{ "hw:rx_drops", FAB_CK_DROP, -1 },
		{ "hw:CRC errors", FAB_CK_NONE, -1 },			/* judged elsewhere */
		/* mlx5 ethtool -S (en_stats.c) */
		{ "eth:rx_prio3_pause", FAB_CK_PAUSE_RX, 3 },
		{ "eth:tx_prio5_pause", FAB_CK_PAUSE_TX, 5 },
		{ "eth:rx_prio3_pause_duration", FAB_CK_NONE, -1 },
		{ "eth:rx_prio3_pause_transition", FAB_CK_NONE, -1 },
		{ "eth:rx_pause_ctrl_phy", FAB_CK_PAUSE_RX, -1 },
		{ "eth:tx_pause_ctrl_phy", FAB_CK_PAUSE_TX, -1 },
		{ "eth:rx_global_pause", FAB_CK_PAUSE_RX, -1 },
		{ "eth:rx_discards_phy", FAB_CK_DROP, -1 },
		{ "eth:tx_discards_phy", FAB_CK_DROP, -1 },
		{ "eth:rx_out_of_buffer", FAB_CK_DROP, -1 },
		{ "eth:rx_prio6_buf_discard", FAB_CK_DROP, 6 },
		{ "eth:rx_prio0_cong_discard", FAB_CK_DROP, 0 },
		{ "eth:rx_prio3_marked", FAB_CK_ECN_MARKED, 3 },
		{ "eth:rx_bytes_phy", FAB_CK_NONE, -1 },
		/* statistics/ and DCB */
		{ "net:rx_dropped", FAB_CK_DROP, -1 },
		{ "net:tx_dropped", FAB_CK_DROP, -1 },
		{ "net:rx_missed_errors", FAB_CK_DROP, -1 },
		{ "net:rx_fifo_errors", FAB_CK_DROP, -1 },
		{ "net:rx_bytes", FAB_CK_NONE, -1 },
		{ "dcb:tx_pause_prio3", FAB_CK_PAUSE_TX, 3 },
		{ "dcb:rx_pause_prio7", FAB_CK_PAUSE_RX, 7 },
		/* garbage: wrong prefix, none, priority out of range, tails */
		{ "out_of_sequence", FAB_CK_NONE, -1 },
		{ "eth:out_of_sequence", FAB_CK_NONE, -1 },
		{ "hw:rx_discards_phy", FAB_CK_NONE, -1 },
		{ "eth:rx_prio8_pause", FAB_CK_NONE, -1 },
		{ "eth:rx_prio33_pause", FAB_CK_NONE, -1 },
		{ "eth:rx_prio_pause", FAB_CK_NONE, -1 },
		{ "dcb:rx_pause_prio", FAB_CK_NONE, -1 },
		{ "dcb:rx_pause_prio3x", FAB_CK_NONE, -1 },
		{ "hw:np_cnp_sent ", FAB_CK_NONE, -1 },
		{ "HW:np_cnp_sent", FAB_CK_NONE, -1 },
		{ "hw:", FAB_CK_NONE, -1 },
		{ "", FAB_CK_NONE, -1 },
		{ "\xff\x01hw:np_cnp_sent", FAB_CK_NONE, -1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int prio = 42;

		if (fab_counter_kind(t[i].name, &prio) != t[i].k || prio != t[i].prio)
			fail_msg("%s: kind %s prio %d, not %s %d", t[i].name,
				 fab_ckind_name(fab_counter_kind(t[i].name, NULL)), prio,
				 fab_ckind_name(t[i].k), t[i].prio);
	}
	assert_int_equal(fab_counter_kind(NULL, NULL), FAB_CK_NONE);
	/* where the port is read, its driver says: a name another driver has
	 * counts for nothing on this one, nor on a driver no table knows */
	assert_int_equal(fab_counter_kind_of("bnxt_en", "hw:oos_drop_count", NULL), FAB_CK_RETRANS);
	assert_int_equal(fab_counter_kind_of("mlx5_core", "hw:oos_drop_count", NULL), FAB_CK_NONE);
	assert_int_equal(fab_counter_kind_of("rdma_rxe", "hw:local_ack_timeout_err", NULL),
			 FAB_CK_NONE);
	assert_int_equal(fab_counter_kind_of("qede", "hw:out_of_sequence", NULL), FAB_CK_NONE);
	assert_int_equal(fab_counter_kind_of(NULL, "hw:out_of_buffer", NULL), FAB_CK_NONE);
	assert_int_equal(fab_counter_kind_of("mlx5_core", "hw:out_of_buffer", NULL), FAB_CK_DROP);
	assert_int_equal(fab_counter_kind_of(NULL, "eth:rx_prio3_pause", NULL), FAB_CK_PAUSE_RX);
	assert_string_equal(fab_ckind_name(FAB_CK_CNP_HANDLED), "cnp-handled");
	assert_string_equal(fab_load_name(FAB_LOAD_ALLTOALL), "alltoall");
	assert_null(fab_load_name(FAB_LOAD_NONE));
	assert_string_equal(fab_load_verdict_name(FAB_LV_NO_ECN), "no-ecn");
	assert_string_equal(fab_load_verdict_name(FAB_LV_NOT_CHECKED), "not-checked");
	assert_string_equal(fab_load_verdict_name(FAB_LV_NOT_RUN), "not-run");
}

/* ---- incast ---- */

static void lossless_incast(void **state)
{
	struct scene *s = incast8(47.5, 650, 1800);
	const struct fab_load_row *r;

	(void)state;
	r = judge(s);
	assert_int_equal(s->j.n_rows, 2);	/* the receiver, then its rail */
	assert_false(r->rail_only);
	assert_int_equal(r->receiver, 0);
	assert_int_equal(r->v, FAB_LV_LOSSLESS);
	assert_int_equal(r->n_senders, 8);
	assert_true(fabs(r->goodput_gbps - 380) < 1e-9);
	assert_true(fabs(r->line_gbps - 400) < 1e-9);
	assert_true(r->loss_known && r->pause_known && r->cnp_known);
	assert_int_equal(r->drops + r->retrans, 0);
	assert_int_equal(r->pause_tx, 5200);
	assert_int_equal(r->pause_rx, 8 * 650);
	assert_int_equal(r->cnp_sent, 1800);
	assert_int_equal(r->cnp_handled, 1800);
	assert_int_equal(r->ecn_marked, 1800);
	assert_int_equal(r->pause_prios, 0x08);
	assert_int_equal(r->pfc_mask, 0x08);
	/* what grew: the receiver's pause, CNP and ECN, each sender's pause and CNP */
	assert_int_equal(r->n_evidence, 3 + 8 * 2);
	assert_true(says(r->reason, "0.95 of the 400 Gb/s line"));
	assert_true(s->j.rows[1].rail_only);
	assert_int_equal(s->j.rows[1].v, FAB_LV_LOSSLESS);
	assert_string_equal(s->j.verdict, "pass");
	assert_int_equal(s->j.count[FAB_LV_LOSSLESS], 1);
	scene_free(s);
}

static void lossy_incast_names_counters_and_pfc(void **state)
{
	struct scene *s = incast8(47.5, 650, 1800);
	const struct fab_load_row *r;

	(void)state;
	/* PFC on priority 4 only, the traffic on 3: the receiver's switch
	 * port dropped, the responder saw gaps, node5's requester a NAK */
	s->ports[0].pfc_mask = 0x10;
	s->c[0][4].delta = 1200;	/* eth:rx_discards_phy */
	s->c[0][7].delta = 40;		/* hw:out_of_sequence */
	s->c[5][4].delta = 3;		/* node5's hw:packet_seq_err */
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_LOSSY);
	assert_int_equal(r->drops, 1200);
	assert_int_equal(r->retrans, 43);
	assert_true(says(r->reason, "rx_discards_phy +1200 on node0"));
	assert_true(says(r->reason, "out_of_sequence +40 on node0"));
	assert_true(says(r->reason, "packet_seq_err +3 on node5"));
	assert_true(says(r->reason, "PFC is not effective on priority 3 (the test's traffic)"));
	assert_true(says(r->reason, "PFC is on for priority 4 only"));
	assert_string_equal(s->j.verdict, "fail");
	assert_int_equal(s->j.count[FAB_LV_LOSSY], 1);
	scene_free(s);

	/* the test's priority and the PFC mask unknown: said so */
	s = incast8(47.5, 650, 1800);
	s->in.priority = -1;
	s->ports[0].pfc_mask = -1;
	s->c[0][4].delta = 9;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_LOSSY);
	assert_true(says(r->reason, "its priority unknown"));
	assert_true(says(r->reason, "PFC priorities are unknown"));
	scene_free(s);
}

static void pauses_without_cnp_are_no_ecn(void **state)
{
	struct scene *s = incast8(47.5, 650, 0);
	const struct fab_load_row *r;

	(void)state;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NO_ECN);
	assert_true(r->cnp_known);
	assert_true(says(r->reason, "tx_prio3_pause +5200 on node0"));
	assert_true(says(r->reason, "but no CNP: ECN is not marking"));
	scene_free(s);

	/* a sender that read no CNP counter: ECN unknown there, not no-ecn */
	s = incast8(47.5, 650, 0);
	s->c[3][2].name = "hw:rx_write_requests";
	r = judge(s);
	assert_false(r->cnp_known);
	assert_int_equal(r->v, FAB_LV_LOSSLESS);
	scene_free(s);
}

static void starved_sender_is_unfair(void **state)
{
	struct scene *s = incast8(50, 650, 1800);
	const struct fab_load_row *r;

	(void)state;
	s->res[3].ab = 10;	/* node4: 0.2 of the median 50 */
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_UNFAIR);
	assert_int_equal(r->weakest, 4);
	assert_true(fabs(r->min_share_gbps - 10) < 1e-9);
	assert_true(fabs(r->median_share_gbps - 50) < 1e-9);
	assert_true(says(r->reason, "node4's flow into node0 got 10 Gb/s, 0.20 of the median "
				    "50 Gb/s"));
	scene_free(s);

	/* 0.6 of the median is within the rule */
	s = incast8(50, 650, 1800);
	s->res[3].ab = 30;
	assert_int_equal(judge(s)->v, FAB_LV_LOSSLESS);
	scene_free(s);
}

static void short_goodput_is_slow(void **state)
{
	struct scene *s = incast8(40, 650, 1800);	/* 320 of 400 */
	const struct fab_load_row *r;

	(void)state;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_SLOW);
	assert_true(says(r->reason, "0.80 of the 400 Gb/s line"));
	scene_free(s);

	/* --expect-gbps stands over the port's rate */
	s = incast8(40, 650, 1800);
	s->in.line_gbps = 350;
	assert_int_equal(judge(s)->v, FAB_LV_LOSSLESS);
	scene_free(s);
}

static void unknown_is_never_lossless(void **state)
{
	struct scene *s = incast8(47.5, 650, 1800);
	const struct fab_load_row *r;

	(void)state;
	s->ports[6].unread = "cannot read '/sys/class/infiniband/mlx5_6/ports/1/hw_counters': "
			     "Permission denied";
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_CHECKED);
	assert_false(r->loss_known);
	assert_true(says(r->reason, "node6's counters could not be read"));
	assert_true(says(r->reason, "Permission denied"));
	scene_free(s);

	/* a sender's port missing altogether */
	s = incast8(47.5, 650, 1800);
	s->ports[2].rank = 12;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_CHECKED);
	assert_true(says(r->reason, "no counters came from node2's port"));
	scene_free(s);

	/* a port that read only pauses: loss unknown there */
	s = incast8(47.5, 650, 1800);
	s->ports[7].n = 2;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_CHECKED);
	assert_true(says(r->reason, "node7 read no drop or retransmit counter"));
	scene_free(s);

	/* a port with drops but no retransmit counter (a tcp rail's
	 * interface): a loss there could not have shown, so loss is unknown */
	s = incast8(47.5, 650, 1800);
	for (size_t i = 0; i < s->ports[3].n; i++)
		if (fab_counter_kind(s->c[3][i].name, NULL) == FAB_CK_RETRANS)
			s->c[3][i].name = "hw:rnr_nak_retry_err";	/* of no kind */
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_CHECKED);
	assert_false(r->loss_known);
	assert_true(says(r->reason, "node3 read no retransmit counter"));
	scene_free(s);

	/* line rate unknown: no --expect-gbps, no port rate */
	s = incast8(47.5, 650, 1800);
	s->ports[0].rate_gbps = NAN;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_CHECKED);
	assert_true(r->loss_known);
	assert_true(says(r->reason, "line rate unknown"));
	scene_free(s);

	/* growth seen is evidence, whatever another port could not tell */
	s = incast8(47.5, 650, 1800);
	s->ports[6].unread = "timed out";
	s->c[0][4].delta = 77;
	assert_int_equal(judge(s)->v, FAB_LV_LOSSY);
	scene_free(s);
}

/* ---- rxe ---- */

static struct scene *rxe_incast(uint64_t seq, uint64_t retry, uint64_t dup)
{
	struct scene *s = scene_new(FAB_LOAD_INCAST, 3);
	size_t p = port(s, 0, 0, 0, 10, -1);

	s->in.line_gbps = 10;
	/* the netdev under rxe (eth0) has its statistics read too */
	ctr(s, p, "net:rx_dropped", 0);
	ctr(s, p, "hw:rcvd_seq_err", 0);
	ctr(s, p, "hw:out_of_seq_request", 0);
	ctr(s, p, "hw:duplicate_request", dup);
	for (uint32_t k = 1; k <= 2; k++) {
		flow(s, 0, 0, k, 0, 4.6, NAN, NULL);
		p = port(s, 0, 0, k, 10, -1);
		ctr(s, p, "net:rx_dropped", 0);
		ctr(s, p, "hw:rcvd_seq_err", k == 1 ? seq : 0);
		ctr(s, p, "hw:retry_exceeded_err", k == 2 ? retry : 0);
		ctr(s, p, "hw:completer_retry_err", 0);
	}
	return s;
}

static void rxe_lossy_and_not(void **state)
{
	struct scene *s = rxe_incast(17, 2, 5);
	const struct fab_load_row *r;

	(void)state;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_LOSSY);
	assert_int_equal(r->retrans, 24);
	assert_true(says(r->reason, "duplicate_request +5 on node0"));
	assert_true(says(r->reason, "rcvd_seq_err +17 on node1"));
	assert_true(says(r->reason, "retry_exceeded_err +2 on node2"));
	scene_free(s);

	/* rxe has no pause or CNP counters: loss known, ECN unknown */
	s = rxe_incast(0, 0, 0);
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_LOSSLESS);
	assert_true(r->loss_known);
	assert_false(r->pause_known);
	assert_false(r->cnp_known);
	assert_int_equal(r->n_evidence, 0);
	scene_free(s);
}

/* ---- alltoall ---- */

static void alltoall_drop_is_its_port_only(void **state)
{
	struct scene *s = scene_new(FAB_LOAD_ALLTOALL, 4);

	(void)state;
	s->in.line_gbps = 100;
	for (uint32_t a = 0; a < 4; a++)
		for (uint32_t b = a + 1; b < 4; b++)
			flow(s, 0, 0, a, b, 30, 30, NULL);
	for (uint32_t k = 0; k < 4; k++) {
		size_t p = port(s, 0, 0, k, 100, 0x08);

		recv_ctrs(s, p, 100, 50);
		send_ctrs(s, p, 0, 0);
		if (k == 2)
			s->c[p][4].delta = 50;	/* node2's eth:rx_discards_phy */
	}
	judge(s);
	assert_int_equal(s->j.n_rows, 5);
	for (uint32_t k = 0; k < 4; k++) {
		const struct fab_load_row *r = &s->j.rows[k];

		assert_int_equal(r->receiver, k);
		assert_int_equal(r->n_senders, 3);
		assert_true(fabs(r->goodput_gbps - 90) < 1e-9);
		assert_int_equal(r->v, k == 2 ? FAB_LV_LOSSY : FAB_LV_LOSSLESS);
		assert_int_equal(r->drops, k == 2 ? 50 : 0);
	}
	assert_true(says(s->j.rows[2].reason, "rx_discards_phy +50 on node2"));
	assert_int_equal(s->j.rows[4].v, FAB_LV_LOSSY);
	assert_true(says(s->j.rows[4].reason, "1 of 4 receivers lossy, 3 lossless"));
	scene_free(s);
}

/* ---- the same frames twice ---- */

static void same_frames_count_once(void **state)
{
	struct scene *s = incast8(47.5, 650, 1800);
	const struct fab_load_row *r;

	(void)state;
	/* DCB netlink's PFC counters beside ethtool's: the same pauses */
	ctr(s, 0, "dcb:tx_pause_prio3", 5200);
	ctr(s, 0, "dcb:rx_pause_prio3", 0);
	/* the global pause two ways (802.3 group and the per-prio one) */
	ctr(s, 0, "eth:rx_pause_ctrl_phy", 30);
	ctr(s, 0, "eth:rx_global_pause", 30);
	r = judge(s);
	assert_int_equal(r->pause_tx, 5200);
	assert_int_equal(r->pause_rx, 8 * 650 + 30);
	assert_int_equal(r->pause_prios, 0x08);
	scene_free(s);

	/* the RDMA q counter and the netdev's both out of buffer: the larger */
	s = incast8(47.5, 650, 1800);
	s->c[0][5].delta = 7;	/* eth:rx_out_of_buffer */
	s->c[0][6].delta = 9;	/* hw:out_of_buffer */
	ctr(s, 0, "net:rx_missed_errors", 7);
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_LOSSY);
	assert_int_equal(r->drops, 9);
	/* each grown counter is evidence still */
	assert_true(says(r->reason, "rx_out_of_buffer +7 on node0"));
	assert_true(says(r->reason, "out_of_buffer +9 on node0"));
	scene_free(s);
}

static void reset_counters_are_unknown(void **state)
{
	struct scene *s = rxe_incast(0, 0, 0);
	const struct fab_load_row *r;

	(void)state;
	/* the receiver's every loss counter went down during the round */
	for (size_t i = 0; i < 3; i++)
		s->c[0][i].reset = true;
	s->c[0][2].delta = 0;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_CHECKED);
	assert_true(says(r->reason, "node0's drop and retransmit counters were reset"));
	scene_free(s);

	/* a reset counter is not growth, whatever delta it carries */
	s = incast8(47.5, 650, 1800);
	s->c[0][4].reset = true;
	s->c[0][4].delta = 1000;
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_LOSSLESS);
	assert_int_equal(r->drops, 0);
	scene_free(s);
}

/* ---- rows, rails and the whole ---- */

static void rails_are_their_worst_receiver(void **state)
{
	struct scene *s = scene_new(FAB_LOAD_INCAST, 4);

	(void)state;
	s->in.line_gbps = 100;
	/* round 0: node1 into node0 on rails 0 and 1; round 1: node3 into
	 * node2 on rail 1, and node2's port dropped */
	for (uint32_t rail = 0; rail < 2; rail++) {
		flow(s, 0, rail, 1, 0, 95, NAN, NULL);
		recv_ctrs(s, port(s, 0, rail, 0, 100, 0x08), 10, 10);
		send_ctrs(s, port(s, 0, rail, 1, 100, 0x08), 10, 10);
	}
	flow(s, 1, 1, 3, 2, 95, NAN, NULL);
	recv_ctrs(s, port(s, 1, 1, 2, 100, 0x08), 10, 10);
	send_ctrs(s, port(s, 1, 1, 3, 100, 0x08), 10, 10);
	s->c[s->n_ports - 2][4].delta = 4;
	judge(s);
	assert_int_equal(s->j.n_rows, 5);
	/* receivers in (round, rail) order, then the rails */
	assert_int_equal(s->j.rows[0].round, 0);
	assert_int_equal(s->j.rows[0].rail, 0);
	assert_int_equal(s->j.rows[1].rail, 1);
	assert_int_equal(s->j.rows[2].round, 1);
	assert_int_equal(s->j.rows[2].receiver, 2);
	assert_int_equal(s->j.rows[2].v, FAB_LV_LOSSY);
	assert_true(s->j.rows[3].rail_only && s->j.rows[4].rail_only);
	assert_int_equal(s->j.rows[3].rail, 0);
	assert_int_equal(s->j.rows[3].v, FAB_LV_LOSSLESS);
	assert_int_equal(s->j.rows[4].rail, 1);
	assert_int_equal(s->j.rows[4].v, FAB_LV_LOSSY);
	assert_true(says(s->j.rows[4].reason, "1 of 2 receivers lossy, 1 lossless"));
	assert_int_equal(s->j.rows[4].drops, 4);
	assert_string_equal(s->j.verdict, "fail");
	assert_int_equal(s->j.count[FAB_LV_LOSSLESS], 2);
	assert_int_equal(s->j.count[FAB_LV_LOSSY], 1);
	assert_true(says(s->j.reason, "1 of 3 receivers lossy, 2 lossless"));
	scene_free(s);
}

static void nothing_ran_is_an_error(void **state)
{
	struct scene *s = incast8(47.5, 650, 1800);
	const struct fab_load_row *r;

	(void)state;
	for (size_t i = 0; i < s->n_res; i++) {
		s->res[i].ab = NAN;
		s->res[i].error = "connection refused";
	}
	r = judge(s);
	assert_int_equal(r->v, FAB_LV_NOT_RUN);
	assert_int_equal(r->n_senders, 0);
	assert_true(isnan(r->goodput_gbps));
	assert_int_equal(r->weakest, -1);
	assert_true(says(r->reason, "connection refused"));
	assert_string_equal(s->j.verdict, "error");
	assert_int_equal(s->j.count[FAB_LV_NOT_RUN], 1);
	scene_free(s);

	/* one flow failed, the rest ran: judged on what finished */
	s = incast8(47.5, 650, 1800);
	s->res[0].ab = NAN;
	s->res[0].error = "timed out";
	s->in.line_gbps = 7 * 47.5;
	r = judge(s);
	assert_int_equal(r->n_senders, 7);
	assert_int_equal(r->v, FAB_LV_LOSSLESS);
	scene_free(s);

	/* nothing planned */
	s = scene_new(FAB_LOAD_INCAST, 2);
	s->in.n_results = 0;
	assert_int_equal(fab_load_judge(&s->in, &s->j), 0);
	assert_int_equal(s->j.n_rows, 0);
	assert_string_equal(s->j.verdict, "error");
	scene_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counter_kinds),
		cmocka_unit_test(lossless_incast),
		cmocka_unit_test(lossy_incast_names_counters_and_pfc),
		cmocka_unit_test(pauses_without_cnp_are_no_ecn),
		cmocka_unit_test(starved_sender_is_unfair),
		cmocka_unit_test(short_goodput_is_slow),
		cmocka_unit_test(unknown_is_never_lossless),
		cmocka_unit_test(rxe_lossy_and_not),
		cmocka_unit_test(alltoall_drop_is_its_port_only),
		cmocka_unit_test(same_frames_count_once),
		cmocka_unit_test(reset_counters_are_unknown),
		cmocka_unit_test(rails_are_their_worst_receiver),
		cmocka_unit_test(nothing_ran_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
