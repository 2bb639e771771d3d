/* src/sysfs/modinfo.c over src/sysfs/elf.c: the .modinfo of real .ko files
 * of Debian 12's kernel 6.1.0-57-amd64 (the fuzz seeds), against what kmod's
 * `modinfo -F version|srcversion|vermagic` printed for the same files:
 *   l2tp_eth.ko: 1.0, BD1537E68CC507FB502A3EF,
 *                "6.1.0-57-amd64 SMP preempt mod_unload modversions "
 *   nhc_ipv6.ko: no version, no srcversion, the same vermagic.
 * The build id against `readelf -n` (binutils) on the same file. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sysfs/modinfo.h"

/* `readelf -n l2tp_eth.ko`: Build ID: bb884fc0870cd65f35127bffe365573a71e64c24 */
#define L2TP_BUILD_ID "\xbb\x88\x4f\xc0\x87\x0c\xd6\x5f\x35\x12\x7b\xff\xe3\x65\x57\x3a\x71\xe6\x4c\x24"
#define VERMAGIC "6.1.0-57-amd64 SMP preempt mod_unload modversions "

static unsigned char *slurp(const char *name, size_t *len)
{
	char path[4096];
	unsigned char *buf;
	FILE *f;
	long n;
	const char *dir = getenv("RD_TESTS_DIR");

	assert_non_null(dir);	/* tests/CMakeLists.txt sets it */
	snprintf(path, sizeof(path), "%s/fuzz/corpus/modinfo/%s", dir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void real_ko_with_version(void **state)
{
	struct modinfo mi;
	size_t len;
	unsigned char *b = slurp("l2tp_eth.ko", &len);

	(void)state;
	assert_int_equal(modinfo_read(b, len, &mi), 0);
	assert_string_equal(mi.version, "1.0");
	assert_string_equal(mi.srcversion, "BD1537E68CC507FB502A3EF");
	assert_string_equal(mi.vermagic, VERMAGIC);
	assert_int_equal(mi.build_id_len, 20);
	assert_memory_equal(mi.build_id, L2TP_BUILD_ID, 20);
	modinfo_free(&mi);
	/* cut short: the section headers sit at the end, so nothing is read */
	assert_int_equal(modinfo_read(b, len / 2, &mi), -EINVAL);
	assert_null(mi.vermagic);
	/* a 32-bit object is refused, not misread */
	b[4] = 1;
	assert_int_equal(modinfo_read(b, len, &mi), -EOPNOTSUPP);
	free(b);
}

static void real_ko_without_version(void **state)
{
	struct modinfo mi;
	size_t len;
	unsigned char *b = slurp("nhc_ipv6.ko", &len);

	(void)state;
	assert_int_equal(modinfo_read(b, len, &mi), 0);
	assert_null(mi.version);
	assert_null(mi.srcversion);
	assert_string_equal(mi.vermagic, VERMAGIC);
	modinfo_free(&mi);
	free(b);
}

static void section_entries(void **state)
{
	static const unsigned char sec[] = "license=GPL\0\0\0version=2.1\0srcversion=\0"
					   "version=9\0vermagic=6.1 SMP";
	struct modinfo mi;

	(void)state;
	/* padding NULs skipped, first value kept, empty value ignored, the
	 * last entry unterminated at the end of the section still read */
	assert_int_equal(modinfo_parse(sec, sizeof(sec) - 1, &mi), 0);
	assert_string_equal(mi.version, "2.1");
	assert_null(mi.srcversion);
	assert_string_equal(mi.vermagic, "6.1 SMP");
	modinfo_free(&mi);
	assert_int_equal(modinfo_read((const unsigned char *)"\177ELF", 4, &mi), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_ko_with_version),
		cmocka_unit_test(real_ko_without_version),
		cmocka_unit_test(section_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
