#include "fleet_bw.h"
#include "../fleet/fields.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or_missing(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : FLEET_MISSING;
}

const char *fleet_record_host(const json_t *record)
{
	return str_or_missing(json_object_get(record, "host"));
}

/* A figure a test could have measured: JSON integers and reals both count,
 * from 0 to FLEET_BW_MAX_GBPS, so sums and means of them stay finite; a
 * negative rate is a broken document, not a slow rail. */
static bool number(const json_t *v, double *out)
{
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return isfinite(*out) && *out >= 0 && *out <= FLEET_BW_MAX_GBPS;
}

/* The result with the largest size_bytes; without any sizes, the last. */
static const json_t *largest_result(const json_t *doc)
{
	const json_t *results = json_object_get(doc, "results");
	const json_t *best = NULL;
	double best_size = -1;
	size_t i;
	json_t *r;

	json_array_foreach(results, i, r) {
		double size;

		if (!json_is_object(r))
			continue;
		size = json_number_value(json_object_get(r, "size_bytes"));
		if (!json_is_number(json_object_get(r, "size_bytes")) || !isfinite(size))
			size = -1;
		if (!best || size >= best_size) {
			best = r;
			best_size = size;
		}
	}
	return best;
}

static bool avg_gbps(const json_t *o, double *out)
{
	return number(json_object_get(json_object_get(o, "gbps"), "avg"), out);
}

/* Every sample is appended, then sorted and folded (fold_rails, fold_pairs):
 * linear in the fleet's size apart from the sort, for 10,000 hosts. */
static int add_rail(struct fleet_bw *bw, size_t *cap, const char *host,
		    const char *device, long long port, double gbps)
{
	void *p = growbuf_reserve(bw->rails, cap, bw->n_rails + 1, sizeof(*bw->rails));

	if (!p)
		return -ENOMEM;
	bw->rails = p;
	bw->rails[bw->n_rails++] = (struct fleet_rail_bw){ host, device, port, gbps, 1 };
	return 0;
}

static int add_pair(struct fleet_bw *bw, size_t *cap, const char *src,
		    const char *dst, double gbps)
{
	void *p = growbuf_reserve(bw->pairs, cap, bw->n_pairs + 1, sizeof(*bw->pairs));

	if (!p)
		return -ENOMEM;
	bw->pairs = p;
	bw->pairs[bw->n_pairs++] = (struct fleet_pair_bw){ src, dst, gbps, 1 };
	return 0;
}

static int rail_cmp(const void *a, const void *b)
{
	const struct fleet_rail_bw *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (!c)
		c = strcmp(x->device, y->device);
	if (!c)
		c = (x->port > y->port) - (x->port < y->port);
	return c;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct fleet_pair_bw *x = a, *y = b;
	int c = strcmp(x->src, y->src);

	return c ? c : strcmp(x->dst, y->dst);
}

/* Sorted, then runs of one key become their mean. */
static void fold_rails(struct fleet_bw *bw)
{
	size_t out = 0;

	if (!bw->n_rails)
		return;
	qsort(bw->rails, bw->n_rails, sizeof(*bw->rails), rail_cmp);
	for (size_t i = 1; i < bw->n_rails; i++) {
		struct fleet_rail_bw *r = &bw->rails[out];

		if (!rail_cmp(r, &bw->rails[i])) {
			r->gbps += (bw->rails[i].gbps - r->gbps) / (double)++r->n;
			continue;
		}
		bw->rails[++out] = bw->rails[i];
	}
	bw->n_rails = out + 1;
}

static void fold_pairs(struct fleet_bw *bw)
{
	size_t out = 0;

	if (!bw->n_pairs)
		return;
	qsort(bw->pairs, bw->n_pairs, sizeof(*bw->pairs), pair_cmp);
	for (size_t i = 1; i < bw->n_pairs; i++) {
		struct fleet_pair_bw *p = &bw->pairs[out];

		if (!pair_cmp(p, &bw->pairs[i])) {
			p->gbps += (bw->pairs[i].gbps - p->gbps) / (double)++p->n;
			continue;
		}
		bw->pairs[++out] = bw->pairs[i];
	}
	bw->n_pairs = out + 1;
}

/* One client document of a record whose host is rec_host.  The document's
 * figures are the machine's that ran it: its own local.host where it names
 * one (a record may carry documents gathered for it elsewhere), else the
 * record's host.  Its rails and its pair are both credited to that one. */
static int collect_doc(struct fleet_bw *bw, size_t *rcap, size_t *pcap,
		       const char *rec_host, const json_t *doc)
{
	const json_t *role = json_object_get(doc, "role");
	const json_t *local_host = json_object_get(json_object_get(doc, "local"), "host");
	const char *host = json_is_string(local_host) ? json_string_value(local_host) : rec_host;
	const json_t *res, *rail;
	const char *dst;
	double gbps;
	size_t i;
	int rc;

	if (!json_is_string(role) || strcmp(json_string_value(role), "client"))
		return 0;
	res = largest_result(doc);
	if (!res)
		return 0;
	json_array_foreach(json_object_get(res, "rails"), i, rail) {
		const json_t *port = json_object_get(rail, "port");

		if (!avg_gbps(rail, &gbps))
			continue;
		rc = add_rail(bw, rcap, host, str_or_missing(json_object_get(rail, "device")),
			      json_is_integer(port) && json_integer_value(port) >= 0 ?
			      (long long)json_integer_value(port) : -1, gbps);
		if (rc)
			return rc;
	}
	dst = str_or_missing(json_object_get(json_object_get(doc, "remote"), "host"));
	if (!avg_gbps(json_object_get(res, "total"), &gbps))
		return 0;
	return add_pair(bw, pcap, host, dst, gbps);
}

int fleet_bw_collect(const json_t *records, struct fleet_bw *bw)
{
	size_t rcap = 0, pcap = 0, i, k;
	const json_t *rec, *doc;

	memset(bw, 0, sizeof(*bw));
	json_array_foreach(records, i, rec) {
		const char *host = fleet_record_host(rec);

		json_array_foreach(json_object_get(rec, "bw"), k, doc) {
			if (collect_doc(bw, &rcap, &pcap, host, doc)) {
				fleet_bw_free(bw);
				return -ENOMEM;
			}
		}
	}
	fold_rails(bw);
	fold_pairs(bw);
	return 0;
}

void fleet_bw_free(struct fleet_bw *bw)
{
	free(bw->rails);
	free(bw->pairs);
	memset(bw, 0, sizeof(*bw));
}
