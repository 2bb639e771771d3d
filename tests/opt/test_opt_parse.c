/* Option values (src/opt/opt_parse.h), as bw, lat and fabric read them:
 * the ranges' ends taken, one past refused, signs, blanks, suffixes and
 * trailing bytes refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "opt/opt_parse.h"

static void whole_numbers(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_true(opt_parse_u64("1", 1, 64, &v));
	assert_int_equal(v, 1);
	assert_true(opt_parse_u64("64", 1, 64, &v));
	assert_int_equal(v, 64);
	assert_true(opt_parse_u64("18446744073709551615", 0, UINT64_MAX, &v));
	assert_true(v == UINT64_MAX);
	static const char *const bad[] = { "0", "65", "", "-1", "+1", " 1", "1 ", "1x", "0x10",
					   "18446744073709551616" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(opt_parse_u64(bad[i], 1, 64, &v));
	assert_false(opt_parse_u64(NULL, 0, 1, &v));
}

static void byte_counts(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_true(opt_parse_bytes("65536", 1ull << 30, &v));
	assert_int_equal(v, 65536);
	assert_true(opt_parse_bytes("64K", 1ull << 30, &v));
	assert_int_equal(v, 65536);
	assert_true(opt_parse_bytes("8m", 1ull << 30, &v));
	assert_int_equal(v, 8u << 20);
	assert_true(opt_parse_bytes("1G", 1ull << 30, &v));
	assert_int_equal(v, 1u << 30);
	static const char *const bad[] = { "0", "2G", "1025M", "", "K", "-1K", "1KB", "1.5K",
					   "99999999999999999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(opt_parse_bytes(bad[i], 1ull << 30, &v));
}

/* the names the kernel's dev_valid_name takes, and no others */
static void interface_names(void **state)
{
	static const char *const good[] = { "eth0", "enp24s0np0", "a", "ib0.8001", "veth-x_1",
					    "abcdefghijklmno" };
	static const char *const bad[] = { "", ".", "..", "a/b", "eth0:1", "a b", "a\tb",
					   "abcdefghijklmnop" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(opt_parse_ifname(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(opt_parse_ifname(bad[i]));
	assert_false(opt_parse_ifname(NULL));
}

static void decimal_numbers(void **state)
{
	double v = 0;

	(void)state;
	assert_true(opt_parse_number("0.93", 0, 1, &v));
	assert_true(v == 0.93);
	assert_true(opt_parse_number("1e3", 0, 1e6, &v));
	assert_true(v == 1000);
	assert_true(opt_parse_number("0", 0, 1, &v));
	static const char *const bad[] = { "1.01", "-0.1", "", "x", "0.5x", "nan", "inf", "1e999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(opt_parse_number(bad[i], 0, 1, &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_numbers),
		cmocka_unit_test(byte_counts),
		cmocka_unit_test(decimal_numbers),
		cmocka_unit_test(interface_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
