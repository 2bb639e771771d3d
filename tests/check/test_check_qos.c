/* roce.pfc, roce.trust, roce.qos_mismatch (src/check/qos.c) on a one-NIC
 * RoCE machine whose QoS is set by hand: what DCB netlink would give. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/run.h"
#include "profiles/site.h"

#define MAXNIC 8

static const char rail_profile[] =
	"[profile]\n"
	"name = test-roce\n"
	"[rail]\n"
	"link_layer = Ethernet\n"
	"pfc_priority = 3\n"
	"trust = dscp\n"
	"ecn = yes\n";

/* mlx5_0.. port 1 on eth0..: trust dscp, DSCP d -> priority d / 8, PFC
 * and ECN on priority 3: the healthy lossless setup, on count rails. */
static void machine_n(struct inventory *inv, size_t count)
{
	memset(inv, 0, sizeof(*inv));
	inv->host.memlock_bytes = NA;
	inv->host.memlock_unlimited = -1;
	inv->host.iommu_present = -1;
	inv->host.nvidia_open = -1;
	inv->nics = calloc(count, sizeof(*inv->nics));
	assert_non_null(inv->nics);
	inv->n_nics = count;
	for (size_t k = 0; k < count; k++) {
		struct nic *n = &inv->nics[k];
		struct port *p;
		struct qos *q;
		char name[32];

		snprintf(name, sizeof(name), "mlx5_%zu", k);
		n->name = strdup(name);
		n->driver = strdup("mlx5_core");
		n->model = strdup("ConnectX-7");
		n->ports = p = calloc(1, sizeof(*p));
		assert_non_null(p);
		n->n_ports = 1;
		p->num = 1;
		p->link_layer = strdup("Ethernet");
		p->state = 4;
		p->state_name = strdup("ACTIVE");
		p->phys_state = 5;
		p->phys_state_name = strdup("LinkUp");
		p->rate_gbps = NAN;
		p->lanes = p->lid = p->sm_lid = NA;
		p->active_mtu = p->max_mtu = 4096;
		snprintf(name, sizeof(name), "eth%zu", k);
		p->netdev = strdup(name);
		p->netdev_mtu = 9000;
		p->netdev_speed_mbps = p->carrier_changes = NA;
		p->qos = q = calloc(1, sizeof(*q));
		assert_non_null(q);
		qos_init(q);
		q->dcb_supported = 1;
		q->trust = strdup("dscp");
		for (int i = 0; i < 8; i++) {
			q->pfc_enabled[i] = i == 3;
			q->ecn_np[i] = q->ecn_rp[i] = i == 3;
			q->pause_tx[i] = q->pause_rx[i] = 0;
		}
		for (int d = 0; d < 64; d++)
			q->dscp_to_prio[d] = d / 8;
	}
}

static void machine(struct inventory *inv)
{
	machine_n(inv, 1);
}

static void profile(struct profile *p)
{
	struct profile_error err;

	assert_int_equal(profile_parse(rail_profile, strlen(rail_profile), "test", p, &err), 0);
}

static size_t count_id(const struct findings *fs, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += strcmp(fs->v[i].id, id) == 0;
	return n;
}

static size_t count_qos(const struct findings *fs)
{
	return count_id(fs, "roce.pfc") + count_id(fs, "roce.trust") +
	       count_id(fs, "roce.qos_mismatch");
}

static const struct finding *get(const struct findings *fs, const char *id)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].id, id) == 0)
			return &fs->v[i];
	fprintf(stderr, "no %s among %zu findings\n", id, fs->n);
	for (size_t i = 0; i < fs->n; i++)
		fprintf(stderr, "  %s: %s\n", fs->v[i].id, fs->v[i].observed);
	fail();
	return NULL;
}

static void run(const struct inventory *inv, const struct profile *p, struct findings *fs)
{
	memset(fs, 0, sizeof(*fs));
	assert_int_equal(check_run(inv, p, fs), 0);
	for (size_t i = 0; i < fs->n; i++) {
		assert_non_null(fs->v[i].subject);
		assert_non_null(fs->v[i].observed);
		assert_non_null(fs->v[i].expected);
		assert_non_null(fs->v[i].fix);
	}
}

static void healthy_is_silent(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	(void)state;

	machine(&inv);
	profile(&p);
	run(&inv, &p, &fs);
	assert_int_equal(count_qos(&fs), 0);
	findings_free(&fs);
	run(&inv, NULL, &fs);
	assert_int_equal(count_qos(&fs), 0);
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

static void pfc(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	struct qos *q;
	const struct finding *f;
	(void)state;

	machine(&inv);
	profile(&p);
	q = inv.nics[0].ports[0].qos;
	/* PFC on 4 instead of 3: a warning; off everywhere: an error */
	q->pfc_enabled[3] = 0;
	q->pfc_enabled[4] = 1;
	run(&inv, &p, &fs);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_WARN);
	assert_string_equal(f->subject, "mlx5_0 port 1");
	assert_string_equal(f->observed, "PFC enabled on priorities: 4");
	assert_string_equal(f->expected, "PFC on priority 3");
	assert_non_null(strstr(f->fix, "--pfc 0,0,0,1,0,0,0,0"));
	/* and DSCP 26 lands on a priority without PFC */
	f = get(&fs, "roce.qos_mismatch");
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->observed, "DSCP 26 goes to priority 3, which has no PFC");
	findings_free(&fs);
	q->pfc_enabled[4] = 0;
	run(&inv, &p, &fs);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->observed, "PFC enabled on priorities: none");
	findings_free(&fs);
	/* the generic profile names no priority: roce.pfc not judged */
	run(&inv, NULL, &fs);
	assert_int_equal(count_id(&fs, "roce.pfc"), 0);
	findings_free(&fs);
	/* unknown PFC: nothing */
	q->pfc_enabled[5] = -1;
	run(&inv, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.pfc"), 0);
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

static void trust(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	struct qos *q;
	const struct finding *f;
	(void)state;

	machine(&inv);
	profile(&p);
	q = inv.nics[0].ports[0].qos;
	free(q->trust);
	q->trust = strdup("pcp");
	for (int d = 0; d < 64; d++)
		q->dscp_to_prio[d] = -1;
	run(&inv, &p, &fs);
	f = get(&fs, "roce.trust");
	assert_int_equal(f->severity, SEV_WARN);
	assert_string_equal(f->observed, "trust pcp");
	assert_string_equal(f->expected, "trust dscp");
	assert_int_equal(count_id(&fs, "roce.qos_mismatch"), 0);
	findings_free(&fs);
	/* unknown trust, or a profile that does not judge it */
	free(q->trust);
	q->trust = NULL;
	run(&inv, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.trust"), 0);
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

static void mismatch(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	struct qos *q;
	const struct finding *f;
	(void)state;

	machine(&inv);
	profile(&p);
	q = inv.nics[0].ports[0].qos;
	/* DSCP 26 to priority 5, where PFC and ECN are off */
	q->dscp_to_prio[26] = 5;
	run(&inv, &p, &fs);
	f = get(&fs, "roce.qos_mismatch");
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->observed,
			    "DSCP 26 goes to priority 5, which has no PFC; DSCP 26 goes to "
			    "priority 5, not the RoCE priority 3; ECN is off on priority 5 "
			    "(notification point off, reaction point off)");
	assert_string_equal(f->expected, "DSCP 26 -> priority 3, with PFC and ECN on it");
	assert_int_equal(count_id(&fs, "roce.qos_mismatch"), 1);
	findings_free(&fs);
	/* only ECN disagrees, on the RoCE priority itself: one cause, so one
	 * finding, roce.ecn, whose fix holds the mismatch's command too */
	q->dscp_to_prio[26] = 3;
	q->ecn_rp[3] = 0;
	run(&inv, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.qos_mismatch"), 0);
	assert_int_equal(count_id(&fs, "roce.ecn"), 1);
	f = get(&fs, "roce.ecn");
	assert_int_equal(f->severity, SEV_WARN);
	assert_non_null(strstr(f->fix, "`echo 1 > /sys/class/net/eth0/ecn/roce_rp/enable/3`"));
	findings_free(&fs);
	/* ECN unknown (inbox driver): not judged */
	for (int i = 0; i < 8; i++)
		q->ecn_np[i] = q->ecn_rp[i] = -1;
	run(&inv, &p, &fs);
	assert_int_equal(count_qos(&fs), 0);
	findings_free(&fs);
	/* DSCP 26 unmapped: not judged */
	q->dscp_to_prio[26] = -1;
	q->pfc_enabled[3] = 0;
	q->pfc_enabled[2] = 1;
	run(&inv, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.qos_mismatch"), 0);
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

static void dcb_unknown_or_unsupported(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	struct qos *q;
	const struct finding *f;
	(void)state;

	machine(&inv);
	profile(&p);
	q = inv.nics[0].ports[0].qos;
	free(q->trust);
	qos_init(q);	/* nothing known: ECN only from sysfs, say */
	run(&inv, &p, &fs);
	/* nothing judged, but said: one "not checked" (it was silent); the
	 * profile names PFC and trust, so unseen weighs as a warning */
	assert_int_equal(count_qos(&fs), 1);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_WARN);
	assert_true(f->unchecked);
	assert_true(f->required);
	assert_non_null(strstr(f->observed, "not checked: DCB netlink gave no answer for eth0"));
	findings_free(&fs);
	q->dcb_supported = 0;	/* a VF, veth: nothing judged, required all the same */
	run(&inv, &p, &fs);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_WARN);
	assert_true(f->required);
	assert_string_equal(f->observed, "eth0 does not support DCB netlink");
	assert_true(f->unchecked);
	assert_int_equal(count_qos(&fs), 1);
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

/* check_run_site under a site file (NULL text: none). */
static void run_site(const struct inventory *inv, const struct profile *p, const char *text,
		     struct findings *fs)
{
	enum nic_role roles[MAXNIC];
	struct profile_error err;
	struct site site;

	assert_true(inv->n_nics <= MAXNIC);
	memset(fs, 0, sizeof(*fs));
	if (text)
		assert_int_equal(site_parse(text, strlen(text), "site.conf", &site, &err), 0);
	check_roles(inv, p, text ? &site : NULL, roles);
	assert_int_equal(check_run_site(inv, p, text ? &site : NULL, roles, fs), 0);
	if (text)
		site_free(&site);
}

/* A value the profile requires that could not be read keeps the verdict
 * from PASS (a warning), on every rail; a site file may accept it by id:
 * an info again, still unchecked and counted, marked accepted.  Under
 * generic, which names no PFC, it stays an info. */
static void required_unchecked_weighs(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	const struct finding *f;
	size_t unchecked;
	(void)state;

	machine_n(&inv, 2);
	profile(&p);
	for (size_t k = 0; k < inv.n_nics; k++) {
		struct qos *q = inv.nics[k].ports[0].qos;

		free(q->trust);
		qos_init(q);	/* DCB netlink gave no answer */
		for (int i = 0; i < 8; i++)
			q->ecn_np[i] = q->ecn_rp[i] = i == 3;
	}
	run_site(&inv, &p, NULL, &fs);
	assert_int_equal(count_id(&fs, "roce.pfc"), 2);
	unchecked = check_unchecked(&fs);
	for (size_t i = 0; i < fs.n; i++) {
		if (strcmp(fs.v[i].id, "roce.pfc") != 0)
			continue;
		assert_true(fs.v[i].unchecked);
		assert_int_equal(fs.v[i].severity, SEV_WARN);
		assert_true(fs.v[i].required);
		assert_false(fs.v[i].accepted);
	}
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);

	run_site(&inv, &p, "[site]\naccept_unchecked = roce.ecn, roce.pfc\n", &fs);
	assert_int_equal(count_id(&fs, "roce.pfc"), 2);
	assert_int_equal(check_unchecked(&fs), unchecked);	/* still counted */
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_INFO);
	assert_true(f->accepted);
	assert_false(f->waived);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);

	/* accepting another id accepts nothing here */
	run_site(&inv, &p, "[site]\naccept_unchecked = roce.ecn\n", &fs);
	assert_int_equal(get(&fs, "roce.pfc")->severity, SEV_WARN);
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);

	/* generic leaves lossy RoCE alone: not required, an info */
	run_site(&inv, profile_builtin("generic"), NULL, &fs);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_INFO);
	assert_true(f->unchecked);
	assert_false(f->required);
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

static const struct finding *get_on(const struct findings *fs, const char *id,
				    const char *subject)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].id, id) == 0 && strcmp(fs->v[i].subject, subject) == 0)
			return &fs->v[i];
	fprintf(stderr, "no %s on %s among %zu findings\n", id, subject, fs->n);
	for (size_t i = 0; i < fs->n; i++)
		fprintf(stderr, "  %s %s: %s\n", fs->v[i].id, fs->v[i].subject, fs->v[i].observed);
	fail();
	return NULL;
}

/* The fix of roce.qos_mismatch changes only what is wrong, towards the
 * profile's priority or, without one, the rails' own. */
static void mismatch_fix_changes_something(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	struct qos *q;
	const struct finding *f;
	(void)state;

	machine_n(&inv, 4);
	profile(&p);
	q = inv.nics[2].ports[0].qos;
	/* DSCP 26 to 5: move it back to 3, where PFC and ECN already are */
	q->dscp_to_prio[26] = 5;
	run(&inv, &p, &fs);
	f = get_on(&fs, "roce.qos_mismatch", "mlx5_2 port 1");
	assert_non_null(strstr(f->fix, "`mlnx_qos -i eth2 --dscp2prio set,26,3`"));
	assert_null(strstr(f->fix, "--pfc"));
	assert_null(strstr(f->fix, "echo"));
	findings_free(&fs);
	/* no profile: the other three rails send it to 3 */
	run(&inv, NULL, &fs);
	f = get_on(&fs, "roce.qos_mismatch", "mlx5_2 port 1");
	assert_non_null(strstr(f->fix, "--dscp2prio set,26,3`"));
	assert_null(strstr(f->fix, "set,26,5"));
	assert_non_null(strstr(f->observed, "the other rails send DSCP 26 to priority 3"));
	assert_string_equal(f->expected, "DSCP 26 -> priority 3 as on the other rails, with "
			    "PFC and ECN on it");
	findings_free(&fs);
	/* DSCP 26 on 3 but PFC off there: turn PFC on, leave the map alone */
	q->dscp_to_prio[26] = 3;
	q->pfc_enabled[3] = 0;
	run(&inv, NULL, &fs);
	f = get_on(&fs, "roce.qos_mismatch", "mlx5_2 port 1");
	assert_non_null(strstr(f->fix, "`mlnx_qos -i eth2 --pfc 0,0,0,1,0,0,0,0`"));
	assert_null(strstr(f->fix, "--dscp2prio"));
	findings_free(&fs);
	/* and ECN off there too (the profile wants it): the echo lines */
	q->ecn_np[3] = 0;
	run(&inv, &p, &fs);
	f = get_on(&fs, "roce.qos_mismatch", "mlx5_2 port 1");
	assert_non_null(strstr(f->fix, "`echo 1 > /sys/class/net/eth2/ecn/roce_np/enable/3`"));
	assert_null(strstr(f->fix, "roce_rp"));
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

/* A rail that differs from most of the host's rails, without a profile
 * value to judge it by. */
static void rails_agree(void **state)
{
	struct inventory inv;
	struct findings fs;
	const struct finding *f;
	struct qos *q;
	(void)state;

	machine_n(&inv, 4);
	run(&inv, NULL, &fs);
	assert_int_equal(count_qos(&fs) + count_id(&fs, "mtu.roce") + count_id(&fs, "roce.ecn"), 0);
	findings_free(&fs);
	q = inv.nics[1].ports[0].qos;
	free(q->trust);
	q->trust = strdup("pcp");
	for (int d = 0; d < 64; d++)
		q->dscp_to_prio[d] = -1;
	inv.nics[2].ports[0].netdev_mtu = 4200;
	inv.nics[3].ports[0].qos->dscp_to_prio[48] = 7;
	inv.nics[3].ports[0].qos->ecn_np[5] = 1;
	inv.nics[0].ports[0].qos->pfc_enabled[4] = 1;
	run(&inv, NULL, &fs);
	f = get_on(&fs, "roce.trust", "mlx5_1 port 1");
	assert_string_equal(f->observed, "trust pcp while 3 rails use dscp (majority of all 4 rails)");
	assert_string_equal(f->fix, "`mlnx_qos -i eth1 --trust dscp` (and at every boot)");
	f = get_on(&fs, "mtu.roce", "mlx5_2 port 1");
	assert_string_equal(f->observed, "netdev MTU 4200 while 3 rails use 9000 (majority of all 4 rails)");
	assert_non_null(strstr(f->fix, "`ip link set dev eth2 mtu 9000`"));
	/* of the three DSCP rails, two map 48 to 6 */
	f = get_on(&fs, "roce.qos_mismatch", "mlx5_3 port 1");
	assert_string_equal(f->observed,
			    "DSCP 48 -> priority 7 while 2 rails map it to priority 6 (majority of "
			    "the 3 of 4 rails where it is known)");
	assert_non_null(strstr(f->fix, "`mlnx_qos -i eth3 --dscp2prio set,48,6`"));
	f = get_on(&fs, "roce.ecn", "mlx5_3 port 1");
	assert_non_null(strstr(f->fix, "`echo 0 > /sys/class/net/eth3/ecn/roce_np/enable/5`"));
	f = get_on(&fs, "roce.pfc", "mlx5_0 port 1");
	assert_string_equal(f->observed, "PFC on priorities 3 4 while 3 rails use priority 3 "
					 "(majority of all 4 rails)");
	assert_non_null(strstr(f->fix, "--pfc 0,0,0,1,0,0,0,0`"));
	assert_int_equal(count_qos(&fs) + count_id(&fs, "mtu.roce") + count_id(&fs, "roce.ecn"), 5);
	findings_free(&fs);
	/* two against two: no majority, nothing said */
	inv.nics[0].ports[0].qos->pfc_enabled[4] = 0;
	inv.nics[1].ports[0].qos->pfc_enabled[4] = 1;
	inv.nics[2].ports[0].qos->pfc_enabled[4] = 1;
	run(&inv, NULL, &fs);
	assert_int_equal(count_id(&fs, "roce.pfc"), 0);
	findings_free(&fs);
	inventory_free(&inv);
}

/* Two CNP counts of the port's hw_counters, as mlx5 has them. */
static void cnps(struct port *pt, uint64_t sent, uint64_t handled)
{
	static const char *names[] = { "np_cnp_sent", "rp_cnp_handled" };

	pt->hw_counters.v = calloc(2, sizeof(*pt->hw_counters.v));
	assert_non_null(pt->hw_counters.v);
	pt->hw_counters.n = 2;
	for (int k = 0; k < 2; k++) {
		pt->hw_counters.v[k].name = strdup(names[k]);
		pt->hw_counters.v[k].value = k ? handled : sent;
		pt->hw_counters.v[k].ok = true;
	}
}

/* No ecn/ files (the inbox driver): roce.ecn not checked, unless the
 * port's counters show DCQCN at work both ways (CNPs sent by the
 * notification point and handled by the reaction point). */
static void ecn_unread_cnps(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	const struct finding *f;
	(void)state;

	machine_n(&inv, 3);
	profile(&p);
	inv.host.stack = strdup("inbox");
	for (size_t k = 0; k < 3; k++)
		for (int i = 0; i < 8; i++)
			inv.nics[k].ports[0].qos->ecn_np[i] = inv.nics[k].ports[0].qos->ecn_rp[i] = -1;
	cnps(&inv.nics[0].ports[0], 1200, 900);	/* both ways: ECN at work */
	cnps(&inv.nics[1].ports[0], 1200, 0);	/* sent, never acted on: unproven */
	run(&inv, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.ecn"), 2);
	for (size_t i = 0; i < fs.n; i++) {
		f = &fs.v[i];
		if (strcmp(f->id, "roce.ecn") != 0)
			continue;
		assert_true(f->unchecked);
		assert_false(f->required);	/* inbox: an info */
		assert_null(strstr(f->subject, "mlx5_0"));
	}
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

/* The fix names the card's own tools (model/driver_tools.h, issue 45): a
 * Broadcom rail with PFC off is told iproute2's dcb, never mlnx_qos, which
 * answers only ConnectX; the same rail on mlx5 keeps mlnx_qos. */
static void fix_names_the_drivers_tool(void **state)
{
	struct inventory inv;
	struct profile p;
	struct findings fs;
	struct nic *n;
	const struct finding *f;
	(void)state;

	machine(&inv);
	profile(&p);
	inv.nics[0].ports[0].qos->pfc_enabled[3] = 0;
	run(&inv, &p, &fs);
	f = get(&fs, "roce.pfc");
	assert_non_null(strstr(f->fix, "`mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0`"));
	findings_free(&fs);
	n = &inv.nics[0];
	free(n->name);
	free(n->driver);
	free(n->model);
	n->name = strdup("bnxt_re0");
	n->driver = strdup("bnxt_en");
	n->model = strdup("BCM57608");
	run(&inv, &p, &fs);
	f = get(&fs, "roce.pfc");
	assert_null(strstr(f->fix, "mlnx_qos"));
	assert_non_null(strstr(f->fix, "`dcb pfc set dev eth0 prio-pfc 3:on`"));
	for (size_t i = 0; i < fs.n; i++)
		assert_null(strstr(fs.v[i].fix ? fs.v[i].fix : "", "mlnx_qos"));
	findings_free(&fs);
	profile_free(&p);
	inventory_free(&inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_is_silent),
		cmocka_unit_test(pfc),
		cmocka_unit_test(trust),
		cmocka_unit_test(mismatch),
		cmocka_unit_test(dcb_unknown_or_unsupported),
		cmocka_unit_test(required_unchecked_weighs),
		cmocka_unit_test(mismatch_fix_changes_something),
		cmocka_unit_test(rails_agree),
		cmocka_unit_test(ecn_unread_cnps),
		cmocka_unit_test(fix_names_the_drivers_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
