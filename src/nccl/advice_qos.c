/* NCCL_IB_TC and NCCL_IB_SL (docs/nccl.md): the priority NCCL's RoCE
 * traffic must land on is the one that is lossless, i.e. has PFC on, on
 * every up rail.  trust dscp: the switch and NIC take the priority from
 * the DSCP, which NCCL sets through the traffic class (NCCL_IB_TC: DSCP
 * in the top six bits, ECN in the low two); trust pcp: from the VLAN
 * priority, which RoCE takes from the service level (NCCL_IB_SL).
 * InfiniBand needs neither: its credit-based flow control is lossless. */
#include "advice_qos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool roce_rail(const struct nccl_port *p)
{
	return advice_rail_up(p) && !p->infiniband;
}

static bool qos_unknown(const struct nccl_port *p)
{
	return roce_rail(p) && (!p->trust || p->pfc_mask < 0);
}

static int leave_both(struct nccl_advice *a, const char *why)
{
	int rc = advice_leave(a, "NCCL_IB_TC", advice_fmt("%s", why));

	return rc ? rc : advice_leave(a, "NCCL_IB_SL", advice_fmt("%s", why));
}

/* "3, 4" of a priority mask, into buf (8 priorities: 22 bytes at most). */
static const char *prios(int mask, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < 8 && at < len; i++)
		if (mask & (1 << i))
			at += (size_t)snprintf(buf + at, len - at, "%s%d", at ? ", " : "", i);
	return buf;
}

/* The DSCP every RoCE rail's map sends to prio: NVIDIA's 8P+2 (26 for 3)
 * where the maps agree on it, else the lowest; -1 none, -2 a map unknown. */
static int dscp_for(const struct nccl_facts *f, int prio)
{
	int want = 8 * prio + 2;

	for (int pass = 0; pass < 2; pass++) {
		for (int d = pass ? 0 : want; d < (pass ? 64 : want + 1); d++) {
			bool all = true;

			for (size_t i = 0; i < f->n_ports && all; i++) {
				const struct nccl_port *p = &f->ports[i];

				if (!roce_rail(p))
					continue;
				if (p->dscp_to_prio[d] < 0)
					return -2;
				all = p->dscp_to_prio[d] == prio;
			}
			if (all)
				return d;
		}
	}
	return -1;
}

static int tc_of(const struct nccl_facts *f, int prio, struct nccl_advice *a)
{
	int d = dscp_for(f, prio), rc;

	if (d == -2)
		return advice_leave(a, "NCCL_IB_TC",
				    advice_fmt("the rails' DSCP-to-priority map could not be "
					       "read (not root, or no DCB): unknown"));
	if (d < 0) {
		rc = advice_warn(a, "no DSCP maps to the lossless priority %d on every up "
				 "rail: RoCE traffic cannot reach it under trust dscp; map "
				 "DSCP %d to priority %d (mlnx_qos --dscp2prio set,%d,%d)",
				 prio, 8 * prio + 2, prio, 8 * prio + 2, prio);
		return rc ? rc : advice_leave(a, "NCCL_IB_TC",
					      advice_fmt("no DSCP maps to priority %d on every "
							 "up rail", prio));
	}
	return advice_set(a, "NCCL_IB_TC", advice_fmt("%d", 4 * d + 2),
			  advice_fmt("DSCP %d (priority %d, the one with PFC on every up "
				     "rail) << 2, plus ECN-capable (ECT(0)) in the low two bits",
				     d, prio));
}

static int by_dscp(const struct nccl_facts *f, int prio, struct nccl_advice *a)
{
	int rc = tc_of(f, prio, a);

	return rc ? rc : advice_leave(a, "NCCL_IB_SL",
				      advice_fmt("trust dscp: the priority comes from the "
						 "DSCP (NCCL_IB_TC), not the service level"));
}

static int by_pcp(int prio, struct nccl_advice *a)
{
	int rc = advice_leave(a, "NCCL_IB_TC",
			      advice_fmt("trust pcp: the priority comes from the VLAN "
					 "priority (NCCL_IB_SL), not the DSCP"));

	return rc ? rc : advice_set(a, "NCCL_IB_SL", advice_fmt("%d", prio),
				    advice_fmt("priority %d has PFC on every up rail; under "
					       "trust pcp RoCE puts the service level in the "
					       "VLAN priority", prio));
}

/* The lossless priority, from every RoCE rail's PFC: -1 when a value
 * cannot be had (said in a). */
static int lossless(const struct nccl_facts *f, const struct profile *p,
		    struct nccl_advice *a, int *prio)
{
	int all = 0xff, any = 0, want = p ? p->role[ROLE_RAIL].pfc_priority : -1, rc;
	char buf[32];

	for (size_t i = 0; i < f->n_ports; i++)
		if (roce_rail(&f->ports[i])) {
			all &= f->ports[i].pfc_mask;
			any |= f->ports[i].pfc_mask;
		}
	*prio = -1;
	if (!any) {
		rc = advice_warn(a, "nothing is lossless: no priority has PFC on on any up "
				 "rail, so RoCE drops packets under congestion; turn PFC on "
				 "for one priority (`rdmadoctor check`: roce.pfc)");
		return rc ? rc : leave_both(a, "nothing is lossless: no priority has PFC on");
	}
	if (!all) {
		rc = advice_warn(a, "no priority has PFC on on every up rail (on some: %s): "
				 "give every rail the same PFC priority", prios(any, buf,
										sizeof(buf)));
		return rc ? rc : leave_both(a, "no priority has PFC on on every up rail");
	}
	if ((all & (all - 1)) == 0) {
		*prio = __builtin_ctz((unsigned)all);
		return 0;
	}
	if (want >= 0 && want < 8 && (all & (1 << want))) {
		*prio = want;
		return 0;
	}
	rc = advice_warn(a, "several priorities have PFC on every up rail (%s) and the "
			 "profile names none of them: which one NCCL should use is not known; "
			 "give a profile with the rail's pfc_priority (--profile)",
			 prios(all, buf, sizeof(buf)));
	return rc ? rc : leave_both(a, "several priorities have PFC on every up rail");
}

int advice_qos(const struct nccl_facts *f, const struct profile *p, struct nccl_advice *a)
{
	const char *trust = NULL;
	size_t roce = 0, ib = 0;
	char *s;
	int prio, rc;

	for (size_t i = 0; i < f->n_ports; i++) {
		const struct nccl_port *q = &f->ports[i];

		if (!advice_rail_up(q))
			continue;
		if (q->infiniband) {
			ib++;
			continue;
		}
		roce++;
		if (!q->trust)
			continue;
		if (trust && strcmp(trust, q->trust) != 0) {
			rc = advice_warn(a, "the rails trust different fields (%s, %s): the "
					 "priority of RoCE traffic then depends on the rail; "
					 "give them one trust", trust, q->trust);
			return rc ? rc : leave_both(a, "the rails trust different fields");
		}
		trust = q->trust;
	}
	if (!roce && !ib)
		return leave_both(a, "no compute rail port is up");
	if (!roce) {
		rc = advice_leave(a, "NCCL_IB_TC",
				  advice_fmt("InfiniBand: NCCL's default traffic class is kept"));
		return rc ? rc : advice_leave(a, "NCCL_IB_SL",
					      advice_fmt("InfiniBand: credit-based flow control "
							 "is lossless; SL 0 is the default VL "
							 "mapping"));
	}
	s = advice_ports(f, qos_unknown, ", ");
	if (!s)
		return -ENOMEM;
	if (s[0]) {
		char *why = advice_fmt("the trust or PFC of %s could not be read (not root, or "
				       "no DCB): unknown", s);

		free(s);
		if (!why)
			return -ENOMEM;
		rc = leave_both(a, why);
		free(why);
		return rc;
	}
	free(s);
	rc = lossless(f, p, a, &prio);
	if (rc || prio < 0)
		return rc;
	if (strcmp(trust, "dscp") == 0)
		return by_dscp(f, prio, a);
	if (strcmp(trust, "pcp") == 0)
		return by_pcp(prio, a);
	return leave_both(a, "the rails trust neither dscp nor pcp");
}
