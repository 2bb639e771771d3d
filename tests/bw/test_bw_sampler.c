/* The sampler every transport ticks: the warm-up stays out of the figures,
 * intervals are cut on time, the window ends on time, and iterations mode
 * closes where the loop says.  Real clock, short windows, loose bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <cmocka.h>

#include "bw/params.h"

static void nap_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void warmup_excluded_intervals_cut(void **state)
{
	struct bw_params p;
	struct bw_result r;
	struct bw_sampler s;
	uint64_t bytes = 0, at_window = UINT64_MAX;
	int ticks = 0;

	(void)state;
	bw_params_defaults(&p, BW_MODE_BW);
	p.warmup_ms = 100;
	p.duration_ms = 400;
	p.interval_ms = 100;
	memset(&r, 0, sizeof(r));
	bw_sampler_start(&s, &p, &r);
	/* 1000 bytes per ms-ish tick; bounded loop */
	while (ticks < 100000) {
		bytes += 1000;
		if (!bw_sampler_tick(&s, bytes, bytes / 100))
			break;
		if (s.phase == 1 && at_window == UINT64_MAX)
			at_window = bytes;
		ticks++;
		nap_ms(1);
	}
	assert_int_equal(s.phase, 2);
	/* the window is at least 400 ms (a loaded machine may oversleep: no
	 * upper bound that could flake) and holds only what came after warm-up */
	assert_true(r.seconds >= 0.4 && r.seconds < 30);
	assert_true(r.bytes < bytes);
	assert_true(r.bytes <= bytes - at_window + 1000);
	assert_int_equal(r.msgs, r.bytes / 100);
	/* intervals of at least 100 ms but the tail (a tail under 10 ms is
	 * dropped), four when the clock is kind, adding up */
	assert_true(r.n_intervals >= 1 && r.n_intervals <= 5);
	{
		uint64_t sum = 0;
		double secs = 0;

		for (size_t i = 0; i < r.n_intervals; i++) {
			sum += r.intervals[i].bytes;
			secs += r.intervals[i].seconds;
			assert_true(r.intervals[i].seconds >=
				    (i + 1 < r.n_intervals ? 0.1 : 0.01) - 1e-9);
		}
		assert_true(sum <= r.bytes);
		assert_true(secs <= r.seconds + 1e-9);
	}
	assert_true(__atomic_load_n(&r.live_bytes, __ATOMIC_RELAXED) == bytes);
	assert_true(r.cpu_user_s >= 0 && r.cpu_sys_s >= 0);
	/* after the end, ticks say stop */
	assert_false(bw_sampler_tick(&s, bytes + 1, 0));
	bw_result_free(&r);
}

static void iterations_mode_closes_at_finish(void **state)
{
	struct bw_params p;
	struct bw_result r;
	struct bw_sampler s;

	(void)state;
	bw_params_defaults(&p, BW_MODE_BW);
	p.warmup_ms = 0;
	p.duration_ms = 0;
	p.iters = 10;
	memset(&r, 0, sizeof(r));
	bw_sampler_start(&s, &p, &r);
	for (int i = 1; i <= 10; i++) {
		assert_true(bw_sampler_tick(&s, (uint64_t)i * 65536, (uint64_t)i));
		nap_ms(2);
	}
	bw_sampler_finish(&s, 10 * 65536, 10);
	assert_int_equal(r.bytes, 10 * 65536);
	assert_int_equal(r.msgs, 10);
	assert_true(r.seconds > 0.015);
	assert_int_equal(r.n_intervals, 1);	/* shorter than one interval: one sample */
	bw_result_free(&r);
}

/* An iterations run that ends inside the warm-up is measured from t0,
 * CPU time included (it was taken at the end, so it read about 0). */
static void ends_in_warmup_cpu_from_t0(void **state)
{
	struct bw_params p;
	struct bw_result r;
	struct bw_sampler s;
	double t_end, cpu0;
	volatile double x = 0;

	(void)state;
	bw_params_defaults(&p, BW_MODE_BW);
	p.warmup_ms = 10000;
	p.duration_ms = 0;
	p.iters = 10;
	memset(&r, 0, sizeof(r));
	{
		struct timespec ts;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		cpu0 = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	}
	bw_sampler_start(&s, &p, &r);
	/* burn 0.2 s of this thread's CPU inside the warm-up (bounded in time:
	 * the machine may be busy) */
	t_end = bw_now() + 20;
	for (;;) {
		struct timespec ts;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		if ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 - cpu0 >= 0.2 || bw_now() > t_end)
			break;
		x += 1;
	}
	assert_true(x >= 0);	/* the burnt loop ran (and clang sees x read) */
	assert_true(bw_sampler_tick(&s, 65536, 1));
	bw_sampler_finish(&s, 65536, 1);
	assert_int_equal(r.bytes, 65536);
	assert_true(r.seconds >= 0.19);	/* at least the CPU time burnt */
	assert_true(r.cpu_user_s + r.cpu_sys_s > 0.1);
	bw_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warmup_excluded_intervals_cut),
		cmocka_unit_test(iterations_mode_closes_at_finish),
		cmocka_unit_test(ends_in_warmup_cpu_from_t0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
