/* module.dom (src/check/module.c) against small machines built in C
 * (check_machine.h): a transceiver's live monitors against its own
 * thresholds, at their edges.  Beyond a warning threshold a warning,
 * beyond an alarm an error, a lane named by its number, power in dBm; a
 * value at a threshold, an unknown value and a module without thresholds
 * are never judged; a RoCE LAG's member modules are judged each. */
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
#include "model/module_info.h"

/* A QSFP28 with its thresholds read and every value inside them. */
static struct module_info *qsfp(void)
{
	struct module_info *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	m->id = 0x11;
	m->type = "QSFP28";
	strcpy(m->part, "MCP1600-C003");
	m->dom = m->has_thresholds = true;
	m->lanes = 4;
	m->temp_c = 40;
	m->vcc_v = 3.3;
	m->temp = (struct module_threshold){ .high_alarm = 75, .high_warn = 70,
					     .low_warn = 0, .low_alarm = -5 };
	m->vcc = (struct module_threshold){ .high_alarm = 3.6, .high_warn = 3.5,
					    .low_warn = 3.1, .low_alarm = 3.0 };
	m->rx_power = (struct module_threshold){ .high_alarm = 2.0, .high_warn = 1.6,
						 .low_warn = 0.1, .low_alarm = 0.05 };
	m->tx_power = m->rx_power;
	m->tx_bias = (struct module_threshold){ .high_alarm = 15, .high_warn = 12,
						.low_warn = 3, .low_alarm = 2 };
	for (int l = 0; l < MODULE_MAX_LANES; l++) {
		bool in = l < m->lanes;

		m->rx_power_mw[l] = in ? 0.8 : NAN;
		m->tx_power_mw[l] = in ? 0.9 : NAN;
		m->tx_bias_ma[l] = in ? 7 : NAN;
	}
	return m;
}

#define SUBJ "mlx5_4 port 1 (mlx5_4_p1)"

static void warn_and_alarm(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct module_info *mod;
	(void)state;

	healthy(&m);
	mod = m.inv.nics[4].ports[0].module = qsfp();
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "module.dom"), 0);
	findings_free(&fs);

	mod->temp_c = 72;		/* above the high warning (70), below the alarm */
	mod->rx_power_mw[2] = 0.04;	/* lane 3: below the low alarm (0.05 mW) */
	run(&m, &p, &fs);
	expect(&fs, "module.dom", SUBJ, SEV_WARN,
	       "QSFP28 MCP1600-C003: temperature 72.00 C above high warning 70.00 C",
	       "temperature within 0.00..70.00 C (the module's warning thresholds)");
	expect(&fs, "module.dom", SUBJ " lane 3", SEV_ERROR,
	       "QSFP28 MCP1600-C003: lane 3 RX power -14.0 dBm below low alarm -13.0 dBm",
	       "RX power within -10.0..2.0 dBm (the module's warning thresholds)");
	assert_int_equal(count_id(&fs, "module.dom"), 2);
	findings_free(&fs);
	machine_free(&m);
}

/* At a threshold is within it (strictly above or below is out); an
 * unknown value, or a module whose thresholds were not read, says nothing
 * here (module.c never judges what it cannot see). */
static void edges_and_unknowns(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct module_info *mod;
	(void)state;

	healthy(&m);
	mod = m.inv.nics[4].ports[0].module = qsfp();
	mod->temp_c = 70;
	mod->vcc_v = 3.1;
	mod->tx_bias_ma[0] = 12;
	mod->rx_power_mw[1] = NAN;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "module.dom"), 0);
	findings_free(&fs);

	mod->temp_c = 80;
	mod->has_thresholds = false;
	run(&m, &p, &fs);
	assert_int_equal(count_id(&fs, "module.dom"), 0);
	findings_free(&fs);
	machine_free(&m);
}

/* RoCE LAG: the bond's port judges each member's own module, named by
 * the member netdev that holds it. */
static void lag_members(void **state)
{
	struct machine m;
	struct profile p = a100_profile();
	struct findings fs;
	struct port *pt;
	(void)state;

	healthy(&m);
	pt = &m.inv.nics[4].ports[0];
	pt->slaves = calloc(2, sizeof(*pt->slaves));
	assert_non_null(pt->slaves);
	pt->n_slaves = 2;
	pt->slaves[0].netdev = strdup("ens1f0np0");
	pt->slaves[1].netdev = strdup("ens1f1np1");
	pt->slaves[0].module = qsfp();
	pt->slaves[1].module = qsfp();
	pt->slaves[1].module->tx_bias_ma[0] = 16;	/* above the high alarm (15 mA) */
	run(&m, &p, &fs);
	expect(&fs, "module.dom", "mlx5_4 port 1 (ens1f1np1) lane 1", SEV_ERROR,
	       "QSFP28 MCP1600-C003: lane 1 TX bias 16.00 mA above high alarm 15.00 mA", NULL);
	assert_int_equal(count_id(&fs, "module.dom"), 1);
	findings_free(&fs);
	machine_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warn_and_alarm),
		cmocka_unit_test(edges_and_unknowns),
		cmocka_unit_test(lag_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
