/* A network interface of the host (/sys/class/net, any, not only an RDMA
 * NIC's) and whether it is up: read by sysfs/host_netdevs.c, judged
 * where a job names an interface (NCCL_SOCKET_IFNAME, nccl/env_judge.c). */
#ifndef RD_MODEL_HOST_NETDEV_H
#define RD_MODEL_HOST_NETDEV_H

#include <stddef.h>

struct host_netdev {
	char *name;
	int up;		/* operstate "up" (or "unknown" with carrier, as lo): 1; 0 down; -1 unreadable */
};

void host_netdevs_free(struct host_netdev *v, size_t n);

#endif
