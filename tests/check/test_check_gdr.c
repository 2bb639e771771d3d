/* Checks against small machines built in C (check_machine.h): gdr.missing
 * and gdr.unsupported (src/check/gdr.c). */
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

static void gdr_missing(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	m.inv.host.modules[MOD_NVIDIA_PEERMEM].loaded = false;
	run(&m, &p, &fs);
	f = expect(&fs, "gdr.missing", "host", SEV_ERROR, NULL, "nvidia_peermem loaded, or DMA-BUF (NVIDIA's open kernel modules on kernel 5.12 or later)");
	assert_non_null(strstr(f->observed, "4 A100-SXM4-80GB GPUs"));
	assert_non_null(strstr(f->fix, "modprobe nvidia_peermem"));
	findings_free(&fs);
	run(&m, NULL, &fs);
	expect(&fs, "gdr.missing", "host", SEV_WARN, NULL, NULL);
	findings_free(&fs);
	/* a profile that does without it */
	p.role[ROLE_RAIL].gpudirect = 0;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	/* OFED's memory peer client, or the old module, is a path */
	m.inv.host.peermem_memory_peers = true;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	m.inv.host.peermem_memory_peers = false;
	m.inv.host.modules[MOD_NV_PEER_MEM].loaded = true;
	run(&m, NULL, &fs);
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	machine_free(&m);
}

static void gdr_unsupported(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.modules[MOD_NVIDIA_PEERMEM].loaded = false;
	for (size_t g = 0; g < m.inv.n_gpus; g++) {
		m.inv.gpus[g].kind = GPU_GEFORCE;
		m.inv.gpus[g].model = "GeForce RTX 4090";
	}
	run(&m, NULL, &fs);
	expect(&fs, "gdr.unsupported", "host", SEV_INFO, "4 GeForce RTX 4090 GPUs", NULL);
	/* GeForce only: no peer-memory module to miss */
	assert_int_equal(count_id(&fs, "gdr.missing"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gdr_missing),
		cmocka_unit_test(gdr_unsupported),
	};

	return cmocka_run_group_tests_name("check_gdr", tests, NULL, NULL);
}
