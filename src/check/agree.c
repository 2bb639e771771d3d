/* The rails agree: on one host every RoCE rail port should carry the same
 * trust mode, PFC priorities, DSCP map, ECN priorities and netdev MTU
 * (InfiniBand's MTU is judged per port by mtu.c, against 4096).  A rail
 * whose setting differs from what most rails (more than half of those
 * where it is known, and at least two) run is a finding under that
 * setting's id, even where the profile names no value: "trust pcp while 3
 * rails use dscp".  Where the profile names the trust mode or the PFC
 * priority its own check judges every rail against it, and the majority
 * is not asked (it could be the wrong one).  A port that already has a
 * finding under the same id gets no second one.
 *
 * (The RoCE v2 GID index and firmware per NIC model are judged across
 * the rails by gid.index_mismatch and fw.mixed.) */
#include "families.h"
#include "../model/driver_tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct voter {
	size_t nic;
	const struct port *pt;
};

/* One setting: whether a port's value is known, whether two ports carry
 * the same, and the finding for a port that differs from the majority. */
struct setting {
	const char *id;
	bool (*known)(const struct port *pt);
	bool (*same)(const struct port *a, const struct port *b);
	int (*differs)(const struct check_ctx *c, struct findings *out, const struct voter *v,
			const struct port *major, size_t n_major);
};

/* mlnx_qos answers only ConnectX; other drivers take iproute2's dcb
 * (model/driver_tools.h). */
static bool mlx(const struct check_ctx *c, const struct voter *v)
{
	return drv_tools_of_nic(&c->inv->nics[v->nic])->mlx;
}

static const char *dev_of(const struct port *pt)
{
	return pt->netdev ? pt->netdev : "<netdev>";
}

/* -- trust -------------------------------------------------------------- */

static bool trust_known(const struct port *pt)
{
	return pt->qos && pt->qos->dcb_supported == 1 && pt->qos->trust;
}

static bool trust_same(const struct port *a, const struct port *b)
{
	return strcmp(a->qos->trust, b->qos->trust) == 0;
}

static struct finding *add(const struct check_ctx *c, struct findings *out, const char *id,
			   const char *why, const struct voter *v)
{
	struct finding *f = check_add(c, out, id, SEV_WARN, why);

	if (f)
		finding_set(&f->subject, "%s port %d", c->inv->nics[v->nic].name, v->pt->num);
	return f;
}

static int trust_differs(const struct check_ctx *c, struct findings *out,
			 const struct voter *v, const struct port *major, size_t n)
{
	struct finding *f = add(c, out, "roce.trust",
				"A rail whose trust mode differs from the others classifies RoCE "
				"packets differently: its traffic lands on another priority than "
				"the switch and the other rails expect, without PFC or ECN.", v);

	if (!f)
		return -ENOMEM;
	finding_set(&f->observed, "trust %s while %zu rails use %s", v->pt->qos->trust, n,
		    major->qos->trust);
	finding_set(&f->expected, "trust %s, as the other rails", major->qos->trust);
	if (mlx(c, v))
		finding_set(&f->fix, "`mlnx_qos -i %s --trust %s` (and at every boot)",
			    dev_of(v->pt), major->qos->trust);
	else
		finding_set(&f->fix, DRV_DCB_TRUST " (and at every boot)", dev_of(v->pt),
			    major->qos->trust);
	return 0;
}

/* -- PFC ---------------------------------------------------------------- */

static bool pfc_known(const struct port *pt)
{
	if (!pt->qos || pt->qos->dcb_supported != 1)
		return false;
	for (int i = 0; i < 8; i++)
		if (pt->qos->pfc_enabled[i] < 0)
			return false;
	return true;
}

static bool pfc_same(const struct port *a, const struct port *b)
{
	return memcmp(a->qos->pfc_enabled, b->qos->pfc_enabled, sizeof(a->qos->pfc_enabled)) == 0;
}

/* "priority 3", "priorities 3 4", "none" */
static void prio_list(struct check_buf *b, const int v[8])
{
	size_t n = 0;

	for (int i = 0; i < 8; i++)
		n += v[i] == 1;
	if (!n) {
		check_buf_printf(b, "none");
		return;
	}
	check_buf_printf(b, "%s", n == 1 ? "priority" : "priorities");
	for (int i = 0; i < 8; i++)
		if (v[i] == 1)
			check_buf_printf(b, " %d", i);
}

static int pfc_differs(const struct check_ctx *c, struct findings *out, const struct voter *v,
			const struct port *major, size_t n)
{
	struct check_buf obs = { 0 }, want = { 0 }, fix = { 0 };
	char vec[16];
	struct finding *f = add(c, out, "roce.pfc",
				"A rail with PFC on other priorities than the rest is lossy where "
				"the others are lossless: its RoCE traffic is dropped under load "
				"while the same job runs clean on the other rails.", v);

	if (!f)
		return -ENOMEM;
	check_buf_printf(&obs, "PFC on ");
	prio_list(&obs, v->pt->qos->pfc_enabled);
	check_buf_printf(&obs, " while %zu rails use ", n);
	prio_list(&obs, major->qos->pfc_enabled);
	check_buf_take(&obs, &f->observed);
	check_buf_printf(&want, "PFC on ");
	prio_list(&want, major->qos->pfc_enabled);
	check_buf_printf(&want, ", as the other rails");
	check_buf_take(&want, &f->expected);
	for (int i = 0; i < 8; i++) {
		vec[2 * i] = major->qos->pfc_enabled[i] == 1 ? '1' : '0';
		vec[2 * i + 1] = i < 7 ? ',' : '\0';
	}
	if (mlx(c, v)) {
		finding_set(&f->fix, "`mlnx_qos -i %s --pfc %s` (and at every boot)",
			    dev_of(v->pt), vec);
		return 0;
	}
	/* dcb's PFC-MAP applies in order: all off, then the majority's on */
	check_buf_printf(&fix, "`dcb pfc set dev %s prio-pfc all:off", dev_of(v->pt));
	for (int i = 0; i < 8; i++)
		if (major->qos->pfc_enabled[i] == 1)
			check_buf_printf(&fix, " %d:on", i);
	check_buf_printf(&fix, "` (and at every boot)");
	check_buf_take(&fix, &f->fix);
	return 0;
}

/* -- DSCP map ----------------------------------------------------------- */

static bool map_known(const struct port *pt)
{
	if (!trust_known(pt) || strcmp(pt->qos->trust, "dscp") != 0)
		return false;
	for (int d = 0; d < 64; d++)
		if (pt->qos->dscp_to_prio[d] < 0)
			return false;
	return true;
}

static bool map_same(const struct port *a, const struct port *b)
{
	return memcmp(a->qos->dscp_to_prio, b->qos->dscp_to_prio,
		      sizeof(a->qos->dscp_to_prio)) == 0;
}

static int map_differs(const struct check_ctx *c, struct findings *out, const struct voter *v,
			const struct port *major, size_t n)
{
	struct check_buf obs = { 0 }, fix = { 0 };
	const int *mine = v->pt->qos->dscp_to_prio, *theirs = major->qos->dscp_to_prio;
	size_t shown = 0, more = 0;
	struct finding *f = add(c, out, "roce.qos_mismatch",
				"A rail that maps DSCP values to other priorities than the rest "
				"puts the same traffic on another priority: without PFC or ECN "
				"there, or sharing it with other traffic.", v);

	if (!f)
		return -ENOMEM;
	for (int d = 0; d < 64; d++) {
		if (mine[d] == theirs[d])
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		check_buf_printf(&obs, "%sDSCP %d -> priority %d", shown ? ", " : "", d, mine[d]);
		if (mlx(c, v))
			check_buf_printf(&fix, "%s`mlnx_qos -i %s --dscp2prio set,%d,%d`",
					 shown ? ", " : "", dev_of(v->pt), d, theirs[d]);
		else
			check_buf_printf(&fix, "%s" DRV_DCB_DSCP, shown ? ", " : "",
					 dev_of(v->pt), d, theirs[d]);
		shown++;
	}
	if (more)
		check_buf_printf(&obs, " and %zu more", more);
	check_buf_printf(&obs, " while %zu rails map %s to priorit%s", n,
			 shown + more == 1 ? "it" : "them", shown + more == 1 ? "y" : "ies");
	for (int d = 0, k = 0; d < 64 && k < 4; d++)
		if (mine[d] != theirs[d]) {
			check_buf_printf(&obs, " %d", theirs[d]);
			k++;
		}
	if (more)
		check_buf_printf(&fix, " and the other %zu the same way", more);
	check_buf_printf(&fix, " (and at every boot)");
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "the DSCP map of the other rails");
	check_buf_take(&fix, &f->fix);
	return 0;
}

/* -- ECN ---------------------------------------------------------------- */

static bool ecn_known(const struct port *pt)
{
	if (!pt->qos)
		return false;
	for (int i = 0; i < 8; i++)
		if (pt->qos->ecn_np[i] < 0 || pt->qos->ecn_rp[i] < 0)
			return false;
	return true;
}

static bool ecn_same(const struct port *a, const struct port *b)
{
	return memcmp(a->qos->ecn_np, b->qos->ecn_np, sizeof(a->qos->ecn_np)) == 0 &&
	       memcmp(a->qos->ecn_rp, b->qos->ecn_rp, sizeof(a->qos->ecn_rp)) == 0;
}

static int ecn_differs(const struct check_ctx *c, struct findings *out, const struct voter *v,
			const struct port *major, size_t n)
{
	const struct qos *q = v->pt->qos, *m = major->qos;
	struct check_buf obs = { 0 }, fix = { 0 };
	struct finding *f = add(c, out, "roce.ecn",
				"A rail with ECN on other priorities than the rest reacts to "
				"congestion differently: where it is off, only PFC pauses act "
				"and that rail's bandwidth collapses under load.", v);

	if (!f)
		return -ENOMEM;
	check_buf_printf(&obs, "ECN notification point on ");
	prio_list(&obs, q->ecn_np);
	check_buf_printf(&obs, ", reaction point on ");
	prio_list(&obs, q->ecn_rp);
	check_buf_printf(&obs, " while %zu rails use ", n);
	prio_list(&obs, m->ecn_np);
	check_buf_printf(&obs, " and ");
	prio_list(&obs, m->ecn_rp);
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "ECN on the priorities of the other rails");
	for (int i = 0; i < 8; i++) {
		if (q->ecn_np[i] != m->ecn_np[i])
			check_buf_printf(&fix, "%s`echo %d > /sys/class/net/%s/ecn/roce_np/enable/%d`",
					 fix.len ? ", " : "", m->ecn_np[i], dev_of(v->pt), i);
		if (q->ecn_rp[i] != m->ecn_rp[i])
			check_buf_printf(&fix, "%s`echo %d > /sys/class/net/%s/ecn/roce_rp/enable/%d`",
					 fix.len ? ", " : "", m->ecn_rp[i], dev_of(v->pt), i);
	}
	check_buf_printf(&fix, " (and at every boot)");
	check_buf_take(&fix, &f->fix);
	return 0;
}

/* -- MTU ---------------------------------------------------------------- */

/* The netdev MTU that sizes a RoCE rail's RDMA packets.  InfiniBand's
 * active MTU is not voted on: mtu.c judges every IB port against 4096,
 * the largest there is, so a rail below it has its finding already, and
 * a vote could only ask the one rail at 4096 to come down to what most
 * run (the wrong way). */
static const char WHY_MTU[] =
	"A rail with another netdev MTU than the rest sends RDMA packets of "
	"another size: the job runs at the pace of the smallest, or its "
	"large frames are dropped where the path carries less.";

static bool mtu_known(const struct port *pt)
{
	return port_is_up(pt) && !IS_NA(pt->netdev_mtu);
}

static bool mtu_same(const struct port *a, const struct port *b)
{
	return a->netdev_mtu == b->netdev_mtu;
}

static int mtu_differs(const struct check_ctx *c, struct findings *out, const struct voter *v,
		       const struct port *major, size_t n)
{
	long long mine = (long long)v->pt->netdev_mtu, theirs = (long long)major->netdev_mtu;
	struct finding *f = add(c, out, "mtu.roce", WHY_MTU, v);

	if (!f)
		return -ENOMEM;
	finding_set(&f->observed, "netdev MTU %lld while %zu rails use %lld", mine, n, theirs);
	finding_set(&f->expected, "netdev MTU %lld, as the other rails", theirs);
	finding_set(&f->fix, "`ip link set dev %s mtu %lld` and the same in its network "
		    "configuration", dev_of(v->pt), theirs);
	return 0;
}

/* -- the vote ----------------------------------------------------------- */

static bool already(const struct findings *out, size_t from, const char *id, const char *nic,
		    int port)
{
	char subject[160];

	snprintf(subject, sizeof(subject), "%s port %d", nic, port);
	for (size_t i = from; i < out->n; i++)
		if (strcmp(out->v[i].id, id) == 0 && out->v[i].subject &&
		    strcmp(out->v[i].subject, subject) == 0)
			return true;
	return false;
}

/* Say what the majority was taken over: the rails where the setting was
 * read, of all of them, so that rails left out (no DCB reading) show. */
static void majority_over(struct finding *f, size_t known, size_t n)
{
	if (!f->observed)
		return;		/* no memory: check_run fails the run */
	if (known == n)
		finding_set(&f->observed, "%s (majority of all %zu rails)", f->observed, n);
	else
		finding_set(&f->observed, "%s (majority of the %zu of %zu rails where it is known)",
			    f->observed, known, n);
}

static int vote(const struct check_ctx *c, struct findings *out, size_t from,
		const struct voter *v, size_t n, const struct setting *s)
{
	size_t known = 0, best = 0, best_n = 0;

	for (size_t i = 0; i < n; i++) {
		size_t same = 0;

		if (!s->known(v[i].pt))
			continue;
		known++;
		for (size_t j = 0; j < n; j++)
			same += s->known(v[j].pt) && s->same(v[i].pt, v[j].pt);
		if (same > best_n) {
			best_n = same;
			best = i;
		}
	}
	if (best_n < 2 || best_n * 2 <= known)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct nic *nic = &c->inv->nics[v[i].nic];

		if (!s->known(v[i].pt) || s->same(v[i].pt, v[best].pt) ||
		    already(out, from, s->id, nic->name, v[i].pt->num))
			continue;
		CHECK_TRY(s->differs(c, out, &v[i], v[best].pt, best_n));
		majority_over(&out->v[out->n - 1], known, n);
	}
	return 0;
}

static const struct setting roce_settings[] = {
	{ "roce.trust", trust_known, trust_same, trust_differs },
	{ "roce.pfc", pfc_known, pfc_same, pfc_differs },
	{ "roce.qos_mismatch", map_known, map_same, map_differs },
	{ "roce.ecn", ecn_known, ecn_same, ecn_differs },
	{ "mtu.roce", mtu_known, mtu_same, mtu_differs },
};

/* The RoCE rail ports: *n of them at *vp (NULL: none).  0 or -ENOMEM. */
static int rail_ports(const struct check_ctx *c, struct voter **vp, size_t *n)
{
	const struct inventory *inv = c->inv;
	struct voter *v;
	size_t total = 0;

	*n = 0;
	*vp = NULL;
	for (size_t i = 0; i < inv->n_nics; i++)
		total += inv->nics[i].n_ports;
	if (!total)
		return 0;
	v = calloc(total, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*vp = v;
	for (size_t i = 0; i < inv->n_nics; i++) {
		if (!check_is_rail(c, i) || check_nic_is_software(&inv->nics[i]))
			continue;
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];

			if (check_port_is_eth(pt))
				v[(*n)++] = (struct voter){ i, pt };
		}
	}
	return 0;
}

int check_agree(const struct check_ctx *c, struct findings *out, size_t from)
{
	size_t n;
	struct voter *v;
	int rc = rail_ports(c, &v, &n);

	for (size_t s = 0; !rc && v && s < sizeof(roce_settings) / sizeof(roce_settings[0]); s++) {
		bool profile_says = false;

		/* the profile's own value is judged by roce.trust / roce.pfc */
		for (size_t k = 0; k < n && !profile_says; k++) {
			const struct role_spec *rs = check_role_spec(c, v[k].nic);

			profile_says = (s == 0 && rs->trust) || (s == 1 && rs->pfc_priority >= 0);
		}
		if (!profile_says)
			rc = vote(c, out, from, v, n, &roce_settings[s]);
	}
	free(v);
	return rc;
}

int check_rails_dscp_prio(const struct check_ctx *c, int dscp)
{
	const struct inventory *inv = c->inv;
	int count[8] = { 0 }, known = 0, best = -1;

	for (size_t i = 0; i < inv->n_nics; i++) {
		if (!check_is_rail(c, i))
			continue;
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];
			int p;

			if (!check_port_is_eth(pt) || !trust_known(pt) ||
			    strcmp(pt->qos->trust, "dscp") != 0)
				continue;
			p = pt->qos->dscp_to_prio[dscp];
			if (p < 0 || p > 7)
				continue;
			count[p]++;
			known++;
		}
	}
	for (int p = 0; p < 8; p++)
		if (count[p] >= 2 && count[p] * 2 > known)
			best = p;
	return best;
}
