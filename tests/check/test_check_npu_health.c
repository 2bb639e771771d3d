/* npu.health (src/check/npu_health.c): npu-smi's health of each Ascend NPU
 * judged, the statuses at their edges: OK says nothing, Warning warns,
 * Alarm and Critical fail, UNKNOWN, a status npu-smi's reference does not
 * name, and no health at all are "not checked", never healthy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/families.h"

struct case_ {
	const char *health;	/* NULL: not read */
	enum severity sev;
	bool finding, unchecked;
	const char *observed;	/* a part of it */
};

static const struct case_ cases[] = {
	{ "OK", SEV_INFO, false, false, NULL },
	{ "ok", SEV_INFO, false, false, NULL },		/* npu-smi's case varies */
	{ "Warning", SEV_WARN, true, false, "health Warning; error code 0x80818c0b" },
	{ "Alarm", SEV_ERROR, true, false, "health Alarm; error code 0x80818c0b" },
	{ "Critical", SEV_ERROR, true, false, "health Critical;" },
	{ "UNKNOWN", SEV_INFO, true, true, "not checked: npu-smi says health UNKNOWN" },
	{ "Degraded", SEV_INFO, true, true, "a status this version does not know" },
	{ NULL, SEV_INFO, true, true, "not checked: no health from `npu-smi info -t health -i 3 -c 0`" },
};

static void each_status(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct case_ *t = &cases[k];
		struct inventory inv;
		struct npu npu;
		struct check_ctx c = { .inv = &inv, .generic = true };
		struct findings fs = { 0 };

		memset(&inv, 0, sizeof(inv));
		memset(&npu, 0, sizeof(npu));
		npu.id = 3;
		npu.card = NA;
		npu.die = NA;
		npu.chip = 0;
		npu.health = (char *)t->health;
		npu.health_code = (char *)"0x80818c0b";
		inv.npu.v = &npu;
		inv.npu.n = 1;
		assert_int_equal(check_npu_health(&c, &fs), 0);
		if (!t->finding) {
			assert_int_equal(fs.n, 0);
			continue;
		}
		assert_int_equal(fs.n, 1);
		assert_string_equal(fs.v[0].id, "npu.health");
		assert_string_equal(fs.v[0].subject, "npu3");
		assert_int_equal(fs.v[0].severity, t->sev);
		assert_int_equal(fs.v[0].unchecked, t->unchecked);
		assert_string_equal(fs.v[0].expected, "OK");
		if (!strstr(fs.v[0].observed, t->observed))
			fail_msg("health %s: observed '%s' lacks '%s'", t->health ? t->health : "(none)",
				 fs.v[0].observed, t->observed);
		/* the command names this chip: -i card (its id here) -c chip */
		assert_non_null(strstr(fs.v[0].fix, "-i 3 -c 0"));
		findings_free(&fs);
	}
}

/* A die of a two-die NPU (Atlas A3): npu-smi takes the NPU's card id and
 * the die's chip id, not the die's own id. */
static void two_dies_name_the_card(void **state)
{
	struct inventory inv;
	struct npu npu;
	struct check_ctx c = { .inv = &inv, .generic = true };
	struct findings fs = { 0 };
	(void)state;

	memset(&inv, 0, sizeof(inv));
	memset(&npu, 0, sizeof(npu));
	npu.id = 9;
	npu.card = 4;
	npu.die = 1;
	npu.chip = 1;
	npu.health = (char *)"Alarm";
	inv.npu.v = &npu;
	inv.npu.n = 1;
	assert_int_equal(check_npu_health(&c, &fs), 0);
	assert_int_equal(fs.n, 1);
	assert_string_equal(fs.v[0].subject, "npu9");
	assert_non_null(strstr(fs.v[0].fix, "-i 4 -c 1"));
	assert_non_null(strstr(fs.v[0].observed, "error code none given; no error information"));
	findings_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_status),
		cmocka_unit_test(two_dies_name_the_card),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
