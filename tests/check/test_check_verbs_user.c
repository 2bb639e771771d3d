/* driver.userspace (src/check/verbs_user.c) against small machines built
 * in C (check_machine.h): the verbs userspace judged as rdma-core defines
 * compatibility.  The provider built for another private ABI, a provider
 * or driver file missing, the kernel's uverbs and umad ABIs at the edges
 * of libibverbs' and libibumad's ranges, and what cannot be read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"
#include "model/verbs_user.h"

/* rdma-core 44.0: libibverbs of private ABI 34, libmlx5-rdmav34.so and
 * mlx5.driver, a kernel of uverbs ABI 6 and umad ABI 5. */
static struct verbs_user *stack(void)
{
	struct verbs_user *u = calloc(1, sizeof(*u));

	assert_non_null(u);
	u->libdir = strdup("usr/lib/x86_64-linux-gnu");
	u->library = strdup("libibverbs.so.1.14.44.0");
	u->release = strdup("44.0");
	u->verbs_minor = 14;
	u->pabi = 34;
	u->providers = calloc(1, sizeof(*u->providers));
	u->providers[0].name = strdup("mlx5");
	u->providers[0].pabi = 34;
	u->n_providers = 1;
	u->drivers = calloc(1, sizeof(*u->drivers));
	u->drivers[0] = strdup("mlx5");
	u->n_drivers = 1;
	u->drivers_known = true;
	u->uverbs_abi = 6;
	u->umad_abi = 5;
	return u;
}

static void judged(struct machine *m, struct findings *fs)
{
	struct profile p = a100_profile();

	run(m, &p, fs);
}

static void matched_stack_says_nothing(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.verbs_user = stack();
	judged(&m, &fs);
	assert_int_equal(count_id(&fs, "driver.userspace"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* The mlx5 provider built for private ABI 33 under a libibverbs of 34:
 * an error naming every NIC it leaves without verbs (rails among them). */
static void provider_of_another_abi(void **state)
{
	struct machine m;
	struct findings fs;
	(void)state;

	healthy(&m);
	m.inv.host.verbs_user = stack();
	m.inv.host.verbs_user->providers[0].pabi = 33;
	judged(&m, &fs);
	expect(&fs, "driver.userspace", "mlx5_0 mlx5_1 mlx5_2 mlx5_3 mlx5_4 mlx5_5", SEV_ERROR,
	       "libibverbs.so.1.14.44.0 (rdma-core 44.0) loads providers of private ABI 34; "
	       "libmlx5-rdmav33.so here is built for 33",
	       "usr/lib/x86_64-linux-gnu/libibverbs/libmlx5-rdmav34.so and "
	       "etc/libibverbs.d/mlx5.driver");
	assert_int_equal(count_id(&fs, "driver.userspace"), 1);
	findings_free(&fs);
	machine_free(&m);
}

/* The provider is there but no driver file names it; then the directory
 * could not be listed at all: "not checked", never a pass. */
static void driver_file(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	struct verbs_user *u;
	(void)state;

	healthy(&m);
	u = m.inv.host.verbs_user = stack();
	free(u->drivers[0]);
	u->drivers[0] = strdup("rxe");
	judged(&m, &fs);
	expect(&fs, "driver.userspace", "mlx5_0 mlx5_1 mlx5_2 mlx5_3 mlx5_4 mlx5_5", SEV_ERROR,
	       "no etc/libibverbs.d/*.driver says 'driver mlx5'", NULL);
	findings_free(&fs);

	u->drivers_known = false;
	judged(&m, &fs);
	f = expect(&fs, "driver.userspace", "host", SEV_INFO,
		   "not checked: etc/libibverbs.d could not be listed, so whether it names "
		   "libmlx5-rdmav34.so is unknown", NULL);
	assert_true(f->unchecked);
	assert_int_equal(count_id(&fs, "driver.userspace"), 1);
	findings_free(&fs);
	machine_free(&m);
}

/* uverbs ABI 3..6 is libibverbs' range, umad 5 or later libibumad's;
 * -1 (not read) is not judged. */
static void kernel_abis(void **state)
{
	static const struct {
		int uverbs, umad;
		size_t findings;
		enum severity sev;
	} cases[] = {
		{ 3, 5, 0, SEV_INFO }, { 6, 5, 0, SEV_INFO }, { -1, -1, 0, SEV_INFO },
		{ 2, 5, 1, SEV_ERROR }, { 7, 5, 1, SEV_ERROR }, { 6, 4, 1, SEV_WARN },
	};
	(void)state;

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct machine m;
		struct findings fs;

		healthy(&m);
		m.inv.host.verbs_user = stack();
		m.inv.host.verbs_user->uverbs_abi = cases[k].uverbs;
		m.inv.host.verbs_user->umad_abi = cases[k].umad;
		judged(&m, &fs);
		assert_int_equal(count_id(&fs, "driver.userspace"), cases[k].findings);
		if (cases[k].findings)
			expect(&fs, "driver.userspace", "host", cases[k].sev, NULL, NULL);
		findings_free(&fs);
		machine_free(&m);
	}
}

/* The library's version sets could not be read: one "not checked" that
 * says why; no libibverbs on the host at all: nothing (containers bring
 * their own). */
static void unreadable_and_absent(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	m.inv.host.verbs_user = stack();
	m.inv.host.verbs_user->why = strdup("its ELF version sections are cut short");
	judged(&m, &fs);
	f = expect(&fs, "driver.userspace", "host", SEV_INFO,
		   "not checked: its ELF version sections are cut short", NULL);
	assert_true(f->unchecked);
	findings_free(&fs);

	free(m.inv.host.verbs_user->libdir);
	m.inv.host.verbs_user->libdir = NULL;
	judged(&m, &fs);
	assert_int_equal(count_id(&fs, "driver.userspace"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matched_stack_says_nothing),
		cmocka_unit_test(provider_of_another_abi),
		cmocka_unit_test(driver_file),
		cmocka_unit_test(kernel_abis),
		cmocka_unit_test(unreadable_and_absent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
