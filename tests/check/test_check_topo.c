/* Checks against small machines built in C (check_machine.h): topo.nic_far
 * and topo.nic_shared (src/check/topo.c). */
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

static void topo_nic_far(void **state)
{
	struct machine m;
	struct profile p = a100_profile(), g = generic_profile();
	struct findings fs;
	struct nic *n;
	(void)state;

	healthy(&m);
	/* the rail NIC of GPU 3 on a socket-1 root port, far from every GPU */
	n = &m.inv.nics[3];
	pci_func_free(&n->pci);
	mkfunc(&n->pci, "sys/devices/pci0000:c0/0000:c0:01.0/0000:c1:00.0", 2);
	assert_int_equal(affinity_compute(&m.inv), 0);
	run(&m, &p, &fs);
	/* every GPU at the nearest distance is named (it named the first only) */
	expect(&fs, "topo.nic_far", "mlx5_3", SEV_ERROR,
	       "SYS to its nearest GPUs (0000:13:00.0 0000:23:00.0 0000:33:00.0 0000:43:00.0)",
	       "PXB or closer to a GPU");
	/* it still counts as a rail: no nic.count */
	assert_int_equal(count_id(&fs, "nic.count"), 0);
	/* GPU 3 now shares mlx5_2, the rail on its NUMA node (NODE): the GPU
	 * without a NIC of its own is the subject, not mlx5_2 */
	expect(&fs, "topo.nic_shared", "GPU 0000:43:00.0", SEV_WARN,
	       "no rail NIC of its own: its nearest rail NIC (mlx5_2, NODE) serves a GPU "
	       "nearer to it",
	       "a rail NIC under its own PCIe switch, at most 1 GPU per NIC");
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 1);
	findings_free(&fs);
	/* grace trays and the generic profile have no placement rule */
	p.grace = true;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	findings_free(&fs);
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* The budget build: one NIC for four GPUs. */
static void topo_nic_shared(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	for (size_t i = 1; i < 4; i++)
		nic_free(&m.inv.nics[i]);
	m.inv.nics[1] = m.inv.nics[4];
	m.inv.nics[2] = m.inv.nics[5];
	m.inv.n_nics = 3;
	assert_int_equal(affinity_compute(&m.inv), 0);
	p.role[ROLE_RAIL].count = 1;
	p.role[ROLE_RAIL].gpus_per_nic = 2;
	run(&m, &p, &fs);
	/* two may share it: the nearest two (PIX, NODE); the two across the
	 * sockets (SYS) have no NIC of their own */
	expect(&fs, "topo.nic_shared", "GPU 0000:33:00.0", SEV_WARN,
	       "no rail NIC of its own: its nearest rail NIC (mlx5_0, SYS) serves a GPU "
	       "nearer to it",
	       "a rail NIC under its own PCIe switch, at most 2 GPUs per NIC");
	expect(&fs, "topo.nic_shared", "GPU 0000:43:00.0", SEV_WARN, NULL, NULL);
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 2);
	assert_int_equal(count_id(&fs, "topo.nic_far"), 0);
	findings_free(&fs);
	/* four GPUs alike near one NIC: the NIC is where they meet */
	for (size_t g = 0; g < m.inv.n_affinity; g++)
		m.inv.affinity[g].path = PATH_NODE;
	run(&m, &p, &fs);
	expect(&fs, "topo.nic_shared", "mlx5_0", SEV_WARN,
	       "4 GPUs: 0000:13:00.0 0000:23:00.0 0000:33:00.0 0000:43:00.0",
	       "at most 2 GPUs per NIC");
	assert_int_equal(count_id(&fs, "topo.nic_shared"), 1);
	findings_free(&fs);
	machine_free(&m);
}

/* DGX A100: two GPUs and two NICs under one switch, each GPU as near to
 * either NIC.  They pair up; neither NIC is shared. */
static void topo_pairs_under_one_switch(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	const char *sw = "sys/devices/pci0000:10/0000:10:01.0/0000:11:00.0";
	char path[256];
	(void)state;

	machine_init(&m);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/0000:12:%02x.0/0000:%02x:00.0", sw, i, 0x13 + i);
		add_gpu(&m, path, 0);
	}
	for (int i = 0; i < 2; i++) {
		char name[16];

		snprintf(path, sizeof(path), "%s/0000:12:%02x.0/0000:%02x:00.0", sw, 8 + i, 0x15 + i);
		snprintf(name, sizeof(name), "mlx5_%d", i);
		add_nic(&m, name, path, 0, "ConnectX-6", "InfiniBand", 1, 200);
	}
	assert_int_equal(affinity_compute(&m.inv), 0);
	p.role[ROLE_RAIL].count = 2;
	p.role[ROLE_STORAGE].count = 0;
	run(&m, &p, &fs);
	if (fs.n)
		dump(&fs);
	assert_int_equal(fs.n, 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(topo_nic_far),
		cmocka_unit_test(topo_nic_shared),
		cmocka_unit_test(topo_pairs_under_one_switch),
	};

	return cmocka_run_group_tests_name("check_topo", tests, NULL, NULL);
}
