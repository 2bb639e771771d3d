#include "watch_out.h"
#include "check_out.h"
#include "json.h"
#include "../model/window.h"

#include <math.h>
#include <string.h>

/* Errors (the PMA error counters) per transmitted bit over the window:
 * NAN without data counters or traffic. */
static double errors_per_bit(const struct port *pt)
{
	struct counter_change ch;
	uint64_t errors = 0;

	if (!window_change(pt, false, "port_xmit_data", &ch) || ch.reset || !ch.delta)
		return NAN;
	if (ch.delta > UINT64_MAX / 8)
		return NAN;
	for (size_t i = 0; i < pt->counters.n; i++) {
		struct counter_change e;
		const char *name = pt->counters.v[i].name;

		if (name && check_counter_is_error(name, false) &&
		    window_change(pt, false, name, &e))
			errors += e.delta;
	}
	return (double)errors / (double)(ch.delta * 8);
}

static json_t *change_json(const struct counter_change *ch, double secs)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:b}",
			 "start", (json_int_t)ch->start, "end", (json_int_t)ch->end,
			 "delta", ch->reset ? json_null() : json_integer((json_int_t)ch->delta),
			 "per_s", ch->reset ? json_null() : json_real((double)ch->delta / secs),
			 "reset", ch->reset);
}

static json_t *set_json(const struct port *pt, bool hw, double secs)
{
	const struct counter_set *set = hw ? &pt->hw_counters : &pt->counters;
	json_t *o = json_object();

	for (size_t i = 0; i < set->n; i++) {
		struct counter_change ch;

		if (set->v[i].name && window_change(pt, hw, set->v[i].name, &ch))
			json_object_set_new(o, set->v[i].name, change_json(&ch, secs));
	}
	return o;
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

			json_array_append_new(ports, json_pack(
				"{s:o, s:i, s:o, s:o, s:o, s:o, s:o}",
				"nic", json_string_or_null(inv->nics[i].name),
				"port", pt->num,
				"netdev", json_string_or_null(pt->netdev),
				"counters", set_json(pt, false, secs),
				"hw_counters", set_json(pt, true, secs),
				"carrier_changes", window_carrier(pt, &ch) ?
					change_json(&ch, secs) : json_null(),
				"errors_per_xmit_bit", json_number_or_null(errors_per_bit(pt))));
		}
	return json_pack("{s:i, s:f, s:f, s:I, s:b, s:s, s:o, s:o}",
			 "schema", INVENTORY_SCHEMA, "interval_s", rep->interval_s,
			 "duration_s", rep->duration_s, "samples", (json_int_t)rep->samples,
			 "interrupted", rep->interrupted,
			 "verdict", check_verdict(rep->findings),
			 "ports", ports, "findings", findings_to_json(rep->findings));
}

static void row(FILE *out, bool *header, const char *name, const struct counter_change *ch,
		double secs)
{
	if (!*header) {
		fprintf(out, "    %-32s %15s %15s %12s %12s\n", "counter", "start", "end",
			"delta", "per s");
		*header = true;
	}
	if (ch->reset)
		fprintf(out, "    %-32s %15llu %15llu %12s %12s\n", name,
			(unsigned long long)ch->start, (unsigned long long)ch->end, "cleared", "-");
	else
		fprintf(out, "    %-32s %15llu %15llu %12llu %12.6g\n", name,
			(unsigned long long)ch->start, (unsigned long long)ch->end,
			(unsigned long long)ch->delta, (double)ch->delta / secs);
}

/* Only what moved: a port has thirty-odd counters. */
static size_t rows(FILE *out, bool *header, const struct port *pt, bool hw, double secs)
{
	const struct counter_set *set = hw ? &pt->hw_counters : &pt->counters;
	size_t still = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct counter_change ch;

		if (!set->v[i].name || !window_change(pt, hw, set->v[i].name, &ch))
			continue;
		if (ch.delta || ch.reset)
			row(out, header, set->v[i].name, &ch, secs);
		else
			still++;
	}
	return still;
}

void text_watch(FILE *out, const struct watch_report *rep)
{
	const struct inventory *inv = rep->inv;
	double secs = rep->duration_s > 0 ? rep->duration_s : 1;
	size_t count[3] = { 0 };

	for (size_t i = 0; i < rep->findings->n; i++)
		count[rep->findings->v[i].severity]++;
	fprintf(out, "watch: %.1f s, %lu samples, every %g s%s\n", rep->duration_s,
		rep->samples, rep->interval_s, rep->interrupted ? " (interrupted)" : "");
	for (size_t i = 0; i < inv->n_nics; i++)
		for (size_t k = 0; k < inv->nics[i].n_ports; k++) {
			const struct port *pt = &inv->nics[i].ports[k];
			struct counter_change ch;
			bool header = false;
			size_t still;
			double epb = errors_per_bit(pt);

			fprintf(out, "\n  %s port %d%s%s%s\n", inv->nics[i].name, pt->num,
				pt->netdev ? " (" : "", pt->netdev ? pt->netdev : "",
				pt->netdev ? ")" : "");
			still = rows(out, &header, pt, false, secs);
			still += rows(out, &header, pt, true, secs);
			if (window_carrier(pt, &ch) && (ch.delta || ch.reset))
				row(out, &header, "carrier_changes", &ch, secs);
			if (!header)
				fprintf(out, "    no counter changed (%zu read)\n", still);
			else if (still)
				fprintf(out, "    %zu other counters unchanged\n", still);
			if (!isnan(epb))
				fprintf(out, "    errors per transmitted bit: %.3g\n", epb);
		}
	fprintf(out, "\n%zu errors, %zu warnings\n", count[SEV_ERROR], count[SEV_WARN]);
	text_findings(out, rep->findings, false);
}
