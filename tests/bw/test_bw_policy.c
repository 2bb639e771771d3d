/* The bw test's policies, each decided in one place: the bandwidth floor a
 * verbs rail is held to (the profile's bw_floor_gbps, else 90% of the port
 * rate) and perftest's CQ moderation default. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "bw/params.h"
#include "bw/session.h"
#include "bw/expect.h"
#include "profiles/profile.h"

static void floor_from_profile(void **state)
{
	const struct profile *pr = profile_builtin("dgx-h100");
	double g = 0;
	char why[256];

	(void)state;
	assert_non_null(pr);
	assert_true(pr->role[ROLE_RAIL].bw_floor_gbps > 0);
	/* the profile wins over the port rate */
	assert_int_equal(bw_floor(pr, 100, &g, why, sizeof(why)), 1);
	assert_true(g == pr->role[ROLE_RAIL].bw_floor_gbps);
	assert_non_null(strstr(why, "dgx-h100"));
	assert_non_null(strstr(why, "bw_floor_gbps"));
}

static void floor_from_rate(void **state)
{
	const struct profile *generic = profile_builtin("generic");
	double g = 0;
	char why[256];

	(void)state;
	/* no profile, or one without a floor: 90% of the slowest port */
	assert_int_equal(bw_floor(NULL, 200, &g, why, sizeof(why)), 1);
	assert_true(fabs(g - 180) < 1e-9);
	assert_non_null(strstr(why, "90% of the 200 Gb/s"));
	assert_non_null(generic);
	assert_true(generic->role[ROLE_RAIL].bw_floor_gbps == 0);
	g = 0;
	assert_int_equal(bw_floor(generic, 400, &g, why, sizeof(why)), 1);
	assert_true(fabs(g - 360) < 1e-9);
	/* nothing known: nothing expected */
	g = -1;
	assert_int_equal(bw_floor(NULL, NAN, &g, why, sizeof(why)), 0);
	assert_true(g == -1);
}

static void cq_mod_rule(void **state)
{
	(void)state;
	assert_int_equal(bw_params_cq_mod(2, 128, false), 100);
	assert_int_equal(bw_params_cq_mod(8192, 128, false), 100);
	assert_int_equal(bw_params_cq_mod(8193, 128, false), 1);
	assert_int_equal(bw_params_cq_mod(65536, 128, true), 100);	/* a sweep keeps 100 */
	assert_int_equal(bw_params_cq_mod(2, 16, false), 16);	/* never above the depth */
	assert_int_equal(bw_params_cq_mod(2, 0, false), 100);	/* 0: the default depth */
}

/* the node's cpulist file, as the kernel writes it (trailing newline) */
static void cpulist_parse(void **state)
{
	cpu_set_t set;

	(void)state;
	assert_int_equal(bw_cpulist_parse("0-3,8,10-11\n", &set), 0);
	assert_int_equal(CPU_COUNT(&set), 7);
	assert_true(CPU_ISSET(8, &set) && CPU_ISSET(11, &set) && !CPU_ISSET(9, &set));
	assert_int_equal(bw_cpulist_parse("\n", &set), -1);	/* a memory-only node */
	assert_int_equal(bw_cpulist_parse(NULL, &set), -1);
	assert_int_equal(bw_cpulist_parse("3-1", &set), -1);
	assert_int_equal(bw_cpulist_parse("0-3;5", &set), -1);
	assert_int_equal(bw_cpulist_parse("99999999", &set), -1);
	/* NULL: left unpinned, nothing read */
	assert_int_equal(bw_pin_cpulist(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(floor_from_profile),
		cmocka_unit_test(floor_from_rate),
		cmocka_unit_test(cq_mod_rule),
		cmocka_unit_test(cpulist_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
