/* port.down, port.no_sm: the port is not ACTIVE / LinkUp.
 * port.rate_low: trained below the role's rate.
 * port.width_low: an InfiniBand port running on fewer than 4 lanes; when
 *   that is also why it is below its rate, this one finding names both. */
#include "families.h"
#include "../model/driver_tools.h"
#include "rate_cause.h"
#include "../model/driver_link.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The Mellanox tools answer the card (model/driver_tools.h). */
static bool is_mellanox(const struct nic *n)
{
	return drv_tools_of_nic(n)->mlx;
}

/* The tool that shows lanes, FEC and speed for this port. */
static void link_tool(char *buf, size_t len, const struct nic *n, const struct port *pt)
{
	if (is_mellanox(n))
		snprintf(buf, len, "`mlxlink -d %s -p %d` (module, active lanes, FEC, speed)",
			 n->name, pt->num);
	else if (pt->netdev)
		snprintf(buf, len, "`ethtool %s` and `ethtool -m %s` (speed, lanes, module)",
			 pt->netdev, pt->netdev);
	else
		snprintf(buf, len, "`ibstat %s %d` and the vendor's link tool", n->name, pt->num);
}

static const char *state_text(char *buf, size_t len, int64_t code, const char *name)
{
	if (name)
		return name;
	if (IS_NA(code))
		return "unknown";
	snprintf(buf, len, "%lld", (long long)code);
	return buf;
}

static int port_down(const struct check_ctx *c, struct findings *out, size_t i,
		     const struct port *pt)
{
	const struct nic *n = &c->inv->nics[i];
	char s1[24], s2[24], tool[200];
	bool ib = check_port_is_ib(pt);
	struct finding *f;

	link_tool(tool, sizeof(tool), n, pt);
	if (ib && pt->state == PORT_STATE_INIT && pt->phys_state == PORT_PHYS_LINKUP) {
		f = check_add(c, out, "port.no_sm", check_role_sev(c, i),
			      "The link is up but no subnet manager has given the port a LID, so "
			      "it cannot carry any RDMA traffic.");
		if (!f)
			return -ENOMEM;
		finding_set(&f->subject, "%s port %d", n->name, pt->num);
		finding_set(&f->observed, "state INIT, physical state LinkUp: no subnet manager");
		finding_set(&f->expected, "ACTIVE, LinkUp");
		finding_set(&f->fix,
			    "start a subnet manager on the fabric (`opensm`, or the switch's or "
			    "UFM's SM) and check it sees this port (`sminfo`, `ibstat %s %d` shows "
			    "the SM lid); if one runs, check the port's partition (pkey) "
			    "membership in its configuration",
			    n->name, pt->num);
		return 0;
	}
	f = check_add(c, out, "port.down", check_role_sev(c, i),
		      "A port that is not up carries no RDMA traffic: jobs that expect this "
		      "NIC fail or fall back to slower paths.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "state %s, physical state %s%s%s",
		    state_text(s1, sizeof(s1), pt->state, pt->state_name),
		    state_text(s2, sizeof(s2), pt->phys_state, pt->phys_state_name),
		    pt->netdev ? ", netdev " : "", pt->netdev ? pt->netdev : "");
	finding_set(&f->expected, "ACTIVE, LinkUp");
	if (drv_link_of(n->driver)) {
		/* the state is its interface's (sysfs/fixed_link.c): the
		 * driver's own advice, not a cable's */
		finding_set(&f->fix, "%s", drv_link_of(n->driver)->down_fix);
		return 0;
	}
	switch (IS_NA(pt->phys_state) ? -1 : (int)pt->phys_state) {
	case 2:	/* Polling: no signal from the other end */
		finding_set(&f->fix,
			    "no signal from the other end: reseat the cable at both ends, then "
			    "swap the cable and module; then %s; then check the switch port is "
			    "enabled and set for this speed",
			    tool);
		break;
	case 3:	/* Disabled */
		if (ib)
			finding_set(&f->fix,
				    "the port is disabled: enable it (`ibportstate -D 0 %d enable` "
				    "on this host, or on the switch port), then check the cable and %s",
				    pt->num, tool);
		else
			finding_set(&f->fix,
				    "the port is disabled: `ip link set dev %s up` (and in its "
				    "network configuration), then check the cable and %s",
				    pt->netdev ? pt->netdev : "<netdev>", tool);
		break;
	case 5:	/* LinkUp, logical state not ACTIVE */
		if (ib)
			finding_set(&f->fix,
				    "the link is up but the subnet manager has not activated the "
				    "port: check the SM log (opensm, UFM) for this port's GUID and "
				    "its partition membership");
		else
			finding_set(&f->fix,
				    "the link is up but the port is not active: `ip link set dev %s "
				    "up`, then `rdma link show %s/%d`",
				    pt->netdev ? pt->netdev : "<netdev>", n->name, pt->num);
		break;
	default:
		finding_set(&f->fix,
			    "reseat the cable and module at both ends, then swap them; then %s; "
			    "then check the switch port's state and configuration",
			    tool);
		break;
	}
	return 0;
}

/* A port whose state could not be read: not checked, and on a rail not
 * a pass either (a warning, so the verdict cannot be PASS), since a rail
 * nobody saw is no rail the machine can be trusted with. */
static int state_unknown(const struct check_ctx *c, struct findings *out, size_t i,
			 const struct port *pt)
{
	const struct nic *n = &c->inv->nics[i];
	struct finding *f = check_add(c, out, "port.down",
				      check_is_rail(c, i) ? SEV_WARN : SEV_INFO,
				      "A port whose state cannot be read may be down: it was not "
				      "checked, not found up.");

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "not checked: its state could not be read (%s)",
		    pt->state_why ? pt->state_why : "no state given");
	finding_set(&f->expected, "ACTIVE, LinkUp");
	if (drv_link_of(n->driver))
		finding_set(&f->fix,
			    "its driver's port state says nothing of the link and no interface "
			    "on its PCI function shows it: watch the device's own error counters "
			    "over a window (`rdmadoctor watch`, `check --window`); a site that "
			    "accepts this says so with `accept_unchecked = port.down` in the "
			    "site file");
	else
		finding_set(&f->fix,
			    "`cat /sys/class/infiniband/%s/ports/%d/state phys_state` and `ibstat %s %d` "
			    "as root; a file that is missing or refused is a driver or kernel to look at",
			    n->name, pt->num, n->name, pt->num);
	return 0;
}

static int rate_low(const struct check_ctx *c, struct findings *out, size_t i,
		    const struct port *pt, double want)
{
	const struct nic *n = &c->inv->nics[i];
	char have[32], exp[32], tool[200], why[400], obs[96];
	bool ib = check_port_is_ib(pt);
	struct finding *f;
	enum rate_cause cause;

	f = check_add(c, out, "port.rate_low", check_role_sev(c, i),
		      "A port that trained below its rate caps every collective that crosses "
		      "this NIC at that rate, and the slowest rail sets the pace of the job.");
	if (!f)
		return -ENOMEM;
	check_num_str(have, sizeof(have), pt->rate_gbps);
	check_num_str(exp, sizeof(exp), want);
	link_tool(tool, sizeof(tool), n, pt);
	cause = rate_cause(pt, want, ib, why, sizeof(why));
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	if (check_port_is_eth(pt) && !IS_NA(pt->lanes) && pt->lanes > 0) {
		char lane[32];

		/* Ethernet has no IB speed names: mlx5's "4X QDR" of a RoCE
		 * port is 4 lanes of 10 Gb/s */
		check_num_str(lane, sizeof(lane), pt->rate_gbps / (double)pt->lanes);
		snprintf(obs, sizeof(obs), "%s Gb/s (%lld x %s Gb/s)", have, (long long)pt->lanes,
			 lane);
	} else if (!IS_NA(pt->lanes) && pt->rate_speed && !check_port_is_eth(pt)) {
		snprintf(obs, sizeof(obs), "%s Gb/s (%lldX %.24s)", have, (long long)pt->lanes,
			 pt->rate_speed);
	} else {
		snprintf(obs, sizeof(obs), "%s Gb/s", have);
	}
	finding_set(&f->observed, "%s: %s", obs, why);
	finding_set(&f->expected, "%s Gb/s", exp);
	switch (cause) {
	case RATE_CAUSE_MODULE:
		finding_set(&f->fix,
			    "replace the module with one rated for %s Gb/s (`ethtool -m %s` shows "
			    "what it is built for); then %s",
			    exp, rate_cause_module_netdev(pt) ? rate_cause_module_netdev(pt) :
			    "<netdev>", tool);
		break;
	case RATE_CAUSE_PARTNER:
		finding_set(&f->fix,
			    "set the switch port to %s Gb/s or to autonegotiate (it is forced or "
			    "configured lower); then %s",
			    exp, tool);
		break;
	case RATE_CAUSE_NIC:
		if (is_mellanox(n))
			finding_set(&f->fix,
				    "check the NIC's firmware and its port configuration "
				    "(`mlxconfig`, `ethtool %s`): it offers no %s Gb/s mode; then %s",
				    pt->netdev ? pt->netdev : "<netdev>", exp, tool);
		else	/* mlxconfig configures only ConnectX */
			finding_set(&f->fix,
				    "check the NIC's firmware and its port configuration "
				    "(`ethtool %s`): it offers no %s Gb/s mode; then %s",
				    pt->netdev ? pt->netdev : "<netdev>", exp, tool);
		break;
	case RATE_CAUSE_CABLE:
		finding_set(&f->fix,
			    "swap the cable (a damaged or lower-rated cable trains low), then the "
			    "module; then %s",
			    tool);
		break;
	default:
		finding_set(&f->fix,
			    "swap the cable and module first (one rated for a lower speed caps the "
			    "link: %s); then %s; then check the switch port is not forced to a "
			    "lower speed",
			    check_port_is_eth(pt) ? "a 100G module tops out at 100 Gb/s" :
			    "an EDR module tops out at 100 Gb/s", tool);
		break;
	}
	return 0;
}

/* want: the expected rate (0: none), named with the width, since the lost
 * lanes are why the port is also below its rate: one cause, one finding. */
static int width_low(const struct check_ctx *c, struct findings *out, size_t i,
		     const struct port *pt, double want)
{
	const struct nic *n = &c->inv->nics[i];
	char rate[32], tool[200];
	struct finding *f;

	f = check_add(c, out, "port.width_low", check_role_sev(c, i),
		      "An InfiniBand port that trained on fewer than its 4 lanes runs at a "
		      "fraction of its speed, usually because of a damaged cable or module lane.");
	if (!f)
		return -ENOMEM;
	link_tool(tool, sizeof(tool), n, pt);
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	if (!isnan(pt->rate_gbps)) {
		check_num_str(rate, sizeof(rate), pt->rate_gbps);
		finding_set(&f->observed, "%lldX (%s Gb/s%s%s)", (long long)pt->lanes, rate,
			    pt->rate_speed ? " " : "", pt->rate_speed ? pt->rate_speed : "");
	} else {
		finding_set(&f->observed, "%lldX", (long long)pt->lanes);
	}
	if (want > 0) {
		check_num_str(rate, sizeof(rate), want);
		finding_set(&f->expected, "4X (%s Gb/s)", rate);
	} else {
		finding_set(&f->expected, "4X");
	}
	finding_set(&f->fix,
		    "reseat, then swap the cable and module (a bad lane drops the link to "
		    "fewer lanes); then %s; then check the switch port's width setting",
		    tool);
	return 0;
}

int check_port(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct role_spec *rs = check_role_spec(c, i);

		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];
			enum port_link link = port_link(pt);
			bool slow, narrow;

			if (link == PORT_LINK_DOWN) {
				CHECK_TRY(port_down(c, out, i, pt));
				continue;
			}
			if (link == PORT_LINK_UNKNOWN && !check_nic_is_software(n)) {
				CHECK_TRY(state_unknown(c, out, i, pt));
				continue;
			}
			if (link != PORT_LINK_UP)
				continue;
			slow = rs->rate_gbps > 0 && !isnan(pt->rate_gbps) &&
			       pt->rate_gbps < rs->rate_gbps;
			/* HDR100 / NDR200 ports are 2X by design: a narrow port
			 * that gives the profile's rate is not a fault; without
			 * an expected rate, 2X may be the product: only 1X is
			 * surely a lost lane */
			narrow = check_port_is_ib(pt) && !IS_NA(pt->lanes) && pt->lanes < 4 &&
				 (rs->rate_gbps > 0 ? slow : pt->lanes < 2);
			if (narrow)
				CHECK_TRY(width_low(c, out, i, pt, rs->rate_gbps));
			else if (slow)
				CHECK_TRY(rate_low(c, out, i, pt, rs->rate_gbps));
		}
	}
	return 0;
}
