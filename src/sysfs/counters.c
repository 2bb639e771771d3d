#include "counters.h"
#include "attr.h"
#include "ib.h"
#include "ethtool.h"
#include "lag.h"
#include "link.h"
#include "qos.h"
#include "../model/window.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static int sample_port(struct root *r, const struct nic *n, struct port *pt)
{
	char *dir;
	int rc;

	counter_set_clear(&pt->counters);
	counter_set_clear(&pt->hw_counters);
	if (asprintf(&dir, "sys/class/infiniband/%s/ports/%d", n->name, pt->num) < 0)
		return -ENOMEM;
	rc = ib_read_port_counters(r, dir, pt);
	free(dir);
	if (rc < 0)
		return rc;
	pt->carrier_changes = NA;
	counter_set_clear(&pt->net_stats);
	if (!pt->netdev)
		return 0;
	if (asprintf(&dir, "sys/class/net/%s", pt->netdev) < 0)
		return -ENOMEM;
	pt->carrier_changes = attr_s64(r, dir, "carrier_changes");
	free(dir);
	if (asprintf(&dir, "sys/class/net/%s/statistics", pt->netdev) < 0)
		return -ENOMEM;
	rc = ib_read_counter_dir(r, dir, &pt->net_stats);
	free(dir);
	if (rc < 0)
		return rc;
	/* ethtool statistics and DCB pause counters again where the first
	 * read had them (a netdev without them is noted once, not every
	 * interval) */
	if (pt->eth_stats.v) {
		counter_set_clear(&pt->eth_stats);
		rc = ethtool_read_stats(r, pt->netdev, &pt->eth_stats);
		if (rc < 0)
			return rc;
	}
	rc = link_sample_fec(r, pt);
	if (rc < 0)
		return rc;
	if (pt->n_slaves)
		return lag_sample_pause(r, pt);
	if (pt->qos && pt->qos->dcb_supported == 1) {
		for (int p = 0; p < 8; p++)
			pt->qos->pause_tx[p] = pt->qos->pause_rx[p] = NA;
		rc = qos_read_dcb(r, pt);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int counters_sample(struct root *r, struct inventory *inv)
{
	int rc = root_forget_files(r);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		if (!n->name)
			continue;
		for (size_t k = 0; k < n->n_ports; k++) {
			rc = sample_port(r, n, &inv->nics[i].ports[k]);
			if (rc < 0)
				return rc;
		}
	}
	/* a counter refused with EINVAL only now: not asked again this boot */
	root_memo_save(r);
	return 0;
}
