/* Checks against small machines built in C (check_machine.h): mtu.ib and
 * mtu.roce (src/check/mtu.c). */
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

/* Three InfiniBand rails at 2048 and one at 4096: the three are below
 * InfiniBand's 4096, and the one at 4096 is right, whatever most rails
 * run: no vote asks it to come down (check/agree.c votes on RoCE's netdev
 * MTU only). */
static void mtu_ib_majority_below(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	for (size_t i = 0; i < 3; i++)
		m.inv.nics[i].ports[0].active_mtu = 2048;
	run(&m, NULL, &fs);
	expect(&fs, "mtu.ib", "mlx5_0 port 1", SEV_WARN, "active MTU 2048", "4096");
	assert_null(get(&fs, "mtu.ib", "mlx5_3 port 1"));
	assert_int_equal(count_id(&fs, "mtu.ib"), 3);
	findings_free(&fs);
	machine_free(&m);
}

static void mtu_ib_and_roce(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.nics[0].ports[0].active_mtu = 2048;
	m.inv.nics[1].ports[0].active_mtu = NA;	/* unknown: nothing */
	m.inv.nics[4].ports[0].netdev_mtu = 1500;
	m.inv.nics[4].ports[0].active_mtu = 1024;
	m.inv.nics[5].ports[0].netdev_mtu = 4200;	/* enough for 4096 */
	m.inv.nics[5].ports[0].active_mtu = 4096;
	run(&m, NULL, &fs);
	expect(&fs, "mtu.ib", "mlx5_0 port 1", SEV_WARN, "active MTU 2048", "4096");
	expect(&fs, "mtu.roce", "mlx5_4 port 1", SEV_WARN, "netdev MTU 1500 (RDMA MTU 1024)",
	       "netdev MTU 4200 or more (9000 usual) for RDMA MTU 4096");
	assert_int_equal(count_id(&fs, "mtu.ib"), 1);
	assert_int_equal(count_id(&fs, "mtu.roce"), 1);
	findings_free(&fs);
	/* the profile asks 9000 of its storage netdevs */
	run(&m, &p, &fs);
	expect(&fs, "mtu.roce", "mlx5_5 port 1", SEV_WARN, "netdev MTU 4200 (RDMA MTU 4096)",
	       "netdev MTU 9000 or more");
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mtu_ib_and_roce),
		cmocka_unit_test(mtu_ib_majority_below),
	};

	return cmocka_run_group_tests_name("check_mtu", tests, NULL, NULL);
}
