/* ethtool statistics of a netdev over the legacy ioctl (SIOCETHTOOL:
 * ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS, ETHTOOL_GSTATS for ETH_SS_STATS;
 * include/uapi/linux/ethtool.h): what `ethtool -S` prints.
 *
 * ethtool_stats_query asks the kernel and returns the two raw ioctl
 * payloads exactly as the kernel filled them in, so that `snapshot` can keep
 * them; ethtool_stats_parse reads those bytes, live or from a snapshot, and
 * is the only code that interprets them.
 *
 * The raw payloads are the ioctl structs themselves, whose own headers say
 * how many entries follow (this is the header of the snapshot files):
 *   strings: struct ethtool_gstrings {u32 cmd = 0x1b, u32 string_set = 1,
 *            u32 len = count} + count * 32-byte NUL-padded names
 *   stats:   struct ethtool_stats {u32 cmd = 0x1d, u32 n_stats = count}
 *            + count * u64
 * all in host byte order. */
#ifndef RD_NL_ETHTOOL_STATS_H
#define RD_NL_ETHTOOL_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "../model/inventory.h"

/* No netdev has more; a larger count is refused (-E2BIG). */
#define ETHTOOL_STATS_MAX 16384u
/* Bytes of a name in ETHTOOL_GSTRINGS */
#define ETHTOOL_STATS_NAME_LEN 32u
/* The largest payloads (header included) */
#define ETHTOOL_STATS_STRINGS_MAX (12u + ETHTOOL_STATS_MAX * ETHTOOL_STATS_NAME_LEN)
#define ETHTOOL_STATS_STATS_MAX (8u + ETHTOOL_STATS_MAX * 8u)

/* Parse the two payloads.  Both headers must say count (and the right cmd
 * and string set), slen and stlen must be exactly what count takes, every
 * name must end with a NUL within its 32 bytes, be non-empty and printable
 * ASCII.  0 on success: out->v holds count counters (out->v is never NULL
 * on success, even for count 0), in the kernel's order.  -EINVAL for
 * anything malformed, -E2BIG for count > ETHTOOL_STATS_MAX, -ENOMEM;
 * out is left empty on failure.  out must be empty (or zeroed) on entry. */
int ethtool_stats_parse(const void *strings, size_t slen, const void *stats, size_t stlen,
			uint32_t count, struct counter_set *out);

/* The count the strings payload says (its len field), for a snapshot's
 * bytes; -EINVAL when too short to say. */
int64_t ethtool_stats_count_of(const void *strings, size_t slen);

/* Ask the kernel for ifname's ETH_SS_STATS.  0: *strings (*slen bytes) and
 * *stats (*stlen bytes) are malloc'ed payloads for *count entries; the
 * caller frees both.  The count may change between the calls (mlx5
 * recomputes its names): one retry, then -EAGAIN.  -EOPNOTSUPP when the
 * netdev has no statistics (no ethtool ops or no ETH_SS_STATS set), -ENODEV
 * when there is no such netdev, -E2BIG past ETHTOOL_STATS_MAX, another
 * negative errno otherwise.  Nothing is allocated on failure. */
int ethtool_stats_query(const char *ifname, uint8_t **strings, size_t *slen, uint8_t **stats,
			size_t *stlen, uint32_t *count);

#endif
