/* mtu.ib: an InfiniBand port's active MTU below 4096 (or the profile's).
 * mtu.roce: a RoCE port's netdev MTU too small for a 4096-byte RDMA MTU. */
#include "families.h"

/* iboe_get_mtu subtracts 96 bytes of headers (iboe_get_mtu, include/rdma/ib_addr.h): 4192
 * is the least that gives 4096; 4200 leaves room. */
#define ROCE_NETDEV_MIN 4200

static int ib(const struct check_ctx *c, struct findings *out, size_t i, const struct port *pt,
	      int want)
{
	struct finding *f = check_add(c, out, "mtu.ib", SEV_WARN,
				      "Every RDMA message is cut into MTU-sized packets: a smaller "
				      "MTU means more packets and headers per byte, and large "
				      "gradient transfers lose bandwidth.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", c->inv->nics[i].name, pt->num);
	finding_set(&f->observed, "active MTU %lld", (long long)pt->active_mtu);
	finding_set(&f->expected, "%d", want);
	finding_set(&f->fix,
		    "the subnet manager sets it: give the partition a 4K MTU (opensm "
		    "partitions.conf `Default=0x7fff, ipoib, mtu=5 : ALL=full;`, or on a "
		    "managed switch `ib partition Default mtu 4K force`), restart the SM and "
		    "check with `ibv_devinfo -d %s`",
		    c->inv->nics[i].name);
	return 0;
}

static int roce(const struct check_ctx *c, struct findings *out, size_t i, const struct port *pt,
		int want)
{
	struct finding *f = check_add(c, out, "mtu.roce", SEV_WARN,
				      "The RoCE MTU is the netdev MTU minus about 100 bytes of "
				      "headers: with a 1500-byte netdev MTU RDMA runs 1024-byte "
				      "packets and loses about 5 % of its bandwidth.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", c->inv->nics[i].name, pt->num);
	if (!IS_NA(pt->active_mtu))
		finding_set(&f->observed, "netdev MTU %lld (RDMA MTU %lld)",
			    (long long)pt->netdev_mtu, (long long)pt->active_mtu);
	else
		finding_set(&f->observed, "netdev MTU %lld", (long long)pt->netdev_mtu);
	if (want > ROCE_NETDEV_MIN)
		finding_set(&f->expected, "netdev MTU %d or more", want);
	else
		finding_set(&f->expected, "netdev MTU %d or more (9000 usual) for RDMA MTU 4096",
			    want);
	finding_set(&f->fix,
		    "`ip link set dev %s mtu 9000` and the same in its network configuration "
		    "(netplan, NetworkManager, ifcfg); the switch ports must carry it too "
		    "(9216)",
		    pt->netdev ? pt->netdev : "<netdev>");
	return 0;
}

int check_mtu(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct role_spec *rs = check_role_spec(c, i);

		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			int want;

			/* a port that is down has port.down; its MTU waits */
			if (!port_is_up(pt))
				continue;
			if (check_port_is_ib(pt) && !IS_NA(pt->active_mtu)) {
				/* 4096 is InfiniBand's largest MTU: a profile
				 * value above it speaks of RoCE netdevs */
				want = 4096;
				if (pt->active_mtu < want)
					CHECK_TRY(ib(c, out, i, pt, want));
			} else if (check_port_is_eth(pt) && !IS_NA(pt->netdev_mtu)) {
				want = rs->mtu > ROCE_NETDEV_MIN ? rs->mtu : ROCE_NETDEV_MIN;
				if (pt->netdev_mtu < want)
					CHECK_TRY(roce(c, out, i, pt, want));
			}
		}
	}
	return 0;
}
