/* The fleet report page: see fleet_html.h.  Sections in page order:
 * summary, drift, bandwidth, pairs, hosts, error counters over time
 * (fleet_html_counters.c), NPU ports (fleet_html_npu.c),
 * findings.  The figures come from fleet_svg_*.c, escaping and write
 * errors from fleet_html_stream.c. */
#include "fleet_html.h"
#include "fleet_bw.h"
#include "fleet_html_counters.h"
#include "fleet_html_fabric.h"
#include "fleet_html_rails.h"
#include "fleet_html_npu.h"
#include "fleet_html_stream.h"
#include "fleet_svg.h"
#include "../fleet/diff.h"
#include "../fleet/fields.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Pairs listed, slowest first, when there are too many hosts to draw. */
#define SLOWEST_PAIRS 200
/* NICs a host's model and firmware cells look at (a machine has a few dozen) */
#define NIC_VALUES_SCANNED 64

static const char STYLE[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:2px solid #d8dde8;padding-bottom:4px}"
	"table{border-collapse:collapse;margin:6px 0 14px}"
	"th,td{border:1px solid #d8dde8;padding:3px 8px;text-align:left;vertical-align:top}"
	"th{background:#eef1f7}td.num{text-align:right;font-variant-numeric:tabular-nums}"
	"caption{text-align:left;font-weight:600;padding:2px 0}"
	".tables{display:flex;gap:28px;flex-wrap:wrap;align-items:flex-start}"
	".badge{display:inline-block;padding:0 7px;border-radius:9px;font-weight:600}"
	".v-pass{background:#cdeccf}.v-warn{background:#fbe7b5}.v-fail{background:#f6c1c1}"
	".v-other{background:#e2e4ea}"
	"tr.sev-error td:first-child{color:#a0141e;font-weight:600}"
	"tr.sev-warn td:first-child{color:#8a5a00;font-weight:600}"
	"details{margin:6px 0}summary{cursor:pointer;font-weight:600}"
	".empty,.note{color:#5a6272;font-style:italic}"
	"td.odd{background:#fbe7b5;font-weight:600}"
	"code{background:#f2f4f8;padding:0 3px}.base{margin-right:8px;white-space:nowrap}"
	"svg text{font:12px monospace;fill:#1d2330}"
	"svg .grid{stroke:#e3e6ee}svg .axis{stroke:#1d2330}"
	"svg .unmeasured{fill:#eceef3}"
	"h3{font-size:15px;margin:14px 0 2px}svg.spark{display:block}"
	"svg .spark-bar{fill:" SPARK_COLOUR "}"
	"footer{margin-top:32px;color:#5a6272;font-size:12px}";

static const char *or_missing(const char *s)
{
	return s ? s : FLEET_MISSING;
}

/* ` name="value"` with value escaped (NULL: FLEET_MISSING). */
static void attr(struct html_out *o, const char *name, const char *value)
{
	html_printf(o, " %s=\"", name);
	html_text(o, value);
	html_raw(o, "\"");
}

/* <tr class="cls" name="value"> */
static void row_start(struct html_out *o, const char *cls, const char *name, const char *value)
{
	html_printf(o, "<tr class=\"%s\"", cls);
	attr(o, name, value);
	html_raw(o, ">");
}

static void cell_text(struct html_out *o, const char *s)
{
	html_raw(o, "<td>");
	html_text(o, s);
	html_raw(o, "</td>");
}

static const char *verdict_class(const char *v)
{
	if (v && !strcmp(v, "pass"))
		return "v-pass";
	if (v && !strcmp(v, "warn"))
		return "v-warn";
	if (v && !strcmp(v, "fail"))
		return "v-fail";
	return "v-other";
}

static void verdict_badge(struct html_out *o, const char *v)
{
	html_printf(o, "<span class=\"badge %s\">", verdict_class(v));
	html_text(o, v);
	html_raw(o, "</span>");
}

/* A JSON scalar as a person reads it: strings as they are, integers whole,
 * reals with two decimals, null or missing as FLEET_MISSING. */
static void scalar(struct html_out *o, const json_t *v)
{
	char *s;

	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_STRING:
		html_text(o, json_string_value(v));
		break;
	case JSON_INTEGER:
		html_printf(o, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		html_printf(o, "%.2f", json_real_value(v));
		break;
	case JSON_TRUE:
		html_raw(o, "true");
		break;
	case JSON_FALSE:
		html_raw(o, "false");
		break;
	case JSON_NULL:
		html_raw(o, FLEET_MISSING);
		break;
	default:	/* an object or array where a value belongs: show it */
		s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
		html_text(o, s);
		free(s);
	}
}

/* ---- counting strings: sort, then runs ---- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct tally {
	const char **v;
	size_t n, cap;
	bool nomem;
};

static void tally_add(struct tally *t, const char *s)
{
	const char **p = growbuf_reserve(t->v, &t->cap, t->n + 1, sizeof(*t->v));

	if (!p) {
		t->nomem = true;
		return;
	}
	t->v = p;
	t->v[t->n++] = or_missing(s);
}

/* One row per distinct value, sorted: <tr data-KEY="value">. */
static void tally_rows(struct html_out *o, struct tally *t, const char *key, bool badge)
{
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), str_cmp);
	for (size_t i = 0, run; i < t->n; i += run) {
		for (run = 1; i + run < t->n && !strcmp(t->v[i], t->v[i + run]); run++)
			;
		html_raw(o, "<tr");
		attr(o, key, t->v[i]);
		html_raw(o, "><td>");
		if (badge)
			verdict_badge(o, t->v[i]);
		else
			html_text(o, t->v[i]);
		html_printf(o, "</td><td class=\"num\" data-count=\"%zu\">%zu</td></tr>\n", run, run);
	}
}

/* ---- hosts, in name order ---- */

struct host {
	const json_t *rec;
	const char *name;
	size_t input;		/* position in records: ties keep input order */
};

static int host_cmp(const void *a, const void *b)
{
	const struct host *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->input > y->input) - (x->input < y->input);
}

/* When the host was last checked: its record's last_seen (the newest of
 * the unchanged checks kept with it), else the record's own time. */
static const char *checked_at(const json_t *rec)
{
	const char *seen = html_member(rec, "last_seen");

	return seen ? seen : html_member(rec, "time");
}

static const json_t *findings_of(const json_t *rec)
{
	const json_t *f = json_object_get(json_object_get(rec, "check"), "findings");

	return json_is_array(f) ? f : NULL;
}

static void severity_count(struct html_out *o, const json_t *findings, const char *sev)
{
	size_t i, n = 0;
	json_t *f;

	if (!findings) {
		html_printf(o, "<td class=\"num\" data-count=\"%s\">" FLEET_MISSING "</td>", sev);
		return;
	}
	json_array_foreach(findings, i, f) {
		const char *s = html_member(f, "severity");

		n += s && !strcmp(s, sev);
	}
	html_printf(o, "<td class=\"num\" data-count=\"%s\">%zu</td>", sev, n);
}

/* Distinct values of one string field over the host's NICs, comma-joined. */
/* The distinct values of one NIC field, in the order first seen.  The NIC
 * list comes from the record, so the quadratic scan is bounded: past
 * NIC_VALUES_SCANNED NICs the cell ends in an ellipsis. */
static void nic_values(struct html_out *o, const json_t *rec, const char *key)
{
	const json_t *nics = json_object_get(json_object_get(json_object_get(rec, "check"),
							     "inventory"), "nics");
	size_t i, k, shown = 0;
	json_t *nic;

	html_printf(o, "<td data-k=\"%s\">", key);
	json_array_foreach(nics, i, nic) {
		const char *v;
		bool seen = false;

		if (i == NIC_VALUES_SCANNED) {
			html_raw(o, shown ? ", \u2026" : "\u2026");
			shown++;
			break;
		}
		v = or_missing(html_member(nic, key));
		for (k = 0; k < i && !seen; k++)
			seen = !strcmp(or_missing(html_member(json_array_get(nics, k), key)), v);
		if (seen)
			continue;
		html_raw(o, shown++ ? ", " : "");
		html_text(o, v);
	}
	if (!shown)
		html_raw(o, FLEET_MISSING);
	html_raw(o, "</td>");
}

static void summary(struct html_out *o, const struct host *hosts, size_t n, bool *nomem)
{
	struct tally verdicts = { 0 }, profiles = { 0 }, severities = { 0 };
	const char *latest = NULL;

	for (size_t i = 0; i < n; i++) {
		const json_t *findings = findings_of(hosts[i].rec);
		const char *t = checked_at(hosts[i].rec);
		size_t k;
		json_t *f;

		tally_add(&verdicts, html_member(hosts[i].rec, "verdict"));
		tally_add(&profiles, html_member(hosts[i].rec, "profile"));
		json_array_foreach(findings, k, f)
			tally_add(&severities, html_member(f, "severity"));
		if (t && (!latest || strcmp(t, latest) > 0))
			latest = t;
	}
	html_printf(o, "<section id=\"summary\"><h2>Fleet</h2>\n<p><span id=\"host-count\" "
		    "data-hosts=\"%zu\">%zu</span> host%s", n, n, n == 1 ? "" : "s");
	if (latest) {
		html_raw(o, "; latest check <time id=\"latest\">");
		html_text(o, latest);
		html_raw(o, "</time>");
	}
	html_raw(o, "</p>\n");
	if (!n) {
		html_raw(o, "<p id=\"empty\" class=\"empty\">No hosts recorded yet: run "
			 "<code>rdmadoctor record</code> on each host (or <code>rdmadoctor record "
			 "--from FILE.json</code> with documents gathered elsewhere), then make "
			 "this report again.</p>\n</section>\n");
		goto out;
	}
	html_raw(o, "<div class=\"tables\">\n<table id=\"by-verdict\"><caption>Hosts by verdict"
		 "</caption><tr><th>verdict</th><th>hosts</th></tr>\n");
	tally_rows(o, &verdicts, "data-verdict", true);
	html_raw(o, "</table>\n<table id=\"by-profile\"><caption>Hosts by profile</caption>"
		 "<tr><th>profile</th><th>hosts</th></tr>\n");
	tally_rows(o, &profiles, "data-profile", false);
	html_raw(o, "</table>\n<table id=\"by-severity\"><caption>Findings by severity</caption>"
		 "<tr><th>severity</th><th>findings</th></tr>\n");
	tally_rows(o, &severities, "data-severity", false);
	if (!severities.n)
		html_raw(o, "<tr><td colspan=\"2\" class=\"note\">no findings</td></tr>\n");
	html_raw(o, "</table>\n</div>\n</section>\n");
out:
	*nomem |= verdicts.nomem || profiles.nomem || severities.nomem;
	free(verdicts.v);
	free(profiles.v);
	free(severities.v);
}

static void host_table(struct html_out *o, const struct host *hosts, size_t n)
{
	html_raw(o, "<section id=\"hosts\"><h2>Hosts</h2>\n<table id=\"host-table\"><tr>"
		 "<th>host</th><th>profile</th><th>verdict</th><th>last checked</th>"
		 "<th>NIC model</th><th>firmware</th><th>errors</th><th>warnings</th>"
		 "<th>info</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		const json_t *rec = hosts[i].rec;
		const json_t *findings = findings_of(rec);
		const char *verdict = html_member(rec, "verdict");

		row_start(o, "host", "data-host", hosts[i].name);
		html_raw(o, "<td data-k=\"host\">");
		html_text(o, hosts[i].name);
		html_raw(o, "</td><td data-k=\"profile\">");
		html_text(o, html_member(rec, "profile"));
		html_raw(o, "</td><td data-k=\"verdict\">");
		verdict_badge(o, verdict);
		html_raw(o, "</td><td data-k=\"time\">");
		html_text(o, checked_at(rec));
		html_raw(o, "</td>");
		nic_values(o, rec, "model");
		nic_values(o, rec, "fw_ver");
		severity_count(o, findings, "error");
		severity_count(o, findings, "warn");
		severity_count(o, findings, "info");
		html_raw(o, "</tr>\n");
	}
	html_raw(o, "</table>\n</section>\n");
}

static void finding_row(struct html_out *o, const json_t *f)
{
	const char *sev = html_member(f, "severity");

	html_printf(o, "<tr class=\"finding sev-%s\"",
		    sev && !strcmp(sev, "error") ? "error" :
		    sev && !strcmp(sev, "warn") ? "warn" : "other");
	attr(o, "data-id", html_member(f, "id"));
	attr(o, "data-severity", sev);
	html_raw(o, ">");
	cell_text(o, sev);
	cell_text(o, html_member(f, "id"));
	cell_text(o, html_member(f, "subject"));
	cell_text(o, html_member(f, "observed"));
	cell_text(o, html_member(f, "expected"));
	cell_text(o, html_member(f, "fix"));
	html_raw(o, "</tr>\n");
}

static void findings(struct html_out *o, const struct host *hosts, size_t n)
{
	html_raw(o, "<section id=\"findings\"><h2>Findings per host</h2>\n");
	for (size_t i = 0; i < n; i++) {
		const json_t *fs = findings_of(hosts[i].rec);
		size_t k, nf = json_array_size(fs);
		json_t *f;

		html_printf(o, "<details class=\"host-findings\"%s", nf ? " open" : "");
		attr(o, "data-host", hosts[i].name);
		html_raw(o, "><summary>");
		html_text(o, hosts[i].name);
		html_raw(o, ": ");
		if (!fs)
			html_raw(o, "<span data-findings=\"" FLEET_MISSING "\">findings: " FLEET_MISSING
				 "</span> (no check document in the record)");
		else
			html_printf(o, "<span data-findings=\"%zu\">%zu finding%s</span>", nf, nf,
				    nf == 1 ? "" : "s");
		html_raw(o, "</summary>\n");
		if (nf) {
			html_raw(o, "<table><tr><th>severity</th><th>id</th><th>subject</th>"
				 "<th>observed</th><th>expected</th><th>fix</th></tr>\n");
			json_array_foreach(fs, k, f)
				finding_row(o, f);
			html_raw(o, "</table>\n");
		}
		html_raw(o, "</details>\n");
	}
	html_raw(o, "</section>\n");
}

/* ---- drift (the `fleet diff` document) ---- */

struct share {
	const char *value;
	const json_t *count;
};

static int share_cmp(const void *a, const void *b)
{
	const struct share *x = a, *y = b;
	json_int_t cx = json_is_integer(x->count) ? json_integer_value(x->count) : -1;
	json_int_t cy = json_is_integer(y->count) ? json_integer_value(y->count) : -1;

	if (cx != cy)
		return cx > cy ? -1 : 1;	/* most hosts first */
	return strcmp(x->value, y->value);
}

/* "value (hosts), ...": the majority first. */
static void shares(struct html_out *o, const json_t *sh, bool *nomem)
{
	size_t n = json_object_size(sh), k = 0;
	struct share *v = n ? calloc(n, sizeof(*v)) : NULL;
	const char *key;
	json_t *count;

	html_raw(o, "<td data-k=\"shares\">");
	if (n && !v) {
		*nomem = true;
		n = 0;
	}
	json_object_foreach((json_t *)sh, key, count)
		if (k < n)
			v[k++] = (struct share){ key, count };
	if (k)
		qsort(v, k, sizeof(*v), share_cmp);
	for (size_t i = 0; i < k; i++) {
		html_raw(o, i ? ", <span class=\"share\"" : "<span class=\"share\"");
		attr(o, "data-value", fleet_share_text(v[i].value));
		html_raw(o, " data-count=\"");
		scalar(o, v[i].count);
		html_raw(o, "\">");
		html_text(o, fleet_share_text(v[i].value));
		html_raw(o, " (");
		scalar(o, v[i].count);
		html_raw(o, ")</span>");
	}
	if (!k)
		html_raw(o, FLEET_MISSING);
	html_raw(o, "</td>");
	free(v);
}

/* A group is a profile, a NIC model and a link layer (fleet/diff.c): a
 * fleet with InfiniBand and RoCE hosts of one model has two groups, which
 * without the link layer would read as one named twice. */
static void group_name(struct html_out *o, const json_t *g)
{
	html_text(o, html_member(g, "profile"));
	html_raw(o, " \xc2\xb7 ");	/* U+00B7 middle dot */
	html_text(o, html_member(g, "nic_model"));
	html_raw(o, " \xc2\xb7 ");
	html_text(o, html_member(g, "link_layer"));
}

static void group_attrs(struct html_out *o, const json_t *g)
{
	attr(o, "data-profile", html_member(g, "profile"));
	attr(o, "data-nic-model", html_member(g, "nic_model"));
	attr(o, "data-link-layer", html_member(g, "link_layer"));
}

static void baseline(struct html_out *o, const json_t *base)
{
	const char *field;
	json_t *v;
	bool any = false;

	json_object_foreach((json_t *)base, field, v) {
		html_raw(o, any ? " <span class=\"base\"" : "<span class=\"base\"");
		attr(o, "data-field", field);
		html_raw(o, "><b>");
		html_text(o, field);
		html_raw(o, "</b> ");
		scalar(o, v);
		html_raw(o, "</span>");
		any = true;
	}
	if (!any)
		html_raw(o, FLEET_MISSING);
}

/* How many hosts the outliers name: one host that differs in nineteen
 * values is one host. */
static size_t odd_hosts(const json_t *outliers)
{
	const json_t *x, *y;
	size_t i, j, n = 0;

	json_array_foreach(outliers, i, x) {
		const char *h = html_member(x, "host");
		bool before = false;

		for (j = 0; j < i && !before; j++) {
			y = json_array_get(outliers, j);
			before = h && html_member(y, "host") && strcmp(h, html_member(y, "host")) == 0;
		}
		n += !before;
	}
	return n;
}

/* Hosts whose profile changed, and alike machines judged against
 * different profiles (`fleet diff`'s profile_changes, profile_splits). */
static void host_drift(struct html_out *o, const json_t *diff)
{
	const json_t *changes = json_object_get(diff, "profile_changes");
	const json_t *splits = json_object_get(diff, "profile_splits"), *x, *p, *h;
	size_t i, j, k;

	if (json_array_size(changes)) {
		html_raw(o, "<table id=\"profile-changes\"><caption>Profile changed since the "
			 "record before</caption><tr><th>host</th><th>from</th><th>to</th></tr>\n");
		json_array_foreach(changes, i, x) {
			row_start(o, "profile-change", "data-host", html_member(x, "host"));
			cell_text(o, html_member(x, "host"));
			cell_text(o, html_member(x, "from"));
			cell_text(o, html_member(x, "to"));
			html_raw(o, "</tr>\n");
		}
		html_raw(o, "</table>\n");
	}
	if (!json_array_size(splits))
		return;
	html_raw(o, "<table id=\"profile-splits\"><caption>The same machine judged against "
		 "different profiles</caption><tr><th>machine</th><th>accelerators</th>"
		 "<th>profile</th><th>hosts</th></tr>\n");
	json_array_foreach(splits, i, x)
		json_array_foreach(json_object_get(x, "profiles"), j, p) {
			size_t n = json_array_size(json_object_get(p, "hosts"));

			row_start(o, "profile-split", "data-profile", html_member(p, "profile"));
			cell_text(o, html_member(x, "dmi_product"));
			cell_text(o, html_member(x, "gpus"));
			cell_text(o, html_member(p, "profile"));
			html_printf(o, "<td data-hosts=\"%zu\">%zu %s:", n, n, n == 1 ? "host" : "hosts");
			json_array_foreach(json_object_get(p, "hosts"), k, h) {
				html_raw(o, " ");
				html_text(o, json_string_value(h));
			}
			html_raw(o, "</td></tr>\n");
		}
	html_raw(o, "</table>\n");
}

static void drift(struct html_out *o, const json_t *diff, bool *nomem)
{
	const json_t *groups = json_object_get(diff, "groups");
	size_t i, k, n_out = 0, odd;
	json_t *g, *x;

	html_raw(o, "<section id=\"drift\"><h2>Drift</h2>\n");
	if (!json_is_array(groups)) {
		html_raw(o, "<p id=\"drift-none\" class=\"note\">No drift data: the report was "
			 "made without a fleet diff.</p>\n</section>\n");
		return;
	}
	html_raw(o, "<p class=\"note\">Hosts are grouped by profile, NIC model and link "
		 "layer; the value most hosts of a group share is its baseline.</p>\n<table id=\"drift-groups\">"
		 "<tr><th>group</th><th>hosts</th><th>hosts that differ</th><th>values that "
		 "differ</th><th>baseline</th></tr>\n");
	json_array_foreach(groups, i, g) {
		const json_t *hosts = json_object_get(g, "hosts");

		html_raw(o, "<tr class=\"group\"");
		group_attrs(o, g);
		html_raw(o, "><td>");
		group_name(o, g);
		if (json_is_array(hosts))
			html_printf(o, "</td><td class=\"num\" data-k=\"hosts\">%zu</td>",
				    json_array_size(hosts));
		else
			html_raw(o, "</td><td class=\"num\" data-k=\"hosts\">" FLEET_MISSING "</td>");
		html_printf(o, "<td class=\"num\" data-k=\"hosts-differ\">%zu</td>",
			    odd_hosts(json_object_get(g, "outliers")));
		html_printf(o, "<td class=\"num\" data-k=\"outliers\">%zu</td><td>",
			    json_array_size(json_object_get(g, "outliers")));
		baseline(o, json_object_get(g, "baseline"));
		html_raw(o, "</td></tr>\n");
	}
	html_raw(o, "</table>\n<table id=\"drift-table\"><tr><th>group</th><th>field</th>"
		 "<th>host</th><th>value</th><th>baseline</th><th>hosts per value</th></tr>\n");
	json_array_foreach(groups, i, g)
		json_array_foreach(json_object_get(g, "outliers"), k, x) {
			html_raw(o, "<tr class=\"outlier\"");
			group_attrs(o, g);
			attr(o, "data-field", html_member(x, "field"));
			attr(o, "data-host", html_member(x, "host"));
			html_raw(o, "><td>");
			group_name(o, g);
			html_raw(o, "</td>");
			html_raw(o, "<td>");
			html_text(o, html_member(x, "field"));
			if (html_member(x, "subject")) {
				html_raw(o, " (");
				html_text(o, html_member(x, "subject"));
				html_raw(o, ")");
			}
			html_raw(o, "</td>");
			cell_text(o, html_member(x, "host"));
			html_raw(o, "<td data-k=\"value\">");
			scalar(o, json_object_get(x, "value"));
			html_raw(o, "</td><td data-k=\"baseline\">");
			scalar(o, json_object_get(x, "baseline"));
			html_raw(o, "</td>");
			shares(o, json_object_get(x, "shares"), nomem);
			html_raw(o, "</tr>\n");
			n_out++;
		}
	html_raw(o, "</table>\n");
	host_drift(o, diff);
	odd = fleet_diff_odd_hosts(diff);
	if (!odd) {
		html_raw(o, "<p id=\"drift-clean\" class=\"note\">No drift: every host matches "
			 "its group's baseline.</p>\n");
	} else {
		html_printf(o, "<p id=\"drift-count\" data-hosts-differ=\"%zu\" data-outliers="
			    "\"%zu\">%zu %s from %s group's baseline, profile or rails", odd, n_out, odd,
			    odd == 1 ? "host differs" : "hosts differ", odd == 1 ? "its" : "their");
		if (n_out)
			html_printf(o, ", in %zu %s", n_out, n_out == 1 ? "value" : "values");
		html_raw(o, "</p>\n");
	}
	html_raw(o, "</section>\n");
}

/* ---- error counters over time ---- */

/* The hosts' error series (fleet_html_counters.h), drawn when the records
 * carry them (`fleet report` adds them; a page from records alone has
 * none and no such section). */
static int counter_charts(struct html_out *o, const struct host *hosts, size_t n)
{
	struct fleet_html_series_host *h;
	bool any = false;
	int rc;

	for (size_t i = 0; i < n && !any; i++)
		any = json_object_get(hosts[i].rec, FLEET_SERIES_KEY) != NULL;
	if (!any)
		return 0;
	h = calloc(n, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		h[i] = (struct fleet_html_series_host){
			hosts[i].name, json_object_get(hosts[i].rec, FLEET_SERIES_KEY) };
	rc = fleet_html_counters(o, h, n);
	free(h);
	return rc;
}

/* ---- bandwidth ---- */

static int pair_speed_cmp(const void *a, const void *b)
{
	const struct fleet_pair_bw *x = a, *y = b;

	if (x->gbps != y->gbps)
		return x->gbps < y->gbps ? -1 : 1;
	return strcmp(x->src, y->src) ? strcmp(x->src, y->src) : strcmp(x->dst, y->dst);
}

static int rail_speed_cmp(const void *a, const void *b)
{
	const struct fleet_rail_bw *x = a, *y = b;
	int c;

	if (x->gbps != y->gbps)
		return x->gbps < y->gbps ? -1 : 1;
	c = strcmp(x->host, y->host);
	if (!c)
		c = strcmp(x->device, y->device);
	return c ? c : (x->port > y->port) - (x->port < y->port);
}

/* Too many rails for one chart: the slowest, slowest first. */
static int slowest_rails(struct html_out *o, const struct fleet_bw *bw)
{
	struct fleet_rail_bw *v = calloc(bw->n_rails, sizeof(*v));

	if (!v)
		return -ENOMEM;
	memcpy(v, bw->rails, bw->n_rails * sizeof(*v));
	qsort(v, bw->n_rails, sizeof(*v), rail_speed_cmp);
	html_printf(o, "<p id=\"bw-slowest\" class=\"note\" data-shown=\"%d\" data-of=\"%zu\">"
		    "The %d slowest of %zu rails, slowest first:</p>\n",
		    FLEET_BARS_MAX, bw->n_rails, FLEET_BARS_MAX, bw->n_rails);
	fleet_svg_bars(o, v, FLEET_BARS_MAX);
	free(v);
	return 0;
}

/* Too many hosts for a heatmap: the slowest pairs as a table. */
static int slowest_pairs(struct html_out *o, const struct fleet_bw *bw)
{
	struct fleet_pair_bw *v = calloc(bw->n_pairs, sizeof(*v));
	size_t n = bw->n_pairs < SLOWEST_PAIRS ? bw->n_pairs : SLOWEST_PAIRS;

	if (!v)
		return -ENOMEM;
	memcpy(v, bw->pairs, bw->n_pairs * sizeof(*v));
	qsort(v, bw->n_pairs, sizeof(*v), pair_speed_cmp);
	html_printf(o, "<p class=\"note\">More than %d hosts have pair results: too many for a "
		    "heatmap.  The %zu slowest of %zu pairs:</p>\n<table id=\"slowest-pairs\">"
		    "<tr><th>client</th><th>server</th><th>Gb/s</th></tr>\n",
		    FLEET_HEATMAP_MAX_HOSTS, n, bw->n_pairs);
	for (size_t i = 0; i < n; i++) {
		html_raw(o, "<tr class=\"pair\"");
		attr(o, "data-src", v[i].src);
		attr(o, "data-dst", v[i].dst);
		html_printf(o, " data-gbps=\"%.2f\">", v[i].gbps);
		cell_text(o, v[i].src);
		cell_text(o, v[i].dst);
		html_printf(o, "<td class=\"num\">%.2f</td></tr>\n", v[i].gbps);
	}
	html_raw(o, "</table>\n");
	free(v);
	return 0;
}

static int bandwidth(struct html_out *o, const json_t *records)
{
	struct fleet_bw bw;
	size_t fabric_dirs = fleet_html_fabric_measured(records);
	int rc = 0;

	if (fleet_bw_collect(records, &bw))
		return -ENOMEM;
	html_raw(o, "<section id=\"bandwidth\"><h2>Bandwidth per host and rail</h2>\n");
	if (!bw.n_rails) {
		html_raw(o, "<p id=\"bw-none\" class=\"note\">No bandwidth results recorded: "
			 "<code>rdmadoctor record --bw FILE</code> keeps a host's "
			 "<code>bw --json</code> results.</p>\n");
	} else {
		html_raw(o, "<p class=\"note\">Mean of each rail's average over the host's client "
			 "runs (the largest message size of each run).</p>\n");
		if (bw.n_rails > FLEET_BARS_MAX)
			rc = slowest_rails(o, &bw);
		else
			fleet_svg_bars(o, bw.rails, bw.n_rails);
	}
	html_raw(o, "</section>\n<section id=\"pairs\"><h2>Bandwidth between hosts</h2>\n");
	if (rc) {
		/* out of memory: the page is not whole either way */
	} else if (!bw.n_pairs && fabric_dirs) {
		/* the fabric report's pairs are drawn under Fabric: say so, not "none" */
		html_printf(o, "<p id=\"pairs-fabric-only\" class=\"note\" data-fabric-directions="
			    "\"%zu\">No <code>bw</code> pair results recorded; the newest fabric "
			    "report measured %zu %s between its nodes, drawn under Fabric below.</p>\n",
			    fabric_dirs, fabric_dirs, fabric_dirs == 1 ? "direction" : "directions");
	} else if (!bw.n_pairs) {
		html_raw(o, "<p id=\"pairs-none\" class=\"note\">No pair results recorded.</p>\n");
	} else {
		html_raw(o, "<p class=\"note\">Rows: the client; columns: the server; each cell "
			 "the mean total Gb/s of its runs.  Grey: not measured.</p>\n");
		rc = fleet_svg_heatmap(o, bw.pairs, bw.n_pairs);
		if (rc == -E2BIG)
			rc = slowest_pairs(o, &bw);
	}
	html_raw(o, "</section>\n");
	fleet_bw_free(&bw);
	return rc;
}

/* The NPU ports of each host, in the host table's order. */
static int npu_ports(struct html_out *o, const struct host *hosts, size_t n, const json_t *diff)
{
	struct fleet_html_npu_host *h = calloc(n ? n : 1, sizeof(*h));
	int rc;

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		h[i] = (struct fleet_html_npu_host){ hosts[i].name, hosts[i].rec };
	rc = fleet_html_npus(o, h, n, diff);
	free(h);
	return rc;
}

int fleet_html_write(FILE *out, json_t *records, json_t *diff)
{
	struct html_out o = { .f = out };
	size_t n = json_array_size(records), i;
	struct host *hosts = calloc(n ? n : 1, sizeof(*hosts));
	bool nomem = !hosts;
	json_t *rec;

	if (nomem)
		return -1;
	json_array_foreach(records, i, rec)
		hosts[i] = (struct host){ rec, fleet_record_host(rec), i };
	qsort(hosts, n, sizeof(*hosts), host_cmp);

	html_raw(&o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		 "<meta name=\"viewport\" content=\"width=device-width\">\n"
		 "<title>rdmadoctor fleet report</title>\n<style>");
	html_raw(&o, STYLE);
	html_raw(&o, "</style></head>\n<body>\n<h1>rdmadoctor fleet report</h1>\n");
	summary(&o, hosts, n, &nomem);
	if (n) {
		/* the fleet-wide views first, the per-host detail last */
		drift(&o, diff, &nomem);
		fleet_html_rails(&o, diff);
		if (bandwidth(&o, records))
			nomem = true;
		if (fleet_html_fabric(&o, records))
			nomem = true;
		host_table(&o, hosts, n);
		if (counter_charts(&o, hosts, n))
			nomem = true;
		if (npu_ports(&o, hosts, n, diff))
			nomem = true;
		findings(&o, hosts, n);
	}
	html_printf(&o, "<footer>Made by rdmadoctor from %zu record%s.  This page is self-"
		    "contained: no script, no network.</footer>\n</body></html>\n",
		    n, n == 1 ? "" : "s");
	free(hosts);
	if (nomem || o.failed || fflush(out) || ferror(out))
		return -1;
	return 0;
}
