/* Checks against small machines built in C (check_machine.h): the whole
 * run: the healthy shape gives no finding, the findings' order and the
 * verdict, what the generic profile judges (src/check/run.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"
#include "check/rank.h"

/* A RoCE port whose DCB answered with the usual lossless setup: PFC and
 * DSCP 26 on priority 3, trust dscp (ECN left unknown).  Without a reading
 * a RoCE rail is "not checked". */
static void dcb_read(struct port *pt)
{
	struct qos *q = calloc(1, sizeof(*q));

	assert_non_null(q);
	qos_init(q);
	q->dcb_supported = 1;
	q->trust = strdup("dscp");
	for (int i = 0; i < 8; i++)
		q->pfc_enabled[i] = i == 3;
	q->dscp_to_prio[26] = 3;
	pt->qos = q;
}

static void healthy_is_silent(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	enum nic_role roles[6];
	(void)state;

	healthy(&m);
	roles_assign(&m.inv, &p, roles);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	assert_int_equal(roles[4], ROLE_STORAGE);
	assert_int_equal(roles[5], ROLE_STORAGE);

	run(&m, &p, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	/* generic judges the RoCE storage ports as rails: with their DCB read */
	dcb_read(&m.inv.nics[4].ports[0]);
	dcb_read(&m.inv.nics[5].ports[0]);

	run(&m, &g, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
	/* no profile at all is the generic one */
	run(&m, NULL, &fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
	machine_free(&m);
}

static void order_and_verdict(void **state)
{
	struct findings fs = { 0 };
	struct finding *f;
	(void)state;

	assert_string_equal(check_verdict(&fs), "pass");
	f = finding_add(&fs, "sys.device_access", SEV_INFO, "why");
	finding_set(&f->subject, "host");
	assert_string_equal(check_verdict(&fs), "pass");
	f = finding_add(&fs, "mtu.roce", SEV_WARN, "why");
	finding_set(&f->subject, "x");
	finding_set(&f->subject, "replaced %d", 2);
	assert_string_equal(f->subject, "replaced 2");
	assert_string_equal(check_verdict(&fs), "warn");
	f = finding_add(&fs, "port.down", SEV_ERROR, "why");
	assert_string_equal(check_verdict(&fs), "fail");
	assert_string_equal(severity_name(SEV_ERROR), "error");
	assert_string_equal(severity_name(SEV_WARN), "warn");
	assert_string_equal(severity_name(SEV_INFO), "info");
	findings_free(&fs);
	assert_int_equal(fs.n, 0);
	assert_null(fs.v);
	findings_free(&fs);
}

static void sorted_errors_id_subject(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	/* errors on mlx5_3 and mlx5_1, a warning, an info */
	for (int i = 3; i >= 1; i -= 2) {
		m.inv.nics[i].ports[0].state = 1;
		m.inv.nics[i].ports[0].phys_state = 2;
	}
	m.inv.nics[0].ports[0].active_mtu = 2048;
	m.inv.gpus[0].kind = GPU_GEFORCE;
	m.inv.gpus[0].model = "GeForce RTX 4090";
	m.inv.host.memlock_unlimited = 0;
	run(&m, &p, &fs);
	assert_true(fs.n >= 5);
	for (size_t i = 1; i < fs.n; i++) {
		const struct finding *a = &fs.v[i - 1], *b = &fs.v[i];

		assert_true(a->severity >= b->severity);
		/* within a severity by the bandwidth each costs, then id */
		if (a->severity == b->severity)
			assert_true(check_rank(a->id) < check_rank(b->id) ||
				    (check_rank(a->id) == check_rank(b->id) &&
				     strcmp(a->id, b->id) <= 0));
	}
	assert_string_equal(fs.v[0].id, "port.down");
	assert_string_equal(fs.v[0].subject, "mlx5_1 port 1");
	assert_string_equal(fs.v[1].subject, "mlx5_3 port 1");
	assert_string_equal(fs.v[fs.n - 1].id, "gdr.unsupported");
	assert_string_equal(check_verdict(&fs), "fail");
	findings_free(&fs);
	machine_free(&m);
}

static void generic_profile_judges_what_needs_no_expectation(void **state)
{
	struct machine m;
	struct profile g = generic_profile();
	struct findings fs;
	struct nic *rxe;
	(void)state;

	healthy(&m);
	/* a Soft-RoCE device on a 1500-byte netdev without an IPv4 address */
	rxe = add_nic(&m, "rxe0", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1,
		      "Soft-RoCE", "Ethernet", 1, 100);
	rxe->netdev_parent = strdup("mlx5_4_p1");
	rxe->ports[0].netdev_mtu = 1500;
	drop_ipv4_gids(&rxe->ports[0]);
	assert_int_equal(affinity_compute(&m.inv), 0);
	/* a far NIC and mixed counts: not judged without a profile */
	m.inv.nics[1].ports[0].rate_gbps = 25;
	run(&m, &g, &fs);
	expect(&fs, "mtu.roce", "rxe0 port 1", SEV_WARN, "netdev MTU 1500 (RDMA MTU 4096)", NULL);
	expect(&fs, "gid.rocev2_missing", "rxe0 port 1", SEV_WARN, NULL, NULL);
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 0);
	/* software devices share their parent's PCI function: not a second
	 * link to judge, and not a firmware to compare */
	assert_int_equal(count_id(&fs, "pcie.bottleneck"), 0);
	assert_int_equal(count_id(&fs, "fw.mixed"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_is_silent),
		cmocka_unit_test(order_and_verdict),
		cmocka_unit_test(sorted_errors_id_subject),
		cmocka_unit_test(generic_profile_judges_what_needs_no_expectation),
	};

	return cmocka_run_group_tests_name("check_run", tests, NULL, NULL);
}
