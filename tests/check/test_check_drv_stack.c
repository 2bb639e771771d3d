/* driver.stale_module, driver.mixed_stack, driver.peermem_mismatch and
 * driver.next_boot (src/check/drv_stack.c) against small machines built in
 * C (check_machine.h) and driver stacks built the way model/drv_stack.h
 * holds them: the identity compared by build id, then srcversion, then
 * version; nothing comparable, or no modules.dep, is not checked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"
#include "model/drv_stack.h"

#define KERNEL "6.1.0-57-amd64"

static const char *const names[DRV_COUNT] = {
	"mlx5_core", "mlx5_ib", "ib_core", "ib_uverbs", "nvidia_peermem",
};
static const char *const paths[DRV_COUNT] = {
	"kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko",
	"kernel/drivers/infiniband/hw/mlx5/mlx5_ib.ko",
	"kernel/drivers/infiniband/core/ib_core.ko",
	"kernel/drivers/infiniband/core/ib_uverbs.ko",
	"updates/dkms/nvidia-peermem.ko",
};

/* Debian 12's inbox stack, loaded and on disk alike (one build id each),
 * with nvidia_peermem 535.161.08 over the NVIDIA driver of that version. */
static struct drv_stack *inbox(void)
{
	struct drv_stack *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->kernel = strdup(KERNEL);
	s->dep_known = true;
	s->nvidia_loaded = true;
	s->nvidia_version = strdup("535.161.08");
	for (size_t i = 0; i < DRV_COUNT; i++) {
		struct drv_module *m = &s->mods[i];

		m->name = names[i];
		m->loaded = true;
		m->path = strdup(paths[i]);
		m->source = drv_source_of(m->path);
		m->disk_read = true;
		m->loaded_id_len = m->disk.build_id_len = 20;
		memset(m->loaded_id, (int)i + 1, 20);
		memset(m->disk.build_id, (int)i + 1, 20);
	}
	s->mods[DRV_NVIDIA_PEERMEM].loaded_version = strdup("535.161.08");
	return s;
}

static void judged(struct machine *m, struct findings *fs)
{
	struct profile p = a100_profile();

	run(m, &p, fs);
}

static size_t driver_findings(const struct findings *fs)
{
	return count_id(fs, "driver.stale_module") + count_id(fs, "driver.mixed_stack") +
	       count_id(fs, "driver.peermem_mismatch") + count_id(fs, "driver.next_boot");
}

static void one_stack_says_nothing(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.drv_stack = inbox();
	judged(&m, &fs);
	assert_int_equal(driver_findings(&fs), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* A different build id is a stale module; where the loaded build id is
 * not readable (root only), srcversion decides, then the version; with
 * none of them, not checked. */
static void stale_by_identity(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct drv_module *core;
	(void)state;

	healthy(&m);
	m.inv.host.drv_stack = inbox();
	core = &m.inv.host.drv_stack->mods[DRV_MLX5_CORE];
	core->disk.build_id[0] = 0xee;
	judged(&m, &fs);
	f = expect(&fs, "driver.stale_module", "mlx5_core", SEV_WARN, NULL,
		   "the loaded build id equal to the file's");
	assert_non_null(strstr(f->observed, "loaded build id 0101"));
	assert_non_null(strstr(f->observed, "lib/modules/" KERNEL "/kernel/drivers/net/"
				"ethernet/mellanox/mlx5/core/mlx5_core.ko has ee01"));
	findings_free(&fs);

	core->loaded_id_len = 0;
	core->loaded_srcversion = strdup("A1B2C3");
	core->disk.srcversion = strdup("A1B2C3");
	judged(&m, &fs);
	assert_int_equal(count_id(&fs, "driver.stale_module"), 0);
	findings_free(&fs);

	free(core->disk.srcversion);
	core->disk.srcversion = strdup("FFFFFF");
	judged(&m, &fs);
	expect(&fs, "driver.stale_module", "mlx5_core", SEV_WARN,
	       "loaded srcversion A1B2C3; lib/modules/" KERNEL "/kernel/drivers/net/ethernet/"
	       "mellanox/mlx5/core/mlx5_core.ko has FFFFFF", NULL);
	findings_free(&fs);

	free(core->loaded_srcversion);
	core->loaded_srcversion = NULL;
	judged(&m, &fs);
	f = expect(&fs, "driver.stale_module", "mlx5_core", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	findings_free(&fs);

	/* no modules.dep: one not checked for the host, no module judged */
	m.inv.host.drv_stack->dep_known = false;
	judged(&m, &fs);
	f = expect(&fs, "driver.stale_module", "host", SEV_INFO,
		   "not checked: modules.dep was not read", NULL);
	assert_true(f->unchecked);
	assert_int_equal(count_id(&fs, "driver.stale_module"), 1);
	findings_free(&fs);
	machine_free(&m);
}

/* mlx5_core from MLNX_OFED's updates/ over the kernel's ib_core: mixed. */
static void mixed_sources(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct drv_module *core;
	(void)state;

	healthy(&m);
	m.inv.host.drv_stack = inbox();
	core = &m.inv.host.drv_stack->mods[DRV_MLX5_CORE];
	free(core->path);
	core->path = strdup("updates/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko");
	core->source = drv_source_of(core->path);
	assert_int_equal(core->source, DRV_SRC_OUT_OF_TREE);
	judged(&m, &fs);
	f = expect(&fs, "driver.mixed_stack", "host", SEV_WARN, NULL, NULL);
	assert_non_null(strstr(f->observed, "mlx5_core: updates/drivers/net/ethernet/mellanox/"
				"mlx5/core/mlx5_core.ko (out-of-tree)"));
	assert_non_null(strstr(f->observed, "ib_core: kernel/drivers/infiniband/core/ib_core.ko "
				"(inbox)"));
	findings_free(&fs);
	machine_free(&m);
}

/* nvidia_peermem of another driver: an error; a version not readable:
 * not checked. */
static void peermem(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct drv_stack *s;
	(void)state;

	healthy(&m);
	s = m.inv.host.drv_stack = inbox();
	free(s->nvidia_version);
	s->nvidia_version = strdup("550.54.15");
	judged(&m, &fs);
	expect(&fs, "driver.peermem_mismatch", "nvidia_peermem", SEV_ERROR,
	       "nvidia_peermem 535.161.08 over NVIDIA driver 550.54.15",
	       "nvidia_peermem 550.54.15 (the same driver package)");
	findings_free(&fs);

	free(s->nvidia_version);
	s->nvidia_version = NULL;
	judged(&m, &fs);
	f = expect(&fs, "driver.peermem_mismatch", "nvidia_peermem", SEV_INFO,
		   "not checked: sys/module/nvidia/version could not be read", NULL);
	assert_true(f->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

/* The newest installed kernel lacks a module that is loaded now, or has
 * only the inbox one for an out-of-tree build: the next boot loses it. */
static void next_boot(void **state)
{
	struct machine m;
	struct findings fs;
	struct drv_stack *s;
	(void)state;

	healthy(&m);
	s = m.inv.host.drv_stack = inbox();
	s->next_kernel = strdup("6.1.0-58-amd64");
	s->next_dep_known = true;
	for (size_t i = 0; i < DRV_NVIDIA_PEERMEM; i++)
		s->mods[i].next_path = strdup(paths[i]);
	judged(&m, &fs);
	expect(&fs, "driver.next_boot", "nvidia_peermem", SEV_WARN,
	       "nvidia_peermem is loaded; lib/modules/6.1.0-58-amd64 has no nvidia_peermem and "
	       "var/lib/dkms no build for 6.1.0-58-amd64", NULL);
	assert_int_equal(count_id(&fs, "driver.next_boot"), 1);
	findings_free(&fs);

	s->mods[DRV_NVIDIA_PEERMEM].next_dkms =
		strdup("var/lib/dkms/nvidia/535.161.08/6.1.0-58-amd64/x86_64/module/nvidia-peermem.ko");
	judged(&m, &fs);
	assert_int_equal(count_id(&fs, "driver.next_boot"), 0);
	findings_free(&fs);

	s->next_dep_known = false;
	judged(&m, &fs);
	expect(&fs, "driver.next_boot", "host", SEV_INFO,
	       "not checked: the next kernel's modules.dep was not read", NULL);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_stack_says_nothing),
		cmocka_unit_test(stale_by_identity),
		cmocka_unit_test(mixed_sources),
		cmocka_unit_test(peermem),
		cmocka_unit_test(next_boot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
