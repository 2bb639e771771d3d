#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A peer's RESULT may pair a tiny time with a huge count: a rate that
 * overflows is no figure (and JSON cannot carry infinity). */
static double rate(double amount, double seconds)
{
	double v;

	if (!(seconds > 0))
		return 0;
	v = amount / seconds;
	return isfinite(v) ? v : 0;
}

double bw_gbps_of(uint64_t bytes, double seconds)
{
	return rate((double)bytes * 8.0 / 1e9, seconds);
}

double bw_mpps_of(uint64_t msgs, double seconds)
{
	return rate((double)msgs / 1e6, seconds);
}

struct bw_gbps bw_result_gbps(const struct bw_result *r)
{
	struct bw_gbps g = { bw_gbps_of(r->bytes, r->seconds), NAN, NAN };

	for (size_t i = 0; i < r->n_intervals; i++) {
		double v = bw_gbps_of(r->intervals[i].bytes, r->intervals[i].seconds);

		if (!(r->intervals[i].seconds > 0))
			continue;
		if (isnan(g.min) || v < g.min)
			g.min = v;
		if (isnan(g.max) || v > g.max)
			g.max = v;
	}
	if (isnan(g.min))	/* no interval: the window is the only sample */
		g.min = g.max = g.avg;
	return g;
}

struct bw_gbps bw_total_gbps(const struct bw_result *const *r, size_t n)
{
	struct bw_gbps g = { 0, NAN, NAN };
	size_t common = SIZE_MAX;

	if (n == 0)
		return (struct bw_gbps){ NAN, NAN, NAN };
	for (size_t i = 0; i < n; i++) {
		g.avg += bw_gbps_of(r[i]->bytes, r[i]->seconds);
		if (r[i]->n_intervals < common)
			common = r[i]->n_intervals;
	}
	for (size_t k = 0; k < common; k++) {
		double sum = 0;

		for (size_t i = 0; i < n; i++)
			sum += bw_gbps_of(r[i]->intervals[k].bytes, r[i]->intervals[k].seconds);
		if (isnan(g.min) || sum < g.min)
			g.min = sum;
		if (isnan(g.max) || sum > g.max)
			g.max = sum;
	}
	if (isnan(g.min))
		g.min = g.max = g.avg;
	return g;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the ceil(q*n)-th smallest, 1-based; at least the first */
static double rank(const double *s, size_t n, double q)
{
	double k = ceil(q * (double)n);
	size_t i = k < 1 ? 0 : (size_t)k - 1;

	return s[i >= n ? n - 1 : i];
}

int bw_lat_stats(const double *usec, size_t n, struct bw_lat_stats *out)
{
	double *s;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, usec, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	out->min = s[0];
	out->p50 = rank(s, n, 0.50);
	out->p99 = rank(s, n, 0.99);
	out->p99_9 = rank(s, n, 0.999);
	out->max = s[n - 1];
	out->samples = n;
	free(s);
	return 0;
}
