/* roce.ecn: ECN (DCQCN notification or reaction point) off on the RoCE
 * priority of a rail port. */
#include "families.h"

static const char *on_off(int v)
{
	return v == 1 ? "on" : v == 0 ? "off" : "unknown";
}

int check_roce(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct role_spec *rs = check_role_spec(c, i);
		int prio = rs->pfc_priority >= 0 && rs->pfc_priority <= 7 ? rs->pfc_priority : 3;

		if (!check_is_rail(c, i) || rs->ecn == 0)
			continue;
		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			const struct qos *q = pt->qos;
			const char *dev = pt->netdev ? pt->netdev : "<netdev>";
			struct finding *f;

			if (!check_port_is_eth(pt) || !q || (q->ecn_np[prio] != 0 && q->ecn_rp[prio] != 0))
				continue;
			f = check_add(c, out, "roce.ecn", SEV_WARN,
				      "Without ECN (DCQCN) a RoCE fabric has only PFC pauses against "
				      "congestion: fine when idle, bandwidth collapses or jobs stall "
				      "under training load.");
			if (!f)
				return -ENOMEM;
			finding_set(&f->subject, "%s port %d", n->name, pt->num);
			finding_set(&f->observed,
				    "ECN on priority %d: notification point %s, reaction point %s", prio,
				    on_off(q->ecn_np[prio]), on_off(q->ecn_rp[prio]));
			finding_set(&f->expected, "notification and reaction point on for priority %d",
				    prio);
			finding_set(&f->fix,
				    "`echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%d` and `echo 1 > "
				    "/sys/class/net/%s/ecn/roce_rp/enable/%d` (and at every boot); the "
				    "switch must mark ECN on the same priority",
				    dev, prio, dev, prio);
		}
	}
	return 0;
}
