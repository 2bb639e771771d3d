/* port.link_layer (src/check/link_layer.c): a card of the rail model next to
 * its GPU left in the other link layer than the profile's [rail] (a VPI card
 * in Ethernet on an InfiniBand fabric) is named, with the firmware setting
 * that fixes it; not counted as a rail, it leaves nic.count short too.  The
 * storage cards in Ethernet and the generic profile judge nothing. */
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

static void ethernet(struct port *pt)
{
	free(pt->link_layer);
	pt->link_layer = strdup("Ethernet");
}

static void rail_in_ethernet(void **state)
{
	struct profile p = a100_profile();
	struct machine m;
	struct findings fs;
	const struct finding *f;

	(void)state;
	healthy(&m);
	ethernet(&m.inv.nics[1].ports[0]);
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "port.link_layer"), 1);
	f = expect(&fs, "port.link_layer", "mlx5_1 port 1", SEV_ERROR,
		   "link layer Ethernet; not counted as a rail",
		   "link layer InfiniBand, as the profile's rails");
	assert_non_null(strstr(f->fix, "`mlxconfig -d 0000:24:00.0 set LINK_TYPE_P1=1`"));
	assert_non_null(strstr(f->fix, "`ibv_devinfo -d mlx5_1` then shows link_layer: "
				       "InfiniBand"));
	/* the rail it is not counted as is missing */
	assert_int_equal(count_id(&fs, "nic.count"), 1);
	findings_free(&fs);
	machine_free(&m);
}

static void healthy_and_generic(void **state)
{
	struct profile p = a100_profile(), g = generic_profile();
	struct machine m;
	struct findings fs;

	(void)state;
	/* the storage cards run Ethernet as their role asks */
	healthy(&m);
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "port.link_layer"), 0);
	findings_free(&fs);
	/* no [rail] link layer to hold a card to */
	ethernet(&m.inv.nics[1].ports[0]);
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.link_layer"), 0);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rail_in_ethernet),
		cmocka_unit_test(healthy_and_generic),
	};

	return cmocka_run_group_tests_name("check_link_layer", tests, NULL, NULL);
}
