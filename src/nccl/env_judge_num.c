/* The numbers of a job's NCCL environment judged against the ports it
 * uses (env_judge_priv.h): NCCL_IB_GID_INDEX (nccl.gid_index),
 * NCCL_IB_TC (nccl.tc_no_pfc), NCCL_IB_SL (nccl.sl_no_pfc) and
 * NCCL_NET_GDR_LEVEL (nccl.gdr_level); a value NCCL would not read as
 * meant is nccl.malformed.  NCCL reads its integer variables with
 * strtoll(.., 0): "0x6a" is 106 there and here.  Facts that could not be
 * read give an unchecked info for that port, never a pass. */
#include "env_judge_priv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A whole integer in [lo, hi]. */
bool judge_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (end == s || *end || errno || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static int unchecked(struct judge *j, const char *id, const struct nccl_port *pt,
		     const char *name, const char *value, const char *what, const char *expected)
{
	char at[JUDGE_AT_LEN];
	struct finding *f = judge_add(j, id, SEV_INFO,
				      "What the value is judged against could not be read on "
				      "this port, so it was not checked.", pt);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->observed, "%s=%s%s; %s", name, value, judge_at(j->env, name, at), what);
	finding_set(&f->expected, "%s (not checked)", expected);
	finding_set(&f->fix, "run as root so that DCB netlink and the GID table can be read "
		    "(`rdmadoctor check` names what was not read)");
	return judge_done(f);
}

/* The RoCE ports the job uses (up or unknown). */
static bool roce_used(const struct judge *j, size_t k)
{
	return j->used[k] && !j->f->ports[k].infiniband;
}

int judge_gid_index(struct judge *j)
{
	const char *name = "NCCL_IB_GID_INDEX", *value = nccl_env_get(j->env, name);
	char at[JUDGE_AT_LEN];
	long idx;

	if (!value)
		return 0;
	if (!judge_int(value, -1, 255, &idx))
		return judge_malformed(j, name, value, "a GID index from 0 to 255 (or -1: NCCL "
				       "picks)", "not a GID index");
	if (idx < 0)
		return 0;
	judge_at(j->env, name, at);
	for (size_t k = 0; k < j->f->n_ports; k++) {
		const struct nccl_port *pt = &j->f->ports[k];
		struct finding *f;
		bool ok = false;

		if (!roce_used(j, k))
			continue;
		for (size_t i = 0; i < pt->n_v2_ipv4; i++)
			ok |= pt->v2_ipv4_indices[i] == idx;
		if (ok)
			continue;
		f = judge_add(j, "nccl.gid_index", SEV_ERROR,
			      "A GID that is not RoCE v2 on an IPv4 address is not routed (RoCE "
			      "v1, IPv6 link-local) or not the address the peers use: the QPs do "
			      "not connect and the job hangs or times out.", pt);
		if (!f)
			return -ENOMEM;
		if (pt->n_v2_ipv4)
			finding_set(&f->observed, "%s=%s%s; here the RoCE v2 IPv4 GID is at "
				    "index %d", name, value, at, pt->gid_index >= 0 ? pt->gid_index
								: pt->v2_ipv4_indices[0]);
		else
			finding_set(&f->observed, "%s=%s%s; this port has no RoCE v2 IPv4 GID "
				    "(none, or its GID table could not be read)", name, value, at);
		finding_set(&f->expected, "a RoCE v2 IPv4 GID at index %ld", idx);
		if (pt->n_v2_ipv4)
			finding_set(&f->fix, "set %s=%d, or leave it unset and let NCCL 2.21 or "
				    "later pick (NCCL_IB_ROCE_VERSION_NUM=2, NCCL_IB_ADDR_FAMILY="
				    "AF_INET); where rails differ, gid.index_mismatch says how to "
				    "align them", name, pt->gid_index >= 0 ? pt->gid_index
									   : pt->v2_ipv4_indices[0]);
		else
			finding_set(&f->fix, "give %s its IPv4 address (`ip addr add ADDR/PREFIX "
				    "dev %s`): the kernel adds the RoCE v2 GID with it",
				    pt->netdev ? pt->netdev : "the port's netdev",
				    pt->netdev ? pt->netdev : "IF");
		if (judge_done(f) < 0)
			return -ENOMEM;
	}
	return 0;
}

void judge_pfc_text(int mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int p = 0; p < 8 && n < len; p++)
		if (mask & (1 << p))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? " " : "", p);
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* One port whose priority prio (from the TC's DSCP or the SL) has no PFC. */
static int no_pfc(struct judge *j, const char *id, const struct nccl_port *pt,
		  const char *name, const char *value, const char *how, int prio)
{
	char at[JUDGE_AT_LEN], on[24];
	struct finding *f = judge_add(j, id, SEV_ERROR,
				      "RoCE needs a lossless priority: on one without PFC a "
				      "congested switch drops packets, and every drop costs a "
				      "go-back-N retransmission and a timeout's worth of "
				      "bandwidth.", pt);

	if (!f)
		return -ENOMEM;
	judge_pfc_text(pt->pfc_mask, on, sizeof(on));
	finding_set(&f->observed, "%s=%s%s: %s priority %d; PFC is on for: %s", name, value,
		    judge_at(j->env, name, at), how, prio, on);
	finding_set(&f->expected, "a priority with PFC on (%s)", on);
	finding_set(&f->fix, "set %s to the lossless class (`rdmadoctor nccl` prints it), "
		    "or turn PFC on for priority %d on %s and on its switch port", name, prio,
		    pt->netdev ? pt->netdev : pt->dev);
	return judge_done(f);
}

int judge_tc(struct judge *j)
{
	const char *name = "NCCL_IB_TC", *value = nccl_env_get(j->env, name);
	char how[64];
	long tc;

	if (!value)
		return 0;
	if (!judge_int(value, 0, 255, &tc))
		return judge_malformed(j, name, value, "a traffic class from 0 to 255 (DSCP "
				       "times 4)", "not a traffic class");
	for (size_t k = 0; k < j->f->n_ports; k++) {
		const struct nccl_port *pt = &j->f->ports[k];
		int dscp = (int)(tc >> 2), prio;
		int rc = 0;

		if (!roce_used(j, k))
			continue;
		/* under trust pcp the priority comes from the VLAN tag, not
		 * from the DSCP this sets: NCCL_IB_SL is judged there */
		if (pt->trust && strcmp(pt->trust, "pcp") == 0)
			continue;
		prio = pt->dscp_to_prio[dscp];
		if (!pt->trust || pt->pfc_mask < 0 || prio < 0 || prio > 7)
			rc = unchecked(j, "nccl.tc_no_pfc", pt, name, value,
				       "the port's trust mode, DSCP map or PFC is unknown",
				       "its DSCP on a priority with PFC");
		else if (!(pt->pfc_mask & (1 << prio))) {
			snprintf(how, sizeof(how), "DSCP %d (the TC >> 2), which trust dscp "
				 "maps to", dscp);
			rc = no_pfc(j, "nccl.tc_no_pfc", pt, name, value, how, prio);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

int judge_sl(struct judge *j)
{
	const char *name = "NCCL_IB_SL", *value = nccl_env_get(j->env, name);
	long sl;

	if (!value)
		return 0;
	if (!judge_int(value, 0, 15, &sl))
		return judge_malformed(j, name, value, "a service level from 0 to 15",
				       "not a service level");
	for (size_t k = 0; k < j->f->n_ports; k++) {
		const struct nccl_port *pt = &j->f->ports[k];
		int rc = 0;

		/* InfiniBand is lossless by credits on every VL; under trust
		 * dscp the SL does not choose the priority */
		if (!roce_used(j, k) || (pt->trust && strcmp(pt->trust, "dscp") == 0))
			continue;
		if (!pt->trust || pt->pfc_mask < 0)
			rc = unchecked(j, "nccl.sl_no_pfc", pt, name, value,
				       "the port's trust mode or PFC is unknown",
				       "the SL on a priority with PFC");
		else if (sl > 7 || !(pt->pfc_mask & (1 << sl)))
			rc = no_pfc(j, "nccl.sl_no_pfc", pt, name, value,
				    "under trust pcp RoCE sends the SL as the VLAN", (int)sl);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* NCCL's GDR levels: LOC 0 (never), PIX 1, PXB 2, PHB 3, SYS 4; names or
 * the legacy integers (NCCL docs, NCCL_NET_GDR_LEVEL).  -1: not one. */
static int gdr_level_of(const char *s)
{
	static const char *const names[] = { "LOC", "PIX", "PXB", "PHB", "SYS" };
	long v;

	for (int i = 0; i < 5; i++)
		if (strcasecmp(s, names[i]) == 0)
			return i;
	return judge_int(s, 0, 4, &v) ? (int)v : -1;
}

/* Our path to NCCL's level: NODE (through the CPU within a NUMA node) is
 * what NCCL calls PHB; X (the same device) needs no more than PIX. */
static int level_of_path(enum path_type p)
{
	switch (p) {
	case PATH_X:
	case PATH_PIX:
		return 1;
	case PATH_PXB:
		return 2;
	case PATH_PHB:
	case PATH_NODE:
		return 3;
	case PATH_SYS:
		return 4;
	}
	return 4;
}

int judge_gdr_level(struct judge *j)
{
	static const char *const names[] = { "LOC", "PIX", "PXB", "PHB", "SYS" };
	const char *name = "NCCL_NET_GDR_LEVEL", *value = nccl_env_get(j->env, name);
	char at[JUDGE_AT_LEN];
	int level;

	if (!value)
		return 0;
	level = gdr_level_of(value);
	if (level < 0)
		return judge_malformed(j, name, value, "LOC, PIX, PXB, PHB or SYS",
				       "not a GPUDirect level");
	/* no GPU, or GPUDirect not there at all: a level changes nothing
	 * (gdr.missing in `check` says why it is not there) */
	if (j->f->n_gpus == 0 || j->f->gdr_ready == 0)
		return 0;
	judge_at(j->env, name, at);
	for (size_t k = 0; k < j->f->n_ports; k++) {
		const struct nccl_port *pt = &j->f->ports[k];
		struct finding *f;
		int need;

		if (!j->used[k])
			continue;
		if (pt->nearest_gpu < 0) {
			if (unchecked(j, "nccl.gdr_level", pt, name, value,
				      "the GPU nearest this NIC is unknown",
				      "GPUDirect allowed to its nearest GPU") < 0)
				return -ENOMEM;
			continue;
		}
		need = level_of_path(pt->path);
		if (need <= level)
			continue;
		f = judge_add(j, "nccl.gdr_level", SEV_WARN,
			      "Past the level NCCL copies through host memory instead of using "
			      "GPUDirect RDMA: more latency, less bandwidth, and CPU memory "
			      "bandwidth taken.", pt);
		if (!f)
			return -ENOMEM;
		if (pt->path == PATH_NODE)
			finding_set(&f->observed, "%s=%s%s; the path from this NIC to its nearest "
				    "GPU is NODE (NCCL's PHB): GPUDirect is off there", name, value,
				    at);
		else
			finding_set(&f->observed, "%s=%s%s; the path from this NIC to its nearest "
				    "GPU is %s: GPUDirect is off there", name, value, at,
				    names[need]);
		finding_set(&f->expected, "%s or looser", names[need]);
		finding_set(&f->fix, "leave %s unset (NCCL picks by the topology) or set it to "
			    "%s", name, names[need]);
		if (judge_done(f) < 0)
			return -ENOMEM;
	}
	return 0;
}
