/* The error series of `fleet report`'s records (fleet_series.h). */
#include "fleet_series.h"
#include "../print/fleet_html_counters.h"

#include <errno.h>
#include <string.h>

/* The newer of two times (either may be NULL). */
static const char *newer(const char *a, const char *b)
{
	if (!a || !b)
		return a ? a : b;
	return strcmp(a, b) >= 0 ? a : b;
}

int fleet_add_series(struct store *s, json_t *records)
{
	json_t *rec;
	size_t i;

	json_array_foreach(records, i, rec) {
		const char *host = json_string_value(json_object_get(rec, "host"));
		const char *last;
		json_t *series;
		int rc;

		if (!host)
			continue;
		if (store_counters(s, host, &series) < 0)
			return -EIO;
		last = newer(json_string_value(json_object_get(rec, "time")),
			     json_string_value(json_object_get(json_array_get(series,
				json_array_size(series) - 1), "time")));
		/* set_new takes the value, even NULL (then it fails) */
		rc = json_object_set_new(rec, FLEET_SERIES_KEY, fleet_html_error_series(series));
		if (rc == 0 && last)
			rc = json_object_set_new(rec, "last_seen", json_string(last));
		json_decref(series);
		if (rc < 0)
			return -ENOMEM;
	}
	return 0;
}
