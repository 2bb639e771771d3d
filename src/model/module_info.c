/* A transceiver's monitors against its own thresholds (module_info.h). */
#include "module_info.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Flags for one value against one threshold set; 0 when within or unknown. */
static unsigned check_one(double x, const struct module_threshold *t, unsigned high_alarm)
{
	/* bit layout per quantity: HIGH_ALARM, HIGH_WARN, LOW_ALARM, LOW_WARN */
	if (isnan(x) || !(t->high_alarm > t->low_alarm))
		return 0;
	if (x > t->high_alarm)
		return high_alarm;
	if (x < t->low_alarm)
		return high_alarm << 2;
	if (!isnan(t->high_warn) && x > t->high_warn)
		return high_alarm << 1;
	if (!isnan(t->low_warn) && x < t->low_warn)
		return high_alarm << 3;
	return 0;
}

int module_dom_check(const struct module_info *m, struct module_dom_status *st)
{
	int n = 0, lanes;
	unsigned f;

	if (!m || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (!m->has_thresholds)
		return 0;

	f = check_one(m->temp_c, &m->temp, MODULE_DOM_TEMP_HIGH_ALARM);
	n += f != 0;
	st->flags |= f;
	f = check_one(m->vcc_v, &m->vcc, MODULE_DOM_VCC_HIGH_ALARM);
	n += f != 0;
	st->flags |= f;

	lanes = m->lanes < 0 ? 0 : m->lanes > MODULE_MAX_LANES ? MODULE_MAX_LANES : m->lanes;
	for (int l = 0; l < lanes; l++) {
		unsigned rx = check_one(m->rx_power_mw[l], &m->rx_power, MODULE_DOM_RX_POWER_HIGH_ALARM);
		unsigned tx = check_one(m->tx_power_mw[l], &m->tx_power, MODULE_DOM_TX_POWER_HIGH_ALARM);
		unsigned bias = check_one(m->tx_bias_ma[l], &m->tx_bias, MODULE_DOM_TX_BIAS_HIGH_ALARM);

		n += (rx != 0) + (tx != 0) + (bias != 0);
		st->lane[l] = rx | tx | bias;
		st->flags |= st->lane[l];
	}
	return n;
}
