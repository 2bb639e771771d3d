/* The pure parts of the verbs userspace (model/verbs_user.h) and the ELF
 * version-definition reader on malformed headers.  The reader against
 * readelf -V on real libraries is tests/check/verbs_userspace.py. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/verbs_user.h"
#include "sysfs/elf_verdef.h"

static void provider_names(void **state)
{
	char *name = NULL;
	int pabi = -1;

	(void)state;
	assert_int_equal(verbs_provider_file("libmlx5-rdmav34.so", &name, &pabi), 0);
	assert_string_equal(name, "mlx5");
	assert_int_equal(pabi, 34);
	free(name);
	assert_int_equal(verbs_provider_file("libvmw_pvrdma-rdmav2.so", &name, &pabi), 0);
	assert_string_equal(name, "vmw_pvrdma");
	assert_int_equal(pabi, 2);
	free(name);
	/* not providers: no number, no name, another suffix, a number too long */
	static const char *const bad[] = {
		"libmlx5-rdmav.so", "lib-rdmav34.so", "libmlx5-rdmav34.so.1", "libmlx5.so",
		"libmlx5-rdmav34x.so", "libmlx5-rdmav12345.so", "mlx5-rdmav34.so", "",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(verbs_provider_file(bad[i], &name, &pabi), -EINVAL);
		assert_null(name);
	}
}

static void release_names(void **state)
{
	char *r;

	(void)state;
	r = verbs_release_of("libibverbs.so.1.14.44.0");
	assert_string_equal(r, "44.0");
	free(r);
	r = verbs_release_of("libibverbs.so.1.14.2307mlnx47.0");	/* taken as written */
	assert_string_equal(r, "2307mlnx47.0");
	free(r);
	assert_null(verbs_release_of("libibverbs.so.1"));
	assert_null(verbs_release_of("libibverbs.so.1.14"));
	assert_null(verbs_release_of("libibverbs.so.1.x.44.0"));
	assert_null(verbs_release_of("libmlx5.so.1.24.44.0"));
}

static void sets(void **state)
{
	char n0[] = "libibverbs.so.1", n1[] = "IBVERBS_1.0", n2[] = "IBVERBS_1.12",
	     n3[] = "IBVERBS_1.9", n4[] = "IBVERBS_PRIVATE_34", n5[] = "IBVERBS_1.x",
	     n6[] = "MLX5_1.0";
	char *names[] = { n0, n1, n2, n3, n4, n5, n6 };
	int minor, pabi;

	(void)state;
	verbs_sets_scan(names, 7, &minor, &pabi);
	assert_int_equal(minor, 12);	/* numerically: 1.12 above 1.9 */
	assert_int_equal(pabi, 34);
	verbs_sets_scan(names, 1, &minor, &pabi);
	assert_int_equal(minor, -1);
	assert_int_equal(pabi, -1);
}

static void lookups(void **state)
{
	char mlx5[] = "mlx5", rxe[] = "rxe";
	struct verbs_provider p[] = { { mlx5, 25 }, { mlx5, 34 }, { rxe, 34 } };
	char *drivers[] = { mlx5 };
	struct verbs_user u = { .providers = p, .n_providers = 3, .drivers = drivers,
				.n_drivers = 1, .drivers_known = true };

	(void)state;
	assert_string_equal(verbs_provider_for("mlx5_core"), "mlx5");
	assert_string_equal(verbs_provider_for("rdma_rxe"), "rxe");
	assert_null(verbs_provider_for("e1000e"));
	assert_null(verbs_provider_for(NULL));
	assert_ptr_equal(verbs_user_provider(&u, "mlx5", 34), &p[1]);
	assert_null(verbs_user_provider(&u, "mlx5", 33));
	assert_ptr_equal(verbs_user_any_provider(&u, "mlx5"), &p[0]);
	assert_true(verbs_user_has_driver(&u, "mlx5"));
	assert_false(verbs_user_has_driver(&u, "rxe"));
}

/* An ELF64 LE header whose section table is where the bytes say. */
static void header(unsigned char *b, uint64_t shoff, uint16_t shentsize, uint16_t shnum)
{
	memset(b, 0, 64);
	memcpy(b, "\177ELF", 4);
	b[4] = 2;
	b[5] = 1;
	for (int i = 0; i < 8; i++)
		b[40 + i] = (unsigned char)(shoff >> (8 * i));
	b[58] = (unsigned char)shentsize;
	b[59] = (unsigned char)(shentsize >> 8);
	b[60] = (unsigned char)shnum;
	b[61] = (unsigned char)(shnum >> 8);
}

static void elf_malformed(void **state)
{
	unsigned char b[256];
	char **names;
	size_t n;

	(void)state;
	memset(b, 0, sizeof(b));
	assert_int_equal(elf_verdef_names(b, sizeof(b), &names, &n), -EINVAL);	/* no magic */
	header(b, 64, 64, 1);
	b[4] = 1;	/* 32-bit */
	assert_int_equal(elf_verdef_names(b, sizeof(b), &names, &n), -EOPNOTSUPP);
	header(b, 64, 64, 1);
	b[5] = 2;	/* big-endian */
	assert_int_equal(elf_verdef_names(b, sizeof(b), &names, &n), -EOPNOTSUPP);
	header(b, 1u << 30, 64, 1);	/* section table past the end */
	assert_int_equal(elf_verdef_names(b, sizeof(b), &names, &n), -EINVAL);
	header(b, UINT64_MAX - 10, 64, 2);	/* an offset that would wrap */
	assert_int_equal(elf_verdef_names(b, sizeof(b), &names, &n), -EINVAL);
	header(b, 64, 40, 1);	/* not 64-byte section headers */
	assert_int_equal(elf_verdef_names(b, sizeof(b), &names, &n), -EINVAL);
	header(b, 64, 64, 1);	/* one empty section: no version definitions */
	memset(b + 64, 0, 64);
	assert_int_equal(elf_verdef_names(b, 128, &names, &n), -ENOENT);
	assert_null(names);
	assert_int_equal(n, 0);
	assert_int_equal(elf_verdef_names(b, 63, &names, &n), -EINVAL);	/* short */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(provider_names), cmocka_unit_test(release_names),
		cmocka_unit_test(sets), cmocka_unit_test(lookups),
		cmocka_unit_test(elf_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
