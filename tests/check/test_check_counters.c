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
	assert_int_equal(count_id(&fs, "counters.errors"), 4);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counters_errors_and_saturated),
		cmocka_unit_test(counters_refused_before),
		cmocka_unit_test(counters_ethernet_phy),
	};

	return cmocka_run_group_tests_name("check_counters", tests, NULL, NULL);
}
