/* module.dom: the transceiver's live monitors (DOM) against the module's
 * own alarm and warning thresholds, as read from its EEPROM over ethtool
 * netlink (eeprom/module.h).  Beyond a warning threshold: a warning;
 * beyond an alarm threshold: an error.  Unknown values and modules without
 * thresholds are never judged. */
#include "families.h"
#include "../model/driver_tools.h"
#include "../model/module_info.h"

#include <math.h>
#include <stdio.h>

static const char *dev_of(const struct port *pt)
{
	return pt->netdev ? pt->netdev : "<netdev>";
}

static double dbm(double mw)
{
	return mw > 0 ? 10 * log10(mw) : -40;
}

/* "lane 3 RX power -14.2 dBm below low alarm -12.0 dBm" into buf. */
static void describe(char *buf, size_t len, const char *what, int lane, double v, double lim,
		     bool high, bool alarm, bool power, const char *unit)
{
	char where[24] = "";

	if (lane > 0)
		snprintf(where, sizeof(where), "lane %d ", lane);
	if (power)
		snprintf(buf, len, "%s%s %.1f dBm %s %s %s %.1f dBm", where, what, dbm(v),
			 high ? "above" : "below", high ? "high" : "low",
			 alarm ? "alarm" : "warning", dbm(lim));
	else
		snprintf(buf, len, "%s%s %.2f %s %s %s %s %.2f %s", where, what, v, unit,
			 high ? "above" : "below", high ? "high" : "low",
			 alarm ? "alarm" : "warning", lim, unit);
}

struct quantity {
	const char *what, *unit;
	bool power;
	unsigned shift;	/* bit of HIGH_ALARM; then HIGH_WARN, LOW_ALARM, LOW_WARN */
};

static const struct quantity quantities[] = {
	{ "temperature", "C", false, 0 },
	{ "Vcc", "V", false, 4 },
	{ "RX power", "mW", true, 8 },
	{ "TX power", "mW", true, 12 },
	{ "TX bias", "mA", false, 16 },
};

static const struct module_threshold *thr_of(const struct module_info *m, size_t q)
{
	switch (q) {
	case 0: return &m->temp;
	case 1: return &m->vcc;
	case 2: return &m->rx_power;
	case 3: return &m->tx_power;
	default: return &m->tx_bias;
	}
}

static double value_of(const struct module_info *m, size_t q, int lane)
{
	switch (q) {
	case 0: return m->temp_c;
	case 1: return m->vcc_v;
	case 2: return m->rx_power_mw[lane];
	case 3: return m->tx_power_mw[lane];
	default: return m->tx_bias_ma[lane];
	}
}

/* One quantity of module m, on netdev dev (the port's, or a bond
 * member's: the physical function that holds the module). */
static int one(const struct check_ctx *c, struct findings *out, const struct nic *n,
		const struct port *pt, const struct module_info *m, const char *dev, size_t q,
		int lane, unsigned flags)
{
	const struct quantity *qu = &quantities[q];
	const struct module_threshold *t = thr_of(m, q);
	bool ha = flags & (1u << qu->shift), hw = flags & (2u << qu->shift);
	bool la = flags & (4u << qu->shift), lw = flags & (8u << qu->shift);
	bool alarm = ha || la, high = ha || hw;
	double v = value_of(m, q, lane > 0 ? lane - 1 : 0);
	double lim = ha ? t->high_alarm : hw ? t->high_warn : la ? t->low_alarm : t->low_warn;
	char obs[128], exp[128];
	struct finding *f;

	if (!(ha || hw || la || lw))
		return 0;
	describe(obs, sizeof(obs), qu->what, lane, v, lim, high, alarm, qu->power, qu->unit);
	if (qu->power)
		snprintf(exp, sizeof(exp), "%s within %.1f..%.1f dBm (the module's warning "
			 "thresholds)", qu->what, dbm(t->low_warn), dbm(t->high_warn));
	else
		snprintf(exp, sizeof(exp), "%s within %.2f..%.2f %s (the module's warning "
			 "thresholds)", qu->what, t->low_warn, t->high_warn, qu->unit);
	f = check_add(c, out, "module.dom", alarm ? SEV_ERROR : SEV_WARN,
		      "A transceiver monitor beyond the module's own thresholds: low RX "
		      "power means a dirty or damaged connector, fibre or far-end "
		      "transmitter; high temperature or bias a failing module.  Expect "
		      "symbol errors, link flaps and retransmissions.");
	if (!f)
		return -ENOMEM;
	if (lane > 0)
		finding_set(&f->subject, "%s port %d (%s) lane %d", n->name, pt->num, dev, lane);
	else
		finding_set(&f->subject, "%s port %d (%s)", n->name, pt->num, dev);
	finding_set(&f->observed, "%s %s: %s", m->type ? m->type : "module",
		    m->part[0] ? m->part : "?", obs);
	finding_set(&f->expected, "%s", exp);
	if (drv_tools_of_nic(n)->mlx)
		finding_set(&f->fix,
			    "clean and reseat the connector and fibre at both ends, then swap "
			    "the patch cord, then the module; inspect with `mlxlink -d %s -m`",
			    n->name);
	else	/* mlxlink answers only ConnectX */
		finding_set(&f->fix,
			    "clean and reseat the connector and fibre at both ends, then swap "
			    "the patch cord, then the module; inspect with " DRV_ETHTOOL_MODULE,
			    dev);
	return 0;
}

static int judge(const struct check_ctx *c, struct findings *out, const struct nic *n,
		 const struct port *pt, const struct module_info *m, const char *dev)
{
	struct module_dom_status st;

	if (!m || !m->has_thresholds || module_dom_check(m, &st) <= 0)
		return 0;
	for (size_t q = 0; q < 2; q++)
		CHECK_TRY(one(c, out, n, pt, m, dev, q, 0, st.flags));
	for (size_t q = 2; q < 5; q++)
		for (int l = 0; l < m->lanes && l < MODULE_MAX_LANES; l++)
			CHECK_TRY(one(c, out, n, pt, m, dev, q, l + 1, st.lane[l]));
	return 0;
}

int check_module(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct port *pt = &n->ports[j];

			CHECK_TRY(judge(c, out, n, pt, pt->module, dev_of(pt)));
			/* RoCE LAG: every physical function's own module */
			for (size_t k = 0; k < pt->n_slaves; k++)
				CHECK_TRY(judge(c, out, n, pt, pt->slaves[k].module, pt->slaves[k].netdev));
		}
	}
	return 0;
}
