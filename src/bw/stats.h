/* Figures from samples: interval bandwidth (decimal Gb/s) and latency
 * percentiles.  Pure functions, unit-tested (tests/bw/test_bw_stats.c). */
#ifndef RD_BW_STATS_H
#define RD_BW_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

struct bw_gbps {
	double avg, min, max;	/* NAN when there is nothing to say */
};

struct bw_lat_stats {
	double min, p50, p99, p99_9, max;	/* microseconds */
	size_t samples;
};

/* bytes over seconds in 10^9 bit/s; 0 when seconds is not positive */
double bw_gbps_of(uint64_t bytes, double seconds);
/* Average over the window; minimum and maximum over the intervals. */
struct bw_gbps bw_result_gbps(const struct bw_result *r);
/* Several rails that ran at once: averages add; interval k of the total is
 * the sum of every rail's interval k (over the intervals all rails have). */
struct bw_gbps bw_total_gbps(const struct bw_result *const *r, size_t n);
/* messages per second in millions */
double bw_mpps_of(uint64_t msgs, double seconds);
/* Nearest-rank percentiles (the ceil(p*n)-th smallest, as perftest) of a
 * copy of the samples; 0, or -1 when there are none or no memory. */
int bw_lat_stats(const double *usec, size_t n, struct bw_lat_stats *out);

#endif
