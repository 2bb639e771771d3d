/* NPU ports per host, with the drift `fleet diff` found on them. */
#include "fleet_html_npu.h"
#include "../fleet/fields.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The link layer `fleet diff` gives a group of NPUs (docs/fleet.md). */
#define NPU_GROUP_LINK_LAYER "NPU RoCE"

static const json_t *npus_of(const json_t *rec)
{
	return json_object_get(json_object_get(json_object_get(json_object_get(rec, "check"),
							       "inventory"), "npus"), "devices");
}

/* "host\x1fsubject\x1ffield"; malloc'd, NULL on OOM. */
static char *odd_key(const char *host, const char *subject, const char *field)
{
	char *k;

	if (asprintf(&k, "%s\x1f%s\x1f%s", host, subject, field) < 0)
		return NULL;
	return k;
}

/* Every outlier of the NPU groups, keyed by odd_key, its baseline the
 * value.  NULL on OOM. */
static json_t *npu_outliers(const json_t *diff)
{
	json_t *out = json_object(), *g, *x;
	size_t i, k;

	if (!out)
		return NULL;
	json_array_foreach(json_object_get(diff, "groups"), i, g) {
		const char *ll = json_string_value(json_object_get(g, "link_layer"));

		if (!ll || strcmp(ll, NPU_GROUP_LINK_LAYER) != 0)
			continue;
		json_array_foreach(json_object_get(g, "outliers"), k, x) {
			const char *h = json_string_value(json_object_get(x, "host"));
			const char *s = json_string_value(json_object_get(x, "subject"));
			const char *f = json_string_value(json_object_get(x, "field"));
			const json_t *base = json_object_get(x, "baseline");
			char *key;
			int rc;

			if (!h || !s || !f)
				continue;
			key = odd_key(h, s, f);
			if (!key)
				goto oom;
			rc = json_object_set_new(out, key, base ? json_deep_copy(base) : json_null());
			free(key);
			if (rc < 0)
				goto oom;
		}
	}
	return out;
oom:
	json_decref(out);
	return NULL;
}

/* What one row's cells need. */
struct row {
	struct html_out *o;
	const json_t *odd;
	const char *host;
	char subject[40];
	bool nomem;
};

static void baseline_text(struct html_out *o, const json_t *v)
{
	char *s;

	if (json_is_string(v)) {
		html_text(o, json_string_value(v));
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
	html_text(o, s);
	free(s);
}

/* A cell of field (the `fleet diff` field name) holding text; marked
 * "odd" with the baseline when the diff found the value off it. */
static void cell(struct row *r, const char *field, const char *text)
{
	char *key = odd_key(r->host, r->subject, field);
	const json_t *base = key ? json_object_get(r->odd, key) : NULL;

	if (!key)
		r->nomem = true;
	free(key);
	html_printf(r->o, "<td data-k=\"%s\"", field);
	if (base)
		html_raw(r->o, " class=\"odd\"");
	html_raw(r->o, ">");
	html_text(r->o, text);
	if (base) {
		html_raw(r->o, " <span class=\"note\">(baseline ");
		baseline_text(r->o, base);
		html_raw(r->o, json_is_number(base) && !strcmp(field, "port_rate_gbps") ? " Gb/s)</span>"
										     : ")</span>");
	}
	html_raw(r->o, "</td>");
}

/* The PFC bitmap as the priorities that have it on: "4", "3,4", "none";
 * missing when the bitmap or a bit of it was not read. */
static void pfc_text(char *buf, size_t len, const json_t *bits)
{
	size_t i, used = 0;
	json_t *b;

	snprintf(buf, len, "%s", FLEET_MISSING);
	if (!json_is_array(bits))
		return;
	json_array_foreach(bits, i, b)
		if (!json_is_boolean(b))
			return;
	buf[0] = '\0';
	json_array_foreach(bits, i, b) {
		int n;

		if (!json_is_true(b))
			continue;
		n = snprintf(buf + used, len - used, "%s%zu", used ? "," : "", i);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "none");
}

static void npu_row(struct row *r, const json_t *npu)
{
	const json_t *id = json_object_get(npu, "id");
	const json_t *port = json_object_get(npu, "port");
	const json_t *mbps = json_object_get(port, "speed_mbps");
	char speed[48], pfc[32];

	if (json_is_integer(id))
		snprintf(r->subject, sizeof(r->subject), "npu%lld", (long long)json_integer_value(id));
	else
		snprintf(r->subject, sizeof(r->subject), "%s", FLEET_MISSING);
	if (json_is_number(mbps))
		snprintf(speed, sizeof(speed), "%g Gb/s", json_number_value(mbps) / 1000.0);
	else
		snprintf(speed, sizeof(speed), "%s", FLEET_MISSING);
	pfc_text(pfc, sizeof(pfc), json_object_get(port, "pfc_enabled"));

	html_raw(r->o, "<tr class=\"npu\"");
	html_raw(r->o, " data-host=\"");
	html_text(r->o, r->host);
	html_raw(r->o, "\" data-npu=\"");
	html_text(r->o, r->subject);
	html_raw(r->o, "\"><td data-k=\"host\">");
	html_text(r->o, r->host);
	html_raw(r->o, "</td><td data-k=\"npu\">");
	html_text(r->o, r->subject);
	html_raw(r->o, "</td><td data-k=\"model\">");
	html_text(r->o, html_member(npu, "model"));
	html_raw(r->o, "</td>");
	cell(r, "fw", html_member(npu, "firmware"));
	cell(r, "npu_driver", html_member(npu, "software"));
	cell(r, "port_state", html_member(port, "link"));
	cell(r, "port_rate_gbps", speed);
	cell(r, "pfc_priority", pfc);
	html_raw(r->o, "</tr>\n");
}

int fleet_html_npus(struct html_out *o, const struct fleet_html_npu_host *hosts, size_t n,
		    const json_t *diff)
{
	struct row r = { .o = o };
	json_t *odd, *npu;
	size_t i, k, any = 0;

	for (i = 0; i < n && !any; i++)
		any = json_array_size(npus_of(hosts[i].rec));
	if (!any)
		return 0;
	odd = npu_outliers(diff);
	if (!odd)
		return -ENOMEM;
	r.odd = odd;
	html_raw(o, "<section id=\"npus\"><h2>NPU ports</h2>\n<p class=\"note\">Each Ascend "
		 "NPU's on-chip RoCE port, read with hccn_tool and npu-smi; a value off its "
		 "group's baseline in the drift table is marked with that baseline.</p>\n"
		 "<table id=\"npu-table\"><tr><th>host</th><th>NPU</th><th>model</th>"
		 "<th>firmware</th><th>driver</th><th>link</th><th>speed</th><th>PFC</th>"
		 "</tr>\n");
	for (i = 0; i < n; i++) {
		r.host = hosts[i].name ? hosts[i].name : FLEET_MISSING;
		json_array_foreach(npus_of(hosts[i].rec), k, npu)
			npu_row(&r, npu);
	}
	html_raw(o, "</table>\n</section>\n");
	json_decref(odd);
	return r.nomem ? -ENOMEM : 0;
}
