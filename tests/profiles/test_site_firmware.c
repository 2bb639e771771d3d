/* The site file's [firmware] section: the two forms of a line, as libinih
 * hands them over ("PSID >= V" arrives as name "PSID >"), looked up by
 * PSID whatever its case; every malformed kind refused at its own line;
 * and versions compared number by number, not as text. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "profiles/site.h"

static int site_text(const char *text, struct site *s, struct profile_error *err)
{
	return site_parse(text, strlen(text), "s.conf", s, err);
}

static void good_lines(void **state)
{
	static const char text[] =
		"[firmware]\n"
		"# qualified on this fleet\n"
		"MT_0000000359 = 22.39.1002, 22.41.1000   # the A800s\n"
		"mt_0000000223 >= 28.39.1002\n"
		"MT_0000000834>=28.40.1000\n"
		"\n"
		"DEL0000000027 = 14.32.1010 14.33.1000\n"
		"[site]\n"
		"rail = mlx5_0\n";
	struct profile_error err;
	const struct fw_rule *r;
	struct site s;

	(void)state;
	assert_int_equal(site_text(text, &s, &err), 0);
	assert_int_equal(s.n_fw, 4);
	assert_int_equal(site_role(&s, "mlx5_0"), ROLE_RAIL);

	r = site_fw_rule(&s, "MT_0000000359");
	assert_non_null(r);
	assert_int_equal(r->line, 3);
	assert_null(r->floor);
	assert_int_equal(r->allowed.n, 2);
	assert_string_equal(r->allowed.v[0], "22.39.1002");
	assert_string_equal(r->allowed.v[1], "22.41.1000");
	assert_true(site_fw_allows(r, "22.41.1000"));
	assert_true(site_fw_allows(r, "22.039.1002"));	/* numbers, not text */
	assert_false(site_fw_allows(r, "22.40.1000"));	/* between the two: not listed */
	assert_false(site_fw_allows(r, "22.42.1000"));

	/* the PSID as sysfs spells it finds the rule written in lower case */
	r = site_fw_rule(&s, "MT_0000000223");
	assert_non_null(r);
	assert_int_equal(r->line, 4);
	assert_string_equal(r->floor, "28.39.1002");
	assert_int_equal(r->allowed.n, 0);
	assert_true(site_fw_allows(r, "28.39.1002"));
	assert_true(site_fw_allows(r, "28.40.1000"));
	assert_false(site_fw_allows(r, "28.39.999"));
	assert_false(site_fw_allows(r, "28.38.9999"));

	r = site_fw_rule(&s, "MT_0000000834");
	assert_non_null(r);
	assert_string_equal(r->psid, "MT_0000000834");
	assert_string_equal(r->floor, "28.40.1000");

	r = site_fw_rule(&s, "DEL0000000027");
	assert_non_null(r);
	assert_int_equal(r->line, 7);
	assert_int_equal(r->allowed.n, 2);

	assert_null(site_fw_rule(&s, "MT_0000000000"));
	assert_null(site_fw_rule(&s, NULL));
	assert_null(site_fw_rule(NULL, "MT_0000000359"));
	site_free(&s);
	assert_int_equal(s.n_fw, 0);
	assert_null(s.fw);
}

static void malformed_lines(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *says;
	} broken[] = {
		{ "[firmware]\nMT_1 <= 22.39.1002\n", 2,
		  "[firmware]: 'MT_1 <' is not 'PSID' or 'PSID >': expected 'PSID = VERSION" },
		{ "[firmware]\nMT_1 == 22.39.1002\n", 2, "[firmware] MT_1: '= 22.39.1002' after the '='" },
		{ "[firmware]\nMT_1 => 22.39.1002\n", 2, "[firmware] MT_1: '> 22.39.1002' after the '='" },
		{ "[firmware]\n\nMT_1 > 22.39.1002\n", 3, "[firmware]: expected 'PSID = VERSION[, "
		  "VERSION...]' or 'PSID >= VERSION', got 'MT_1 > 22.39.1002'" },
		{ "[firmware]\nMT_1 = 22.39.x\n", 2, "[firmware] MT_1: '22.39.x' is not a firmware "
		  "version" },
		{ "[firmware]\nMT_1 = 22.39.1002, 22..41\n", 2, "'22..41' is not a firmware version" },
		{ "[firmware]\nMT_1 = 22.39.\n", 2, "'22.39.' is not a firmware version" },
		{ "[firmware]\nMT_1 = 1.2.3.4.5.6.7.8.9\n", 2, "is not a firmware version" },
		{ "[firmware]\nMT_1 = 1234567890.1\n", 2, "'1234567890.1' is not a firmware version" },
		{ "[firmware]\nMT_1 >= v22.39\n", 2, "[firmware] MT_1: 'v22.39' is not a firmware "
		  "version" },
		{ "[firmware]\nMT_1 >= 22.39.1002, 22.41.1000\n", 2, "MT_1 >= '22.39.1002, "
		  "22.41.1000': a floor is one version" },
		{ "[firmware]\nMT_1 =\n", 2, "MT_1: expected a value, got nothing" },
		{ "[firmware]\nMT_1 = ,\n", 2, "[firmware] MT_1: no version" },
		{ "[firmware]\nMT 1 = 22.39.1002\n", 2, "'MT 1' is not 'PSID' or 'PSID >'" },
		{ "[firmware]\nMT/1 >= 22.39.1002\n", 2, "'MT/1 >' is not 'PSID' or 'PSID >'" },
		{ "[firmware]\nMT_1 = 22.39.1002\n# again\nmt_1 >= 22.41.1000\n", 4,
		  "[firmware] mt_1 given twice (first on line 2)" },
		/* inih would take an indented line for more of the line before */
		{ "[firmware]\nMT_1 = 22.39.1002\n  22.41.1000\n", 3, "[firmware]: expected 'PSID = " },
		/* a [site] key under [firmware] is no PSID line */
		{ "[site]\nprofile = x\n[firmware]\nrail = mlx5_0\n", 4, "[firmware] rail: 'mlx5_0' is "
		  "not a firmware version" },
		{ "[firmwares]\nMT_1 = 22.39.1002\n", 1, "unknown section '[firmwares]': the site "
		  "file has only [site] and [firmware]" },
		{ "MT_1 = 22.39.1002\n[firmware]\n", 1, "'MT_1' comes before any section" },
	};
	struct profile_error err;
	struct site s;

	(void)state;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		int rc = site_text(broken[i].text, &s, &err);

		if (rc != -EINVAL || err.line != broken[i].line || !strstr(err.message, broken[i].says))
			fail_msg("case %zu: rc %d, line %d: '%s'; wanted line %d: '%s'", i, rc,
				 err.line, err.message, broken[i].line, broken[i].says);
		assert_int_equal(s.n_fw, 0);
		assert_null(s.fw);
	}
}

static void versions(void **state)
{
	static const struct {
		const char *a, *b;
		int cmp;
	} pairs[] = {
		{ "28.39.1002", "28.39.1002", 0 },
		{ "28.39.1002", "28.40.1000", -1 },
		{ "28.39.1002", "28.39.999", 1 },	/* 1002 > 999, though "1" < "9" */
		{ "9.1", "10.0", -1 },
		{ "28.39", "28.39.0", 0 },		/* a missing part is 0 */
		{ "28.39.1", "28.39", 1 },
		{ "028.39.1002", "28.39.1002", 0 },
		{ "22.41.1000", "28.39.1002", -1 },
		{ "1.2.3.4.5.6.7.9", "1.2.3.4.5.6.7.8", 1 },
	};
	static const char *const bad[] = {
		"", ".", "1.", ".1", "a", "1.2a", "1 2", "1,2", "-1.2", "+1", "1..2",
		"1.2.3.4.5.6.7.8.9", "1234567890", "28.39.1002 (MT_0000000359)",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		int c = site_fw_version_cmp(pairs[i].a, pairs[i].b);
		int r = site_fw_version_cmp(pairs[i].b, pairs[i].a);

		assert_true(site_fw_version_ok(pairs[i].a));
		assert_true(site_fw_version_ok(pairs[i].b));
		if ((c > 0) - (c < 0) != pairs[i].cmp || (r > 0) - (r < 0) != -pairs[i].cmp)
			fail_msg("%s vs %s: %d and %d, wanted %d", pairs[i].a, pairs[i].b, c, r,
				 pairs[i].cmp);
	}
	assert_true(site_fw_version_ok("28"));
	assert_true(site_fw_version_ok("123456789.0"));
	assert_false(site_fw_version_ok(NULL));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (site_fw_version_ok(bad[i]))
			fail_msg("'%s' taken for a version", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_lines),
		cmocka_unit_test(malformed_lines),
		cmocka_unit_test(versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
