/* Checks against small machines built in C (check_machine.h): roce.ecn
 * (src/check/roce.c). */
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

static void roce_ecn(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct qos *q;
	(void)state;

	healthy(&m);
	for (int i = 4; i < 6; i++) {
		q = calloc(1, sizeof(*q));
		for (int k = 0; k < 8; k++)
			q->pfc_enabled[k] = q->ecn_np[k] = q->ecn_rp[k] = -1;
		q->ecn_np[3] = i == 4 ? 0 : 1;
		q->ecn_rp[3] = 1;
		m.inv.nics[i].ports[0].qos = q;
	}
	run(&m, NULL, &fs);	/* generic: every NIC a rail, priority 3 */
	expect(&fs, "roce.ecn", "mlx5_4 port 1", SEV_WARN,
	       "ECN on priority 3: notification point off, reaction point on",
	       "notification and reaction point on for priority 3");
	assert_int_equal(count_id(&fs, "roce.ecn"), 1);
	findings_free(&fs);
	/* storage ports are not judged */
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.ecn"), 0);
	findings_free(&fs);
	/* a RoCE rail profile on priority 5, which mlx5_5 leaves unknown */
	p.role[ROLE_RAIL].link_layer = S("Ethernet");
	p.role[ROLE_RAIL].model_family = NULL;
	p.role[ROLE_RAIL].placement = -1;
	p.role[ROLE_RAIL].count = -1;
	p.role[ROLE_RAIL].pfc_priority = 5;
	m.inv.nics[4].ports[0].qos->ecn_rp[5] = 0;
	m.inv.nics[4].ports[0].qos->ecn_np[5] = 1;
	run(&m, &p, &fs);
	expect(&fs, "roce.ecn", "mlx5_4 port 1", SEV_WARN,
	       "ECN on priority 5: notification point on, reaction point off", NULL);
	assert_int_equal(count_id(&fs, "roce.ecn"), 1);
	findings_free(&fs);
	/* ecn = 0: the profile does not want it */
	p.role[ROLE_RAIL].ecn = 0;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "roce.ecn"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roce_ecn),
	};

	return cmocka_run_group_tests_name("check_roce", tests, NULL, NULL);
}
