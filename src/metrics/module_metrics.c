/* Transceivers (labels device, port, netdev, pci; lane for per-lane
 * values): temperature, supply voltage, per-lane Tx bias, Tx and Rx power,
 * each in base units, and the module's own alarm and warning thresholds as
 * gauges of their own (label level), so an alert compares a reading with
 * the module's limits rather than with a number written into the rule.
 * A RoCE LAG's transceivers are its slaves': labelled with the slave's
 * netdev. */
#include "families.h"
#include "../model/module_info.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

static double temp(const struct module_info *m, int lane) { (void)lane; return m->temp_c; }
static double vcc(const struct module_info *m, int lane) { (void)lane; return m->vcc_v; }
static double bias(const struct module_info *m, int lane) { return m->tx_bias_ma[lane]; }
static double txp(const struct module_info *m, int lane) { return m->tx_power_mw[lane]; }
static double rxp(const struct module_info *m, int lane) { return m->rx_power_mw[lane]; }

/* One quantity: how to read it and its limits, and how module_info's unit
 * becomes the metric's base unit. */
static const struct quantity {
	const char *name, *threshold_name, *help;
	double (*get)(const struct module_info *m, int lane);
	size_t limits;		/* offsetof the struct module_threshold */
	double divisor;	/* to base units: readings and limits are divided by it */
	bool per_lane;
} quantities[] = {
	{ "rdmadoctor_module_temperature_celsius", "rdmadoctor_module_temperature_threshold_celsius",
	  "Transceiver temperature (EEPROM DOM), degrees Celsius",
	  temp, offsetof(struct module_info, temp), 1, false },
	{ "rdmadoctor_module_voltage_volts", "rdmadoctor_module_voltage_threshold_volts",
	  "Transceiver supply voltage (EEPROM DOM), volts",
	  vcc, offsetof(struct module_info, vcc), 1, false },
	{ "rdmadoctor_module_tx_bias_amperes", "rdmadoctor_module_tx_bias_threshold_amperes",
	  "Laser bias current of one lane (EEPROM DOM), amperes",
	  bias, offsetof(struct module_info, tx_bias), 1e3, true },
	{ "rdmadoctor_module_tx_power_watts", "rdmadoctor_module_tx_power_threshold_watts",
	  "Transmit optical power of one lane (EEPROM DOM), watts (1 mW is 0 dBm)",
	  txp, offsetof(struct module_info, tx_power), 1e3, true },
	{ "rdmadoctor_module_rx_power_watts", "rdmadoctor_module_rx_power_threshold_watts",
	  "Receive optical power of one lane (EEPROM DOM), watts (1 mW is 0 dBm)",
	  rxp, offsetof(struct module_info, rx_power), 1e3, true },
};
#define N_QUANTITIES (sizeof(quantities) / sizeof(quantities[0]))

/* A transceiver and the labels of its port (netdev: the slave's in a LAG). */
struct module_at {
	const struct module_info *m;
	struct port_labels pl;
};

static void readings(struct expo *e, struct expo_fam *f, size_t q, const struct module_at *at)
{
	const struct module_info *m = at->m;
	int lanes = quantities[q].per_lane ? m->lanes : 1;

	if (lanes > MODULE_MAX_LANES)
		lanes = MODULE_MAX_LANES;
	for (int lane = 0; lane < lanes; lane++) {
		struct port_labels pl = at->pl;
		char num[12];
		double v = quantities[q].get(m, lane);

		if (isnan(v))
			continue;
		snprintf(num, sizeof(num), "%d", lane + 1);
		pl.l[PORT_LABELS] = (struct expo_label){ "lane", num };
		expo_fam_sample(e, f, pl.l, quantities[q].per_lane ? PORT_LABELS + 1 : PORT_LABELS,
				v / quantities[q].divisor);
	}
}

static void thresholds(struct expo *e, struct expo_fam *f, size_t q, const struct module_at *at)
{
	const struct module_threshold *t = (const struct module_threshold *)
		((const char *)at->m + quantities[q].limits);
	const struct { const char *level; double v; } levels[] = {
		{ "high_alarm", t->high_alarm }, { "high_warn", t->high_warn },
		{ "low_warn", t->low_warn }, { "low_alarm", t->low_alarm },
	};

	if (!at->m->has_thresholds)
		return;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		struct port_labels pl = at->pl;

		if (isnan(levels[i].v))
			continue;
		pl.l[PORT_LABELS] = (struct expo_label){ "level", levels[i].level };
		expo_fam_sample(e, f, pl.l, PORT_LABELS + 1, levels[i].v / quantities[q].divisor);
	}
}

/* Calls fn for every transceiver of the machine, in inventory order. */
static void each_module(const struct inventory *inv,
			void (*fn)(struct expo *, struct expo_fam *, size_t, const struct module_at *),
			struct expo *e, struct expo_fam *f, size_t q)
{
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct port *p = &n->ports[j];
			struct module_at at;

			port_labels_init(&at.pl, n, p);
			if (p->module) {
				at.m = p->module;
				fn(e, f, q, &at);
			}
			for (size_t s = 0; s < p->n_slaves; s++) {
				if (!p->slaves[s].module)
					continue;
				port_labels_init(&at.pl, n, p);
				at.pl.l[2] = (struct expo_label){ "netdev", p->slaves[s].netdev };
				at.m = p->slaves[s].module;
				fn(e, f, q, &at);
			}
		}
	}
}

static void info(struct expo *e, struct expo_fam *f, size_t q, const struct module_at *at)
{
	struct port_labels pl = at->pl;
	(void)q;

	pl.l[PORT_LABELS] = (struct expo_label){ "type", at->m->type };
	pl.l[PORT_LABELS + 1] = (struct expo_label){ "vendor", at->m->vendor };
	expo_fam_sample(e, f, pl.l, PORT_LABELS + 2, 1);
}

void metrics_modules(struct expo *e, const struct inventory *inv)
{
	struct expo_fam fi = { "rdmadoctor_module_info", "gauge",
			       "Transceiver, always 1: its type and vendor in labels", false };

	each_module(inv, info, e, &fi, 0);
	for (size_t q = 0; q < N_QUANTITIES; q++) {
		struct expo_fam f = { quantities[q].name, "gauge", quantities[q].help, false };

		each_module(inv, readings, e, &f, q);
	}
	for (size_t q = 0; q < N_QUANTITIES; q++) {
		struct expo_fam f = { quantities[q].threshold_name, "gauge",
				      "The transceiver's own alarm and warning limits (label level) "
				      "for the reading of the same name", false };

		each_module(inv, thresholds, e, &f, q);
	}
}
