/* What the profile expects but could not be read: an info under the id of
 * the check that could not run, naming the value and why, marked
 * unchecked (counted as "unchecked", an info that leaves the verdict
 * alone; port.c's rail whose state is unknown is the one warning).  Silence
 * would read as "fine"; an error would blame the machine for what the
 * tool could not see.
 *
 * Here: the RoCE QoS of every RoCE rail when DCB netlink gave no answer
 * (qos.c says it for a netdev that has no DCB at all), ECN without its
 * sysfs files, port rates whose rate string is unknown, and a NIC's PCIe
 * link that could not be read (Gen? x?).  The memlock limit (sys.c), ACS
 * without root (pcie.c), per-GPU bandwidth (bandwidth.c) and placement with an
 * unknown NUMA node (topo.c) say it where they are judged. */
#include "families.h"

#include <math.h>

static struct finding *add(const struct check_ctx *c, struct findings *out, const char *id,
			   const char *why)
{
	struct finding *f = check_add(c, out, id, SEV_INFO, why);

	if (f)
		f->unchecked = true;
	return f;
}

static int qos_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			const struct port *pt, const struct role_spec *rs)
{
	const struct nic *n = &c->inv->nics[i];
	const char *dev = pt->netdev ? pt->netdev : "its netdev";
	struct check_buf want = { 0 };
	struct finding *f;

	if (pt->qos && pt->qos->dcb_supported == 0)
		return 0;		/* no DCB on the netdev: roce.pfc says so */
	if (rs->pfc_priority >= 0)
		check_buf_printf(&want, "PFC on priority %d", rs->pfc_priority);
	else
		check_buf_printf(&want, "PFC on the RoCE priority");
	if (rs->trust)
		check_buf_printf(&want, ", trust %s", rs->trust);
	else
		check_buf_printf(&want, ", trust and DSCP map as the other rails");
	f = add(c, out, "roce.pfc",
		"RoCE needs PFC on its priority and the trust mode its packets are marked by; "
		"what could not be read was not checked, not found right.");
	if (!f) {
		check_buf_free(&want);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: DCB netlink gave no answer for %s (the driver "
		    "does not answer it, or this snapshot holds no reply)", dev);
	check_buf_take(&want, &f->expected);
	finding_set(&f->fix, "read it by hand: `mlnx_qos -i %s` (or `dcb pfc show dev %s` and "
		    "`dcb app show dev %s`)", dev, dev, dev);
	return 0;
}

static int ecn_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			const struct port *pt, int prio)
{
	const struct nic *n = &c->inv->nics[i];
	const char *dev = pt->netdev ? pt->netdev : "<netdev>";
	struct finding *f = add(c, out, "roce.ecn",
				"Without ECN a RoCE fabric has only PFC pauses against congestion; "
				"what could not be read was not checked, not found right.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: no /sys/class/net/%s/ecn/ (MLNX_OFED writes "
		    "it; the inbox driver has no such files)", dev);
	finding_set(&f->expected, "ECN notification and reaction point on for priority %d", prio);
	/* mlxconfig takes the card's PCI address: known here, so no <dev> */
	finding_set(&f->fix, "read it with `mlnx_qos -i %s` or the NIC's firmware settings "
		    "(`mlxconfig -d %s q | grep -i ecn`)", dev,
		    n->pci.bdf ? n->pci.bdf : "<pci-address>");
	return 0;
}

static int rate_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			const struct port *pt, double want)
{
	const struct nic *n = &c->inv->nics[i];
	char s[32];
	struct finding *f = add(c, out, "port.rate_low",
				"A port below its rate caps every transfer through it; a rate that "
				"could not be read was not checked, not found right.");

	if (!f)
		return -ENOMEM;
	check_num_str(s, sizeof(s), want);
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: the port's rate file names no rate this tool "
		    "knows");
	finding_set(&f->expected, "%s Gb/s", s);
	finding_set(&f->fix, "`cat /sys/class/infiniband/%s/ports/%d/rate`, `ibstatus %s` and "
		    "`mlxlink -d %s` show what the port agreed on", n->name, pt->num, n->name,
		    n->name);
	return 0;
}

/* Gen? x?: the NIC's negotiated PCIe link could not be read, so neither
 * pcie.link_degraded nor pcie.bottleneck could judge it.  Once per card:
 * the functions of one device share one link. */
static int pcie_unknown(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	const struct pci_link *l = &n->pci.link;
	struct finding *f;

	if (!n->has_pci || check_nic_is_software(n) || (!isnan(l->speed_gts) && !IS_NA(l->width)))
		return 0;
	for (size_t j = 0; j < i; j++)
		if (c->inv->nics[j].has_pci &&
		    check_same_pci_device(c->inv->nics[j].pci.bdf, n->pci.bdf))
			return 0;
	f = add(c, out, "pcie.link_degraded",
		"A NIC's PCIe link caps every transfer through it; a link that could not be "
		"read was not checked, not found right.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "not checked: its PCIe link %s could not be read "
		    "(current_link_speed, current_link_width of %s)",
		    isnan(l->speed_gts) && IS_NA(l->width) ? "speed and width" :
		    isnan(l->speed_gts) ? "speed" : "width", n->pci.bdf ? n->pci.bdf : "its device");
	finding_set(&f->expected, "the speed and width the card and slot can do");
	finding_set(&f->fix, "`lspci -vv -s %s | grep LnkSta` as root",
		    n->pci.bdf ? n->pci.bdf : "<bdf>");
	return 0;
}

int check_unchecked_values(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++)
		CHECK_TRY(pcie_unknown(c, out, i));
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct role_spec *rs = check_role_spec(c, i);

		if (!check_is_rail(c, i) || check_nic_is_software(n))
			continue;
		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			const struct qos *q = pt->qos;
			int prio = rs->pfc_priority >= 0 ? rs->pfc_priority : 3;

			if (rs->rate_gbps > 0 && check_port_up(pt) && isnan(pt->rate_gbps))
				CHECK_TRY(rate_unknown(c, out, i, pt, rs->rate_gbps));
			if (!check_port_is_eth(pt) || check_port_wrong_link(c, i, pt))
				continue;
			/* every RoCE rail needs a lossless priority, named by
			 * the profile or not, and agrees with the others */
			if (!q || q->dcb_supported < 0)
				CHECK_TRY(qos_unknown(c, out, i, pt, rs));
			if (rs->ecn == 1 && (!q || q->ecn_np[prio] < 0 || q->ecn_rp[prio] < 0))
				CHECK_TRY(ecn_unknown(c, out, i, pt, prio));
		}
	}
	return 0;
}
