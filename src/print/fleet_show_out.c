/* fleet show's document and fleet rm's line (fleet_show_out.h). */
#include "fleet_show_out.h"
#include "json.h"
#include "text_printf.h"
#include "../fleet/history.h"

json_t *fleet_show_to_json(const char *host, const json_t *history, json_t *latest,
			   json_t *counters)
{
	json_t *recs = json_array(), *changes = json_array(), *r, *prev = NULL;
	size_t i;

	if (!recs || !changes)
		goto fail;
	json_array_foreach(history, i, r) {
		json_t *row = json_pack("{s:O?, s:O?, s:O?, s:I, s:O?, s:O?}", "time",
					json_object_get(r, "time"),
					"profile", json_object_get(r, "profile"),
					"verdict", json_object_get(r, "verdict"), "findings",
					(json_int_t)json_array_size(json_object_get(
						json_object_get(r, "check"), "findings")),
					"last_seen", json_object_get(r, "last_seen"),
					"checks", json_object_get(r, "checks"));

		if (json_array_append_new(recs, row) < 0)
			goto fail;
		if (prev && fleet_changes(prev, r, changes) < 0)
			goto fail;
		prev = r;
	}
	return json_pack("{s:i, s:o, s:o, s:o, s:O, s:O}", "schema", 1,
			 "host", json_string_or_null(host), "records", recs,
			 "changes", changes, "counters", counters, "latest", latest);
fail:
	json_decref(recs);
	json_decref(changes);
	return NULL;
}

void fleet_text_rm(FILE *out, const json_t *doc)
{
	long long n = (long long)json_integer_value(json_object_get(doc, "removed"));

	text_printf(out, "removed %lld %s of host %s\n", n, n == 1 ? "check" : "checks",
		    json_string_value(json_object_get(doc, "host")));
}
