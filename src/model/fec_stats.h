/* FEC statistics of an Ethernet link, as the kernel reports them in the
 * ETHTOOL_A_FEC_STATS nest of a FEC_GET reply asked with
 * ETHTOOL_FLAG_STATS (net/ethtool/fec.c; `ethtool -I --show-fec IF`), and
 * what they say over a window: the pre-FEC bit error ratio and the
 * uncorrectable blocks (check's link.ber). */
#ifndef RD_MODEL_FEC_STATS_H
#define RD_MODEL_FEC_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ETHTOOL_MAX_LANES and ETHTOOL_FEC_HIST_MAX of the kernel: a reply with
 * more is refused, never cut. */
#define FEC_LANES_MAX 8u
#define FEC_HIST_MAX 64u

/* One counter: v[0] the total, v[1..n-1] one per lane (the kernel sums the
 * lanes into the total when the driver gave lanes only).  n 0: the driver
 * did not report it. */
struct fec_count {
	size_t n;
	uint64_t v[1 + FEC_LANES_MAX];
};

/* One bin of the histogram of corrected symbols per codeword (IEEE
 * 802.3ck/df; kernel 6.18): the codewords that had low..high symbol errors
 * corrected, in all and (n_lanes > 0) per lane. */
struct fec_hist_bin {
	uint32_t low, high;
	uint64_t val;
	size_t n_lanes;
	uint64_t lane[FEC_LANES_MAX];
};

enum fec_counter { FEC_CORRECTED, FEC_UNCORR, FEC_CORR_BITS, FEC_COUNTERS };

struct fec_stats {
	/* 1 the reply carried the statistics nest; 0 the reply came without
	 * it (asked without the flag: a snapshot of an older rdmadoctor);
	 * -1 no reply */
	int have;
	/* corrected blocks (codewords), uncorrectable blocks, corrected bits */
	struct fec_count c[FEC_COUNTERS];
	size_t n_hist;
	struct fec_hist_bin hist[FEC_HIST_MAX];
};

/* Nothing known (have -1, every count absent). */
void fec_stats_init(struct fec_stats *s);
/* Any counter or bin reported: a driver without get_fec_stats answers
 * with an empty nest. */
bool fec_stats_any(const struct fec_stats *s);
/* "corrected_blocks", "uncorrectable_blocks", "corrected_bits": the JSON
 * keys and metric names. */
const char *fec_counter_name(enum fec_counter k);

#endif
