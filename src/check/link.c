/* port.fec: an Ethernet link on PAM4 lanes (50 Gb/s and faster per lane:
 * 50GbE-1, 100GbE-2, 200GbE-4, 400GbE-4/8) running
 * without FEC.  IEEE 802.3 specifies RS(544,514) FEC for every such PHY:
 * without it the raw bit errors reach the MAC, and RoCE sees them as drops
 * and retransmissions under load.  Judged only from what FEC_GET and
 * LINKMODES_GET said (port->link); NRZ lanes (25G) may legitimately run
 * without FEC on short copper and are left alone. */
#include "families.h"

#include <linux/ethtool.h>
#include <math.h>
#include <stdio.h>

/* Per-lane rate in Mb/s: the link's lanes, else the RDMA port's; 0 unknown. */
static int64_t lane_mbps(const struct port *pt, const struct link_info *l)
{
	int64_t lanes = !IS_NA(l->lanes) ? l->lanes : pt->lanes;

	if (IS_NA(l->speed_mbps) || IS_NA(lanes) || lanes <= 0)
		return 0;
	return l->speed_mbps / lanes;
}

/* l: the port's netdev's link, or (RoCE LAG) a bond member's on dev */
static int fec_off(const struct check_ctx *c, struct findings *out, size_t i,
		   const struct port *pt, const struct link_info *l, const char *dev)
{
	const struct nic *n = &c->inv->nics[i];
	int64_t per_lane = lane_mbps(pt, l);
	struct finding *f;

	if (l->fec != 1 || l->fec_active != ETHTOOL_LINK_MODE_FEC_NONE_BIT || per_lane < 50000)
		return 0;
	f = check_add(c, out, "port.fec", check_role_sev(c, i),
		      "PAM4 lanes (50 Gb/s and faster) need RS-FEC: without it the raw bit "
		      "errors reach the MAC, and RoCE turns them into drops, retransmissions "
		      "and stalls under load.");
	if (!f)
		return -ENOMEM;
	if (pt->n_slaves)
		finding_set(&f->subject, "%s port %d (%s)", n->name, pt->num, dev);
	else
		finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "FEC off (None) at %lld Mb/s, %lld Gb/s per lane",
		    (long long)l->speed_mbps, (long long)(per_lane / 1000));
	finding_set(&f->expected, "RS");
	finding_set(&f->fix,
		    "`ethtool --set-fec %s encoding auto` (or rs), the same FEC on the switch "
		    "port, then check `ethtool --show-fec %s` says Active FEC encoding: RS",
		    dev, dev);
	return 0;
}

int check_link(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];

			if (!check_port_is_eth(pt) || !port_is_up(pt))
				continue;
			if (pt->link)
				CHECK_TRY(fec_off(c, out, i, pt, pt->link,
					pt->netdev ? pt->netdev : "<netdev>"));
			/* RoCE LAG: each physical function's own link */
			for (size_t m = 0; m < pt->n_slaves; m++)
				if (pt->slaves[m].link)
					CHECK_TRY(fec_off(c, out, i, pt, pt->slaves[m].link,
						pt->slaves[m].netdev));
		}
	return 0;
}
