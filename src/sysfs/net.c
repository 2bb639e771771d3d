#include "net.h"
#include "attr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARPHRD_INFINIBAND 32

void net_read_port_netdev(struct root *r, struct port *p)
{
	char *dir;

	p->netdev_mtu = p->netdev_speed_mbps = p->carrier_changes = NA;
	if (!p->netdev || asprintf(&dir, "sys/class/net/%s", p->netdev) < 0)
		return;
	p->netdev_mtu = attr_s64(r, dir, "mtu");
	p->netdev_operstate = attr_str(r, dir, "operstate");
	/* speed fails with EINVAL while the interface is down; -1 is the
	 * kernel's SPEED_UNKNOWN (up, no link): neither is a speed. */
	p->netdev_speed_mbps = attr_s64(r, dir, "speed");
	if (!IS_NA(p->netdev_speed_mbps) && p->netdev_speed_mbps < 0)
		p->netdev_speed_mbps = NA;
	p->carrier_changes = attr_s64(r, dir, "carrier_changes");
	free(dir);
	/* RoCE LAG: the RDMA device follows a bond master (mlx5_bond_N) */
	if (asprintf(&dir, "sys/class/net/%s/bonding", p->netdev) >= 0) {
		p->bond_slaves = attr_str(r, dir, "slaves");
		free(dir);
	}
}

char *net_find_ipoib(struct root *r, const char *pci_dir, int port)
{
	char *netdir, *best = NULL;
	char **names;
	size_t n;

	if (asprintf(&netdir, "%s/net", pci_dir) < 0)
		return NULL;
	if (root_list(r, netdir, &names, &n) < 0) {
		free(netdir);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		char *dir;
		int64_t type, dev_port;

		if (asprintf(&dir, "%s/%s", netdir, names[i]) < 0)
			break;
		type = attr_s64(r, dir, "type");
		dev_port = attr_s64(r, dir, "dev_port");
		free(dir);
		if (type != ARPHRD_INFINIBAND || dev_port != port - 1)
			continue;
		if (!best || (strchr(best, '.') && !strchr(names[i], '.'))) {
			free(best);
			best = strdup(names[i]);
		}
	}
	root_free_list(names, n);
	free(netdir);
	return best;
}
