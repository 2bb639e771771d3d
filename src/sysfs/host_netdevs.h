/* Every network interface of the host (/sys/class/net) and whether it is
 * up: for judging an interface a job names (NCCL_SOCKET_IFNAME), which
 * need not be an RDMA NIC's. */
#ifndef RD_SYSFS_HOST_NETDEVS_H
#define RD_SYSFS_HOST_NETDEVS_H

#include <stddef.h>

#include "root.h"
#include "../model/host_netdev.h"

/* 0 with *out (malloc'd, host_netdevs_free) and *n, 1 when the directory
 * cannot be listed (nothing known), -ENOMEM. */
int host_netdevs_read(struct root *r, struct host_netdev **out, size_t *n);

#endif
