#include "net.h"
#include "attr.h"
#include "parse.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARPHRD_ETHER 1
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

/* The port index (port - 1) of an IPoIB netdev: dev_port, or on kernels
 * from before dev_port (3.15; seen with mlx4 and qib HCAs) dev_id, where
 * IPoIB put it then.  hwloc reads them in the same order.  Only an absent
 * dev_port falls back: where both exist dev_port is the one IPoIB sets. */
static int64_t port_of_netdev(struct root *r, const char *dir)
{
	char *path;
	bool has_dev_port;

	if (asprintf(&path, "%s/dev_port", dir) < 0)
		return NA;
	has_dev_port = root_exists(r, path);
	free(path);
	return has_dev_port ? attr_s64(r, dir, "dev_port") : attr_hex(r, dir, "dev_id");
}

char *net_find_port_netdev(struct root *r, const char *pci_dir, int port, bool infiniband)
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
		dev_port = port_of_netdev(r, dir);
		free(dir);
		if (type != (infiniband ? ARPHRD_INFINIBAND : ARPHRD_ETHER) ||
		    dev_port != port - 1)
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

/* One enable/<prio> file: 1, 0, or -1 when absent, unreadable, malformed or
 * empty (mlx5 writes nothing when the firmware query fails). */
static int read_ecn_enable(struct root *r, const char *dir, int prio)
{
	char name[4], *text;
	int64_t v;
	int out = -1;

	snprintf(name, sizeof(name), "%d", prio);
	text = attr_str(r, dir, name);
	if (!text)
		return -1;
	if (!*text)
		root_note(r, dir, "'%s' is empty: the firmware query failed", name);
	else if (parse_s64(text, &v) < 0 || (v != 0 && v != 1))
		root_note(r, dir, "malformed '%s': \"%.40s\" (expected 0 or 1)", name, text);
	else
		out = (int)v;
	free(text);
	return out;
}

int net_read_ecn(struct root *r, struct port *p)
{
	char np[PATH_MAX], rp[PATH_MAX];
	bool has_np, has_rp;
	struct qos *q;

	if (!p->netdev || !p->link_layer || strcmp(p->link_layer, "Ethernet") != 0)
		return 0;
	snprintf(np, sizeof(np), "sys/class/net/%s/ecn/roce_np/enable", p->netdev);
	snprintf(rp, sizeof(rp), "sys/class/net/%s/ecn/roce_rp/enable", p->netdev);
	has_np = root_is_dir(r, np);
	has_rp = root_is_dir(r, rp);
	if (!has_np && !has_rp)
		return 0;	/* the inbox driver, a VF, a bond master */
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	qos_init(q);	/* trust and PFC: DCB netlink (qos.c), not sysfs */
	for (int prio = 0; prio < 8; prio++) {
		q->ecn_np[prio] = has_np ? read_ecn_enable(r, np, prio) : -1;
		q->ecn_rp[prio] = has_rp ? read_ecn_enable(r, rp, prio) : -1;
	}
	p->qos = q;
	return 0;
}
