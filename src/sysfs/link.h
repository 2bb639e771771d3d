/* Link modes and FEC of a port's netdev over ethtool netlink
 * (src/nl/link_modes.c), live or replayed from a snapshot. */
#ifndef RD_SYSFS_LINK_H
#define RD_SYSFS_LINK_H

#include "root.h"
#include "../model/inventory.h"

/* The replies are fetched (fetch.h) byte for byte as the kernel sent them
 * (an NLMSG_ERROR reply too): .rdmadoctor/ethtool-nl/<netdev>/linkmodes
 * (LINKMODES_GET) and .../fec (FEC_GET), compact bitsets or verbose. */
#define LINK_FETCH_KIND "ethtool-nl"

/* ifname's link modes and FEC into *out (allocated; NULL when neither was
 * answered nor captured: a note says why).  0 or -ENOMEM. */
int link_read(struct root *r, const char *ifname, struct link_info **out);

/* For an Ethernet port with a netdev: fills p->link.  0 or -ENOMEM. */
int link_read_port(struct root *r, struct port *p);

/* The FEC statistics of p's netdev again, where the first read had them
 * (watch, check --window: the end of a window), live or from a later
 * snapshot; a reply that is gone leaves them unknown (have -1).  0 or
 * -ENOMEM. */
int link_sample_fec(struct root *r, struct port *p);

#endif
