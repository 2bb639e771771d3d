/* Rates for people (print/rate_units.c): data counters in Gb/s from bytes
 * per second, the rest per second on a k/M/G scale, never an exponent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/window.h"
#include "print/rate_units.h"

static void which_are_bytes(void **state)
{
	(void)state;
	assert_true(rate_counter_is_bytes("port_xmit_data", WIN_PMA));
	assert_true(rate_counter_is_bytes("port_rcv_data", WIN_PMA));
	assert_false(rate_counter_is_bytes("port_xmit_packets", WIN_PMA));
	assert_true(rate_counter_is_bytes("tx_bytes", WIN_NET));
	assert_true(rate_counter_is_bytes("rx_bytes_phy", WIN_ETH));
	assert_true(rate_counter_is_bytes("bytes", WIN_ETH));
	assert_false(rate_counter_is_bytes("rx_packets", WIN_NET));
	assert_false(rate_counter_is_bytes("rx_bytesx", WIN_ETH));
	assert_false(rate_counter_is_bytes("xbytes", WIN_ETH));
}

static void gbps(void **state)
{
	char b[32];
	(void)state;

	rate_gbps_str(b, sizeof(b), 0);
	assert_string_equal(b, "0 Gb/s");
	rate_gbps_str(b, sizeof(b), 1e9 / 60);	/* 1e9 bytes in a minute */
	assert_string_equal(b, "0.13 Gb/s");
	rate_gbps_str(b, sizeof(b), 50e9);	/* a full 400G link */
	assert_string_equal(b, "400 Gb/s");
	rate_gbps_str(b, sizeof(b), 2.5e9);
	assert_string_equal(b, "20.0 Gb/s");
	rate_gbps_str(b, sizeof(b), 1000);
	assert_string_equal(b, "<0.01 Gb/s");
}

static void per_s(void **state)
{
	char b[32];
	(void)state;

	rate_per_s_str(b, sizeof(b), 0);
	assert_string_equal(b, "0/s");
	rate_per_s_str(b, sizeof(b), 1.0 / 60);
	assert_string_equal(b, "0.017/s");
	rate_per_s_str(b, sizeof(b), 5);
	assert_string_equal(b, "5/s");
	rate_per_s_str(b, sizeof(b), 1.5);
	assert_string_equal(b, "1.5/s");
	rate_per_s_str(b, sizeof(b), 1234);
	assert_string_equal(b, "1.23k/s");
	rate_per_s_str(b, sizeof(b), 2.5e10);
	assert_string_equal(b, "25G/s");
	rate_per_s_str(b, sizeof(b), 999.9);
	assert_string_equal(b, "1k/s");
	rate_per_s_str(b, sizeof(b), 1e30);	/* no scale past T: still digits */
	assert_null(strchr(b, 'e'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(which_are_bytes),
		cmocka_unit_test(gbps),
		cmocka_unit_test(per_s),
	};

	return cmocka_run_group_tests_name("rate_units", tests, NULL, NULL);
}
