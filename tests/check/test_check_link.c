/* Checks against small machines built in C (check_machine.h): port.fec
 * (src/check/link.c). */
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

/* A link as FEC_GET / LINKMODES_GET describe it. */
static struct link_info *fec_link(int64_t mbps, int64_t lanes, int active)
{
	struct link_info *l = malloc(sizeof(*l));

	assert_non_null(l);
	link_info_init(l);
	l->linkmodes = l->fec = 1;
	l->speed_mbps = mbps;
	l->lanes = lanes;
	l->fec_active = active;
	return l;
}

/* port.fec: FEC None on PAM4 lanes (50G and up per lane), not on NRZ */
static void port_fec(void **state)
{
	struct machine m;
	struct profile g = generic_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[4].ports[0];
	pt->link = fec_link(200000, 4, 49);	/* 4 x 50G PAM4, FEC None */
	run(&m, &g, &fs);
	expect(&fs, "port.fec", "mlx5_4 port 1", SEV_WARN,
	       "FEC off (None) at 200000 Mb/s, 50 Gb/s per lane", "RS");
	assert_non_null(strstr(get(&fs, "port.fec", "mlx5_4 port 1")->fix,
			       "ethtool --set-fec mlx5_4_p1 encoding auto"));
	findings_free(&fs);
	/* RS active: fine */
	pt->link->fec_active = 50;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 0);
	findings_free(&fs);
	/* 100G on 4 x 25G NRZ without FEC: allowed on short copper */
	pt->link->fec_active = 49;
	pt->link->speed_mbps = 100000;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 0);
	findings_free(&fs);
	/* lanes unknown to ethtool: the RDMA port's (100G as 2 x 50G) */
	pt->link->lanes = NA;
	pt->lanes = 2;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 1);
	findings_free(&fs);
	/* FEC not supported / unknown: not judged */
	pt->link->fec = 0;
	run(&m, &g, &fs);
	assert_int_equal(count_id(&fs, "port.fec"), 0);
	findings_free(&fs);
	/* a RoCE LAG member's own link */
	pt->link->fec = 1;
	pt->link->fec_active = 50;
	pt->slaves = calloc(2, sizeof(*pt->slaves));
	assert_non_null(pt->slaves);
	pt->n_slaves = 2;
	pt->slaves[0].netdev = strdup("ens9f0np0");
	pt->slaves[1].netdev = strdup("ens9f1np1");
	pt->slaves[0].link = fec_link(400000, 4, 50);
	pt->slaves[1].link = fec_link(400000, 4, 49);
	run(&m, &g, &fs);
	expect(&fs, "port.fec", "mlx5_4 port 1 (ens9f1np1)", SEV_WARN,
	       "FEC off (None) at 400000 Mb/s, 100 Gb/s per lane", "RS");
	assert_int_equal(count_id(&fs, "port.fec"), 1);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(port_fec),
	};

	return cmocka_run_group_tests_name("check_link", tests, NULL, NULL);
}
