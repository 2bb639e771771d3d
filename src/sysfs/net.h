/* Network interfaces under /sys/class/net (net/core/net-sysfs.c)
 * and how an RDMA port finds its own (section 2.2). */
#ifndef RD_SYSFS_NET_H
#define RD_SYSFS_NET_H

#include "root.h"
#include "../model/inventory.h"

/* Fill the netdev_* fields of a port whose netdev name is already set. */
void net_read_port_netdev(struct root *r, struct port *p);

/* RoCE ECN from MLNX_OFED's ecn/roce_{np,rp}/enable/<prio> (section 4.1):
 * allocates p->qos when the netdev has them, trust and PFC left unknown.
 * 0 or -ENOMEM. */
int net_read_ecn(struct root *r, struct port *p);

/* The netdev of the PCI function for a port: type 32 (IPoIB) or 1 (the
 * Ethernet netdev of a RoCE port) and dev_port = port-1 (ipoib_main.c and
 * mlx5 set both; dev_id on kernels without dev_port); a child ("ib0.8001")
 * only if nothing else.  NULL when none is there. */
char *net_find_port_netdev(struct root *r, const char *pci_dir, int port, bool infiniband);

#endif
