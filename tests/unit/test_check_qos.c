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

#include "check/check.h"

static const char rail_profile[] =
	"[profile]\n"
	"name = test-roce\n"
	"[rail]\n"
	"link_layer = Ethernet\n"
	"pfc_priority = 3\n"
	"trust = dscp\n"
	"ecn = yes\n";

/* mlx5_0 port 1 on eth0: trust dscp, DSCP d -> priority d / 8, PFC and
 * ECN on priority 3: the healthy lossless setup. */
static void machine(struct inventory *inv)
{
	struct nic *n;
	struct port *p;
	struct qos *q;

	memset(inv, 0, sizeof(*inv));
	inv->host.memlock_bytes = NA;
	inv->host.memlock_unlimited = -1;
	inv->host.iommu_present = -1;
	inv->host.nvidia_open = -1;
	inv->nics = n = calloc(1, sizeof(*n));
	assert_non_null(n);
	inv->n_nics = 1;
	n->name = strdup("mlx5_0");
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
	p->netdev = strdup("eth0");
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
	/* only ECN disagrees: a warning, the ECN piece named */
	q->dscp_to_prio[26] = 3;
	q->ecn_rp[3] = 0;
	run(&inv, &p, &fs);
	f = get(&fs, "roce.qos_mismatch");
	assert_int_equal(f->severity, SEV_WARN);
	assert_string_equal(f->observed, "ECN is off on priority 3 (notification point on, "
			    "reaction point off)");
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
	/* nothing judged, but said: one "not checked" info (it was silent) */
	assert_int_equal(count_qos(&fs), 1);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_INFO);
	assert_true(f->unchecked);
	assert_non_null(strstr(f->observed, "not checked: DCB netlink gave no answer for eth0"));
	findings_free(&fs);
	q->dcb_supported = 0;	/* a VF, veth: an info, nothing judged */
	run(&inv, &p, &fs);
	f = get(&fs, "roce.pfc");
	assert_int_equal(f->severity, SEV_INFO);
	assert_string_equal(f->observed, "eth0 does not support DCB netlink");
	assert_true(f->unchecked);
	assert_int_equal(count_qos(&fs), 1);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
