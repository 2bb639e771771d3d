/* A transceiver as its EEPROM describes it: identifier, vendor strings,
 * live monitors (DOM) and the module's own alarm/warning thresholds, as
 * eeprom/module.c decodes them (SFF-8472, SFF-8636, CMIS); and those
 * monitors compared with those thresholds. */
#ifndef RD_MODEL_MODULE_INFO_H
#define RD_MODEL_MODULE_INFO_H

#include <stdbool.h>

#include "module_apps.h"

#define MODULE_MAX_LANES	8

enum module_spec {
	MODULE_SPEC_UNKNOWN = 0,
	MODULE_SPEC_SFF8472,	/* SFP / SFP+ / SFP28 */
	MODULE_SPEC_SFF8636,	/* QSFP, QSFP+, QSFP28 (SFF-8436 shares the map) */
	MODULE_SPEC_CMIS,	/* QSFP-DD, OSFP, DSFP, QSFP+/SFP-DD/SFP+ CMIS */
};

struct module_threshold {
	double high_alarm, low_alarm, high_warn, low_warn;	/* NAN: unknown */
};

struct module_info {
	int id;			/* SFF-8024 identifier byte, -1 when not read */
	const char *type;	/* "SFP", "QSFP28", "QSFP-DD", "OSFP", ... "unknown" */
	enum module_spec spec;
	char vendor[17], part[17], serial[17];	/* trimmed; non-printables -> '?' */
	bool dom;		/* the module advertises monitoring */
	double temp_c, vcc_v;	/* NAN: unknown */
	int lanes;		/* SFP 1, QSFP 4, CMIS media lane count (8 if unsaid) */
	double tx_bias_ma[MODULE_MAX_LANES];	/* NAN: unknown or lane >= lanes */
	double tx_power_mw[MODULE_MAX_LANES];
	double rx_power_mw[MODULE_MAX_LANES];
	bool has_thresholds;	/* the module's own alarm/warning thresholds read */
	struct module_threshold temp, vcc, tx_bias, tx_power, rx_power;
	/* same units as the values: degC, V, mA, mW */
	/* what the module is built for (module_apps.h): SFF-8636 compliance codes or
	 * CMIS application descriptors; known false when not read or for an
	 * SFP, whose codes are not decoded */
	struct module_apps apps;
};

/* Out-of-threshold flags, for each quantity in the order HIGH_ALARM,
 * HIGH_WARN, LOW_ALARM, LOW_WARN.  Alarm and warning are exclusive per value: a
 * value beyond its alarm threshold sets only the ALARM bit. */
enum {
	MODULE_DOM_TEMP_HIGH_ALARM = 1u << 0,
	MODULE_DOM_TEMP_HIGH_WARN = 1u << 1,
	MODULE_DOM_TEMP_LOW_ALARM = 1u << 2,
	MODULE_DOM_TEMP_LOW_WARN = 1u << 3,
	MODULE_DOM_VCC_HIGH_ALARM = 1u << 4,
	MODULE_DOM_VCC_HIGH_WARN = 1u << 5,
	MODULE_DOM_VCC_LOW_ALARM = 1u << 6,
	MODULE_DOM_VCC_LOW_WARN = 1u << 7,
	/* lane flags: also in lane[] for the lane concerned */
	MODULE_DOM_RX_POWER_HIGH_ALARM = 1u << 8,
	MODULE_DOM_RX_POWER_HIGH_WARN = 1u << 9,
	MODULE_DOM_RX_POWER_LOW_ALARM = 1u << 10,
	MODULE_DOM_RX_POWER_LOW_WARN = 1u << 11,
	MODULE_DOM_TX_POWER_HIGH_ALARM = 1u << 12,
	MODULE_DOM_TX_POWER_HIGH_WARN = 1u << 13,
	MODULE_DOM_TX_POWER_LOW_ALARM = 1u << 14,
	MODULE_DOM_TX_POWER_LOW_WARN = 1u << 15,
	MODULE_DOM_TX_BIAS_HIGH_ALARM = 1u << 16,
	MODULE_DOM_TX_BIAS_HIGH_WARN = 1u << 17,
	MODULE_DOM_TX_BIAS_LOW_ALARM = 1u << 18,
	MODULE_DOM_TX_BIAS_LOW_WARN = 1u << 19,
};

struct module_dom_status {
	unsigned flags;				/* module-level flags | every lane's */
	unsigned lane[MODULE_MAX_LANES];	/* lane n+1's lane flags */
};

/* Compares each known value with the module's own thresholds (strictly
 * above high / below low).  Skips unknown values and thresholds, and a
 * quantity whose high alarm is not above its low alarm (a blank page).
 * Returns how many values are out (0: all within or no thresholds), or
 * -EINVAL on NULL arguments. */
int module_dom_check(const struct module_info *m, struct module_dom_status *st);

#endif
