/* roce.pfc, roce.trust, roce.qos_mismatch: the lossless RoCE setup read
 * from DCB netlink (trust, PFC, the DSCP map) against the profile and
 * against itself.  Unknown values are never judged: a netdev without DCB
 * gives an info when the profile names a PFC priority, and unchecked.c
 * counts every RoCE rail DCB netlink gave no answer for.  A machine's
 * profile that names no priority still expects PFC on one. */
#include "families.h"
#include "../model/driver_tools.h"

#include <stdio.h>
#include <string.h>

/* RoCE v2 data is usually marked DSCP 26 (AF31); CNPs DSCP 48. */
#define ROCE_DSCP 26

/* The Mellanox tools (mlnx_qos) answer only ConnectX; every other driver
 * is set through DCB netlink with iproute2's dcb (model/driver_tools.h). */
static bool mlx(const struct nic *n)
{
	return drv_tools_of_nic(n)->mlx;
}

static const char *dev_of(const struct port *pt)
{
	return pt->netdev ? pt->netdev : "<netdev>";
}

/* "3", "3 4", "none" */
static void pfc_list(char *buf, size_t len, const int v[8])
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < 8 && n < len; i++)
		if (v[i] == 1)
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? " " : "", i);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static bool pfc_known(const struct qos *q)
{
	for (int i = 0; i < 8; i++)
		if (q->pfc_enabled[i] < 0)
			return false;
	return true;
}

static int pfc(const struct check_ctx *c, struct findings *out, const struct nic *n,
		const struct port *pt, int prio)
{
	const struct qos *q = pt->qos;
	char on[32], vec[16];
	bool any = false;
	struct finding *f;

	if (q->dcb_supported == 0) {
		f = check_add(c, out, "roce.pfc", SEV_INFO,
			      "Without DCB on the netdev rdmadoctor cannot see PFC or the trust "
			      "mode, so the lossless setup was not checked.");
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		/* asked only under a profile's pfc_priority: unseen is no pass */
		f->required = true;
		finding_set(&f->subject, "%s port %d", n->name, pt->num);
		finding_set(&f->observed, "%s does not support DCB netlink", dev_of(pt));
		finding_set(&f->expected, "PFC on priority %d (not checked)", prio);
		if (mlx(n))
			finding_set(&f->fix,
				    "check PFC where it is configured (the PF, the bond's slaves, "
				    "or the switch): `mlnx_qos -i <pf>`");
		else
			finding_set(&f->fix,
				    "check PFC where it is configured (the PF, the bond's slaves, "
				    "or the switch): " DRV_DCB_PFC_SHOW, "<pf>");
		return 0;
	}
	if (!pfc_known(q) || q->pfc_enabled[prio] == 1)
		return 0;
	for (int i = 0; i < 8; i++)
		any |= q->pfc_enabled[i] == 1;
	pfc_list(on, sizeof(on), q->pfc_enabled);
	for (int i = 0; i < 8; i++) {
		vec[2 * i] = i == prio ? '1' : '0';
		vec[2 * i + 1] = i < 7 ? ',' : '\0';
	}
	f = check_add(c, out, "roce.pfc", any ? SEV_WARN : SEV_ERROR,
		      "RoCE needs a lossless priority: without PFC on the priority its "
		      "traffic uses, drops under load turn into go-back-N retransmissions "
		      "and collapsing bandwidth.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "PFC enabled on priorities: %s", on);
	finding_set(&f->expected, "PFC on priority %d", prio);
	if (mlx(n))
		finding_set(&f->fix,
			    "`mlnx_qos -i %s --pfc %s` (or `dcb pfc set dev %s prio-pfc %d:on`), "
			    "the same on the switch port, and at every boot",
			    dev_of(pt), vec, dev_of(pt), prio);
	else
		finding_set(&f->fix,
			    DRV_DCB_PFC_ON ", the same on the switch port, and at every boot",
			    dev_of(pt), prio);
	return 0;
}

/* A profile that names no priority (a board built as IB or RoCE, such as
 * hgx-8x400g) still expects RoCE rails to be lossless on one: PFC on no
 * priority at all is the fault, whichever one it should have been. */
static bool pfc_none(const struct qos *q)
{
	if (q->dcb_supported != 1 || !pfc_known(q))
		return false;
	for (int i = 0; i < 8; i++)
		if (q->pfc_enabled[i] == 1)
			return false;
	return true;
}

static int pfc_off(const struct check_ctx *c, struct findings *out, const struct nic *n,
		   const struct port *pt)
{
	struct finding *f = check_add(c, out, "roce.pfc", SEV_ERROR,
				      "RoCE needs a lossless priority: without PFC on the "
				      "priority its traffic uses, drops under load turn into "
				      "go-back-N retransmissions and collapsing bandwidth.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "PFC enabled on priorities: none");
	finding_set(&f->expected, "PFC on the RoCE priority (3 is usual)");
	if (mlx(n))
		finding_set(&f->fix,
			    "`mlnx_qos -i %s --pfc 0,0,0,1,0,0,0,0` (or `dcb pfc set dev %s "
			    "prio-pfc 3:on`) with DSCP 26 mapped to it, the same on the switch "
			    "port, and at every boot", dev_of(pt), dev_of(pt));
	else
		finding_set(&f->fix,
			    DRV_DCB_PFC_ON " with DSCP 26 mapped to it (" DRV_DCB_DSCP "), the "
			    "same on the switch port, and at every boot",
			    dev_of(pt), 3, dev_of(pt), 26, 3);
	return 0;
}

static int trust(const struct check_ctx *c, struct findings *out, const struct nic *n,
		 const struct port *pt, const char *want)
{
	const struct qos *q = pt->qos;
	struct finding *f;

	if (!q->trust || strcmp(q->trust, want) == 0)
		return 0;
	f = check_add(c, out, "roce.trust", SEV_WARN,
		      "With the wrong trust mode the NIC ignores how RoCE packets are "
		      "marked, so they land on a priority without PFC or ECN.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "trust %s", q->trust);
	finding_set(&f->expected, "trust %s", want);
	if (mlx(n))
		finding_set(&f->fix, "`mlnx_qos -i %s --trust %s` (and at every boot)",
			    dev_of(pt), want);
	else
		finding_set(&f->fix, DRV_DCB_TRUST " (and at every boot)", dev_of(pt), want);
	return 0;
}

/* The priority RoCE traffic should use on this port: the profile's, else
 * the one most rails send DSCP 26 to, else the only priority with PFC on,
 * else where DSCP 26 goes now. */
static int target_prio(const struct check_ctx *c, const struct qos *q, int want, int d)
{
	int only = -1, n = 0;

	if (want >= 0)
		return want;
	if ((want = check_rails_dscp_prio(c, ROCE_DSCP)) >= 0)
		return want;
	for (int i = 0; i < 8; i++)
		if (q->pfc_enabled[i] == 1) {
			only = i;
			n++;
		}
	return n == 1 ? only : d;
}

/* The commands that make DSCP 26, PFC and ECN name priority t, each only
 * where this port differs: never the current state. */
static void mismatch_fix(struct check_buf *fix, const struct nic *n, const struct port *pt,
			 int d, int t, bool judge_ecn)
{
	bool mlx_tools = mlx(n);
	const struct qos *q = pt->qos;
	size_t steps = 0;

	check_buf_printf(fix, "make the three agree on priority %d: ", t);
	if (d != t) {
		if (mlx_tools)
			check_buf_printf(fix, "`mlnx_qos -i %s --dscp2prio set,%d,%d`",
					 dev_of(pt), ROCE_DSCP, t);
		else
			check_buf_printf(fix, DRV_DCB_DSCP, dev_of(pt), ROCE_DSCP, t);
		steps++;
	}
	if (q->pfc_enabled[t] != 1) {
		char vec[16];

		for (int i = 0; i < 8; i++) {
			vec[2 * i] = i == t || q->pfc_enabled[i] == 1 ? '1' : '0';
			vec[2 * i + 1] = i < 7 ? ',' : '\0';
		}
		if (mlx_tools)
			check_buf_printf(fix, "%s`mlnx_qos -i %s --pfc %s`", steps ? ", " : "",
					 dev_of(pt), vec);
		else	/* prio-pfc T:on leaves the priorities already on as they are */
			check_buf_printf(fix, "%s" DRV_DCB_PFC_ON, steps ? ", " : "",
					 dev_of(pt), t);
		steps++;
	}
	if (judge_ecn && q->ecn_np[t] != 1)
		check_buf_printf(fix, "%s`echo 1 > /sys/class/net/%s/ecn/roce_np/enable/%d`",
				 steps++ ? ", " : "", dev_of(pt), t);
	if (judge_ecn && q->ecn_rp[t] != 1)
		check_buf_printf(fix, "%s`echo 1 > /sys/class/net/%s/ecn/roce_rp/enable/%d`",
				 steps++ ? ", " : "", dev_of(pt), t);
	check_buf_printf(fix, "; the same on the switch port, and at every boot");
}

/* PFC priority, the priority DSCP 26 maps to and the ECN priority must be
 * one and the same; say which piece disagrees. */
static int mismatch(const struct check_ctx *c, struct findings *out, const struct nic *n,
		    const struct port *pt, int want, bool judge_ecn)
{
	const struct qos *q = pt->qos;
	struct check_buf obs = { 0 }, fix = { 0 };
	enum severity sev = SEV_WARN;
	int d, t, rails;
	struct finding *f;

	if (!q->trust || strcmp(q->trust, "dscp") != 0 || q->dscp_to_prio[ROCE_DSCP] < 0)
		return 0;
	d = q->dscp_to_prio[ROCE_DSCP];
	rails = want < 0 ? check_rails_dscp_prio(c, ROCE_DSCP) : -1;
	if (q->pfc_enabled[d] == 0) {
		check_buf_printf(&obs, "DSCP %d goes to priority %d, which has no PFC",
				 ROCE_DSCP, d);
		sev = SEV_ERROR;
	}
	if (want >= 0 && d != want)
		check_buf_printf(&obs, "%sDSCP %d goes to priority %d, not the RoCE priority %d",
				 obs.s ? "; " : "", ROCE_DSCP, d, want);
	if (judge_ecn && (q->ecn_np[d] == 0 || q->ecn_rp[d] == 0))
		check_buf_printf(&obs, "%sECN is off on priority %d (notification point %s, "
				 "reaction point %s)", obs.s ? "; " : "", d,
				 q->ecn_np[d] == 1 ? "on" : q->ecn_np[d] == 0 ? "off" : "unknown",
				 q->ecn_rp[d] == 1 ? "on" : q->ecn_rp[d] == 0 ? "off" : "unknown");
	if (!obs.s && !obs.nomem)
		return 0;
	if (rails >= 0 && d != rails)
		check_buf_printf(&obs, "; the other rails send DSCP %d to priority %d", ROCE_DSCP,
				 rails);
	f = check_add(c, out, "roce.qos_mismatch", sev,
		      "PFC, the DSCP map and ECN must name the same priority: RoCE traffic "
		      "on a priority without PFC is dropped under load, and without ECN "
		      "there is no congestion control before the pauses.");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	t = target_prio(c, q, want, d);
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	check_buf_take(&obs, &f->observed);
	if (want >= 0)
		finding_set(&f->expected, "DSCP %d -> priority %d, with PFC and ECN on it",
			    ROCE_DSCP, want);
	else if (rails >= 0)
		finding_set(&f->expected, "DSCP %d -> priority %d as on the other rails, with "
			    "PFC and ECN on it", ROCE_DSCP, rails);
	else
		finding_set(&f->expected, "DSCP %d -> a priority with PFC and ECN on", ROCE_DSCP);
	mismatch_fix(&fix, n, pt, d, t, judge_ecn);
	check_buf_take(&fix, &f->fix);
	return 0;
}

int check_qos(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct role_spec *rs = check_role_spec(c, i);
		int prio = rs->pfc_priority >= 0 && rs->pfc_priority <= 7 ? rs->pfc_priority : -1;

		if (!check_is_rail(c, i))
			continue;
		for (size_t k = 0; k < n->n_ports; k++) {
			const struct port *pt = &n->ports[k];

			if (!check_port_is_eth(pt) || !pt->qos)
				continue;
			if (prio >= 0)
				CHECK_TRY(pfc(c, out, n, pt, prio));
			if (pt->qos->dcb_supported != 1)
				continue;
			if (rs->trust)
				CHECK_TRY(trust(c, out, n, pt, rs->trust));
			/* a board's profile expects RoCE rails lossless; generic
			 * leaves lossy (ECN-only) RoCE alone.  One cause: no
			 * mismatch too */
			if (prio < 0 && !c->generic && pfc_none(pt->qos))
				CHECK_TRY(pfc_off(c, out, n, pt));
			else
				CHECK_TRY(mismatch(c, out, n, pt, prio, rs->ecn != 0));
		}
	}
	return 0;
}
