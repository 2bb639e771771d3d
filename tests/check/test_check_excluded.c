/* nic.excluded (src/check/excluded.c): a device the site file's exclude =
 * names was not read, so one finding says it is not checked (a warning on
 * a rail, so that the node does not pass; info elsewhere), and what the
 * other families would say of it follows from the exclusion and is dropped:
 * one cause, one finding. */
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

/* What sysfs/ib.c leaves of an excluded device: its name and PCI address. */
static void exclude(struct nic *n, int line, const char *pattern)
{
	n->excluded = true;
	n->exclude_line = line;
	n->exclude_pattern = strdup(pattern);
	/* nothing else read: no port, so port.down would name it */
	for (size_t k = 0; k < n->n_ports; k++) {
		n->ports[k].state = 1;
		free(n->ports[k].state_name);
		n->ports[k].state_name = strdup("DOWN");
	}
	free(n->fw_ver);
	n->fw_ver = strdup("1.0.0");
}

static void one_finding_each(void **state)
{
	struct profile p = a100_profile();
	struct machine m;
	struct findings fs;
	const struct finding *f;

	(void)state;
	healthy(&m);
	exclude(&m.inv.nics[2], 7, "mlx5_2");
	exclude(&m.inv.nics[5], 8, "0000:e1:00.1");
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "nic.excluded"), 2);
	f = expect(&fs, "nic.excluded", "mlx5_2", SEV_WARN,
		   "not checked: excluded by the site file (line 7, 'mlx5_2'); PCI 0000:34:00.0",
		   "a rail read and judged");
	assert_true(f->unchecked);
	assert_non_null(strstr(f->fix, "(line 7)"));
	f = expect(&fs, "nic.excluded", "mlx5_5", SEV_INFO,
		   "not checked: excluded by the site file (line 8, '0000:e1:00.1'); PCI "
		   "0000:e1:00.1", "a device read and judged");
	assert_true(f->unchecked);
	/* nothing else about them: no port.down, no fw.mixed */
	for (size_t i = 0; i < fs.n; i++) {
		if (strcmp(fs.v[i].id, "nic.excluded") == 0)
			continue;
		assert_null(strstr(fs.v[i].subject, "mlx5_2"));
		assert_null(strstr(fs.v[i].subject, "mlx5_5"));
	}
	findings_free(&fs);
	machine_free(&m);
}

static void none_excluded(void **state)
{
	struct profile p = a100_profile();
	struct machine m;
	struct findings fs;

	(void)state;
	healthy(&m);
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "nic.excluded"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_finding_each),
		cmocka_unit_test(none_excluded),
	};

	return cmocka_run_group_tests_name("check_excluded", tests, NULL, NULL);
}
