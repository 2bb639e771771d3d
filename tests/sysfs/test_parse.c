/* Parsers of kernel-written values, against the formats of
 * the kernel (every rate string the kernel can print,
 * both PCIe speed spellings, GIDs, limits, modules). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/pcie_link.h"
#include "sysfs/parse.h"

/* Every speed x width cell of the kernel's rate table. */
static void rate_table(void **state)
{
	static const char *const speeds[] = { "SDR", "DDR", "QDR", "FDR10", "FDR",
					      "EDR", "HDR", "NDR", "XDR" };
	static const double lane[] = { 2.5, 5, 10, 10, 14, 25, 50, 100, 200 };
	static const int widths[] = { 1, 2, 4, 8, 12 };
	(void)state;

	for (int s = 0; s < 9; s++) {
		for (int w = 0; w < 5; w++) {
			double gbps = lane[s] * widths[w];
			char text[64];
			struct ib_rate r;

			/* the kernel prints "%d%s": integer part plus ".5" */
			if (gbps == (int)gbps)
				snprintf(text, sizeof(text), "%d Gb/sec (%dX %s)\n", (int)gbps,
					 widths[w], speeds[s]);
			else
				snprintf(text, sizeof(text), "%d.5 Gb/sec (%dX %s)\n",
					 (int)gbps, widths[w], speeds[s]);
			assert_int_equal(parse_ib_rate(text, &r), 0);
			assert_true(r.gbps == gbps);
			assert_int_equal(r.lanes, widths[w]);
			assert_string_equal(r.speed, speeds[s]);
		}
	}
}

static void rate_old_and_bad(void **state)
{
	struct ib_rate r;
	(void)state;

	/* kernels up to about 4.14 left out the SDR token */
	assert_int_equal(parse_ib_rate("10 Gb/sec (4X)", &r), 0);
	assert_true(r.gbps == 10);
	assert_int_equal(r.lanes, 4);
	assert_string_equal(r.speed, "");
	assert_int_equal(parse_ib_rate("2.5 Gb/sec (1X SDR)", &r), 0);
	assert_true(r.gbps == 2.5);

	assert_int_equal(parse_ib_rate("fast", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("400 Gb/sec (3X NDR)", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("400 Gb/sec (4X ZDR)", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("400 Gb/sec (4X NDR", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("400 Gb/sec (4X NDR) extra", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("nan Gb/sec (4X NDR)", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("-40 Gb/sec (4X QDR)", &r), -EINVAL);
	assert_int_equal(parse_ib_rate("400 Gb/sec (4X NDRNDRNDR)", &r), -EINVAL);
}

static void code_name(void **state)
{
	const char *name;
	int code;
	(void)state;

	assert_int_equal(parse_code_name("4: ACTIVE", &code, &name), 0);
	assert_int_equal(code, 4);
	assert_string_equal(name, "ACTIVE");
	assert_int_equal(parse_code_name("7: Phy Test", &code, &name), 0);
	assert_string_equal(name, "Phy Test");
	assert_int_equal(parse_code_name("ACTIVE", &code, &name), -EINVAL);
	assert_int_equal(parse_code_name("4:", &code, &name), -EINVAL);
	assert_int_equal(parse_code_name("99999999999: X", &code, &name), -EINVAL);
}

static void pcie_speed(void **state)
{
	double g;
	(void)state;

	assert_int_equal(parse_pcie_speed("32.0 GT/s PCIe", &g), 0);
	assert_true(g == 32.0);
	assert_int_equal(pcie_gen(g), 5);
	assert_int_equal(parse_pcie_speed("2.5 GT/s PCIe", &g), 0);
	assert_int_equal(pcie_gen(g), 1);
	assert_int_equal(parse_pcie_speed("8 GT/s", &g), 0);	/* old kernels */
	assert_int_equal(pcie_gen(g), 3);
	assert_int_equal(parse_pcie_speed("64.0 GT/s PCIe", &g), 0);
	assert_int_equal(pcie_gen(g), 6);
	assert_int_equal(parse_pcie_speed("Unknown", &g), -EINVAL);
	assert_int_equal(parse_pcie_speed("Unknown speed", &g), -EINVAL);
	assert_int_equal(parse_pcie_speed("16.0 GT/s PCIe garbage", &g), -EINVAL);
	/* Gen4 x8 carries about 15.75 GB/s, Gen5 x16 about 63 */
	assert_true(pcie_raw_gbytes(16, 8) > 15.7 && pcie_raw_gbytes(16, 8) < 15.8);
	assert_true(pcie_raw_gbytes(32, 16) > 62.9 && pcie_raw_gbytes(32, 16) < 63.1);
	assert_true(pcie_raw_gbytes(2.5, 16) == 4.0);
	/* Gen6 FLIT: 236 of 256 bytes; an unknown rate carries nothing known */
	assert_true(pcie_raw_gbytes(64, 16) == 118.0);
	assert_true(pcie_raw_gbytes(12, 16) == 0);
}

/* The generation table read the other way: what a profile's pcie_gen
 * means in GT/s, the inverse of pcie_gen for every generation. */
static void pcie_gen_rates(void **state)
{
	(void)state;

	for (int gen = 1; gen <= 7; gen++)
		assert_int_equal(pcie_gen(pcie_gen_gts(gen)), gen);
	assert_true(pcie_gen_gts(1) == 2.5);
	assert_true(pcie_gen_gts(4) == 16);
	assert_true(pcie_gen_gts(6) == 64);
	assert_true(isnan(pcie_gen_gts(0)));
	assert_true(pcie_gen_gts(7) == 128);
	assert_true(pcie_raw_gbytes(128, 16) == 236.0);	/* FLIT, as Gen6 */
	assert_true(isnan(pcie_gen_gts(8)));
	assert_true(isnan(pcie_gen_gts(-1)));
}

static void gids(void **state)
{
	uint8_t g[16];
	char ip[16];
	(void)state;

	assert_int_equal(parse_gid("fe80:0000:0000:0000:0002:c903:00f9:bfa1", g), 0);
	assert_int_equal(g[0], 0xfe);
	assert_int_equal(g[15], 0xa1);
	assert_false(gid_is_unused(g));
	assert_false(gid_ipv4(g, ip));

	assert_int_equal(parse_gid("0000:0000:0000:0000:0000:ffff:c0a8:0a01", g), 0);
	assert_true(gid_ipv4(g, ip));
	assert_string_equal(ip, "192.168.10.1");

	assert_int_equal(parse_gid("fe80:0000:0000:0000:0000:0000:0000:0000", g), 0);
	assert_true(gid_is_unused(g));
	assert_false(gid_is_zero(g));
	assert_int_equal(parse_gid("0000:0000:0000:0000:0000:0000:0000:0000", g), 0);
	assert_true(gid_is_zero(g));

	/* compressed: never from the kernel, tolerated from captures */
	assert_int_equal(parse_gid("::ffff:192.0.2.10", g), 0);
	assert_true(gid_ipv4(g, ip));
	assert_string_equal(ip, "192.0.2.10");

	assert_int_equal(parse_gid("fe80:0000:0000:0000:0002:c903:00f9:bfzz", g), -EINVAL);
	assert_int_equal(parse_gid("", g), -EINVAL);
}

static void numbers(void **state)
{
	uint64_t u, guid;
	int64_t s;
	(void)state;

	assert_int_equal(parse_u64("18446744073709551615\n", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_u64("18446744073709551616", &u), -EINVAL);
	assert_int_equal(parse_u64("N/A (no PMA)", &u), -EINVAL);
	assert_int_equal(parse_u64("-1", &u), -EINVAL);
	assert_int_equal(parse_s64("-1", &s), 0);
	assert_true(s == -1);
	assert_int_equal(parse_s64("12abc", &s), -EINVAL);
	assert_int_equal(parse_hex("0x15b3", &u), 0);
	assert_true(u == 0x15b3);
	assert_int_equal(parse_hex("0x", &u), -EINVAL);
	assert_int_equal(parse_guid("b8ce:f603:006b:5a5e", &guid), 0);
	assert_true(guid == 0xb8cef603006b5a5eull);
	assert_int_equal(parse_guid("b8ce:f603:006b", &guid), -EINVAL);
	assert_true(is_bdf("0000:1b:00.0"));
	assert_false(is_bdf("pci0000:17"));
	assert_false(is_bdf("0000:1b:00.0x"));
	assert_false(is_bdf("mlx5_core.sf.2"));
}

static void limits_and_modules(void **state)
{
	static const char limits[] =
		"Limit                     Soft Limit           Hard Limit           Units     \n"
		"Max cpu time              unlimited            unlimited            seconds   \n"
		"Max locked memory         8388608              8388608              bytes     \n";
	static const char unl[] =
		"Max locked memory         unlimited            unlimited            bytes     \n";
	static const char mods[] =
		"nvidia_peermem 16384 0 - Live 0x0000000000000000 (POE)\n"
		"mlx5_ib 495616 0 - Live 0x0000000000000000 (OE)\n"
		"ib_uverbs 200704 2 nvidia_peermem,mlx5_ib, Loading 0x0000000000000000 (OE)\n";
	const char *st;
	uint64_t b;
	bool unlimited;
	int len;
	(void)state;

	assert_int_equal(parse_limits_memlock(limits, &b, &unlimited), 0);
	assert_false(unlimited);
	assert_true(b == 8388608);
	assert_int_equal(parse_limits_memlock(unl, &b, &unlimited), 0);
	assert_true(unlimited);
	assert_int_equal(parse_limits_memlock("garbage", &b, &unlimited), -EINVAL);

	assert_true(modules_find(mods, "mlx5_ib", &st, &len));
	assert_int_equal(len, 4);
	assert_memory_equal(st, "Live", 4);
	assert_true(modules_find(mods, "ib_uverbs", &st, &len));
	assert_memory_equal(st, "Loading", 7);
	assert_false(modules_find(mods, "mlx5", &st, &len));	/* whole names only */
	assert_false(modules_find("", "mlx5_ib", &st, &len));
}

/* The .errno marker of a refused read: the fixtures' names, a snapshot's
 * decimal for an errno without one, nothing else. */
static void errno_marker(void **state)
{
	int err = 0;
	(void)state;

	assert_int_equal(parse_errno_marker("EINVAL\n", &err), 0);
	assert_int_equal(err, EINVAL);
	assert_int_equal(parse_errno_marker("EOPNOTSUPP", &err), 0);
	assert_int_equal(err, EOPNOTSUPP);
	assert_int_equal(parse_errno_marker("121\n", &err), 0);
	assert_int_equal(err, 121);
	assert_int_equal(parse_errno_marker("EINVALX", &err), -EINVAL);
	assert_int_equal(parse_errno_marker("0", &err), -EINVAL);
	assert_int_equal(parse_errno_marker("-22", &err), -EINVAL);
	assert_int_equal(parse_errno_marker("4096", &err), -EINVAL);
	assert_int_equal(parse_errno_marker("", &err), -EINVAL);
	/* each name reads back as its errno */
	for (int e = 1; e < 200; e++) {
		const char *name = errno_marker_name(e);

		if (!name)
			continue;
		assert_int_equal(parse_errno_marker(name, &err), 0);
		assert_int_equal(err, e);
	}
	assert_null(errno_marker_name(EXDEV));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rate_table),
		cmocka_unit_test(rate_old_and_bad),
		cmocka_unit_test(code_name),
		cmocka_unit_test(pcie_speed),
		cmocka_unit_test(pcie_gen_rates),
		cmocka_unit_test(gids),
		cmocka_unit_test(numbers),
		cmocka_unit_test(limits_and_modules),
		cmocka_unit_test(errno_marker),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
