/* A plain netdev as an inventory port (netdev_port.h). */
#include "netdev_port.h"
#include "ethtool.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct port *find(struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t j = 0; j < inv->nics[i].n_ports; j++)
			if (inv->nics[i].ports[j].netdev &&
			    strcmp(inv->nics[i].ports[j].netdev, name) == 0)
				return &inv->nics[i].ports[j];
	return NULL;
}

int netdev_port(struct root *r, struct inventory *inv, const char *name, struct port **out)
{
	char *path;
	struct nic *nics, *n;
	struct port *pt;
	size_t cap = inv->n_nics;
	bool exists;

	if ((*out = find(inv, name)))
		return 0;
	if (asprintf(&path, "sys/class/net/%s", name) < 0)
		return -ENOMEM;
	exists = root_exists(r, path);
	free(path);
	if (!exists)
		return 1;
	nics = growbuf_reserve(inv->nics, &cap, inv->n_nics + 1, sizeof(*nics));
	if (!nics)
		return -ENOMEM;
	inv->nics = nics;
	n = &inv->nics[inv->n_nics];
	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->ports = calloc(1, sizeof(*n->ports));
	inv->n_nics++;
	if (!n->name || !n->ports)
		return -ENOMEM;
	n->n_ports = 1;
	pt = &n->ports[0];
	pt->num = 1;
	pt->state = pt->phys_state = pt->lanes = NA;
	pt->lid = pt->sm_lid = NA;
	pt->active_mtu = pt->max_mtu = NA;
	pt->netdev_mtu = pt->netdev_speed_mbps = NA;
	pt->carrier_changes = NA;
	pt->rate_gbps = NAN;
	pt->netdev = strdup(name);
	if (!pt->netdev || ethtool_read_port_stats(r, pt) < 0)
		return -ENOMEM;
	*out = pt;
	return 0;
}
