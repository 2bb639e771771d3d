/* The FEC statistics of a link (model/fec_stats.h) as JSON, inside the
 * port's link.fec object: lifetime counts as the driver reports them.
 * A count past INT64_MAX becomes a real, as port counters do. */
#include "json.h"

static json_t *u64_json(uint64_t v)
{
	return v > INT64_MAX ? json_real((double)v) : json_integer((json_int_t)v);
}

static json_t *lanes_json(const uint64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, u64_json(v[i]));
	return a;
}

/* {total, lanes: [...]}, or null when the driver did not report it */
static json_t *count_json(const struct fec_count *c)
{
	if (!c->n)
		return json_null();
	return json_pack("{s:o, s:o}", "total", u64_json(c->v[0]), "lanes",
			 lanes_json(c->v + 1, c->n - 1));
}

json_t *fec_stats_to_json(const struct fec_stats *s)
{
	json_t *o, *hist;

	if (s->have != 1)
		return json_null();
	o = json_object();
	for (int k = 0; k < FEC_COUNTERS; k++)
		json_object_set_new(o, fec_counter_name(k), count_json(&s->c[k]));
	hist = json_array();
	for (size_t i = 0; i < s->n_hist; i++) {
		const struct fec_hist_bin *b = &s->hist[i];

		json_array_append_new(hist, json_pack("{s:I, s:I, s:o, s:o}", "low",
			(json_int_t)b->low, "high", (json_int_t)b->high, "total", u64_json(b->val),
			"lanes", lanes_json(b->lane, b->n_lanes)));
	}
	json_object_set_new(o, "histogram", hist);
	return o;
}
