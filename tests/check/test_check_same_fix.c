/* One cause, one finding (src/check/same_fix.c): among the ids that judge
 * a port's lossless RoCE setup, a finding whose fix commands another on
 * the same subject already gives, at no lower severity, is dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "check/families.h"

#define PFC "`mlnx_qos -i eth2 --pfc 0,0,0,1,0,0,0,0`"
#define TRUST "`mlnx_qos -i eth2 --trust dscp`"

static struct finding *add(struct findings *fs, const char *id, enum severity sev,
			   const char *subject, const char *fix)
{
	struct finding *f = finding_add(fs, id, sev, "why");

	assert_non_null(f);
	finding_set(&f->subject, "%s", subject);
	finding_set(&f->fix, "%s", fix);
	return f;
}

static bool has(const struct findings *fs, const char *id, const char *subject)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].id, id) == 0 && strcmp(fs->v[i].subject, subject) == 0)
			return true;
	return false;
}

/* roce.qos_mismatch (DSCP 26 lands on a priority without PFC) and roce.pfc
 * (PFC off on it) give one command: the warning goes, the error stays. */
static void lower_severity_same_command_goes(void **state)
{
	struct findings fs = { 0 };
	(void)state;

	add(&fs, "roce.qos_mismatch", SEV_WARN, "mlx5_2 port 1", "turn PFC on: " PFC);
	add(&fs, "roce.pfc", SEV_ERROR, "mlx5_2 port 1", PFC " and then " TRUST);
	assert_int_equal(check_drop_same_fix(&fs, 0), 0);
	assert_int_equal(fs.n, 1);
	assert_true(has(&fs, "roce.pfc", "mlx5_2 port 1"));
	findings_free(&fs);
}

/* The error's fix has a command the warning lacks: the error stays, and
 * so does the warning only when it says something the error does not. */
static void more_commands_stay(void **state)
{
	struct findings fs = { 0 };
	(void)state;

	add(&fs, "roce.pfc", SEV_WARN, "mlx5_2 port 1", PFC " and " TRUST);
	add(&fs, "roce.trust", SEV_ERROR, "mlx5_2 port 1", TRUST);
	assert_int_equal(check_drop_same_fix(&fs, 0), 0);
	assert_int_equal(fs.n, 2);
	findings_free(&fs);
}

/* The same commands at the same severity: the later one goes. */
static void equal_the_later_goes(void **state)
{
	struct findings fs = { 0 };
	(void)state;

	add(&fs, "roce.pfc", SEV_WARN, "mlx5_2 port 1", PFC);
	add(&fs, "roce.qos_mismatch", SEV_WARN, "mlx5_2 port 1", "do " PFC);
	assert_int_equal(check_drop_same_fix(&fs, 0), 0);
	assert_int_equal(fs.n, 1);
	assert_true(has(&fs, "roce.pfc", "mlx5_2 port 1"));
	findings_free(&fs);
}

/* Never compared: another subject, an id outside the RoCE setup, a fix
 * with no command, what could not be checked, what the site waived. */
static void what_is_never_compared(void **state)
{
	struct findings fs = { 0 };
	struct finding *f;
	(void)state;

	add(&fs, "roce.pfc", SEV_ERROR, "mlx5_2 port 1", PFC);
	add(&fs, "roce.qos_mismatch", SEV_WARN, "mlx5_3 port 1", PFC);	/* other subject */
	add(&fs, "port.rate_low", SEV_WARN, "mlx5_2 port 1", PFC);	/* not the setup */
	add(&fs, "roce.ecn", SEV_WARN, "mlx5_2 port 1", "turn PFC on");	/* no command */
	f = add(&fs, "roce.trust", SEV_INFO, "mlx5_2 port 1", PFC);
	f->unchecked = true;
	f = add(&fs, "roce.qos_mismatch", SEV_WARN, "mlx5_2 port 1", PFC);
	f->waived = true;
	assert_int_equal(check_drop_same_fix(&fs, 0), 0);
	assert_int_equal(fs.n, 6);
	findings_free(&fs);
}

/* Only out->v[from..] is judged: an earlier finding neither goes nor
 * covers (it belongs to another run's list). */
static void from_bounds_it(void **state)
{
	struct findings fs = { 0 };
	(void)state;

	add(&fs, "roce.pfc", SEV_ERROR, "mlx5_2 port 1", PFC);
	add(&fs, "roce.qos_mismatch", SEV_WARN, "mlx5_2 port 1", PFC);
	assert_int_equal(check_drop_same_fix(&fs, 1), 0);
	assert_int_equal(fs.n, 2);
	add(&fs, "roce.pfc", SEV_ERROR, "mlx5_2 port 1", PFC);
	assert_int_equal(check_drop_same_fix(&fs, 1), 0);
	assert_int_equal(fs.n, 2);		/* the qos_mismatch went */
	assert_string_equal(fs.v[1].id, "roce.pfc");
	findings_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lower_severity_same_command_goes),
		cmocka_unit_test(more_commands_stay),
		cmocka_unit_test(equal_the_later_goes),
		cmocka_unit_test(what_is_never_compared),
		cmocka_unit_test(from_bounds_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
