/* The counter vocabulary (src/model/driver_counters.h): each driver's
 * names give the class its kernel source says they count, in every
 * spelling a kernel has used (bnxt_re before and after its rename to
 * mlx5's names, irdma's GEN3 names with spaces); an unknown name is none,
 * an unknown driver has nothing; and the tables agree wherever two
 * drivers share a name, so a record without its driver still reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/driver_counters.h"

static void mlx5(void **unused)
{
	(void)unused;
	assert_int_equal(counter_class("mlx5_core", "out_of_sequence"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("mlx5_core", "packet_seq_err"), CTR_SEQ_ERR);
	assert_int_equal(counter_class("mlx5_core", "local_ack_timeout_err"), CTR_ACK_TIMEOUT);
	assert_int_equal(counter_class("mlx5_core", "rnr_nak_retry_err"), CTR_RNR);
	assert_int_equal(counter_class("mlx5_core", "out_of_buffer"), CTR_DROP);
	assert_int_equal(counter_class("mlx5_core", "np_cnp_sent"), CTR_CNP_SENT);
	assert_int_equal(counter_class("mlx5_core", "rp_cnp_handled"), CTR_CNP_HANDLED);
	assert_int_equal(counter_class("mlx5_core", "np_ecn_marked_roce_packets"),
			 CTR_ECN_MARKED);
	assert_int_equal(counter_class("mlx5_core", "rx_icrc_encapsulated"), CTR_PHY_ERR);
	assert_int_equal(counter_class("mlx5_core", "req_transport_retries_exceeded"),
			 CTR_RETRY_EXCEEDED);
	assert_int_equal(counter_class("mlx5_core", "rx_write_requests"), CTR_NONE);
	/* a duplicate request is the echo of the peer's retransmit */
	assert_true(drv_counter_find("mlx5_core", "duplicate_request")->flags & CTR_F_ECHO);
	assert_string_equal(drv_table_of("mlx5_core")->name, "mlx5");
}

static void bnxt_re_both_spellings(void **unused)
{
	static const struct { const char *old, *new; enum ctr_class c; } pairs[] = {
		{ "to_retransmits", "local_ack_timeout_err", CTR_ACK_TIMEOUT },
		{ "seq_err_naks_rcvd", "packet_seq_err", CTR_SEQ_ERR },
		{ "max_retry_exceeded", "max_retry_exceeded", CTR_RETRY_EXCEEDED },
		{ "rnr_naks_rcvd", "rnr_nak_retry_err", CTR_RNR },
		{ "missing_resp", "implied_nak_seq_err", CTR_SEQ_ERR },
		{ "missin_resp", "implied_nak_seq_err", CTR_SEQ_ERR },
		{ "dup_req", "duplicate_request", CTR_RETRANSMIT },
		{ "oos_drop_count", "out_of_sequence", CTR_RETRANSMIT },
		{ "rx_out_of_buffer", "out_of_buffer", CTR_DROP },
		{ "tx_cnp_pkts", "np_cnp_pkts", CTR_CNP_SENT },
		{ "tx_cnp_pkts", "np_cnp_sent", CTR_CNP_SENT },
		{ "rx_cnp_pkts", "rp_cnp_handled", CTR_CNP_HANDLED },
		{ "rx_ecn_marked_pkts", "np_ecn_marked_roce_packets", CTR_ECN_MARKED },
		{ "rx_roce_discards", "rx_roce_discards", CTR_DROP },
		{ "rx_read_req", "rx_read_requests", CTR_NONE },
	};

	(void)unused;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		assert_int_equal(counter_class("bnxt_en", pairs[i].old), pairs[i].c);
		assert_int_equal(counter_class("bnxt_en", pairs[i].new), pairs[i].c);
		assert_int_equal(counter_class("bnxt_re", pairs[i].new), pairs[i].c);
	}
	assert_string_equal(drv_table_of("bnxt_en")->name, "bnxt_re");
}

static void irdma(void **unused)
{
	(void)unused;
	/* E810 (ice), X722 (i40e), E2000 (idpf) */
	assert_int_equal(counter_class("ice", "tcpRetransSegs"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("ice", "RetransSegs"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("i40e", "ip4InDiscards"), CTR_DROP);
	assert_int_equal(counter_class("ice", "cnpSent"), CTR_CNP_SENT);
	assert_int_equal(counter_class("ice", "cnpHandled"), CTR_CNP_HANDLED);
	assert_int_equal(counter_class("ice", "RxECNMrkd"), CTR_ECN_MARKED);
	assert_int_equal(counter_class("idpf", "RNR sent"), CTR_RNR);
	assert_int_equal(counter_class("idpf", "Nak Sequence Error"), CTR_SEQ_ERR);
	assert_int_equal(counter_class("idpf", "Nak Sequence Error Implied"), CTR_SEQ_ERR);
	assert_int_equal(counter_class("idpf", "RTO"), CTR_ACK_TIMEOUT);
	assert_int_equal(counter_class("idpf", "Rcvd Out of order packets"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("idpf", "CRC errors"), CTR_PHY_ERR);
	assert_int_equal(counter_class("idpf", "ord limit count"), CTR_NONE);
	/* a space is part of the name, never a word break */
	assert_int_equal(counter_class("idpf", "RNR"), CTR_NONE);
	assert_int_equal(counter_class("ice", "InRdmaReads"), CTR_NONE);
}

static void efa_ionic_hns_erdma_rxe(void **unused)
{
	(void)unused;
	assert_int_equal(counter_class("efa", "retrans_pkts"), CTR_RETRANSMIT);
	assert_true(drv_counter_find("efa", "retrans_bytes")->flags & CTR_F_BYTES);
	assert_int_equal(counter_class("efa", "retrans_timeout_events"), CTR_ACK_TIMEOUT);
	assert_int_equal(counter_class("efa", "rx_drops"), CTR_DROP);
	assert_int_equal(counter_class("efa", "unresponsive_remote_events"), CTR_NONE);
	/* a device-level counter is not a port's */
	assert_null(drv_counter_find("efa", "no_completion_cmds"));
	assert_non_null(drv_device_counter_find("efa", "no_completion_cmds"));
	assert_int_equal(drv_device_counter_find("efa", "no_completion_cmds")->cls, CTR_NONE);

	assert_int_equal(counter_class("ionic", "tx_rdma_cnp_pkts"), CTR_CNP_SENT);
	assert_int_equal(counter_class("ionic", "resp_rx_outouf_seq"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("ionic", "req_tx_retry_excd_err"), CTR_RETRY_EXCEEDED);
	assert_int_equal(counter_class("ionic", "tx_rdma_ack_timeout"), CTR_ACK_TIMEOUT);

	assert_int_equal(counter_class("hns3", "tx_cnp_pkt"), CTR_CNP_SENT);
	assert_int_equal(counter_class("hns3", "rx_cnp_pkt"), CTR_CNP_HANDLED);
	assert_int_equal(counter_class("hns3", "ecn_doorbell"), CTR_NONE);

	assert_int_equal(counter_class("erdma", "rx_pps_limit_drop_cnt"), CTR_DROP);

	assert_int_equal(counter_class("rdma_rxe", "rcvd_seq_err"), CTR_SEQ_ERR);
	assert_int_equal(counter_class("rdma_rxe", "out_of_seq_request"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("rdma_rxe", "out_of_sequence"), CTR_RETRANSMIT);
	assert_int_equal(counter_class("rdma_rxe", "retry_exceeded_err"), CTR_RETRY_EXCEEDED);
	assert_int_equal(counter_class("rdma_rxe", "link_downed"), CTR_LINK_DOWNED);
	/* mlx5's name is not rxe's */
	assert_int_equal(counter_class("rdma_rxe", "local_ack_timeout_err"), CTR_NONE);
}

static void classes_of_a_driver(void **unused)
{
	unsigned hns = drv_classes("hns3"), rxe = drv_classes("rdma_rxe");

	(void)unused;
	assert_int_equal(hns, CTR_BIT(CTR_CNP_SENT) | CTR_BIT(CTR_CNP_HANDLED));
	assert_false(rxe & CTR_BIT(CTR_ACK_TIMEOUT));
	assert_true(rxe & CTR_BIT(CTR_LINK_DOWNED));
	assert_false(drv_classes("efa") & CTR_BIT(CTR_PHY_ERR));
	assert_true(drv_classes("mlx5_core") & CTR_BIT(CTR_PHY_ERR));
	assert_false(drv_classes("mlx5_core") & CTR_BIT(CTR_NONE));
	assert_string_equal(ctr_class_name(CTR_SEQ_ERR), "seq_err");
	assert_string_equal(ctr_class_name(CTR_N), "none");
}

static void unknown(void **unused)
{
	(void)unused;
	assert_int_equal(counter_class("mlx5_core", "no_such_counter"), CTR_NONE);
	assert_null(drv_counter_find("mlx5_core", "no_such_counter"));
	assert_null(drv_counter_find("mlx5_core", NULL));
	/* an unknown driver has nothing, even for a name another driver has */
	assert_null(drv_table_of("qede"));
	assert_null(drv_table_of(NULL));
	assert_null(drv_counter_find("qede", "out_of_sequence"));
	assert_int_equal(counter_class("qede", "out_of_sequence"), CTR_NONE);
	assert_int_equal(drv_classes("qede"), 0);
	assert_int_equal(drv_classes(NULL), 0);
	assert_null(drv_counter_find(NULL, "out_of_sequence"));
	/* any driver's row, for a record without its driver */
	assert_int_equal(counter_class(DRV_ANY, "to_retransmits"), CTR_ACK_TIMEOUT);
	assert_null(drv_table_of(DRV_ANY));
}

/* Where two drivers share a name they count it the same way, so a
 * lookup without the driver (a fleet record) cannot pick the wrong one;
 * and no table names a counter twice. */
static void tables_agree(void **unused)
{
	unsigned n;
	const struct drv_table *t = drv_tables(&n);

	(void)unused;
	for (unsigned a = 0; a < n; a++)
		for (unsigned i = 0; i < t[a].n; i++) {
			const struct drv_counter *r = &t[a].rows[i];

			for (unsigned k = i + 1; k < t[a].n; k++)
				if (strcmp(r->name, t[a].rows[k].name) == 0)
					fail_msg("%s names %s twice", t[a].name, r->name);
			for (unsigned b = a + 1; b < n; b++)
				for (unsigned k = 0; k < t[b].n; k++) {
					const struct drv_counter *o = &t[b].rows[k];

					if (strcmp(r->name, o->name) == 0 &&
					    (r->cls != o->cls || r->flags != o->flags))
						fail_msg("%s and %s count %s apart", t[a].name,
							 t[b].name, r->name);
				}
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mlx5),
		cmocka_unit_test(bnxt_re_both_spellings),
		cmocka_unit_test(irdma),
		cmocka_unit_test(efa_ionic_hns_erdma_rxe),
		cmocka_unit_test(classes_of_a_driver),
		cmocka_unit_test(unknown),
		cmocka_unit_test(tables_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
