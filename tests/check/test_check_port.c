/* Checks against small machines built in C (check_machine.h): port.down,
 * port.no_sm, port.rate_low, port.width_low (src/check/port.c). */
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

static void port_down_and_no_sm(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[1].ports[0];
	pt->state = 1;
	free(pt->state_name);
	pt->state_name = strdup("DOWN");
	pt->phys_state = 2;
	free(pt->phys_state_name);
	pt->phys_state_name = strdup("Polling");
	pt->rate_gbps = NAN;
	pt = &m.inv.nics[2].ports[0];
	pt->state = 2;
	free(pt->state_name);
	pt->state_name = strdup("INIT");
	pt = &m.inv.nics[4].ports[0];	/* storage */
	pt->state = 1;
	pt->phys_state = 3;
	free(pt->state_name);
	free(pt->phys_state_name);
	pt->state_name = strdup("DOWN");
	pt->phys_state_name = strdup("Disabled");
	/* unknown state: not checked, and on a rail a warning (issue 29) */
	m.inv.nics[3].ports[0].state = NA;
	m.inv.nics[3].ports[0].phys_state = NA;
	run(&m, &p, &fs);
	expect(&fs, "port.down", "mlx5_1 port 1", SEV_ERROR,
	       "state DOWN, physical state Polling", "ACTIVE, LinkUp");
	expect(&fs, "port.no_sm", "mlx5_2 port 1", SEV_ERROR,
	       "state INIT, physical state LinkUp: no subnet manager", "ACTIVE, LinkUp");
	expect(&fs, "port.down", "mlx5_4 port 1", SEV_WARN,
	       "state DOWN, physical state Disabled, netdev mlx5_4_p1", NULL);
	assert_non_null(strstr(get(&fs, "port.down", "mlx5_1 port 1")->fix, "mlxlink -d mlx5_1"));
	assert_int_equal(count_id(&fs, "port.down"), 3);
	assert_int_equal(count_id(&fs, "port.no_sm"), 1);
	assert_true(expect(&fs, "port.down", "mlx5_3 port 1", SEV_WARN,
			   "not checked: its state could not be read (no state given)",
			   "ACTIVE, LinkUp")->unchecked);
	/* a port that is down has no MTU, GID or rate finding */
	assert_int_equal(count_id(&fs, "mtu.roce"), 0);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);
	machine_free(&m);
}

static void port_rate_low(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[1].ports[0];
	pt->rate_gbps = 40;
	free(pt->rate_speed);
	pt->rate_speed = strdup("FDR10");
	/* unreadable: not judged, but said (it was silent before) */
	m.inv.nics[2].ports[0].rate_gbps = NAN;
	run(&m, &p, &fs);
	expect(&fs, "port.rate_low", "mlx5_1 port 1", SEV_ERROR,
	       "40 Gb/s (4X FDR10): cause not found (the module could not be read, the kernel "
	       "shows no InfiniBand link modes)", "200 Gb/s");
	/* the profile names the rate: unseen weighs as a warning (issue 43) */
	assert_true(expect(&fs, "port.rate_low", "mlx5_2 port 1", SEV_WARN, NULL,
			   "200 Gb/s")->unchecked);
	assert_true(get(&fs, "port.rate_low", "mlx5_2 port 1")->required);
	assert_int_equal(count_id(&fs, "port.rate_low"), 2);
	assert_non_null(strstr(get(&fs, "port.rate_low", "mlx5_1 port 1")->fix, "cable"));
	findings_free(&fs);
	/* the generic profile knows no rate */
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);
	/* a RoCE port: mlx5 names its lanes in IB terms ("4X QDR"), the
	 * finding in Ethernet's Gb/s */
	pt = &m.inv.nics[4].ports[0];
	pt->rate_gbps = 40;
	free(pt->rate_speed);
	pt->rate_speed = strdup("QDR");
	run(&m, &p, &fs);
	expect(&fs, "port.rate_low", "mlx5_4 port 1", SEV_WARN,
	       "40 Gb/s (4 x 10 Gb/s): cause not found (the module could not be read, the link "
	       "modes (NIC and partner) could not be read)", "100 Gb/s");
	assert_null(strstr(get(&fs, "port.rate_low", "mlx5_4 port 1")->observed, "QDR"));
	assert_null(strstr(get(&fs, "port.rate_low", "mlx5_4 port 1")->fix, "EDR"));
	findings_free(&fs);
	machine_free(&m);
}

static void port_width_low(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[0].ports[0];
	pt->lanes = 2;
	pt->rate_gbps = 100;
	/* RoCE ports report lanes too, but width_low is InfiniBand only */
	m.inv.nics[4].ports[0].lanes = 2;
	run(&m, &g, &fs);
	/* with no expected rate, 2X may be the product (HDR100): not judged */
	assert_int_equal(count_id(&fs, "port.width_low"), 0);
	findings_free(&fs);
	pt->lanes = 1;
	pt->rate_gbps = 50;
	run(&m, &g, &fs);
	expect(&fs, "port.width_low", "mlx5_0 port 1", SEV_WARN, "1X (50 Gb/s HDR)", "4X");
	findings_free(&fs);
	pt->lanes = 2;
	pt->rate_gbps = 100;
	run(&m, &p, &fs);
	/* lost lanes: one finding naming width and rate, not a second
	 * port.rate_low for the same cause */
	expect(&fs, "port.width_low", "mlx5_0 port 1", SEV_ERROR, "2X (100 Gb/s HDR)",
	       "4X (200 Gb/s)");
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);
	/* HDR100 by design: a profile that expects 100 Gb/s */
	p.role[ROLE_RAIL].rate_gbps = 100;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "port.width_low"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(port_down_and_no_sm),
		cmocka_unit_test(port_rate_low),
		cmocka_unit_test(port_width_low),
	};

	return cmocka_run_group_tests_name("check_port", tests, NULL, NULL);
}
