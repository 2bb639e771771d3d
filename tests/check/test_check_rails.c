/* rail.cabling and the rail numbering on small machines built in C: RoCE
 * rails whose ports carry the neighbour the LLDP reader would give, judged
 * under a site file's rail_switch lines and a profile's distinct_switches.
 * One cause, one finding: a crossed pair is one finding, a rail on another
 * rail's switch is not also "two rails on one switch". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/run.h"
#include "check/rails.h"
#include "model/neighbor.h"
#include "profiles/site.h"
#include "sysfs/parse.h"

#define MAXNIC 8

/* A RoCE port that is up, on netdev NIC_pPORT. */
static void port_init(struct port *p, const char *nic, int num)
{
	char nd[64];

	memset(p, 0, sizeof(*p));
	p->num = num;
	p->link_layer = strdup("Ethernet");
	p->state = 4;
	p->state_name = strdup("ACTIVE");
	p->phys_state = 5;
	p->phys_state_name = strdup("LinkUp");
	p->rate_gbps = 100;
	p->lanes = 4;
	p->lid = p->sm_lid = NA;
	p->active_mtu = p->max_mtu = 4096;
	p->netdev_speed_mbps = p->carrier_changes = NA;
	p->netdev_mtu = 9000;
	snprintf(nd, sizeof(nd), "%s_p%d", nic, num);
	p->netdev = strdup(nd);
}

static struct nic *add_nic(struct inventory *inv, const char *name, size_t nports)
{
	struct nic *n = &inv->nics[inv->n_nics++];

	memset(n, 0, sizeof(*n));
	n->name = strdup(name);
	n->driver = strdup("mlx5_core");
	n->model = strdup("ConnectX-6 Dx");
	n->ports = calloc(nports, sizeof(*n->ports));
	n->n_ports = nports;
	for (size_t i = 0; i < nports; i++)
		port_init(&n->ports[i], name, (int)i + 1);
	return n;
}

/* n single-port NICs mlx5_0 ... */
static void machine(struct inventory *inv, size_t n)
{
	char name[32];	/* "mlx5_" and any size_t */

	memset(inv, 0, sizeof(*inv));
	inv->nics = calloc(MAXNIC, sizeof(*inv->nics));
	inv->host.memlock_unlimited = 1;
	inv->host.memlock_bytes = NA;
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "mlx5_%zu", i);
		add_nic(inv, name, 1);
	}
}

/* What lldpd said of the port: the switch, its port, its chassis. */
static void cable(struct port *p, const char *system, const char *port, const char *chassis)
{
	struct neighbor *nb = calloc(1, sizeof(*nb));

	nb->system = system ? strdup(system) : NULL;
	nb->port = port ? strdup(port) : NULL;
	nb->chassis_id = chassis ? strdup(chassis) : NULL;
	nb->source = NEIGHBOR_SOURCE_LLDPD;
	neighbor_free(p->neighbor);
	p->neighbor = nb;
}

/* rail k of every NIC to leaf-rK port Ethernet(K+1) */
static void cable_right(struct inventory *inv)
{
	char sw[32], port[32];

	for (size_t i = 0; i < inv->n_nics; i++) {
		snprintf(sw, sizeof(sw), "leaf-r%zu", i);
		snprintf(port, sizeof(port), "Ethernet%zu", i + 1);
		cable(&inv->nics[i].ports[0], sw, port, "aa:bb:cc:00:00:01");
	}
}

static const char site_text[] =
	"[site]\n"
	"rail_switch = 0 leaf-r0\n"
	"rail_switch = 1 leaf-r1\n"
	"rail_switch = 2 leaf-r2\n"
	"rail_switch = mlx5_3 leaf-r3*\n";

/* A profile whose [rail] judges nothing but distinct_switches. */
static struct profile rail_profile(int distinct)
{
	struct profile p = {
		.name = (char *)"test-rails",
		.role[ROLE_RAIL] = {
			.defined = true, .count = -1, .pfc_priority = -1, .ecn = -1,
			.gpudirect = -1, .placement = -1, .distinct_switches = distinct,
		},
		.role[ROLE_STORAGE] = { .count = -1, .pfc_priority = -1, .ecn = -1,
					.gpudirect = -1, .placement = -1, .distinct_switches = -1 },
	};

	return p;
}

/* The rail.cabling findings only (the bare machines give others). */
static void judge(const struct inventory *inv, const struct profile *p, const char *site,
		  struct findings *out)
{
	enum nic_role roles[MAXNIC];
	struct profile_error err;
	struct findings all = { 0 };
	struct site s;
	bool has_site = site != NULL;

	if (has_site)
		assert_int_equal(site_parse(site, strlen(site), "site.conf", &s, &err), 0);
	check_roles(inv, p, has_site ? &s : NULL, roles);
	assert_int_equal(check_run_site(inv, p, has_site ? &s : NULL, roles, &all), 0);
	findings_free(out);
	for (size_t i = 0; i < all.n; i++) {
		struct finding *f;

		if (strcmp(all.v[i].id, "rail.cabling") != 0)
			continue;
		f = finding_add(out, "rail.cabling", all.v[i].severity, all.v[i].why);
		assert_non_null(f);
		f->subject = strdup(all.v[i].subject);
		f->observed = strdup(all.v[i].observed);
		f->expected = strdup(all.v[i].expected);
		f->fix = strdup(all.v[i].fix);
		f->unchecked = all.v[i].unchecked;
		f->waived = all.v[i].waived;
	}
	findings_free(&all);
	if (has_site)
		site_free(&s);
}

static void dump(const struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		fprintf(stderr, "  %s [%s] observed '%s' expected '%s' fix '%s'\n",
			severity_name(fs->v[i].severity), fs->v[i].subject, fs->v[i].observed,
			fs->v[i].expected, fs->v[i].fix);
}

static void expect_n(const struct findings *fs, size_t n)
{
	if (fs->n != n) {
		fprintf(stderr, "wanted %zu rail.cabling findings, got %zu:\n", n, fs->n);
		dump(fs);
	}
	assert_int_equal(fs->n, n);
}

/* ---- the numbering -------------------------------------------------------- */

static void numbering(void **state)
{
	struct inventory inv;
	enum nic_role roles[MAXNIC] = { ROLE_RAIL, ROLE_STORAGE, ROLE_RAIL, ROLE_RAIL };
	struct rail_port *rp;
	size_t n = 99;

	(void)state;
	machine(&inv, 3);
	add_nic(&inv, "mlx5_3", 2);
	/* a storage NIC takes no number, a dual-port rail two */
	rp = rail_ports(&inv, roles, &n);
	assert_int_equal(n, 4);
	assert_int_equal(rp[0].nic, 0);
	assert_int_equal(rp[1].nic, 2);
	assert_int_equal(rp[2].nic, 3);
	assert_int_equal(rp[2].port, 0);
	assert_int_equal(rp[3].nic, 3);
	assert_int_equal(rp[3].port, 1);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(rp[k].rail, k);
	free(rp);
	/* no rail: NULL, none */
	roles[0] = roles[2] = roles[3] = ROLE_STORAGE;
	assert_null(rail_ports(&inv, roles, &n));
	assert_int_equal(n, 0);
	inventory_free(&inv);
}

/* ---- rail_switch ---------------------------------------------------------- */

static void cabled_right(void **state)
{
	struct profile p = rail_profile(1);
	struct inventory inv;
	struct findings fs = { 0 };

	(void)state;
	machine(&inv, 4);
	cable_right(&inv);
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 0);
	findings_free(&fs);
	inventory_free(&inv);
}

/* Nothing expected: no finding, whatever the cables, and unknown
 * neighbours are not "not checked" either. */
static void nothing_expected(void **state)
{
	struct profile p = rail_profile(-1);
	struct inventory inv;
	struct findings fs = { 0 };

	(void)state;
	machine(&inv, 4);
	cable(&inv.nics[0].ports[0], "leaf-r1", "Ethernet1", NULL);
	cable(&inv.nics[1].ports[0], "leaf-r1", "Ethernet2", NULL);
	judge(&inv, &p, NULL, &fs);
	expect_n(&fs, 0);
	judge(&inv, &p, "[site]\nignore = sys.memlock\n", &fs);
	expect_n(&fs, 0);
	findings_free(&fs);
	inventory_free(&inv);
}

static void crossed_pair(void **state)
{
	struct profile p = rail_profile(1);
	struct inventory inv;
	struct findings fs = { 0 };
	const struct finding *f;

	(void)state;
	machine(&inv, 4);
	cable_right(&inv);
	cable(&inv.nics[1].ports[0], "leaf-r2", "Ethernet7", NULL);
	cable(&inv.nics[2].ports[0], "leaf-r1", "Ethernet8", NULL);
	/* under distinct_switches too: still the one finding */
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 1);
	f = &fs.v[0];
	assert_int_equal(f->severity, SEV_ERROR);
	assert_false(f->unchecked);
	assert_string_equal(f->subject, "mlx5_1 port 1 and mlx5_2 port 1");
	assert_string_equal(f->observed, "rails 1 and 2 swapped: rail 1 (mlx5_1 port 1) reaches "
			    "leaf-r2 port Ethernet7, rail 2's switch; rail 2 (mlx5_2 port 1) "
			    "reaches leaf-r1 port Ethernet8, rail 1's switch");
	assert_string_equal(f->expected, "rail 1 on a switch matching leaf-r1, rail 2 on one "
			    "matching leaf-r2 (site file lines 3 and 4)");
	assert_string_equal(f->fix, "swap the cables of mlx5_1 port 1 and mlx5_2 port 1 (now on "
			    "leaf-r2 port Ethernet7 and leaf-r1 port Ethernet8), then `lldpcli "
			    "show neighbors` shows each on its own rail's switch");
	findings_free(&fs);
	inventory_free(&inv);
}

/* One rail on another rail's switch: one finding, naming that rail, the
 * switch port it reaches and the pattern it should; not a second one for
 * two rails on that switch. */
static void one_wrong(void **state)
{
	struct profile p = rail_profile(1);
	struct inventory inv;
	struct findings fs = { 0 };
	const struct finding *f;

	(void)state;
	machine(&inv, 4);
	cable_right(&inv);
	cable(&inv.nics[3].ports[0], "leaf-r1", "Ethernet9", NULL);
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 1);
	f = &fs.v[0];
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->subject, "mlx5_3 port 1");
	assert_string_equal(f->observed, "rail 3 reaches leaf-r1 port Ethernet9, rail 1's "
			    "switch (mlx5_1 port 1, site file line 3: leaf-r1)");
	assert_string_equal(f->expected, "rail 3 on a switch matching leaf-r3* (site file "
			    "line 5)");
	assert_non_null(strstr(f->fix, "move the cable of mlx5_3 port 1 from leaf-r1 port "
				       "Ethernet9 to rail 3's switch (its name matches leaf-r3*)"));
	/* a switch no rail's pattern names, and no port sent */
	cable(&inv.nics[3].ports[0], "spine-7", NULL, NULL);
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 1);
	assert_string_equal(fs.v[0].observed, "rail 3 reaches spine-7");
	findings_free(&fs);
	inventory_free(&inv);
}

/* Three rails in a ring: no pair is crossed, so each is named with the
 * rail whose switch it reaches. */
static void ring_of_three(void **state)
{
	struct profile p = rail_profile(-1);
	struct inventory inv;
	struct findings fs = { 0 };

	(void)state;
	machine(&inv, 4);
	cable_right(&inv);
	cable(&inv.nics[0].ports[0], "leaf-r1", "Ethernet1", NULL);
	cable(&inv.nics[1].ports[0], "leaf-r2", "Ethernet2", NULL);
	cable(&inv.nics[2].ports[0], "leaf-r0", "Ethernet3", NULL);
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 3);
	for (size_t i = 0; i < 3; i++)
		assert_non_null(strstr(fs.v[i].observed, "'s switch (mlx5_"));
	findings_free(&fs);
	inventory_free(&inv);
}

/* ---- not known ------------------------------------------------------------ */

static void neighbour_unknown(void **state)
{
	struct profile p = rail_profile(-1);
	struct inventory inv;
	struct findings fs = { 0 };
	const struct finding *f;

	(void)state;
	machine(&inv, 4);
	cable_right(&inv);
	neighbor_free(inv.nics[2].ports[0].neighbor);
	inv.nics[2].ports[0].neighbor = NULL;
	inv.nics[2].ports[0].neighbor_why = strdup("lldpd is not running");
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 1);
	f = &fs.v[0];
	/* a warning, so a rail nobody saw cannot pass */
	assert_int_equal(f->severity, SEV_WARN);
	assert_true(f->unchecked);
	assert_string_equal(f->subject, "mlx5_2 port 1");
	assert_string_equal(f->observed, "not checked: lldpd is not running");
	assert_string_equal(f->expected, "rail 2 on a switch matching leaf-r2 (site file line 4)");
	assert_non_null(strstr(f->fix, "lldpcli show neighbors ports mlx5_2_p1"));
	assert_string_equal(check_verdict(&fs), "warn");

	/* nothing asked at all (an older snapshot) */
	free(inv.nics[2].ports[0].neighbor_why);
	inv.nics[2].ports[0].neighbor_why = NULL;
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 1);
	assert_non_null(strstr(fs.v[0].observed, "not checked: its neighbour was not read"));

	/* a switch that sends no system name cannot match a name pattern */
	cable(&inv.nics[2].ports[0], NULL, "Ethernet3", "aa:bb:cc:00:00:03");
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 1);
	assert_string_equal(fs.v[0].observed, "not checked: the switch sent no system name "
			    "(chassis id aa:bb:cc:00:00:03, port Ethernet3)");
	assert_true(fs.v[0].unchecked);

	/* down: port.down says it, not this */
	neighbor_free(inv.nics[2].ports[0].neighbor);
	inv.nics[2].ports[0].neighbor = NULL;
	inv.nics[2].ports[0].state = 1;
	inv.nics[2].ports[0].phys_state = 3;
	judge(&inv, &p, site_text, &fs);
	expect_n(&fs, 0);
	findings_free(&fs);
	inventory_free(&inv);
}

/* ---- distinct_switches ---------------------------------------------------- */

static void two_on_one_switch(void **state)
{
	struct profile p = rail_profile(1);
	struct inventory inv;
	struct findings fs = { 0 };
	const struct finding *f;

	(void)state;
	machine(&inv, 4);
	cable_right(&inv);
	cable(&inv.nics[2].ports[0], "LEAF-R1", "Ethernet5", NULL);	/* names: any case */
	judge(&inv, &p, NULL, &fs);
	expect_n(&fs, 1);
	f = &fs.v[0];
	assert_int_equal(f->severity, SEV_ERROR);
	assert_string_equal(f->subject, "mlx5_1 port 1 and mlx5_2 port 1");
	assert_string_equal(f->observed, "rails 1 and 2 reach one switch, leaf-r1 (mlx5_1 port 1 "
			    "on port Ethernet2, mlx5_2 port 1 on port Ethernet5)");
	assert_string_equal(f->expected, "each rail on a switch of its own ([rail] "
			    "distinct_switches = yes)");
	/* three on one: one finding naming the three */
	cable(&inv.nics[3].ports[0], "leaf-r1", "Ethernet6", NULL);
	judge(&inv, &p, NULL, &fs);
	expect_n(&fs, 1);
	assert_string_equal(fs.v[0].subject, "mlx5_1 port 1, mlx5_2 port 1 and mlx5_3 port 1");
	/* no is not judged */
	p = rail_profile(0);
	judge(&inv, &p, NULL, &fs);
	expect_n(&fs, 0);
	findings_free(&fs);
	inventory_free(&inv);
}

/* Switches without a system name are told apart by their chassis id; a
 * rail with no neighbour at all is not checked. */
static void by_chassis(void **state)
{
	struct profile p = rail_profile(1);
	struct inventory inv;
	struct findings fs = { 0 };

	(void)state;
	machine(&inv, 3);
	cable(&inv.nics[0].ports[0], NULL, "1/1", "00:00:00:00:00:0a");
	cable(&inv.nics[1].ports[0], NULL, "1/2", "00:00:00:00:00:0a");
	cable(&inv.nics[2].ports[0], NULL, "1/3", "00:00:00:00:00:0b");
	judge(&inv, &p, NULL, &fs);
	expect_n(&fs, 1);
	assert_string_equal(fs.v[0].subject, "mlx5_0 port 1 and mlx5_1 port 1");
	neighbor_free(inv.nics[2].ports[0].neighbor);
	inv.nics[2].ports[0].neighbor = NULL;
	inv.nics[2].ports[0].neighbor_why = strdup("lldpd heard no LLDP on mlx5_2_p1");
	judge(&inv, &p, NULL, &fs);
	expect_n(&fs, 2);
	findings_free(&fs);
	inventory_free(&inv);
}

/* By device name, a dual-port rail NIC: both its ports on its switch;
 * its two ports swapped between two such NICs is one finding. */
static void by_device(void **state)
{
	static const char site[] = "[site]\nrail_switch = mlx5_0 leaf-a*\n"
				   "rail_switch = mlx5_1 leaf-b*\nrail_switch = 7 leaf-z\n";
	struct profile p = rail_profile(-1);
	struct inventory inv;
	struct findings fs = { 0 };

	(void)state;
	machine(&inv, 0);
	add_nic(&inv, "mlx5_0", 2);
	add_nic(&inv, "mlx5_1", 2);
	cable(&inv.nics[0].ports[0], "leaf-a1", "Ethernet1", NULL);
	cable(&inv.nics[0].ports[1], "leaf-a2", "Ethernet1", NULL);
	cable(&inv.nics[1].ports[0], "leaf-b1", "Ethernet1", NULL);
	cable(&inv.nics[1].ports[1], "leaf-b2", "Ethernet1", NULL);
	/* rail 7 is no rail here: nothing said of it */
	judge(&inv, &p, site, &fs);
	expect_n(&fs, 0);
	cable(&inv.nics[0].ports[1], "leaf-b2", "Ethernet1", NULL);
	cable(&inv.nics[1].ports[1], "leaf-a2", "Ethernet1", NULL);
	judge(&inv, &p, site, &fs);
	expect_n(&fs, 1);
	assert_string_equal(fs.v[0].subject, "mlx5_0 port 2 and mlx5_1 port 2");
	assert_non_null(strstr(fs.v[0].observed, "rails 1 and 3 swapped"));
	findings_free(&fs);
	inventory_free(&inv);
}

/* The site file's ignore waives it like any id. */
static void waived(void **state)
{
	static const char site[] = "[site]\nrail_switch = 0 leaf-r0\nignore = rail.cabling\n";
	struct profile p = rail_profile(-1);
	struct inventory inv;
	struct findings fs = { 0 };

	(void)state;
	machine(&inv, 2);
	cable_right(&inv);
	cable(&inv.nics[0].ports[0], "leaf-r9", "Ethernet1", NULL);
	judge(&inv, &p, site, &fs);
	expect_n(&fs, 1);
	assert_true(fs.v[0].waived);
	findings_free(&fs);
	inventory_free(&inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbering),
		cmocka_unit_test(cabled_right),
		cmocka_unit_test(nothing_expected),
		cmocka_unit_test(crossed_pair),
		cmocka_unit_test(one_wrong),
		cmocka_unit_test(ring_of_three),
		cmocka_unit_test(neighbour_unknown),
		cmocka_unit_test(two_on_one_switch),
		cmocka_unit_test(by_chassis),
		cmocka_unit_test(by_device),
		cmocka_unit_test(waived),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
