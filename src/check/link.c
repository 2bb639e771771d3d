/* port.fec: an Ethernet link on PAM4 lanes (50 Gb/s and faster per lane:
 * 50GbE-1, 100GbE-2, 200GbE-4, 400GbE-4/8, reference/machines.md 3c) running
 * without FEC.  IEEE 802.3 specifies RS(544,514) FEC for every such PHY:
 * without it the raw bit errors reach the MAC, and RoCE sees them as drops
 * and retransmissions under load.  Judged only from what FEC_GET and
 * LINKMODES_GET said (port->link); NRZ lanes (25G) may legitimately run
 * without FEC on short copper and are left alone. */
#include "families.h"
#include "../nl/link_modes.h"

#include <linux/ethtool.h>
#include <math.h>
#include <stdio.h>

/* Per-lane rate in Mb/s: the link's lanes, else the RDMA port's; 0 unknown. */
static int64_t lane_mbps(const struct port *pt)
{
	int64_t lanes = !IS_NA(pt->link->lanes) ? pt->link->lanes : pt->lanes;

	if (IS_NA(pt->link->speed_mbps) || IS_NA(lanes) || lanes <= 0)
		return 0;
	return pt->link->speed_mbps / lanes;
}

static void fec_off(const struct check_ctx *c, struct findings *out, size_t i,
		    const struct port *pt, int64_t per_lane)
{
	const struct nic *n = &c->inv->nics[i];
	const char *dev = pt->netdev ? pt->netdev : "<netdev>";
	struct finding *f;

	f = check_add(c, out, "port.fec", check_role_sev(c, i),
		      "PAM4 lanes (50 Gb/s and faster) need RS-FEC: without it the raw bit "
		      "errors reach the MAC, and RoCE turns them into drops, retransmissions "
		      "and stalls under load.");
	if (!f)
		return;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "FEC off (None) at %lld Mb/s, %lld Gb/s per lane",
		    (long long)pt->link->speed_mbps, (long long)(per_lane / 1000));
	finding_set(&f->expected, "RS");
	finding_set(&f->fix,
		    "`ethtool --set-fec %s encoding auto` (or rs), the same FEC on the switch "
		    "port, then check `ethtool --show-fec %s` says Active FEC encoding: RS",
		    dev, dev);
}

void check_link(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];
			int64_t per_lane;

			if (!pt->link || pt->link->fec != 1 || !check_port_is_eth(pt) ||
			    !check_port_up(pt) ||
			    pt->link->fec_active != ETHTOOL_LINK_MODE_FEC_NONE_BIT)
				continue;
			per_lane = lane_mbps(pt);
			if (per_lane >= 50000)
				fec_off(c, out, i, pt, per_lane);
		}
}
