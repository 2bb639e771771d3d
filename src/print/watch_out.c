#include "watch_out.h"
#include "check_out.h"
#include "json.h"
#include "rate_units.h"
#include "tint.h"
#include "../model/port_state.h"
#include "../model/driver_counters.h"
#include "../model/window.h"
#include "text_printf.h"
#include "plural.h"
#include "../check/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Bit and symbol errors (PMA and the PHY's `ethtool -S` ones) over the
 * bits the link carried in the window: its signalling rate times the
 * window's seconds, as a physical-layer error ratio is reckoned (symbols
 * flow on an idle link too, so idle ports have one).  NAN for a port not
 * up at the end, or whose rate or window is unknown. */
static double phy_error_ratio(const struct port *pt, double secs)
{
	static const int sets[] = { WIN_PMA, WIN_ETH };
	uint64_t errors = 0;

	if (!port_is_up(pt) || isnan(pt->rate_gbps) || pt->rate_gbps <= 0 || !(secs > 0))
		return NAN;
	for (size_t k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		int set = sets[k];
		const struct counter_set *s = window_set_of(pt, set);

		for (size_t i = 0; i < s->n; i++) {
			struct counter_change e;
			const char *name = s->v[i].name;

			if (name && check_counter_is_bit_error(name, set) &&
			    window_change(pt, set, name, &e))
				errors += e.delta;
		}
	}
	return (double)errors / (pt->rate_gbps * 1e9 * secs);
}

/* A port's data rate one way, in bytes per second: the PMA's
 * port_xmit_data / port_rcv_data (bytes, as the reader made them), else
 * the netdev's statistics/ tx_bytes / rx_bytes (a --netdev port has no
 * PMA).  NAN when neither was read at both ends or the counter was
 * cleared within the window: unknown, never 0. */
static double port_bytes_per_s(const struct port *pt, bool tx, double secs)
{
	struct counter_change ch;

	if (!window_change(pt, WIN_PMA, tx ? "port_xmit_data" : "port_rcv_data", &ch) &&
	    !window_change(pt, WIN_NET, tx ? "tx_bytes" : "rx_bytes", &ch))
		return NAN;
	if (ch.reset || !(secs > 0))
		return NAN;
	return (double)ch.delta / secs;
}

/* A data rate the port cannot carry: above its signalling rate (5 % over
 * it, for the time a sample takes), which no link does.  The counters then
 * do not measure one window of this port (one cleared or reset within it,
 * a --duration shorter than the time between the readings): no rate. */
#define RATE_SLACK 1.05

static bool rate_impossible(const struct port *pt, double bytes_per_s)
{
	return !isnan(bytes_per_s) && isfinite(pt->rate_gbps) && pt->rate_gbps > 0 &&
	       bytes_per_s * 8 / 1e9 > pt->rate_gbps * RATE_SLACK;
}

/* A direction's rate in Gb/s; null unknown or impossible. */
static json_t *gbps_json(const struct port *pt, double bytes_per_s)
{
	if (rate_impossible(pt, bytes_per_s))
		return json_null();
	return json_number_or_null(bytes_per_s * 8 / 1e9);
}

/* "tx 442188 Gb/s is above the port's 400 Gb/s: ..." for each direction
 * past the port's rate; NULL none. */
static json_t *impossible_json(const struct port *pt, double tx, double rx)
{
	char buf[400];
	size_t at = 0;

	for (int k = 0; k < 2; k++) {
		double v = k ? rx : tx;

		if (!rate_impossible(pt, v))
			continue;
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s %.0f Gb/s",
				       at ? ", " : "", k ? "rx" : "tx", v * 8 / 1e9);
	}
	if (!at)
		return json_null();
	snprintf(buf + at, sizeof(buf) - at, " above the port's %g Gb/s: impossible, the "
		 "counters do not measure one window of this port (reset or cleared within it, "
		 "or --duration shorter than the time between the readings)", pt->rate_gbps);
	return json_string(buf);
}

static json_t *change_json(const struct counter_change *ch, double secs)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:b}",
			 "start", (json_int_t)ch->start, "end", (json_int_t)ch->end,
			 "delta", ch->reset ? json_null() : json_integer((json_int_t)ch->delta),
			 "per_s", ch->reset ? json_null() : json_real((double)ch->delta / secs),
			 "reset", ch->reset);
}

/* One set's changes by name.  A hw_counter's carries its class in its
 * driver's vocabulary (model/driver_counters.h), the one check judges it
 * by and serve labels it with: "none" for a name or driver no table knows,
 * which nothing judges.  driver: the NIC's, read only for WIN_HW. */
static json_t *set_json(const struct port *pt, int which, const char *driver, double secs)
{
	const struct counter_set *set = window_set_of(pt, which);
	json_t *o = json_object();

	for (size_t i = 0; i < set->n; i++) {
		const char *name = set->v[i].name;
		struct counter_change ch;
		json_t *c;

		if (!name || !window_change(pt, which, name, &ch))
			continue;
		c = change_json(&ch, secs);
		if (which == WIN_HW)
			json_object_set_new(c, "class",
					    json_string(ctr_class_name(counter_class(driver, name))));
		json_object_set_new(o, name, c);
	}
	return o;
}

/* A set read at both ends of the window, or null. */
static json_t *opt_set_json(const struct port *pt, int which, double secs)
{
	const struct counter_set *start = which == WIN_ETH ? &pt->start->eth_stats :
					  &pt->start->net_stats;

	if (!start->v || !window_set_of(pt, which)->v)
		return json_null();
	return set_json(pt, which, NULL, secs);
}

/* The RoCE congestion counters of hw_counters: CNPs sent as the
 * notification point, handled as the reaction point, ECN-marked packets,
 * keyed by mlx5's names whatever the driver calls them
 * (model/driver_counters.h: bnxt_re's tx_cnp_pkts, irdma's cnpSent, ...). */
static const char *const cnp_names[] = {
	"np_cnp_sent", "rp_cnp_handled", "np_ecn_marked_roce_packets",
};
static const enum ctr_class cnp_classes[] = {
	CTR_CNP_SENT, CTR_CNP_HANDLED, CTR_ECN_MARKED,
};
#define N_CNP (sizeof(cnp_names) / sizeof(cnp_names[0]))

/* The change of the port's first hw_counter of class cnp_classes[i] (by
 * its driver's vocabulary; a driver no table knows: by any's). */
static bool cnp_change(const struct port *pt, const char *driver, size_t i,
		       struct counter_change *ch)
{
	const char *drv = drv_table_of(driver) ? driver : DRV_ANY;

	for (size_t k = 0; k < pt->hw_counters.n; k++) {
		const char *name = pt->hw_counters.v[k].name;

		if (name && counter_class(drv, name) == cnp_classes[i] &&
		    window_change(pt, WIN_HW, name, ch))
			return true;
	}
	return false;
}

/* The FEC counters' totals over the window (link.ber judges them); null
 * when the link has no FEC statistics at both ends. */
static json_t *fec_json(const struct port *pt, double secs)
{
	json_t *o = NULL;

	for (int k = 0; k < FEC_COUNTERS; k++) {
		struct counter_change ch;

		if (!window_fec(pt, k, &ch))
			continue;
		if (!o)
			o = json_object();
		json_object_set_new(o, fec_counter_name(k), change_json(&ch, secs));
	}
	return o ? o : json_null();
}

static json_t *cnp_json(const struct port *pt, const char *driver, double secs)
{
	json_t *o = json_object();
	bool any = false;

	for (size_t i = 0; i < N_CNP; i++) {
		struct counter_change ch;
		bool ok = cnp_change(pt, driver, i, &ch);

		json_object_set_new(o, cnp_names[i], ok ? change_json(&ch, secs) : json_null());
		any |= ok;
	}
	if (!any) {
		json_decref(o);
		return json_null();
	}
	return o;
}

/* mlx5 `ethtool -S` pause counters of one priority: rx_prio3_pause ... */
static bool eth_pause(const struct port *pt, int prio, bool tx, struct counter_change *ch)
{
	char name[32];

	snprintf(name, sizeof(name), "%s_prio%d_pause", tx ? "tx" : "rx", prio);
	return window_change(pt, WIN_ETH, name, ch);
}

/* A priority is listed when PFC is on for it, or any of its pause
 * counters is known to exist (mlx5 names them only for PFC priorities). */
static bool prio_listed(const struct port *pt, int prio)
{
	struct counter_change ch;

	return (pt->qos && pt->qos->pfc_enabled[prio] == 1) || eth_pause(pt, prio, true, &ch) ||
	       eth_pause(pt, prio, false, &ch);
}

static json_t *opt_change(bool ok, const struct counter_change *ch, double secs)
{
	return ok ? change_json(ch, secs) : json_null();
}

/* PFC pause frames per priority: DCB's per-priority counters (IEEE PFC
 * requests = sent, indications = received) and mlx5's ethtool ones. */
static json_t *pfc_json(const struct port *pt, double secs)
{
	json_t *a = json_array();

	for (int p = 0; p < 8; p++) {
		struct counter_change tx, rx, etx, erx;
		bool ktx, krx, ketx, kerx;

		if (!prio_listed(pt, p))
			continue;
		ktx = window_pause(pt, p, true, &tx);
		krx = window_pause(pt, p, false, &rx);
		ketx = eth_pause(pt, p, true, &etx);
		kerx = eth_pause(pt, p, false, &erx);
		json_array_append_new(a, json_pack(
			"{s:i, s:o, s:o, s:o, s:o}", "priority", p,
			"pause_tx", opt_change(ktx, &tx, secs), "pause_rx", opt_change(krx, &rx, secs),
			"ethtool_tx_pause", opt_change(ketx, &etx, secs),
			"ethtool_rx_pause", opt_change(kerx, &erx, secs)));
	}
	return a;
}

json_t *watch_to_json(const struct watch_report *rep)
{
	const struct inventory *inv = rep->inv;
	double secs = rep->duration_s > 0 ? rep->duration_s : 1;
	json_t *ports = json_array();

	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];
			struct counter_change ch;

			json_t *o;

			if (!pt->start)
				continue;
			o = json_pack(
				"{s:o, s:i, s:o, s:o, s:o, s:o, s:o}",
				"nic", json_string_or_null(inv->nics[i].name),
				"port", pt->num,
				"netdev", json_string_or_null(pt->netdev),
				"counters", set_json(pt, WIN_PMA, NULL, secs),
				"hw_counters", set_json(pt, WIN_HW, inv->nics[i].driver, secs),
				"carrier_changes", window_carrier(pt, &ch) ?
					change_json(&ch, secs) : json_null(),
				"phy_error_ratio",
				json_number_or_null(phy_error_ratio(pt, rep->duration_s)));
			double tx = port_bytes_per_s(pt, true, secs), rx = port_bytes_per_s(pt, false, secs);

			json_object_set_new(o, "tx_gbps", gbps_json(pt, tx));
			json_object_set_new(o, "rx_gbps", gbps_json(pt, rx));
			json_object_set_new(o, "rate_impossible", impossible_json(pt, tx, rx));
			json_object_set_new(o, "ethtool_stats", opt_set_json(pt, WIN_ETH, secs));
			json_object_set_new(o, "netdev_stats", opt_set_json(pt, WIN_NET, secs));
			json_object_set_new(o, "pfc", pfc_json(pt, secs));
			json_object_set_new(o, "cnp", cnp_json(pt, inv->nics[i].driver, secs));
			json_object_set_new(o, "fec", fec_json(pt, secs));
			json_array_append_new(ports, o);
		}
	return json_pack("{s:i, s:f, s:f, s:I, s:b, s:s, s:o, s:o}",
			 "schema", INVENTORY_SCHEMA, "interval_s", rep->interval_s,
			 "duration_s", rep->duration_s, "samples", (json_int_t)rep->samples,
			 "interrupted", rep->interrupted,
			 "verdict", check_verdict(rep->findings),
			 "ports", ports, "findings", findings_to_json(rep->findings));
}

static void row(FILE *out, bool *header, int set, const char *prefix, const char *name,
		const struct counter_change *ch, double secs)
{
	char label[96], rate[32];

	snprintf(label, sizeof(label), "%s%s", prefix, name);
	if (!*header) {
		fprintf(out, "    %-32s %15s %15s %12s %12s\n", "counter", "start", "end",
			"delta", "rate");
		*header = true;
	}
	if (ch->reset) {
		text_printf(out, "    %-32s %15llu %15llu %12s %12s\n", label,
			    (unsigned long long)ch->start, (unsigned long long)ch->end, "cleared", "-");
		return;
	}
	rate_str(rate, sizeof(rate), name, set, (double)ch->delta / secs);
	text_printf(out, "    %-32s %15llu %15llu %12llu %12s\n", label,
		    (unsigned long long)ch->start, (unsigned long long)ch->end,
		    (unsigned long long)ch->delta, rate);
}

/* Only what moved: a port has thirty-odd counters. */
static size_t rows(FILE *out, bool *header, const struct port *pt, int which, double secs)
{
	static const char *const prefix[] = { "", "", "ethtool ", "netdev " };
	const struct counter_set *set = window_set_of(pt, which);
	size_t still = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct counter_change ch;

		if (!set->v[i].name || !window_change(pt, which, set->v[i].name, &ch))
			continue;
		if (ch.delta || ch.reset)
			row(out, header, which, prefix[which], set->v[i].name, &ch, secs);
		else
			still++;
	}
	return still;
}

/* "+N (R/s)", "cleared" or "?" */
static void delta_str(char *buf, size_t len, bool ok, const struct counter_change *ch,
		      double secs)
{
	if (!ok)
		snprintf(buf, len, "?");
	else if (ch->reset)
		snprintf(buf, len, "cleared");
	else {
		char rate[32];

		rate_per_s_str(rate, sizeof(rate), (double)ch->delta / secs);
		snprintf(buf, len, "+%llu (%s)", (unsigned long long)ch->delta, rate);
	}
}

/* "tx 133 Gb/s, rx 0 Gb/s", as `perfquery -r` and `mlnx_perf` users read
 * a port; "?" for a direction not known. */
static void text_throughput(FILE *out, const struct port *pt, double secs)
{
	char tx[32] = "?", rx[32] = "?";
	double t = port_bytes_per_s(pt, true, secs), r = port_bytes_per_s(pt, false, secs);

	if (isnan(t) && isnan(r)) {
		fputs("    tx ?, rx ? (no data counter read at both ends)\n", out);
		return;
	}
	if (rate_impossible(pt, t))
		snprintf(tx, sizeof(tx), "impossible");
	else if (!isnan(t))
		rate_gbps_str(tx, sizeof(tx), t);
	if (rate_impossible(pt, r))
		snprintf(rx, sizeof(rx), "impossible");
	else if (!isnan(r))
		rate_gbps_str(rx, sizeof(rx), r);
	fprintf(out, "    tx %s, rx %s", tx, rx);
	if (rate_impossible(pt, t) || rate_impossible(pt, r))
		fprintf(out, " (above the port's %g Gb/s: the counters do not measure one window "
			"of this port: reset or cleared within it, or --duration shorter than the "
			"time between the readings)", pt->rate_gbps);
	fputc('\n', out);
}

/* "pfc prio 3: pause tx +N (r/s) rx +M (r/s)" per listed priority, then
 * "cnp: sent +N handled +M ecn-marked +K" */
static void text_pfc_cnp(FILE *out, const struct port *pt, const char *driver, double secs)
{
	static const char *const cnp_label[] = { "sent", "handled", "ecn-marked" };
	struct counter_change ch;
	char a[64], b[64];
	bool any = false;

	for (int p = 0; p < 8; p++) {
		bool ok;

		if (!prio_listed(pt, p))
			continue;
		ok = window_pause(pt, p, true, &ch) || eth_pause(pt, p, true, &ch);
		delta_str(a, sizeof(a), ok, &ch, secs);
		ok = window_pause(pt, p, false, &ch) || eth_pause(pt, p, false, &ch);
		delta_str(b, sizeof(b), ok, &ch, secs);
		text_printf(out, "    pfc prio %d: pause tx %s rx %s\n", p, a, b);
	}
	for (size_t i = 0; i < N_CNP; i++) {
		bool ok = cnp_change(pt, driver, i, &ch);

		if (!ok)
			continue;
		delta_str(a, sizeof(a), ok, &ch, secs);
		text_printf(out, "%s %s %s", any ? "," : "    cnp:", cnp_label[i], a);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

void text_watch(FILE *out, const struct watch_report *rep, const struct text_opts *o)
{
	const struct inventory *inv = rep->inv;
	double secs = rep->duration_s > 0 ? rep->duration_s : 1;
	size_t count[3] = { 0 };

	for (size_t i = 0; i < rep->findings->n; i++)
		count[rep->findings->v[i].severity]++;
	text_printf(out, "watch: %.1f s, %lu %s, every %g s%s\n", rep->duration_s,
		rep->samples, plural(rep->samples, "sample", "samples"), rep->interval_s, rep->interrupted ? " (interrupted)" : "");
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];
			struct counter_change ch;
			bool header = false;
			size_t still;
			double ratio = phy_error_ratio(pt, rep->duration_s);

			text_printf(out, "\n  %s port %d%s%s%s\n", inv->nics[i].name, pt->num,
				    pt->netdev ? " (" : "", pt->netdev ? pt->netdev : "",
				    pt->netdev ? ")" : "");
			if (!pt->start)
				continue;
			text_throughput(out, pt, secs);
			still = rows(out, &header, pt, WIN_PMA, secs);
			still += rows(out, &header, pt, WIN_HW, secs);
			still += rows(out, &header, pt, WIN_ETH, secs);
			still += rows(out, &header, pt, WIN_NET, secs);
			if (window_carrier(pt, &ch) && (ch.delta || ch.reset))
				row(out, &header, WIN_NET, "", "carrier_changes", &ch, secs);
			if (!header)
				text_printf(out, "    no counter changed (%zu read)\n", still);
			else if (still)
				text_printf(out, "    %zu other counters unchanged\n", still);
			if (!isnan(ratio))
				text_printf(out, "    physical-layer errors per line bit: %.3g\n", ratio);
			text_pfc_cnp(out, pt, inv->nics[i].driver, secs);
		}
	fputc('\n', out);
	if (count[SEV_ERROR] || count[SEV_WARN])
		tint_on(out, o, count[SEV_ERROR] ? TINT_BAD : TINT_DOUBT);
	fprintf(out, "%zu %s, %zu %s", count[SEV_ERROR],
		plural(count[SEV_ERROR], "error", "errors"), count[SEV_WARN],
		plural(count[SEV_WARN], "warning", "warnings"));
	if (count[SEV_ERROR] || count[SEV_WARN])
		tint_off(out, o);
	fputc('\n', out);
	text_findings(out, rep->findings, o);
}
