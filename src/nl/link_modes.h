/* Link modes and FEC over ethtool netlink (Documentation/networking/ethtool-netlink.rst):
 * LINKMODES_GET (speed, duplex, autoneg, lanes, the supported, advertised
 * and link-partner modes: what `ethtool IF` prints) and FEC_GET (the
 * configured and active FEC: `ethtool --show-fec IF`).
 *
 * The request is built here and sent on module_eeprom.h's socket; the
 * replies are parsed here only, live or from a snapshot (the reply bytes
 * exactly as the kernel sent them, an NLMSG_ERROR included). */
#ifndef RD_NL_LINK_MODES_H
#define RD_NL_LINK_MODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../model/inventory.h"

/* The largest reply kept: compact bitsets take well under 1 KiB, a FEC
 * reply with statistics and a full histogram (64 bins of 8 lanes) about
 * 7 KiB. */
#define ETHNL_REPLY_MAX 16384u
/* No kernel has nearly as many link modes; a larger bitset is refused. */
#define ETHNL_BITSET_MAX 4096u

/* Build a GET request of cmd (ETHTOOL_MSG_LINKMODES_GET, _FEC_GET, ...)
 * for ifname with header flags (ETHTOOL_FLAG_COMPACT_BITSETS ...).
 * Its length, -EINVAL (bad name) or -ENOSPC. */
int ethnl_build_get(void *buf, size_t cap, uint16_t family, uint8_t cmd, const char *ifname,
		    uint32_t flags, uint32_t seq);

/* One bitset attribute's payload (ETHTOOL_A_BITSET_*), compact (SIZE,
 * VALUE, MASK) or verbose (BITS of BIT {INDEX, NAME, VALUE}): the first
 * `words` 32-bit words of its value and mask (mask NULL: not wanted;
 * *nomask set for a value-only list).  Bits past words*32 are dropped.
 * 0, or -EINVAL for anything malformed (a size past ETHNL_BITSET_MAX, an
 * array shorter than the size, a bit index past the size). */
int ethnl_parse_bitset(const uint8_t *p, size_t n, uint32_t *value, uint32_t *mask,
		       size_t words, bool *nomask);

/* A LINKMODES_GET reply of family (0: any, a snapshot's) into l: sets
 * linkmodes 1 and what the reply carries.  0; the kernel's error for an
 * NLMSG_ERROR reply (-EOPNOTSUPP: the driver has no link settings); or
 * -EINVAL for anything malformed.  l is changed only on success. */
int ethnl_parse_linkmodes(const void *msg, size_t len, uint16_t family, struct link_info *l);

/* A FEC_GET reply the same way: sets fec 1, fec_configured, fec_auto,
 * fec_active, and fec_stats (fec_stats.h; have 0 when the reply carries
 * no statistics nest). */
int ethnl_parse_fec(const void *msg, size_t len, uint16_t family, struct link_info *l);

#endif
