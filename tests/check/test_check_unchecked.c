/* Checks against small machines built in C (check_machine.h): what the
 * profile expects but could not be read (src/check/unchecked.c), and how
 * check_run weighs it (run.c's check_weigh_required): an info marked
 * unchecked, a warning where the profile names the value, never silence
 * and never an error. */
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

/* The healthy shape passes under its profile with nothing unchecked: what
 * the cases below see is the unread value alone. */
static void healthy_has_nothing_unchecked(void **state)
{
	struct machine m;
	struct profile a100 = a100_profile(), generic = generic_profile();
	struct findings fs;
	(void)state;

	healthy(&m);
	run(&m, &a100, &fs);
	assert_int_equal(check_unchecked(&fs), 0);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	/* generic: every card a rail, so the two Ethernet ports are RoCE
	 * rails whose DCB was never read (the machine has no reply): "not
	 * checked", but generic leaves lossy RoCE alone, so not required */
	run(&m, &generic, &fs);
	assert_int_equal(check_unchecked(&fs), 2);
	for (int i = 4; i <= 5; i++) {
		char subject[32];
		const struct finding *f;

		snprintf(subject, sizeof(subject), "mlx5_%d port 1", i);
		f = expect(&fs, "roce.pfc", subject, SEV_INFO, NULL, NULL);
		assert_true(f->unchecked);
		assert_false(f->required);
	}
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	machine_free(&m);
}

/* A rail port whose rate string named no rate: port.rate_low "not
 * checked", required where the profile names a rate (so a warning, and
 * the verdict is no PASS), and not asked at all where it names none. */
static void rate_unknown(void **state)
{
	struct machine m;
	struct profile a100 = a100_profile(), generic = generic_profile();
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	m.inv.nics[0].ports[0].rate_gbps = NAN;
	run(&m, &a100, &fs);
	f = expect(&fs, "port.rate_low", "mlx5_0 port 1", SEV_WARN,
		   "not checked: the port's rate file names no rate this tool knows", "200 Gb/s");
	assert_true(f->unchecked);
	assert_true(f->required);
	assert_false(f->accepted);
	assert_int_equal(check_unchecked(&fs), 1);
	assert_string_equal(check_verdict(&fs), "warn");
	findings_free(&fs);

	run(&m, &generic, &fs);
	assert_int_equal(count_id(&fs, "port.rate_low"), 0);
	findings_free(&fs);

	/* a port that is down says so itself: its rate is no question */
	m.inv.nics[0].ports[0].state = 1;
	free(m.inv.nics[0].ports[0].state_name);
	m.inv.nics[0].ports[0].state_name = strdup("DOWN");
	run(&m, &a100, &fs);
	f = get(&fs, "port.rate_low", "mlx5_0 port 1");
	assert_true(f == NULL || !f->unchecked);
	findings_free(&fs);
	machine_free(&m);
}

/* A NIC's PCIe link that could not be read: pcie.link_degraded "not
 * checked" once per card (the two functions of the storage card share
 * one link), required only where the role names a generation or width. */
static void pcie_unknown(void **state)
{
	struct machine m;
	struct profile a100 = a100_profile(), generic = generic_profile();
	struct findings fs;
	const struct finding *f;
	(void)state;

	healthy(&m);
	m.inv.nics[1].pci.link.speed_gts = NAN;
	m.inv.nics[4].pci.link.width = NA;
	m.inv.nics[5].pci.link.width = NA;
	run(&m, &a100, &fs);
	f = expect(&fs, "pcie.link_degraded", "mlx5_1", SEV_WARN, NULL,
		   "the speed and width the card and slot can do");
	assert_true(f->unchecked && f->required);
	assert_non_null(strstr(f->observed, "not checked: its PCIe link speed could not be read"));
	/* the storage role names no generation: an info, counted */
	f = expect(&fs, "pcie.link_degraded", "mlx5_4", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_false(f->required);
	assert_non_null(strstr(f->observed, "its PCIe link width could not be read"));
	assert_null(get(&fs, "pcie.link_degraded", "mlx5_5"));
	assert_int_equal(check_unchecked(&fs), 2);
	findings_free(&fs);

	/* no profile names a link: both infos, the verdict left alone */
	run(&m, &generic, &fs);
	f = expect(&fs, "pcie.link_degraded", "mlx5_1", SEV_INFO, NULL, NULL);
	assert_true(f->unchecked);
	assert_false(f->required);
	assert_string_equal(check_verdict(&fs), "pass");
	findings_free(&fs);
	machine_free(&m);
}

/* check_weigh_required on its own: only required, unchecked, unwaived
 * findings from `from` on are raised, and never lowered. */
static void weigh_required(void **state)
{
	struct findings fs = { 0 };
	struct finding *f;
	(void)state;

	f = finding_add(&fs, "roce.pfc", SEV_INFO, "why");	/* required: raised */
	f->unchecked = f->required = true;
	f = finding_add(&fs, "roce.ecn", SEV_INFO, "why");	/* not required */
	f->unchecked = true;
	f = finding_add(&fs, "mtu.roce", SEV_INFO, "why");	/* waived: left */
	f->unchecked = f->required = f->waived = true;
	f = finding_add(&fs, "port.state", SEV_ERROR, "why");	/* never lowered */
	f->unchecked = f->required = true;
	f = finding_add(&fs, "port.rate_low", SEV_INFO, "why");	/* before `from` */
	f->unchecked = f->required = true;
	check_weigh_required(&fs, 0, NULL);
	assert_int_equal(fs.v[0].severity, SEV_WARN);
	assert_int_equal(fs.v[1].severity, SEV_INFO);
	assert_int_equal(fs.v[2].severity, SEV_INFO);
	assert_int_equal(fs.v[3].severity, SEV_ERROR);
	fs.v[4].severity = SEV_INFO;
	check_weigh_required(&fs, 5, NULL);
	assert_int_equal(fs.v[4].severity, SEV_INFO);
	assert_int_equal(check_unchecked(&fs), 5);
	findings_free(&fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(healthy_has_nothing_unchecked),
		cmocka_unit_test(rate_unknown),
		cmocka_unit_test(pcie_unknown),
		cmocka_unit_test(weigh_required),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
