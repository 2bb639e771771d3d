/* The ETHTOOL_A_FEC_STATS nest of a FEC_GET reply (net/ethtool/fec.c,
 * fec_put_stats): CORRECTED, UNCORR and CORR_BITS, each an array of u64
 * (the total, then one per lane), padded with ETHTOOL_A_FEC_STAT_PAD; and
 * from kernel 6.18 one ETHTOOL_A_FEC_STAT_HIST nest per histogram bin
 * (BIN_LOW, BIN_HIGH u32; BIN_VAL u32 or u64; BIN_VAL_PER_LANE u64s).
 * Attribute numbers from include/uapi/linux/ethtool_netlink_generated.h
 * (6.18); the first three as <linux/ethtool_netlink.h> has them. */
#ifndef RD_NL_FEC_STATS_H
#define RD_NL_FEC_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "../model/fec_stats.h"

/* The nest's payload (p, n) into *s: have 1 and what it carries.  0, or
 * -EINVAL for anything malformed (an array not of whole u64s, more than
 * FEC_LANES_MAX lanes or FEC_HIST_MAX bins, a counter twice, a bin without
 * its range or value, low above high); *s is changed only on success. */
int ethnl_parse_fec_stats(const uint8_t *p, size_t n, struct fec_stats *s);

#endif
