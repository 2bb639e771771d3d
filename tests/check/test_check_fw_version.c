/* fw.version (src/check/fw_version.c) against small machines built in C
 * (check_machine.h) and a site file's [firmware] rules: a list and a
 * floor at their edges, one finding per card (not per PCI function), an
 * error on a rail and a warning elsewhere, and "not checked" for a PSID or
 * version that cannot be read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check_machine.h"
#include "profiles/site.h"

#define RAIL_PSID "MT_0000000223"
#define STORAGE_PSID "MT_0000000359"

static const char site_text[] =
	"[firmware]\n"
	RAIL_PSID " >= 20.40.1000\n"
	STORAGE_PSID " = 22.39.1002, 22.41.1000\n";

/* The healthy shape's rails carry the floor's PSID, its storage card (two
 * functions, mlx5_4 and mlx5_5) the listed one. */
static void psids(struct machine *m)
{
	for (size_t i = 0; i < m->inv.n_nics; i++)
		m->inv.nics[i].board_id = strdup(i < 4 ? RAIL_PSID : STORAGE_PSID);
	for (size_t i = 4; i < 6; i++) {
		free(m->inv.nics[i].fw_ver);
		m->inv.nics[i].fw_ver = strdup("22.41.1000");
	}
}

static void judge(const struct machine *m, const char *text, struct findings *fs)
{
	struct profile p = a100_profile();
	enum nic_role roles[16];
	struct profile_error err;
	struct site site;

	assert_true(m->inv.n_nics <= 16);
	memset(fs, 0, sizeof(*fs));
	assert_int_equal(site_parse(text, strlen(text), "site.conf", &site, &err), 0);
	check_roles(&m->inv, &p, &site, roles);
	assert_int_equal(check_run_site(&m->inv, &p, &site, roles, fs), 0);
	site_free(&site);
}

static void fw_set(struct machine *m, size_t i, const char *v)
{
	free(m->inv.nics[i].fw_ver);
	m->inv.nics[i].fw_ver = v ? strdup(v) : NULL;
}

/* At the floor and in the list: nothing; below the floor on a rail: an
 * error naming the floor and the card's PCI address; off the list on the
 * storage card: one warning for both functions. */
static void floor_and_list(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	psids(&m);
	judge(&m, site_text, &fs);
	assert_int_equal(count_id(&fs, "fw.version"), 0);
	findings_free(&fs);

	fw_set(&m, 2, "20.39.9999");		/* one below the floor */
	fw_set(&m, 4, "22.40.1000");		/* not listed */
	fw_set(&m, 5, "22.40.1000");
	judge(&m, site_text, &fs);
	f = expect(&fs, "fw.version", "mlx5_2", SEV_ERROR, NULL,
		   "20.40.1000 or newer for PSID " RAIL_PSID " (site file /etc/rdmadoctor/"
		   "rdmadoctor.conf, line 2)");
	assert_non_null(strstr(f->observed, "runs 20.39.9999"));
	assert_non_null(strstr(f->fix, "mlxfwmanager -d "));
	f = expect(&fs, "fw.version", "mlx5_4", SEV_WARN, NULL,
		   "one of 22.39.1002, 22.41.1000 for PSID " STORAGE_PSID
		   " (site file /etc/rdmadoctor/rdmadoctor.conf, line 3)");
	assert_non_null(strstr(f->observed, "(mlx5_4 mlx5_5, "));
	assert_null(get(&fs, "fw.version", "mlx5_5"));
	assert_int_equal(count_id(&fs, "fw.version"), 2);
	findings_free(&fs);

	/* a newer version than the floor passes */
	fw_set(&m, 2, "20.41.0");
	judge(&m, site_text, &fs);
	assert_null(get(&fs, "fw.version", "mlx5_2"));
	findings_free(&fs);
	machine_free(&m);
}

/* What cannot be judged while rules exist is "not checked": no PSID, an
 * empty one, a version that is not dotted numbers; a PSID no rule names
 * is no finding at all; without [firmware] nothing is asked. */
static void unreadable(void **state)
{
	struct machine m;
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	psids(&m);
	free(m.inv.nics[0].board_id);
	m.inv.nics[0].board_id = NULL;
	free(m.inv.nics[1].board_id);
	m.inv.nics[1].board_id = strdup("\n");
	fw_set(&m, 2, "unknown");
	free(m.inv.nics[3].board_id);
	m.inv.nics[3].board_id = strdup("MT_0000000999");	/* no rule */
	judge(&m, site_text, &fs);
	f = expect(&fs, "fw.version", "mlx5_0", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_non_null(strstr(f->observed, "its PSID (board_id) could not be read"));
	f = expect(&fs, "fw.version", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_non_null(strstr(f->observed, "its PSID (board_id) is empty"));
	f = expect(&fs, "fw.version", "mlx5_2", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_non_null(strstr(f->observed, "'unknown' is not dotted numbers"));
	assert_null(get(&fs, "fw.version", "mlx5_3"));
	findings_free(&fs);

	judge(&m, "[firmware]\n", &fs);
	assert_int_equal(count_id(&fs, "fw.version"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(floor_and_list),
		cmocka_unit_test(unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
