/* Figures from samples: decimal Gb/s, interval min/max, rails added, and
 * nearest-rank latency percentiles (perftest's ceil(p*n)-th sample). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "bw/stats.h"

static void gbps_is_decimal(void **state)
{
	(void)state;
	/* 12.5e9 bytes in 1 s is 100 Gb/s, not 93.13 (binary) */
	assert_true(fabs(bw_gbps_of(12500000000ull, 1.0) - 100.0) < 1e-9);
	assert_true(fabs(bw_gbps_of(125000000ull, 0.5) - 2.0) < 1e-9);
	assert_true(bw_gbps_of(1000, 0) == 0);
	/* a peer's tiny time and huge count: no infinity */
	assert_true(bw_gbps_of(UINT64_MAX, 1e-310) == 0);
	assert_true(bw_mpps_of(UINT64_MAX, 1e-310) == 0);
	assert_true(fabs(bw_mpps_of(3000000, 2.0) - 1.5) < 1e-12);
}

static void interval_min_max(void **state)
{
	struct bw_interval iv[3] = {
		{ 1.0, 12500000000ull, 1 },	/* 100 */
		{ 1.0, 2500000000ull, 1 },	/* 20: the stall */
		{ 0.5, 6250000000ull, 1 },	/* 100 */
	};
	struct bw_result r = { .seconds = 2.5, .bytes = 21250000000ull, .intervals = iv,
			       .n_intervals = 3 };
	struct bw_gbps g = bw_result_gbps(&r);

	(void)state;
	assert_true(fabs(g.avg - 68.0) < 1e-9);
	assert_true(fabs(g.min - 20.0) < 1e-9);
	assert_true(fabs(g.max - 100.0) < 1e-9);
	/* no intervals: the window is the only sample */
	r.n_intervals = 0;
	g = bw_result_gbps(&r);
	assert_true(g.min == g.avg && g.max == g.avg);
}

static void rails_add_up(void **state)
{
	struct bw_interval a[2] = { { 1, 1250000000ull, 0 }, { 1, 2500000000ull, 0 } };
	struct bw_interval b[3] = { { 1, 2500000000ull, 0 }, { 1, 0, 0 }, { 1, 9, 0 } };
	struct bw_result ra = {
		.seconds = 2, .bytes = 3750000000ull, .intervals = a, .n_intervals = 2};
	struct bw_result rb = {
		.seconds = 2, .bytes = 2500000000ull, .intervals = b, .n_intervals = 3};
	const struct bw_result *both[2] = { &ra, &rb };
	struct bw_gbps g = bw_total_gbps(both, 2);

	(void)state;
	assert_true(fabs(g.avg - 25.0) < 1e-9);	/* 15 + 10 */
	assert_true(fabs(g.min - 20.0) < 1e-9);	/* interval 1: 20 + 0 */
	assert_true(fabs(g.max - 30.0) < 1e-9);	/* interval 0: 10 + 20 */
	assert_true(isnan(bw_total_gbps(both, 0).avg));
}

static void percentiles_nearest_rank(void **state)
{
	double s[1000];
	struct bw_lat_stats st;

	(void)state;
	/* 1000..1 shuffled by the reversal: the function must sort a copy */
	for (int i = 0; i < 1000; i++)
		s[i] = 1000 - i;
	assert_int_equal(bw_lat_stats(s, 1000, &st), 0);
	assert_true(st.min == 1);
	assert_true(st.p50 == 500);	/* ceil(0.5*1000) = 500th */
	assert_true(st.p99 == 990);
	assert_true(st.p99_9 == 999);
	assert_true(st.max == 1000);
	assert_int_equal(st.samples, 1000);
	assert_true(s[0] == 1000);	/* the caller's samples untouched */
	/* one sample: all the same */
	assert_int_equal(bw_lat_stats(s, 1, &st), 0);
	assert_true(st.min == 1000 && st.p50 == 1000 && st.p99_9 == 1000);
	/* three: p50 is the 2nd, p99 the 3rd */
	{
		double t[3] = { 3.0, 1.0, 2.0 };

		assert_int_equal(bw_lat_stats(t, 3, &st), 0);
		assert_true(st.p50 == 2.0 && st.p99 == 3.0 && st.min == 1.0);
	}
	assert_int_equal(bw_lat_stats(s, 0, &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gbps_is_decimal),
		cmocka_unit_test(interval_min_max),
		cmocka_unit_test(rails_add_up),
		cmocka_unit_test(percentiles_nearest_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
