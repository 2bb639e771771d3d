/* Checks against small machines built in C (check_machine.h):
 * gid.rocev2_missing and gid.index_mismatch (src/check/gid.c). */
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

static void gid_rocev2_missing(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	drop_ipv4_gids(&m.inv.nics[4].ports[0]);
	run(&m, NULL, &fs);
	expect(&fs, "gid.rocev2_missing", "mlx5_4 port 1", SEV_WARN,
	       "RoCE v2 GIDs only on IPv6 addresses", NULL);
	findings_free(&fs);
	run(&m, &p, &fs);	/* a storage port there */
	expect(&fs, "gid.rocev2_missing", "mlx5_4 port 1", SEV_WARN, NULL, NULL);
	assert_int_equal(count_id(&fs, "gid.rocev2_missing"), 1);
	findings_free(&fs);
	/* GID types unreadable: not judged */
	for (size_t i = 0; i < m.inv.nics[4].ports[0].n_gids; i++) {
		free(m.inv.nics[4].ports[0].gids[i].type);
		m.inv.nics[4].ports[0].gids[i].type = NULL;
	}
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "gid.rocev2_missing"), 0);
	findings_free(&fs);
	machine_free(&m);
}

static void gid_index_mismatch(void **state)
{
	struct machine m;
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	/* mlx5_5's IPv4 came after an IPv6 address: index 5 */
	pt = &m.inv.nics[5].ports[0];
	pt->gids[2].ipv4[0] = '\0';
	pt->gids[3].ipv4[0] = '\0';
	add_gid(pt, 4, "IB/RoCE v1", "10.0.1.1");
	add_gid(pt, 5, "RoCE v2", "10.0.1.1");
	run(&m, NULL, &fs);
	expect(&fs, "gid.index_mismatch", "rail RoCE ports", SEV_WARN, "mlx5_4:3 mlx5_5:5",
	       "one index on every rail");
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gid_rocev2_missing),
		cmocka_unit_test(gid_index_mismatch),
	};

	return cmocka_run_group_tests_name("check_gid", tests, NULL, NULL);
}
