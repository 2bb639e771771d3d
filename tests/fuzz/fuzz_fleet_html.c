/* libFuzzer target: the fleet report page writer (src/print/fleet_html.c) on
 * any JSON: {"records": [...], "diff": {...}}, or any other document given
 * as both records and diff.  Records come from a database other hosts wrote
 * to, so nothing in them may crash the writer, cut the page short or put
 * markup of its own on it.  A document's "series" (as store_counters()
 * gives it) goes through fleet_html_error_series() too, and what it makes
 * is drawn as the first record's.  Seeds in corpus/fleet_html/. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/fleet_html.h"
#include "print/fleet_html_counters.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char END[] = "</body></html>\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	json_t *records = doc, *diff = doc;
	char *page = NULL;
	size_t len = 0;
	FILE *f;

	if (!doc)
		return 0;
	if (json_is_object(doc) && json_object_get(doc, "records")) {
		records = json_object_get(doc, "records");
		diff = json_object_get(doc, "diff");
	}
	if (json_is_object(doc) && json_object_get(doc, "series")) {
		json_t *drawn = fleet_html_error_series(json_object_get(doc, "series"));

		if (!drawn || !json_is_array(json_object_get(drawn, "times")) ||
		    json_array_size(json_object_get(drawn, "times")) > FLEET_SERIES_POINTS ||
		    !json_is_array(json_object_get(drawn, "counters")))
			abort();
		if (json_is_object(json_array_get(records, 0)))
			json_object_set(json_array_get(records, 0), FLEET_SERIES_KEY, drawn);
		json_decref(drawn);
	}
	f = open_memstream(&page, &len);
	if (!f)
		abort();
	if (fleet_html_write(f, records, diff) != 0)
		abort();	/* memory only: no write can fail */
	if (fclose(f))
		abort();
	if (strncmp(page, "<!DOCTYPE html>\n", 16) || len < sizeof(END) ||
	    strcmp(page + len - (sizeof(END) - 1), END))
		abort();	/* not a whole page */
	if (strstr(page, "<script") || strstr(page, "<img"))
		abort();	/* a string from the input became markup */
	free(page);
	json_decref(doc);
	return 0;
}
