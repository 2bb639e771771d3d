/* Fabric heatmaps per rail and suspects, from the newest fabric report. */
#include "fleet_html_fabric.h"
#include "fleet_bw.h"
#include "fleet_svg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The newest report: of the record with the greatest time that has one. */
static const json_t *newest(const json_t *records, const char **when)
{
	const json_t *best = NULL, *r;
	const char *best_time = "";
	size_t i;

	json_array_foreach(records, i, r) {
		const json_t *list = json_object_get(r, "fabric");
		const json_t *doc = json_array_get(list, json_array_size(list) - 1);
		const char *t = json_string_value(json_object_get(r, "time"));

		if (json_is_object(doc) && (!best || (t && strcmp(t, best_time) > 0))) {
			best = doc;
			best_time = t ? t : "";
		}
	}
	*when = best_time;
	return best;
}

/* A rail's name as text ("mlx5_0", or "1" for a numbered rail). */
static char *rail_text(const json_t *rail)
{
	if (json_is_string(rail))
		return strdup(json_string_value(rail));
	return json_dumps(rail, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* By (src, dst), a first-pass figure (n 1) before a retest's (n 2). */
static int pair_cmp(const void *a, const void *b)
{
	const struct fleet_pair_bw *x = a, *y = b;
	int c = strcmp(x->src, y->src);

	if (!c)
		c = strcmp(x->dst, y->dst);
	return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* One cell per direction: the first pass's figure where it has one (a
 * retest, or a slow pair's re-run, measures a direction again).  Returns
 * how many are left. */
static size_t one_per_direction(struct fleet_pair_bw *cells, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (k && !strcmp(cells[k - 1].src, cells[i].src) &&
		    !strcmp(cells[k - 1].dst, cells[i].dst))
			continue;
		cells[k] = cells[i];
		cells[k++].n = 1;
	}
	return k;
}

/* How many nodes the cells name (rows and columns of the heatmap). */
static size_t nodes_of(const struct fleet_pair_bw *cells, size_t n, const json_t *pairs,
		       const char *rail)
{
	json_t *seen = json_object();
	const json_t *p;
	size_t i, k;

	if (!seen)
		return 0;
	for (i = 0; i < n; i++) {
		json_object_set_new(seen, cells[i].src, json_true());
		json_object_set_new(seen, cells[i].dst, json_true());
	}
	/* nothing measured: the nodes of the rail's pairs, none drawn */
	json_array_foreach(pairs, i, p) {
		char *r = n ? NULL : rail_text(json_object_get(p, "rail"));
		const char *a = json_string_value(json_object_get(p, "a"));
		const char *b = json_string_value(json_object_get(p, "b"));

		if (r && a && b && strcmp(r, rail) == 0) {
			json_object_set_new(seen, a, json_true());
			json_object_set_new(seen, b, json_true());
		}
		free(r);
	}
	k = json_object_size(seen);
	json_decref(seen);
	return k;
}

static bool gbps_ok(const json_t *v)
{
	return json_is_number(v) && json_number_value(v) >= 0 &&
	       json_number_value(v) <= FLEET_BW_MAX_GBPS;
}

/* One rail's heatmap: both directions of every pair measured on it, and
 * how many of the directions between its nodes that is. */
static int rail_map(struct html_out *o, const json_t *pairs, const char *rail, size_t index)
{
	struct fleet_pair_bw *cells = calloc(2 * json_array_size(pairs) + 1, sizeof(*cells));
	const json_t *p;
	size_t i, n = 0, nodes;
	char id[48];
	int rc;

	if (!cells)
		return -ENOMEM;
	json_array_foreach(pairs, i, p) {
		char *r = rail_text(json_object_get(p, "rail"));
		const json_t *g = json_object_get(p, "gbps");
		const char *a = json_string_value(json_object_get(p, "a"));
		const char *b = json_string_value(json_object_get(p, "b"));
		bool mine = r && strcmp(r, rail) == 0;

		size_t pass = json_is_true(json_object_get(p, "retest")) ? 2 : 1;

		free(r);
		if (!mine || !a || !b)
			continue;
		if (gbps_ok(json_object_get(g, "a_to_b")))
			cells[n++] = (struct fleet_pair_bw){ a, b,
				json_number_value(json_object_get(g, "a_to_b")), pass };
		if (gbps_ok(json_object_get(g, "b_to_a")))
			cells[n++] = (struct fleet_pair_bw){ b, a,
				json_number_value(json_object_get(g, "b_to_a")), pass };
	}
	qsort(cells, n, sizeof(*cells), pair_cmp);
	n = one_per_direction(cells, n);
	nodes = nodes_of(cells, n, pairs, rail);
	html_raw(o, "<div class=\"fabric-rail\" data-rail=\"");
	html_text(o, rail);
	html_raw(o, "\"><h3>Rail ");
	html_text(o, rail);
	html_printf(o, "</h3>\n");
	/* what the heatmap shows: its directions, and how many were measured */
	html_printf(o, "<p class=\"note\" data-k=\"fabric-directions\" data-measured=\"%zu\" "
		    "data-of=\"%zu\">%zu of %zu directions between its %zu nodes measured%s</p>\n",
		    n, nodes * (nodes ? nodes - 1 : 0), n, nodes * (nodes ? nodes - 1 : 0), nodes,
		    !n ? ": no pair on this rail gave figures." :
		    n < nodes * (nodes - 1) ? " (grey: not measured)." : ".");
	snprintf(id, sizeof(id), "fabric-heatmap-%zu", index);
	rc = n ? fleet_svg_heatmap_id(o, cells, n, id) : 0;
	if (rc == -E2BIG) {
		html_printf(o, "<p class=\"note\">%zu measurements: too many nodes for a heatmap.</p>\n",
			    n);
		rc = 0;
	}
	html_raw(o, "</div>\n");
	free(cells);
	return rc;
}

static void suspects(struct html_out *o, const json_t *doc)
{
	const json_t *list = json_object_get(doc, "suspects"), *s;
	size_t i;

	if (!json_array_size(list)) {
		html_raw(o, "<p id=\"fabric-clean\" class=\"note\">No suspects.</p>\n");
		return;
	}
	html_raw(o, "<table id=\"fabric-suspects\"><tr><th>kind</th><th>subject</th><th>rail</th>"
		 "<th>reason</th></tr>\n");
	json_array_foreach(list, i, s) {
		char *rail = json_object_get(s, "rail") ? rail_text(json_object_get(s, "rail")) : NULL;

		html_raw(o, "<tr class=\"suspect\" data-kind=\"");
		html_text(o, html_member(s, "kind"));
		html_raw(o, "\" data-subject=\"");
		html_text(o, html_member(s, "subject"));
		html_raw(o, "\"><td>");
		html_text(o, html_member(s, "kind"));
		html_raw(o, "</td><td>");
		html_text(o, html_member(s, "subject"));
		html_raw(o, "</td><td>");
		html_text(o, rail);	/* NULL: missing */
		html_raw(o, "</td><td>");
		html_text(o, html_member(s, "reason"));
		html_raw(o, "</td></tr>\n");
		free(rail);
	}
	html_raw(o, "</table>\n");
}

size_t fleet_html_fabric_measured(const json_t *records)
{
	const char *when;
	const json_t *doc = newest(records, &when), *p;
	json_t *seen = json_object();
	size_t i, n;

	if (!seen)
		return 0;
	json_array_foreach(json_object_get(doc, "pairs"), i, p) {
		char *r = rail_text(json_object_get(p, "rail"));
		const char *a = json_string_value(json_object_get(p, "a"));
		const char *b = json_string_value(json_object_get(p, "b"));
		const json_t *g = json_object_get(p, "gbps");
		char *k;

		for (int way = 0; r && a && b && way < 2; way++) {
			if (!gbps_ok(json_object_get(g, way ? "b_to_a" : "a_to_b")))
				continue;
			if (asprintf(&k, "%s\x1f%s\x1f%s", r, way ? b : a, way ? a : b) < 0)
				continue;
			json_object_set_new(seen, k, json_true());
			free(k);
		}
		free(r);
	}
	n = json_object_size(seen);
	json_decref(seen);
	return n;
}

int fleet_html_fabric(struct html_out *o, const json_t *records)
{
	const char *when;
	const json_t *doc = newest(records, &when), *p;
	json_t *rails = json_object();
	const char *r;
	json_t *v;
	size_t i, k = 0;
	int rc = 0;

	if (!rails)
		return -ENOMEM;
	html_raw(o, "<section id=\"fabric\"><h2>Fabric</h2>\n");
	if (!doc) {
		html_raw(o, "<p id=\"fabric-none\" class=\"note\">No fabric report recorded: "
			 "<code>rdmadoctor record --fabric FILE</code> keeps one.</p>\n</section>\n");
		json_decref(rails);
		return 0;
	}
	html_raw(o, "<p class=\"note\">The newest fabric report, kept with the record of ");
	html_text(o, when);
	html_raw(o, ": verdict <b data-k=\"fabric-verdict\">");
	html_text(o, html_member(doc, "verdict"));
	html_raw(o, "</b>; ");
	html_text(o, html_member(doc, "reason"));
	html_raw(o, ".  Rows: the sending node; columns: the receiving node.</p>\n");
	suspects(o, doc);
	json_array_foreach(json_object_get(doc, "pairs"), i, p) {
		char *t = rail_text(json_object_get(p, "rail"));

		if (!t || json_object_set_new(rails, t, json_true()) < 0) {
			free(t);
			rc = -ENOMEM;
			break;
		}
		free(t);
	}
	/* rails in the order the report first names them */
	json_object_foreach(rails, r, v)
		if (rc == 0)
			rc = rail_map(o, json_object_get(doc, "pairs"), r, k++);
	html_raw(o, "</section>\n");
	json_decref(rails);
	return rc;
}
