/* The rails agree (src/check/agree.c), on small machines built in C
 * (check_machine.h), through the netdev MTU vote of RoCE rails (mtu.roce)
 * under the generic profile, where every card is a rail and no MTU is
 * named: a rail unlike more than half of those where the value is known,
 * and at least two, is a warning on that rail alone; a tie says nothing;
 * a rail whose value is unknown is not counted, and the finding says over
 * how many the majority was taken.  InfiniBand's MTU is not voted on: a
 * rail at 4096, the largest, is never asked to come down to what most
 * run.  The other RoCE votes (trust, PFC, DSCP map, ECN) are held by
 * rails_agree in test_check_qos.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"

/* The healthy shape with four RoCE rails under generic: its storage card's
 * two functions and a second dual-port card's, all at netdev MTU 9000. */
static void four_roce_rails(struct machine *m)
{
	healthy(m);
	add_nic(m, "mlx5_6", "sys/devices/pci0000:f0/0000:f0:01.0/0000:f1:00.0", 1, "ConnectX-6",
		"Ethernet", 1, 100);
	add_nic(m, "mlx5_7", "sys/devices/pci0000:f0/0000:f0:01.0/0000:f1:00.1", 1, "ConnectX-6",
		"Ethernet", 1, 100);
	assert_int_equal(affinity_compute(&m->inv), 0);
}

static void netdev_mtu(struct machine *m, size_t nic, int64_t v)
{
	m->inv.nics[nic].ports[0].netdev_mtu = v;
}

static void one_rail_unlike_three(void **state)
{
	struct machine m;
	struct profile p = generic_profile();
	struct findings fs;
	const struct finding *f;
	(void)state;

	four_roce_rails(&m);
	netdev_mtu(&m, 6, 4200);	/* enough for 4096 (mtu.c is silent), unlike the rest */
	run(&m, &p, &fs);
	f = expect(&fs, "mtu.roce", "mlx5_6 port 1", SEV_WARN,
		   "netdev MTU 4200 while 3 rails use 9000 (majority of all 4 rails)",
		   "netdev MTU 9000, as the other rails");
	assert_non_null(strstr(f->fix, "`ip link set dev mlx5_6_p1 mtu 9000`"));
	assert_int_equal(count_id(&fs, "mtu.roce"), 1);
	findings_free(&fs);
	machine_free(&m);
}

static void a_tie_says_nothing(void **state)
{
	struct machine m;
	struct profile p = generic_profile();
	struct findings fs;
	(void)state;

	four_roce_rails(&m);
	netdev_mtu(&m, 6, 4200);
	netdev_mtu(&m, 7, 4200);
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "mtu.roce"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* mlx5_4's MTU unknown: the majority is 2 of the 3 known, and said so;
 * with two unknown, one against one is no majority. */
static void unknown_is_not_counted(void **state)
{
	struct machine m;
	struct profile p = generic_profile();
	struct findings fs;
	(void)state;

	four_roce_rails(&m);
	netdev_mtu(&m, 4, NA);
	netdev_mtu(&m, 7, 4200);
	run(&m, &p, &fs);
	expect(&fs, "mtu.roce", "mlx5_7 port 1", SEV_WARN,
	       "netdev MTU 4200 while 2 rails use 9000 (majority of the 3 of 4 rails where it "
	       "is known)", NULL);
	findings_free(&fs);

	netdev_mtu(&m, 5, NA);
	run(&m, &p, &fs);
	assert_null(get(&fs, "mtu.roce", "mlx5_7 port 1"));
	findings_free(&fs);
	machine_free(&m);
}

/* Three InfiniBand rails at 2048 (each mtu.ib from mtu.c, which wants
 * 4096) and one at 4096: nothing asks the one at 4096 to match them. */
static void ib_rail_at_4096_not_asked_down(void **state)
{
	struct machine m;
	struct profile p = generic_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	for (size_t i = 0; i < 3; i++)
		m.inv.nics[i].ports[0].active_mtu = 2048;
	run(&m, &p, &fs);
	assert_null(get(&fs, "mtu.ib", "mlx5_3 port 1"));
	assert_int_equal(count_id(&fs, "mtu.ib"), 3);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_rail_unlike_three),
		cmocka_unit_test(a_tie_says_nothing),
		cmocka_unit_test(unknown_is_not_counted),
		cmocka_unit_test(ib_rail_at_4096_not_asked_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
