/* A plain netdev (no RDMA device on it: a veth, a NIC without RoCE) as a
 * port of the inventory, so that the counter readers (counters.h) sample
 * its statistics like any port's: `watch --netdev`, fabric's tcp rails. */
#ifndef RD_SYSFS_NETDEV_PORT_H
#define RD_SYSFS_NETDEV_PORT_H

#include "root.h"
#include "../model/inventory.h"

/* The port of inv whose netdev is name, or a NIC of that name added with
 * one port on it (no RDMA counters; its `ethtool -S` read when the netdev
 * has any).  0 with *out set, 1 when r has no such netdev, -ENOMEM.
 * inv->nics may move: take *out after every call. */
int netdev_port(struct root *r, struct inventory *inv, const char *name, struct port **out);

#endif
