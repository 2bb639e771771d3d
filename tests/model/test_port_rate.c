/* A port's data rate (src/model/port_rate.h): the IBTA line codes, against
 * the figures published for each InfiniBand speed (QDR 4X: 40 Gb/s
 * signalling, 32 Gb/s data with 8b/10b; FDR 4X: 56 named, 54.54 data with
 * 64b/66b at 14.0625 GBd; EDR and later: the number is the data rate). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "model/inventory.h"
#include "model/port_rate.h"

static double data_of(const char *ll, const char *speed, double gbps)
{
	struct port p = { .link_layer = (char *)ll, .rate_speed = (char *)speed,
			  .rate_gbps = gbps, .lanes = 4 };

	return port_data_gbps(&p, gbps);
}

static void infiniband(void **unused)
{
	(void)unused;
	assert_true(fabs(data_of("InfiniBand", "SDR", 10) - 8) < 1e-9);
	assert_true(fabs(data_of("InfiniBand", "DDR", 20) - 16) < 1e-9);
	assert_true(fabs(data_of("InfiniBand", "QDR", 40) - 32) < 1e-9);
	assert_true(fabs(data_of("InfiniBand", "FDR", 56) - 54.545) < 1e-3);
	assert_true(data_of("InfiniBand", "FDR10", 40) == 40);
	assert_true(data_of("InfiniBand", "EDR", 100) == 100);
	assert_true(data_of("InfiniBand", "NDR", 400) == 400);
	/* "10 Gb/sec (4X)": kernels before 4.15 printed SDR without its name */
	assert_true(fabs(data_of("InfiniBand", NULL, 10) - 8) < 1e-9);
}

/* mlx5 names Ethernet speeds in IB words ("40 Gb/sec (4X QDR)" for
 * 40GBASE-R4): the number is already the data rate there */
static void ethernet(void **unused)
{
	(void)unused;
	assert_true(data_of("Ethernet", "QDR", 40) == 40);
	assert_true(data_of("Ethernet", "FDR", 56) == 56);
	assert_true(data_of(NULL, "QDR", 40) == 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(infiniband),
		cmocka_unit_test(ethernet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
