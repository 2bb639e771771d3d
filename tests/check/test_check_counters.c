/* Checks against small machines built in C (check_machine.h):
 * counters.errors and counters.saturated (src/check/counters.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"
#include "model/port_start.h"
#include "model/window.h"

/* A counter the kernel refused with EINVAL earlier this boot was not read
 * (sysfs/einval_memo.h): not checked, and the reason names the file. */
static void counters_refused_before(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	size_t hits = 0;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[2].ports[0];
	add_counter(&pt->counters, "port_xmit_discards", 0);
	pt->counters.v[pt->counters.n - 1].ok = false;
	pt->counters.v[pt->counters.n - 1].refused_before = true;
	run(&m, NULL, &fs);
	for (size_t i = 0; i < fs.n; i++)
		hits += strcmp(fs.v[i].id, "counters.errors") == 0 &&
			strcmp(fs.v[i].subject, "mlx5_2 port 1") == 0 && fs.v[i].unchecked &&
			fs.v[i].severity == SEV_INFO &&
			strcmp(fs.v[i].observed, "not checked: 1 of its counters could not be read "
			       "(port_xmit_discards; 1 of them the kernel refused with EINVAL "
			       "earlier this boot (/sys/class/infiniband/mlx5_2/ports/1/counters/"
			       "port_xmit_discards); not read again)") == 0;
	assert_int_equal(hits, 1);
	findings_free(&fs);
	machine_free(&m);
}

static void counters_errors_and_saturated(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[0].ports[0];
	pt->counters.v[0].value = 1234;	/* symbol_error */
	pt->counters.v[1].value = 3;	/* link_downed */
	add_counter(&pt->counters, "port_rcv_errors", 17);
	pt = &m.inv.nics[1].ports[0];
	pt->counters.v[0].value = 65535;
	add_counter(&pt->counters, "local_link_integrity_errors", 15);
	add_counter(&pt->counters, "port_xmit_discards", 9);
	pt->counters.v[pt->counters.n - 1].ok = false;	/* unreadable: not checked */
	pt = &m.inv.nics[4].ports[0];
	add_counter(&pt->hw_counters, "out_of_sequence", 42);
	add_counter(&pt->hw_counters, "local_ack_timeout_err", 7);
	add_counter(&pt->hw_counters, "rx_write_requests", 1000);	/* not an error */
	pt = &m.inv.nics[5].ports[0];
	add_counter(&pt->hw_counters, "rx_icrc_encapsulated", 5);
	add_counter(&pt->hw_counters, "packet_seq_err", 1);
	run(&m, NULL, &fs);
	expect(&fs, "counters.errors", "mlx5_0 port 1", SEV_WARN,
	       "symbol_error 1234, link_downed 3, port_rcv_errors 17", NULL);
	expect(&fs, "counters.errors", "mlx5_1 port 1", SEV_WARN,
	       "symbol_error 65535 (saturated), local_link_integrity_errors 15 (saturated)", NULL);
	/* lifetime transport retries alone say nothing in a one-shot check
	 * (mlx5_4 has only those); corrupted packets do */
	expect(&fs, "counters.errors", "mlx5_5 port 1", SEV_WARN,
	       "packet_seq_err 1, rx_icrc_encapsulated 5", NULL);
	expect(&fs, "counters.saturated", "mlx5_1 port 1", SEV_WARN,
	       "symbol_error 65535, local_link_integrity_errors 15",
	       "symbol_error below 65535, local_link_integrity_errors below 15");
	{
		size_t infos = 0;

		for (size_t i = 0; i < fs.n; i++)
			infos += strcmp(fs.v[i].id, "counters.errors") == 0 &&
				 strcmp(fs.v[i].subject, "mlx5_1 port 1") == 0 &&
				 fs.v[i].severity == SEV_INFO && fs.v[i].unchecked &&
				 strcmp(fs.v[i].observed, "not checked: 1 of its counters could "
					"not be read (port_xmit_discards)") == 0;
		assert_int_equal(infos, 1);
	}
	/* what a NIC's hw_counters hold is what it can be judged by: a class
	 * none of them counts is not available, whatever other kernels of its
	 * driver name */
	expect(&fs, "counters.errors", "mlx5_4", SEV_INFO,
	       "not checked: seq_err, phy_err not available on mlx5 (mlx5_core keeps no such "
	       "hw_counters)", NULL);
	expect(&fs, "counters.errors", "mlx5_5", SEV_INFO,
	       "not checked: retransmit, ack_timeout not available on mlx5 (mlx5_core keeps no "
	       "such hw_counters)", NULL);
	assert_int_equal(count_id(&fs, "counters.errors"), 6);
	assert_int_equal(count_id(&fs, "counters.saturated"), 1);
	/* a one-shot check never fails on lifetime counts */
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);
	machine_free(&m);
}

/* The PHY's `ethtool -S` error counts on a RoCE port, judged like the
 * PMA's: a warning as lifetime counts; their per-lane forms too; FEC's
 * corrected bits and other statistics not. */
static void counters_ethernet_phy(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[4].ports[0];
	add_counter(&pt->eth_stats, "rx_crc_errors_phy", 1532);
	add_counter(&pt->eth_stats, "link_down_events_phy", 4);
	add_counter(&pt->eth_stats, "rx_corrected_bits_phy", 99999);	/* FEC at work */
	add_counter(&pt->eth_stats, "rx_err_lane_0_phy", 77);		/* the same, per lane */
	add_counter(&pt->eth_stats, "rx_packets_phy", 123456);
	pt = &m.inv.nics[5].ports[0];
	add_counter(&pt->eth_stats, "rx_symbol_err_lane_2_phy", 3);
	add_counter(&pt->eth_stats, "rx_pcs_symbol_err_phy_lane1", 2);
	add_counter(&pt->eth_stats, "rx_symbol_err_lane_phy", 5);		/* no lane number */
	add_counter(&pt->eth_stats, "rx_symbol_err_phy_total", 6);
	run(&m, NULL, &fs);
	expect(&fs, "counters.errors", "mlx5_4 port 1", SEV_WARN,
	       "ethtool rx_crc_errors_phy 1532, ethtool link_down_events_phy 4", NULL);
	assert_non_null(strstr(get(&fs, "counters.errors", "mlx5_4 port 1")->fix, "--window"));
	expect(&fs, "counters.errors", "mlx5_5 port 1", SEV_WARN,
	       "ethtool rx_symbol_err_lane_2_phy 3, ethtool rx_pcs_symbol_err_phy_lane1 2", NULL);
	assert_int_equal(count_id(&fs, "counters.errors"), 2);
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);
	/* which count an error rate per bit sums */
	assert_true(check_counter_is_bit_error("symbol_error", 0));
	assert_true(check_counter_is_bit_error("port_rcv_errors", 0));
	assert_false(check_counter_is_bit_error("link_downed", 0));
	assert_false(check_counter_is_bit_error("port_xmit_discards", 0));
	assert_true(check_counter_is_bit_error("rx_crc_errors_phy", 2));
	assert_true(check_counter_is_bit_error("rx_symbol_err_lane_0_phy", 2));
	assert_false(check_counter_is_bit_error("link_down_events_phy", 2));
	assert_false(check_counter_is_bit_error("rx_corrected_bits_phy", 2));
	machine_free(&m);
}

/* A counter that grew over a window: start at `from`, now at `to`. */
static void grown(struct port *pt, const char *name, uint64_t from, uint64_t to)
{
	if (!pt->start) {
		pt->start = calloc(1, sizeof(*pt->start));
		assert_non_null(pt->start);
		pt->start->carrier_changes = NA;
	}
	add_counter(&pt->start->hw_counters, name, from);
	add_counter(&pt->hw_counters, name, to);
}

/* The NIC as another driver's: its name and nic.driver. */
static void as_driver(struct nic *n, const char *name, const char *driver)
{
	free(n->name);
	free(n->driver);
	n->name = strdup(name);
	n->driver = strdup(driver);
}

/* bnxt_re counts its retransmits under its own names before the kernel
 * renamed them to mlx5's, and under mlx5's after: a grown one is judged
 * as mlx5's own, in either spelling, with the same severity and fix; its
 * echo (a duplicate request: the peer's retransmit) is not; and a driver
 * no table knows has none of its hw_counters judged, whatever their names. */
static void counters_bnxt_re_like_mlx5(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *mlx5, *old, *renamed;
	(void)state;

	healthy(&m);
	as_driver(&m.inv.nics[4], "bnxt_re0", "bnxt_en");
	as_driver(&m.inv.nics[5], "bnxt_re1", "bnxt_en");
	as_driver(&m.inv.nics[2], "qedr0", "qede");
	grown(&m.inv.nics[3].ports[0], "out_of_sequence", 10, 52);	/* mlx5 */
	grown(&m.inv.nics[4].ports[0], "oos_drop_count", 10, 52);	/* before the rename */
	grown(&m.inv.nics[4].ports[0], "dup_req", 0, 9);		/* an echo */
	grown(&m.inv.nics[5].ports[0], "out_of_sequence", 10, 52);	/* after it */
	grown(&m.inv.nics[5].ports[0], "to_retransmits", 0, 0);	/* no growth */
	grown(&m.inv.nics[2].ports[0], "out_of_sequence", 10, 52);	/* unknown driver */
	m.inv.window_s = 60;
	run(&m, NULL, &fs);
	mlx5 = expect(&fs, "counters.errors", "mlx5_3 port 1", SEV_WARN,
		      "out_of_sequence grew by 42 in 60 s (10 to 52)", NULL);
	old = expect(&fs, "counters.errors", "bnxt_re0 port 1", SEV_WARN,
		     "oos_drop_count grew by 42 in 60 s (10 to 52)", NULL);
	renamed = expect(&fs, "counters.errors", "bnxt_re1 port 1", SEV_WARN,
			 "out_of_sequence grew by 42 in 60 s (10 to 52)", NULL);
	assert_string_equal(old->why, mlx5->why);
	assert_string_equal(old->fix, mlx5->fix);
	assert_string_equal(renamed->fix, mlx5->fix);
	for (size_t i = 0; i < fs.n; i++)
		assert_false(strcmp(fs.v[i].subject, "qedr0 port 1") == 0 &&
			     fs.v[i].severity != SEV_INFO);
	findings_free(&fs);
	machine_free(&m);

	/* as lifetime counts, a retry alone says nothing on bnxt_re as on
	 * mlx5; next to a fault it is listed */
	healthy(&m);
	as_driver(&m.inv.nics[4], "bnxt_re0", "bnxt_en");
	add_counter(&m.inv.nics[4].ports[0].hw_counters, "to_retransmits", 8);
	add_counter(&m.inv.nics[4].ports[0].hw_counters, "seq_err_naks_rcvd", 3);
	add_counter(&m.inv.nics[4].ports[0].hw_counters, "rx_roce_discards", 5);	/* not judged */
	run(&m, NULL, &fs);
	assert_null(get(&fs, "counters.errors", "bnxt_re0 port 1"));
	findings_free(&fs);
	/* bnxt_re's PMA counters (since 2025) fill port_rcv_errors */
	add_counter(&m.inv.nics[4].ports[0].counters, "port_rcv_errors", 7);
	run(&m, NULL, &fs);
	expect(&fs, "counters.errors", "bnxt_re0 port 1", SEV_WARN,
	       "port_rcv_errors 7, to_retransmits 8, seq_err_naks_rcvd 3", NULL);
	findings_free(&fs);
	machine_free(&m);

	assert_true(check_counter_is_retry("bnxt_en", "to_retransmits", WIN_HW));
	assert_true(check_counter_is_retry("mlx5_core", "local_ack_timeout_err", WIN_HW));
	assert_false(check_counter_is_error("bnxt_en", "dup_req", WIN_HW));
	assert_false(check_counter_is_error("qede", "out_of_sequence", WIN_HW));
	assert_false(check_counter_is_error(NULL, "out_of_sequence", WIN_HW));
	assert_true(check_counter_is_error("mlx5_core", "rx_icrc_encapsulated", WIN_HW));
	assert_false(check_counter_is_retry("mlx5_core", "rx_icrc_encapsulated", WIN_HW));
}

/* A class counters.errors judges that the driver keeps no counter of is
 * "not available on DRIVER", an unchecked info per NIC, never a pass; the
 * hw_counters of an unknown driver are named, not judged; mlx5 has every
 * class, so nothing is said of it. */
static void counters_not_available(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	as_driver(&m.inv.nics[3], "hns_0", "hns3");
	as_driver(&m.inv.nics[4], "rxe0", "rdma_rxe");
	as_driver(&m.inv.nics[5], "qedr0", "qede");
	add_counter(&m.inv.nics[5].ports[0].hw_counters, "rx_ecn_marked", 0);
	run(&m, NULL, &fs);
	f = expect(&fs, "counters.errors", "hns_0", SEV_INFO,
		   "not checked: retransmit, seq_err, ack_timeout, phy_err not available on hns "
		   "(hns3 keeps no such hw_counters)", NULL);
	assert_true(f->unchecked);
	expect(&fs, "counters.errors", "rxe0", SEV_INFO,
	       "not checked: ack_timeout, phy_err not available on rxe (rdma_rxe keeps no "
	       "such hw_counters)", NULL);
	expect(&fs, "counters.errors", "qedr0", SEV_INFO,
	       "not checked: 1 hw_counters (rx_ecn_marked) of driver qede, which this tool "
	       "has no table of: shown, not judged", NULL);
	assert_null(get(&fs, "counters.errors", "mlx5_0"));
	assert_int_equal(count_id(&fs, "counters.errors"), 3);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counters_errors_and_saturated),
		cmocka_unit_test(counters_refused_before),
		cmocka_unit_test(counters_ethernet_phy),
		cmocka_unit_test(counters_bnxt_re_like_mlx5),
		cmocka_unit_test(counters_not_available),
	};

	return cmocka_run_group_tests_name("check_counters", tests, NULL, NULL);
}
