/* Checks against small machines built in C (check_machine.h): rail and
 * storage roles: which NIC is which (src/check/roles.c). */
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

static void roles_generic_and_software(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	enum nic_role roles[8];
	struct nic *rxe;
	(void)state;

	healthy(&m);
	/* Soft-RoCE on the storage card's netdev: same PCI function */
	rxe = add_nic(&m, "rxe0", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1,
		      "Soft-RoCE", "Ethernet", 1, 100);
	free(rxe->driver);
	rxe->driver = strdup("rdma_rxe");
	rxe->netdev_parent = strdup("mlx5_4_p1");
	assert_int_equal(affinity_compute(&m.inv), 0);

	roles_assign(&m.inv, &g, roles);
	for (size_t i = 0; i < m.inv.n_nics; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	roles_assign(&m.inv, NULL, roles);
	assert_int_equal(roles[6], ROLE_RAIL);
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[6], ROLE_STORAGE);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	machine_free(&m);
}

/* Rails by placement, a far single-function card promoted to make up the
 * count, a far dual-function card (storage) never. */
static void roles_placement_and_promotion(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	enum nic_role roles[8];
	char path[256];
	(void)state;

	machine_init(&m);
	for (int s = 0; s < 4; s++) {
		sw_path(path, sizeof(path), s, false);
		add_gpu(&m, path, 0);
	}
	for (int s = 0; s < 3; s++) {
		char name[16];

		sw_path(path, sizeof(path), s, true);
		snprintf(name, sizeof(name), "mlx5_%d", s);
		add_nic(&m, name, path, 0, "ConnectX-6", "InfiniBand", 1, 200);
	}
	/* a dual-function IB ConnectX-6 far away: storage even though short */
	add_nic(&m, "mlx5_4", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.0", 1, "ConnectX-6",
		"InfiniBand", 1, 200);
	add_nic(&m, "mlx5_5", "sys/devices/pci0000:e0/0000:e0:01.0/0000:e1:00.1", 1, "ConnectX-6",
		"InfiniBand", 1, 200);
	/* a single-function one: the mis-slotted fourth rail (after the
	 * storage functions in name order, so those are passed over) */
	add_nic(&m, "mlx5_6", "sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.0", 1, "ConnectX-6",
		"InfiniBand", 1, 200);
	assert_int_equal(affinity_compute(&m.inv), 0);
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[0], ROLE_RAIL);
	assert_int_equal(roles[1], ROLE_RAIL);
	assert_int_equal(roles[2], ROLE_RAIL);
	assert_int_equal(roles[3], ROLE_STORAGE);
	assert_int_equal(roles[4], ROLE_STORAGE);
	assert_int_equal(roles[5], ROLE_RAIL);

	/* the wrong model never is a rail */
	free(m.inv.nics[5].model);
	m.inv.nics[5].model = strdup("ConnectX-5");
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[5], ROLE_STORAGE);
	machine_free(&m);
}

/* No placement in the profile: rails in name order up to the count. */
static void roles_name_order(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	enum nic_role roles[8];
	const char *names[] = { "mlx5_10", "mlx5_2", "mlx5_1", "mlx5_9" };
	(void)state;

	machine_init(&m);
	for (int i = 0; i < 4; i++) {
		char path[128];

		snprintf(path, sizeof(path), "sys/devices/pci0000:%02x/0000:%02x:01.0/0000:%02x:00.0",
			 0x20 * (i + 1), 0x20 * (i + 1), 0x20 * (i + 1) + 1);
		add_nic(&m, names[i], path, 0, "ConnectX-6", "Ethernet", 1, 100);
	}
	p.role[ROLE_RAIL].placement = -1;
	p.role[ROLE_RAIL].link_layer = S("Ethernet");
	p.role[ROLE_RAIL].count = 2;
	roles_assign(&m.inv, &p, roles);
	assert_int_equal(roles[0], ROLE_STORAGE);	/* mlx5_10 */
	assert_int_equal(roles[1], ROLE_RAIL);		/* mlx5_2 */
	assert_int_equal(roles[2], ROLE_RAIL);		/* mlx5_1 */
	assert_int_equal(roles[3], ROLE_STORAGE);	/* mlx5_9 */
	p.role[ROLE_RAIL].count = -1;
	roles_assign(&m.inv, &p, roles);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_RAIL);
	/* a link layer that differs keeps a NIC out */
	p.role[ROLE_RAIL].link_layer = S("InfiniBand");
	roles_assign(&m.inv, &p, roles);
	for (int i = 0; i < 4; i++)
		assert_int_equal(roles[i], ROLE_STORAGE);
	machine_free(&m);
}

/* check_run_site judges under the roles its caller computed (and shows):
 * it does not work them out a second time.  The same machine with one
 * rail labelled storage by the caller is judged short of a rail. */
static void roles_from_caller(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	enum nic_role roles[MAXDEV];
	(void)state;

	healthy(&m);
	check_roles(&m.inv, &p, NULL, roles);
	assert_int_equal(roles[0], ROLE_RAIL);
	memset(&fs, 0, sizeof(fs));
	assert_int_equal(check_run_site(&m.inv, &p, NULL, roles, &fs), 0);
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	findings_free(&fs);
	roles[0] = ROLE_STORAGE;
	memset(&fs, 0, sizeof(fs));
	assert_int_equal(check_run_site(&m.inv, &p, NULL, roles, &fs), 0);
	/* a rail short, and a storage NIC too many */
	assert_int_equal(count_id(&fs, "nic.count"), 2);
	assert_int_equal(get(&fs, "nic.count", "rail NICs")->severity, SEV_ERROR);
	assert_non_null(strstr(get(&fs, "nic.count", "storage NICs")->observed, "mlx5_0"));
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roles_generic_and_software),
		cmocka_unit_test(roles_placement_and_promotion),
		cmocka_unit_test(roles_name_order),
		cmocka_unit_test(roles_from_caller),
	};

	return cmocka_run_group_tests_name("check_roles", tests, NULL, NULL);
}
