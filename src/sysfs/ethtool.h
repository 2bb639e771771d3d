/* ethtool statistics (`ethtool -S`) of a port's netdev, live over
 * SIOCETHTOOL (src/nl/ethtool_stats.c) or from a snapshot. */
#ifndef RD_SYSFS_ETHTOOL_H
#define RD_SYSFS_ETHTOOL_H

#include "root.h"
#include "../model/inventory.h"

/* The raw payloads are fetched (fetch.h) as .rdmadoctor/ethtool/<netdev>/
 * strings (the struct ethtool_gstrings answer) and .../stats (the struct
 * ethtool_stats answer); their own headers carry the count. */
#define ETHTOOL_FETCH_KIND "ethtool"

/* ifname's statistics into out (which must be empty), both payloads
 * through root_fetch.  0 with out->v set, 1 when not available
 * (no statistics on that netdev, no snapshot files, unusable bytes: out
 * stays empty, a note says why), -ENOMEM. */
int ethtool_read_stats(struct root *r, const char *ifname, struct counter_set *out);

/* For a port with a netdev (RoCE, IPoIB): fills p->eth_stats.  0 or
 * -ENOMEM. */
int ethtool_read_port_stats(struct root *r, struct port *p);

#endif
