/* Error counters over time: see fleet_html_counters.h. */
#include "fleet_html_counters.h"
#include "../check/run.h"
#include "../model/driver_counters.h"
#include "../model/window.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A chart's size in CSS pixels: a sparkline beside its row. */
#define SPARK_W 240
#define SPARK_H 28

/* An error counter by its series name (fleet/counters.h): an NPU port's
 * subject is "npu3" (no space), a NIC port's "mlx5_0 port 1", its names
 * prefixed "hw:" and "eth:" by the set they come from.  The series do not
 * keep the NIC's driver: a hw_counters name counts as any driver's
 * (model/driver_counters.h: they agree on the names they share). */
static bool is_error(const char *subject, const char *name)
{
	if (!strchr(subject, ' '))
		return check_npu_counter_is_error(name) || strcmp(name, "link_up_count") == 0;
	if (strncmp(name, "hw:", 3) == 0)
		return check_counter_is_error(DRV_ANY, name + 3, WIN_HW);
	if (strncmp(name, "eth:", 4) == 0)
		return check_counter_is_error(DRV_ANY, name + 4, WIN_ETH);
	return strcmp(name, "carrier_changes") == 0 || check_counter_is_error(DRV_ANY, name, WIN_PMA);
}

/* A delta as stored: a number, or {"reset": the new value}; never below 0. */
static json_int_t delta_of(const json_t *d)
{
	json_int_t v = json_is_integer(d) ? json_integer_value(d)
					  : json_integer_value(json_object_get(d, "reset"));

	return v > 0 ? v : 0;
}

struct moved {
	const char *key;	/* "subject\x1fname" */
	json_t *deltas;
	json_int_t total;
};

static int moved_cmp(const void *a, const void *b)
{
	const struct moved *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The points of one counter, made (all 0) when first seen.  NULL on OOM. */
static json_t *points_of(json_t *acc, const char *subject, const char *name, size_t m)
{
	char *key;
	json_t *arr;

	if (asprintf(&key, "%s\x1f%s", subject, name) < 0)
		return NULL;
	arr = json_object_get(acc, key);
	if (!arr) {
		arr = json_array();
		for (size_t i = 0; arr && i < m; i++)
			if (json_array_append_new(arr, json_integer(0)) < 0) {
				json_decref(arr);
				arr = NULL;
			}
		if (arr && json_object_set_new(acc, key, arr) < 0)
			arr = NULL;
	}
	free(key);
	return arr;
}

/* acc's counters as the output list, the largest total first. */
static json_t *moved_list(json_t *acc)
{
	size_t n = json_object_size(acc), k = 0;
	struct moved *v = calloc(n ? n : 1, sizeof(*v));
	json_t *out = v ? json_array() : NULL, *arr, *d;
	const char *key;
	size_t i;

	if (!out) {
		free(v);
		return NULL;
	}
	json_object_foreach(acc, key, arr) {
		json_int_t total = 0;

		json_array_foreach(arr, i, d) {
			json_int_t x = json_integer_value(d);

			total = total > INT64_MAX - x ? INT64_MAX : total + x;
		}
		v[k++] = (struct moved){ key, arr, total };
	}
	qsort(v, k, sizeof(*v), moved_cmp);
	for (i = 0; i < k; i++) {
		const char *sep = strchr(v[i].key, '\x1f');
		json_t *c = json_pack("{s:s%, s:s, s:O, s:I}", "subject", v[i].key,
				      (size_t)(sep - v[i].key), "counter", sep + 1, "deltas",
				      v[i].deltas, "total", v[i].total);

		if (json_array_append_new(out, c) < 0) {
			json_decref(out);
			out = NULL;
			break;
		}
	}
	free(v);
	return out;
}

json_t *fleet_html_error_series(const json_t *series)
{
	size_t n = json_array_size(series);
	size_t start = n > FLEET_SERIES_POINTS ? n - FLEET_SERIES_POINTS : 0, m = n - start;
	json_t *times = json_array(), *acc = json_object(), *list = NULL, *out = NULL;

	if (!times || !acc)
		goto out;
	for (size_t k = start; k < n; k++) {
		const json_t *point = json_array_get(series, k);
		const json_t *t = json_object_get(point, "time");
		const char *subject, *name;
		json_t *per, *d;

		if (json_array_append_new(times, json_is_string(t) ? json_incref((json_t *)t)
								   : json_null()) < 0)
			goto out;
		json_object_foreach(json_object_get(point, "deltas"), subject, per)
			json_object_foreach(per, name, d) {
				json_int_t v = delta_of(d);
				json_t *arr;

				if (!v || !is_error(subject, name))
					continue;
				arr = points_of(acc, subject, name, m);
				if (!arr || json_array_set_new(arr, k - start, json_integer(v)) < 0)
					goto out;
			}
	}
	list = moved_list(acc);
	if (list)
		out = json_pack("{s:O, s:o}", "times", times, "counters", list);
out:
	json_decref(times);
	json_decref(acc);
	return out;
}

/* ---- drawing ---- */

static json_int_t host_total(const json_t *series)
{
	json_int_t total = 0;
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(series, "counters"), i, c) {
		json_int_t x = delta_of(json_object_get(c, "total"));

		total = total > INT64_MAX - x ? INT64_MAX : total + x;
	}
	return total;
}

/* One counter's deltas as bars, oldest left; every delta also in
 * data-deltas, the sum in the title. */
static void spark(struct html_out *o, const json_t *c, const json_t *deltas, size_t points)
{
	json_int_t max = 0;
	double bw = points ? (double)SPARK_W / (double)points : SPARK_W;
	const json_t *d;
	size_t i;

	json_array_foreach(deltas, i, d)
		if (delta_of(d) > max)
			max = delta_of(d);
	html_printf(o, "<svg class=\"spark\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "role=\"img\" data-deltas=\"", SPARK_W, SPARK_H, SPARK_W, SPARK_H);
	json_array_foreach(deltas, i, d)
		html_printf(o, "%s%" JSON_INTEGER_FORMAT, i ? " " : "", delta_of(d));
	html_raw(o, "\"><title>");
	html_text(o, json_string_value(json_object_get(c, "subject")));
	html_raw(o, " ");
	html_text(o, json_string_value(json_object_get(c, "counter")));
	html_printf(o, ": grew by %" JSON_INTEGER_FORMAT " over %zu check%s</title>",
		    delta_of(json_object_get(c, "total")), points, points == 1 ? "" : "s");
	html_printf(o, "<line class=\"axis\" x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		    SPARK_H - 1, SPARK_W, SPARK_H - 1);
	json_array_foreach(deltas, i, d) {
		json_int_t v = delta_of(d);
		double h;

		if (!v || !max)
			continue;
		h = (double)v / (double)max * (SPARK_H - 2);
		if (h < 1)
			h = 1;
		html_printf(o, "<rect class=\"spark-bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			    "height=\"%.2f\"/>", (double)i * bw, SPARK_H - 1 - h,
			    bw > 1.5 ? bw - 0.5 : bw, h);
	}
	html_raw(o, "</svg>");
}

static void host_charts(struct html_out *o, const char *name, const json_t *series)
{
	const json_t *times = json_object_get(series, "times");
	const json_t *list = json_object_get(series, "counters"), *c;
	size_t points = json_array_size(times), n = json_array_size(list), i;

	html_raw(o, "<div class=\"spark-host\"");
	html_raw(o, " data-host=\"");
	html_text(o, name);
	html_printf(o, "\" data-points=\"%zu\"><h3>", points);
	html_text(o, name);
	html_raw(o, "</h3><p class=\"note\">");
	html_printf(o, "%zu unchanged check%s, ", points, points == 1 ? "" : "s");
	html_text(o, json_string_value(json_array_get(times, 0)));
	html_raw(o, " to ");
	html_text(o, json_string_value(json_array_get(times, points ? points - 1 : 0)));
	html_raw(o, "</p>\n<table class=\"sparks\"><tr><th>port</th><th>counter</th>"
		 "<th>grew by</th><th>per check, oldest left</th></tr>\n");
	json_array_foreach(list, i, c) {
		const json_t *deltas = json_object_get(c, "deltas");

		if (i == FLEET_SERIES_PER_HOST)
			break;
		html_raw(o, "<tr class=\"spark-row\" data-subject=\"");
		html_text(o, json_string_value(json_object_get(c, "subject")));
		html_raw(o, "\" data-counter=\"");
		html_text(o, json_string_value(json_object_get(c, "counter")));
		html_printf(o, "\" data-total=\"%" JSON_INTEGER_FORMAT "\"><td>",
			    delta_of(json_object_get(c, "total")));
		html_text(o, json_string_value(json_object_get(c, "subject")));
		html_raw(o, "</td><td>");
		html_text(o, json_string_value(json_object_get(c, "counter")));
		html_printf(o, "</td><td class=\"num\">%" JSON_INTEGER_FORMAT "</td><td>",
			    delta_of(json_object_get(c, "total")));
		spark(o, c, json_is_array(deltas) ? deltas : NULL, points);
		html_raw(o, "</td></tr>\n");
	}
	html_raw(o, "</table>\n");
	if (n > FLEET_SERIES_PER_HOST)
		html_printf(o, "<p class=\"note\">and %zu more counters that moved less "
			    "(`rdmadoctor fleet show HOST --json` has them all)</p>\n",
			    n - FLEET_SERIES_PER_HOST);
	html_raw(o, "</div>\n");
}

struct ranked {
	size_t at;
	json_int_t total;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

int fleet_html_counters(struct html_out *o, const struct fleet_html_series_host *hosts,
			size_t n)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t k = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (json_array_size(json_object_get(hosts[i].series, "counters")) &&
		    json_array_size(json_object_get(hosts[i].series, "times")))
			r[k++] = (struct ranked){ i, host_total(hosts[i].series) };
	qsort(r, k, sizeof(*r), ranked_cmp);
	html_raw(o, "<section id=\"counters\"><h2>Error counters over time</h2>\n");
	if (!k) {
		html_raw(o, "<p id=\"counters-none\" class=\"note\">No error counter moved between "
			 "the unchanged checks kept (each bar would be how much one grew since the "
			 "check before).</p>\n</section>\n");
		free(r);
		return 0;
	}
	html_printf(o, "<p class=\"note\">Per host, the error counters that grew over its newest "
		    "%d unchanged checks: each bar how much since the check before, hosts with the "
		    "most errors first.</p>\n", FLEET_SERIES_POINTS);
	for (size_t i = 0; i < k && i < FLEET_SERIES_HOSTS; i++)
		host_charts(o, hosts[r[i].at].name, hosts[r[i].at].series);
	if (k > FLEET_SERIES_HOSTS)
		html_printf(o, "<p class=\"note\">and %zu more hosts whose error counters "
			    "moved less</p>\n", k - FLEET_SERIES_HOSTS);
	html_raw(o, "</section>\n");
	free(r);
	return 0;
}
