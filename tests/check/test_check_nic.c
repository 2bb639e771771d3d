/* Checks against small machines built in C (check_machine.h): nic.count and
 * fw.mixed (src/check/nic.c). */
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

static void nic_count(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	free(m.inv.nics[1].model);
	m.inv.nics[1].model = strdup("ConnectX-5");
	run(&m, &p, &fs);
	expect(&fs, "nic.count", "rail NICs", SEV_ERROR, "3 (mlx5_0 mlx5_2 mlx5_3)",
	       "4 ConnectX-6 InfiniBand NICs, each PXB or closer to a GPU");
	expect(&fs, "nic.count", "storage NICs", SEV_WARN, "3 (mlx5_1 mlx5_4 mlx5_5)", NULL);
	findings_free(&fs);
	/* generic counts nothing */
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	findings_free(&fs);
	/* more rails than the profile has */
	free(m.inv.nics[1].model);
	m.inv.nics[1].model = strdup("ConnectX-6");
	p.role[ROLE_RAIL].count = 3;
	run(&m, &p, &fs);
	expect(&fs, "nic.count", "rail NICs", SEV_WARN, "4 (mlx5_0 mlx5_1 mlx5_2 mlx5_3)", NULL);
	findings_free(&fs);
	machine_free(&m);
}

static void fw_mixed(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	char cmd[200];
	(void)state;

	healthy(&m);
	free(m.inv.nics[2].fw_ver);
	m.inv.nics[2].fw_ver = strdup("20.37.1014");
	free(m.inv.nics[5].fw_ver);
	m.inv.nics[5].fw_ver = NULL;	/* unknown: left out, and not checked */
	run(&m, NULL, &fs);
	f = expect(&fs, "fw.mixed", "ConnectX-6", SEV_WARN,
		   "20.40.1000 (mlx5_0 mlx5_1 mlx5_3 mlx5_4); 20.37.1014 (mlx5_2)",
		   "one firmware version on every ConnectX-6 (most run 20.40.1000)");
	expect(&fs, "fw.mixed", "mlx5_5", SEV_INFO,
	       "not checked: its firmware version (fw_ver) could not be read",
	       "the firmware version of the other ConnectX-6");
	assert_true(get(&fs, "fw.mixed", "mlx5_5")->unchecked);
	assert_int_equal(count_id(&fs, "fw.mixed"), 2);
	/* the one card off the majority, by its real address, and no other */
	snprintf(cmd, sizeof(cmd), "mlx5_2: `flint -d %s -i <image> burn`, then "
		 "`mlxfwreset -d %s reset`", m.inv.nics[2].pci.bdf, m.inv.nics[2].pci.bdf);
	assert_non_null(strstr(f->fix, cmd));
	assert_non_null(strstr(f->fix, "to 20.40.1000"));
	assert_null(strstr(f->fix, "<dev>"));
	assert_null(strstr(f->fix, "flint -d 0000:e1"));
	assert_null(strstr(f->fix, m.inv.nics[0].pci.bdf));
	findings_free(&fs);
	machine_free(&m);
}

/* Three NICs on each of two versions: no majority to name, and every card
 * gets its command, the dual-port card (mlx5_4, mlx5_5) once. */
static void fw_mixed_tie(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	char cmd[200];
	(void)state;

	healthy(&m);
	for (int i = 2; i < 5; i++) {
		free(m.inv.nics[i].fw_ver);
		m.inv.nics[i].fw_ver = strdup("20.37.1014");
	}
	run(&m, NULL, &fs);
	f = expect(&fs, "fw.mixed", "ConnectX-6", SEV_WARN,
		   "20.40.1000 (mlx5_0 mlx5_1 mlx5_5); 20.37.1014 (mlx5_2 mlx5_3 mlx5_4)",
		   "one firmware version on every ConnectX-6 (no version leads: "
		   "3 run 20.40.1000, 3 run 20.37.1014)");
	assert_null(strstr(f->fix, "most run"));
	for (int i = 0; i < 5; i++) {
		snprintf(cmd, sizeof(cmd), "mlx5_%d: `flint -d %s -i <image> burn`", i,
			 m.inv.nics[i].pci.bdf);
		assert_non_null(strstr(f->fix, cmd));
	}
	assert_null(strstr(f->fix, "mlx5_5:"));
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nic_count),
		cmocka_unit_test(fw_mixed),
		cmocka_unit_test(fw_mixed_tie),
	};

	return cmocka_run_group_tests_name("check_nic", tests, NULL, NULL);
}
