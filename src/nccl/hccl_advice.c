/* HCCL's variables on an Ascend machine, from the NPU model (the NPU
 * ports' PFC as hccn_tool -pfc prints it) and the profile's [npu] section.
 *
 * What Huawei's CANN reference says of each (docs/nccl-hccl-sources.md):
 * HCCL_RDMA_SL is the RDMA service level, an integer 0-7, default 4, and
 * must equal the PFC priority of the NPU's NIC; HCCL_RDMA_TC is the ToS
 * byte of RoCE v2, 0-255 and a multiple of 4 (DSCP x 4), default 132 =
 * DSCP 33; HCCL_IF_IP and HCCL_SOCKET_IFNAME pick the HOST interface of
 * HCCL's socket bootstrap.  Only what the facts justify is set:
 * - the lossless priority P is the one priority with PFC on on every NPU
 *   port that is up (several: the profile's npu_pfc_priority when it is
 *   among them); HCCL_RDMA_SL = P;
 * - HCCL_RDMA_TC needs the DSCP the NPUs map to P, which is not read
 *   (hccn_tool -dscp_to_tc is not confirmed, docs/ascend.md): it is set
 *   only for P = 4, to HCCL's documented default pair (SL 4, TC 132);
 * - the host interface: the inventory reads no default route, and the NPU
 *   ports' addresses are device-side, so both are left out. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice.h"
#include "advice_list.h"

#define HCCL_DEFAULT_SL 4
#define HCCL_DEFAULT_TC 132	/* DSCP 33 */

/* "0,3" (at most 8 priorities) */
static void mask_text(int m, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < 8 && o < len; i++)
		if (m & (1 << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "," : "", i);
	if (!o)
		snprintf(buf, len, "none");
}

/* The outcome of the PFC rule: P >= 0, or -1 with why (left out) in why. */
struct lossless {
	int prio;
	char why[512];
};

static int find_lossless(const struct inventory *inv, const struct profile *p,
			 struct nccl_advice *a, struct lossless *L)
{
	const struct npu_inventory *ni = &inv->npu;
	int all = 0xff, any = 0, n_up = 0;
	char per[384] = "";
	size_t o = 0;

	L->prio = -1;
	for (size_t i = 0; i < ni->n; i++) {
		const struct npu *u = &ni->v[i];
		char m[24];
		int mask;

		if (!u->port_read || u->port.link_up != 1)
			continue;
		n_up++;
		mask = npu_port_pfc_mask(&u->port);
		if (mask < 0) {
			snprintf(L->why, sizeof(L->why),
				 "PFC of npu%lld is not known (hccn_tool -pfc not read or its bond "
				 "members differ): the lossless priority cannot be told",
				 (long long)u->id);
			return 0;
		}
		all &= mask;
		any |= mask;
		mask_text(mask, m, sizeof(m));
		if (o < sizeof(per))
			o += (size_t)snprintf(per + o, sizeof(per) - o, "%snpu%lld %s", o ? ", " : "",
					      (long long)u->id, m);
	}
	if (!n_up) {
		snprintf(L->why, sizeof(L->why), "no NPU port is up (hccn_tool -link)");
		return advice_warn(a, "no NPU port is up: HCCL has no RoCE port to run on");
	}
	if (!any) {
		snprintf(L->why, sizeof(L->why),
			 "no NPU port has PFC on any priority: nothing is lossless");
		return advice_warn(a, "nothing is lossless: no NPU port that is up has PFC on (%s)",
				   per);
	}
	if (!all) {
		snprintf(L->why, sizeof(L->why),
			 "the NPU ports have PFC on different priorities (%s)", per);
		return advice_error(a, "HCCL_RDMA_SL: the NPU ports have PFC on different "
				    "priorities (%s): no one service level is lossless on all of them",
				    per);
	}
	if (all & (all - 1)) {
		char m[24];

		if (p && p->npu.pfc_priority >= 0 && p->npu.pfc_priority < 8 &&
		    (all & (1 << p->npu.pfc_priority))) {
			L->prio = p->npu.pfc_priority;
			return 0;
		}
		mask_text(all, m, sizeof(m));
		snprintf(L->why, sizeof(L->why),
			 "PFC is on on several priorities on every NPU port (%s) and the "
			 "profile names none of them", m);
		return advice_warn(a, "several priorities have PFC on on every NPU port (%s): "
				   "HCCL_RDMA_SL left out, set it to the one the switches treat as "
				   "lossless", m);
	}
	for (int i = 0; i < 8; i++)
		if (all == 1 << i)
			L->prio = i;
	return 0;
}

int hccl_advise(const struct inventory *inv, const struct profile *p, struct nccl_advice *a)
{
	struct lossless L;
	int set_tc, set_sl, rc;
	const char *host_why;

	memset(a, 0, sizeof(*a));
	a->library = "hccl";
	rc = find_lossless(inv, p, a, &L);
	set_sl = L.prio >= 0;
	set_tc = L.prio == HCCL_DEFAULT_SL;
	if (!rc && set_tc)
		rc = advice_set(a, "HCCL_RDMA_TC", advice_fmt("%d", HCCL_DEFAULT_TC),
				advice_fmt("DSCP 33 (TC = DSCP x 4): HCCL's documented default pair "
					   "for service level 4, the priority with PFC on on every "
					   "NPU port that is up"));
	if (!rc && set_sl)
		rc = advice_set(a, "HCCL_RDMA_SL", advice_fmt("%d", L.prio),
				advice_fmt("PFC is on on priority %d on every NPU port that is up "
					   "(hccn_tool -pfc); HCCL's service level must equal it%s",
					   L.prio, L.prio == HCCL_DEFAULT_SL ?
					   " (HCCL's default, set explicitly)" : ""));
	if (!rc && !set_tc)
		rc = advice_leave(a, "HCCL_RDMA_TC", set_sl ?
				  advice_fmt("the DSCP the NPUs map to priority %d is not read "
					     "(hccn_tool -dscp_to_tc is not read): set 4 x that DSCP; "
					     "HCCL's default 132 (DSCP 33) goes with priority 4",
					     L.prio) :
				  advice_fmt("%s", L.why));
	if (!rc && !set_sl)
		rc = advice_leave(a, "HCCL_RDMA_SL", advice_fmt("%s", L.why));
	host_why = "HCCL's bootstrap runs on a host interface; the host's route to the "
		   "other nodes is not read (the NPU ports' addresses are the device's, not "
		   "the host's), so HCCL's default stays: HCCL_IF_IP, then HCCL_SOCKET_IFNAME, "
		   "then interfaces other than docker and lo in name order";
	if (!rc)
		rc = advice_leave(a, "HCCL_IF_IP", advice_fmt("%s", host_why));
	if (!rc)
		rc = advice_leave(a, "HCCL_SOCKET_IFNAME", advice_fmt("%s", host_why));
	if (rc) {
		/* nothing half built is left */
		nccl_advice_free(a);
		a->library = "hccl";
		return -ENOMEM;
	}
	return 0;
}
