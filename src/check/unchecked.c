/* What the profile expects but could not be read: an info under the id of
 * the check that could not run, naming the value and why, marked
 * unchecked (counted as "unchecked", an info that leaves the verdict
 * alone; port.c's rail whose state is unknown is the one warning).  Where
 * the profile names the value for the NIC's role the finding is marked
 * required too, and check_run_site weighs it as a warning unless the site
 * file accepts it (finding.h; docs/checks.md "Required, not checked"):
 * roce.pfc under a board profile (lossless RoCE rails) or one that names
 * pfc_priority or trust, roce.ecn (asked
 * only under ecn = 1; not on the inbox driver, which has no ecn/ files), port.rate_low (only under a rate), mtu.roce under
 * mtu, pcie.link_degraded under pcie_gen or pcie_width, nic.count (the
 * link layer) under link_layer.  The GID table, counters and bridges'
 * links are no value a profile names: they stay infos.  Silence
 * would read as "fine"; an error would blame the machine for what the
 * tool could not see.
 *
 * Here: the RoCE QoS of every RoCE rail when DCB netlink gave no answer
 * (qos.c says it for a netdev that has no DCB at all), ECN without its
 * sysfs files and without CNPs counted both ways (dcqcn_seen), port rates
 * whose rate string is unknown, a NIC's PCIe link (negotiated or
 * capability) and its bridges' links that could not be read
 * (Gen? x?), a rail port's link layer, the GID table and netdev MTU of a
 * RoCE rail that is up, and error counters that could not be read.  A
 * NIC's firmware version (nic.c), the memlock limit (sys.c), ACS
 * without root (pcie.c), per-GPU bandwidth (bandwidth.c) and placement with an
 * unknown NUMA node (topo.c) say it where they are judged. */
#include "families.h"
#include "../model/driver_tools.h"
#include "../model/driver_link.h"

#include <math.h>
#include <string.h>

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
	/* required where the profile names the priority or the trust, and
	 * under any board profile, which expects RoCE rails lossless (qos.c's
	 * pfc_off); generic leaves lossy RoCE alone */
	f->required = !c->generic || rs->pfc_priority >= 0 || rs->trust;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: DCB netlink gave no answer for %s (the driver "
		    "does not answer it, or this snapshot holds no reply)", dev);
	check_buf_take(&want, &f->expected);
	/* mlnx_qos answers only ConnectX (model/driver_tools.h) */
	if (drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix, "read it by hand: `mlnx_qos -i %s` (or `dcb pfc show dev %s` "
			    "and `dcb app show dev %s`)", dev, dev, dev);
	else
		finding_set(&f->fix, "read it by hand: " DRV_DCB_PFC_SHOW " and " DRV_DCB_APP_SHOW,
			    dev, dev);
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
	/* asked only where the profile says ecn = 1; required but on the
	 * inbox driver, which has no ecn/ files at all (its DCQCN state is
	 * in firmware, read only by mlxconfig/mlxreg): there not reading it
	 * says nothing of the machine */
	f->required = !c->inv->host.stack || strcmp(c->inv->host.stack, "inbox") != 0;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: no /sys/class/net/%s/ecn/ (MLNX_OFED writes "
		    "it; the inbox driver has no such files)", dev);
	finding_set(&f->expected, "ECN notification and reaction point on for priority %d", prio);
	/* mlxconfig takes the card's PCI address: known here, so no <dev> */
	if (drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix, "read it with `mlnx_qos -i %s` or the NIC's firmware "
			    "settings (`mlxconfig -d %s q | grep -i ecn`)", dev,
			    n->pci.bdf ? n->pci.bdf : "<pci-address>");
	else	/* no kernel interface reads another driver's DCQCN settings */
		finding_set(&f->fix, "read the congestion control (DCQCN) settings of %s with "
			    "its vendor's tool", n->name);
	return 0;
}

/* The inbox driver has no ecn/ files, but DCQCN at work leaves counts in
 * the port's hw_counters (mlx5: drivers/infiniband/hw/mlx5/counters.c,
 * np_cnp_sent and rp_cnp_handled of the congestion counters): a port whose
 * notification point sent CNPs and whose reaction point acted on them has
 * ECN on in both roles, on the priority its RoCE traffic runs.  Zero or
 * absent counts prove nothing (no congestion yet): still not checked. */
static bool dcqcn_seen(const struct port *pt)
{
	const struct counter *np = counter_find(&pt->hw_counters, "np_cnp_sent");
	const struct counter *rp = counter_find(&pt->hw_counters, "rp_cnp_handled");

	return np && rp && np->value > 0 && rp->value > 0;
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
	f->required = true;	/* only asked where the profile names a rate */
	check_num_str(s, sizeof(s), want);
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: the port's rate file names no rate this tool "
		    "knows");
	finding_set(&f->expected, "%s Gb/s", s);
	if (drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix, "`cat /sys/class/infiniband/%s/ports/%d/rate`, `ibstatus %s` "
			    "and `mlxlink -d %s` show what the port agreed on", n->name, pt->num,
			    n->name, n->name);
	else
		finding_set(&f->fix, "`cat /sys/class/infiniband/%s/ports/%d/rate`, `ibstatus %s` "
			    "and " DRV_ETHTOOL_LINK " show what the port agreed on", n->name,
			    pt->num, n->name, pt->netdev ? pt->netdev : "<netdev>");
	return 0;
}

/* The NIC's PCIe link, what it negotiated and what it can do (Gen? x?):
 * without either pcie.link_degraded and pcie.bottleneck cannot judge it.
 * Once per card: the functions of one device share one link. */
static const char *link_unknown(const struct pci_link *l, bool max)
{
	bool speed = max ? isnan(l->max_speed_gts) : isnan(l->speed_gts);
	bool width = max ? IS_NA(l->max_width) : IS_NA(l->width);

	return speed && width ? "speed and width" : speed ? "speed" : width ? "width" : NULL;
}

static bool first_of_device(const struct check_ctx *c, size_t i)
{
	const struct nic *n = &c->inv->nics[i];

	for (size_t j = 0; j < i; j++)
		if (c->inv->nics[j].has_pci &&
		    check_same_pci_device(c->inv->nics[j].pci.bdf, n->pci.bdf))
			return false;
	return true;
}

static int pcie_unknown(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	const struct pci_link *l = &n->pci.link;
	const char *cur, *max, *bdf = n->pci.bdf ? n->pci.bdf : "<bdf>";
	struct finding *f;

	if (!n->has_pci || check_nic_is_software(n) || !first_of_device(c, i))
		return 0;
	cur = link_unknown(l, false);
	max = link_unknown(l, true);
	if (!cur && !max)
		return 0;
	f = add(c, out, "pcie.link_degraded",
		"A NIC's PCIe link caps every transfer through it; a link that could not be "
		"read was not checked, not found right.");
	if (!f)
		return -ENOMEM;
	/* required where the profile names a generation or width */
	f->required = check_role_spec(c, i)->pcie_gen > 0 || check_role_spec(c, i)->pcie_width > 0;
	finding_set(&f->subject, "%s", n->name);
	if (cur)
		finding_set(&f->observed, "not checked: its PCIe link %s could not be read "
			    "(current_link_speed, current_link_width of %s)", cur, bdf);
	else
		finding_set(&f->observed, "not checked: what its PCIe link can do (max %s) could "
			    "not be read (max_link_speed, max_link_width of %s)", max, bdf);
	finding_set(&f->expected, "the speed and width the card and slot can do");
	finding_set(&f->fix, "`lspci -vv -s %s | grep -E 'LnkCap|LnkSta'` as root", bdf);
	return 0;
}

/* A bridge or switch port on the NIC's path whose link could not be read:
 * pcie.upstream_degraded could not judge it.  Once per card, naming each
 * such bridge. */
static int upstream_unknown(const struct check_ctx *c, struct findings *out, size_t i)
{
	const struct nic *n = &c->inv->nics[i];
	struct check_buf which = { 0 };
	struct finding *f;

	if (!n->has_pci || check_nic_is_software(n) || !first_of_device(c, i))
		return 0;
	/* nearest first, as the text prints the path */
	for (size_t k = n->pci.n_upstream; k-- > 0;) {
		const struct pci_func *b = &n->pci.upstream[k];

		if (link_unknown(&b->link, false) || link_unknown(&b->link, true))
			check_buf_printf(&which, "%s%s", which.len ? " " : "",
					 b->bdf ? b->bdf : "?");
	}
	if (!which.len) {
		check_buf_free(&which);
		return 0;
	}
	f = add(c, out, "pcie.upstream_degraded",
		"A bridge on the NIC's path caps every transfer through it; a link that could "
		"not be read was not checked, not found right.");
	if (!f) {
		check_buf_free(&which);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "not checked: the PCIe link of %s on its path could not be "
		    "read (current_link_speed/width, max_link_speed/width)",
		    which.s ? which.s : "a bridge");
	finding_set(&f->expected, "each bridge at the speed and width it can do");
	finding_set(&f->fix, "`lspci -vv -s BDF | grep -E 'LnkCap|LnkSta'` as root for %s",
		    which.s ? which.s : "each bridge");
	check_buf_free(&which);
	return 0;
}

/* A rail port whose link layer could not be read is judged by neither the
 * InfiniBand nor the RoCE checks, and whether the card is of the rail's
 * link layer is not known. */
static int link_layer_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			      const struct port *pt)
{
	const struct nic *n = &c->inv->nics[i];
	struct finding *f = add(c, out, "nic.count",
				"A port whose link layer is unknown is judged by neither the "
				"InfiniBand nor the RoCE checks: not checked, not found right.");

	if (!f)
		return -ENOMEM;
	f->required = check_role_spec(c, i)->link_layer != NULL;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: its link layer could not be read "
		    "(`rdmadoctor -v` says why), so none of its InfiniBand or RoCE settings "
		    "were judged");
	finding_set(&f->expected, "%s", check_role_spec(c, i)->link_layer ?
		    check_role_spec(c, i)->link_layer : "InfiniBand or Ethernet");
	finding_set(&f->fix, "`cat /sys/class/infiniband/%s/ports/%d/link_layer` and "
		    "`ibstat %s %d` as root", n->name, pt->num, n->name, pt->num);
	return 0;
}

/* The GID table of a RoCE rail that is up could not be read: whether it
 * has its RoCE v2 IPv4 GID is not known. */
static int gids_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			const struct port *pt)
{
	const struct nic *n = &c->inv->nics[i];
	struct finding *f = add(c, out, "gid.rocev2_missing",
				"Without a RoCE v2 GID on an IPv4 address NCCL finds no routable "
				"address on the port; a GID table that could not be read was not "
				"checked, not found right.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: its GID table (gids/, gid_attrs/types/) could "
		    "not be read");
	finding_set(&f->expected, "a RoCE v2 GID with %s's IPv4 address",
		    pt->netdev ? pt->netdev : "its netdev");
	finding_set(&f->fix, "`show_gids %s` or `ls /sys/class/infiniband/%s/ports/%d/gid_attrs/"
		    "types/` as root", n->name, n->name, pt->num);
	return 0;
}

/* The netdev MTU of a RoCE rail that is up could not be read. */
static int mtu_unknown(const struct check_ctx *c, struct findings *out, size_t i,
		       const struct port *pt)
{
	const struct nic *n = &c->inv->nics[i];
	struct finding *f = add(c, out, "mtu.roce",
				"A RoCE netdev MTU below the RDMA MTU cuts every message short; "
				"an MTU that could not be read was not checked, not found right.");

	if (!f)
		return -ENOMEM;
	f->required = check_role_spec(c, i)->mtu > 0;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	if (pt->netdev)
		finding_set(&f->observed, "not checked: /sys/class/net/%s/mtu could not be read",
			    pt->netdev);
	else
		finding_set(&f->observed, "not checked: the port's netdev could not be found");
	finding_set(&f->expected, "about 4200 or more (9000 usual), as the other rails");
	finding_set(&f->fix, "`ip link show %s`", pt->netdev ? pt->netdev : "<netdev>");
	return 0;
}

/* The port's error counters (counters/) could not be read, all or some. */
static int counters_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			    const struct port *pt)
{
	const struct nic *n = &c->inv->nics[i];
	struct check_buf bad = { 0 };
	size_t nbad = 0, nrefused = 0;
	const char *refused = NULL;
	struct finding *f;

	for (size_t k = 0; k < pt->counters.n; k++)
		if (!pt->counters.v[k].ok) {
			if (nbad++ < 4)
				check_buf_printf(&bad, "%s%s", bad.len ? ", " : "",
						 pt->counters.v[k].name);
			if (pt->counters.v[k].refused_before && !nrefused++)
				refused = pt->counters.v[k].name;
		}
	/* sysfs/einval_memo.h: not read this time, and why */
	if (refused)
		check_buf_printf(&bad, "; %zu of them the kernel refused with EINVAL earlier this "
				 "boot (/sys/class/infiniband/%s/ports/%d/counters/%s%s); not read "
				 "again", nrefused, n->name, pt->num, refused,
				 nrefused > 1 ? ", ..." : "");
	/* an InfiniBand port always has counters/; on Ethernet the PHY's
	 * errors come from ethtool -S, so there only a counter that is
	 * there but unreadable says something */
	if (!nbad && (pt->counters.n || !check_port_is_ib(pt)))
		return 0;
	f = add(c, out, "counters.errors",
		"Error counters show a failing cable or module before it fails; counters that "
		"could not be read were not checked, not found zero.");
	if (!f) {
		check_buf_free(&bad);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	if (!nbad)
		finding_set(&f->observed, "not checked: no counters/ could be read");
	else
		finding_set(&f->observed, "not checked: %zu of its counters could not be read (%s%s)",
			    nbad, bad.s ? bad.s : "", nbad > 4 && !refused ? ", ..." : "");
	check_buf_free(&bad);
	finding_set(&f->expected, "error counters readable, and zero");
	finding_set(&f->fix, "`ls -l /sys/class/infiniband/%s/ports/%d/counters/` and "
		    "`perfquery` as root", n->name, pt->num);
	return 0;
}

/* The GID table was read: at least one entry with a type. */
static bool gids_known(const struct port *pt)
{
	for (size_t k = 0; k < pt->n_gids; k++)
		if (pt->gids[k].type)
			return true;
	return false;
}

int check_unchecked_values(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		CHECK_TRY(pcie_unknown(c, out, i));
		CHECK_TRY(upstream_unknown(c, out, i));
	}
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
			/* efa's "Unknown" is its answer (SRD), not an unread
			 * value: unchecked only where a profile wants IB or
			 * Ethernet of it */
			if (!check_port_is_ib(pt) && !check_port_is_eth(pt) &&
			    (!drv_link_of(n->driver) || !drv_link_of(n->driver)->own_transport ||
			     rs->link_layer))
				CHECK_TRY(link_layer_unknown(c, out, i, pt));
			if (check_port_up(pt))
				CHECK_TRY(counters_unknown(c, out, i, pt));
			if (!check_port_is_eth(pt) || check_port_wrong_link(c, i, pt))
				continue;
			if (check_port_up(pt) && !gids_known(pt))
				CHECK_TRY(gids_unknown(c, out, i, pt));
			if (check_port_up(pt) && IS_NA(pt->netdev_mtu))
				CHECK_TRY(mtu_unknown(c, out, i, pt));
			/* every RoCE rail needs a lossless priority, named by
			 * the profile or not, and agrees with the others */
			if (!q || q->dcb_supported < 0)
				CHECK_TRY(qos_unknown(c, out, i, pt, rs));
			if (rs->ecn == 1 && (!q || q->ecn_np[prio] < 0 || q->ecn_rp[prio] < 0) &&
			    !dcqcn_seen(pt))
				CHECK_TRY(ecn_unknown(c, out, i, pt, prio));
		}
	}
	return 0;
}
