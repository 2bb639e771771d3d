/* The fleet report's counter charts: per host, the error counters that
 * moved over its unchanged checks, each a small inline SVG bar chart of
 * its deltas (no script, the page stays self-contained).
 *
 * Two steps, so that a report of many hosts never holds every host's whole
 * history at once: fleet_html_error_series() boils one host's series down
 * to what is drawn, and the page (fleet_html.c) draws what each record
 * carries under FLEET_SERIES_KEY. */
#ifndef RD_OUT_FLEET_HTML_COUNTERS_H
#define RD_OUT_FLEET_HTML_COUNTERS_H

#include "fleet_html_stream.h"

#include <jansson.h>
#include <stddef.h>

/* The member of a record (as fleet_html_write() is given it) that holds
 * what fleet_html_error_series() made of the host's counters. */
#define FLEET_SERIES_KEY "error_series"
/* The newest seen checks a chart covers (a week of hourly checks). */
#define FLEET_SERIES_POINTS 168
/* Charts per host, the counters that moved most first; the rest are
 * counted in a note. */
#define FLEET_SERIES_PER_HOST 16
/* Hosts with charts, the most errors first; the rest are named in a note. */
#define FLEET_SERIES_HOSTS 100
/* The colour of a chart's bars. */
#define SPARK_COLOUR "#c0392b"

/* From store_counters()' [{"time", "record", "deltas": {subject: {name:
 * delta | {"reset": value}}}}], oldest first: {"times": [the newest
 * FLEET_SERIES_POINTS times], "counters": [{"subject", "counter",
 * "deltas": [one integer per time], "total"}]}, only the error counters
 * (those counters.errors and link.flaps judge: PMA, hw_counters and PHY
 * error counters, carrier_changes, an NPU's error packets and link-ups)
 * whose deltas are not all 0, the largest total first.  A counter that was
 * reset counts its new value.  NULL when out of memory. */
json_t *fleet_html_error_series(const json_t *series);

struct fleet_html_series_host {
	const char *name;
	const json_t *series;	/* fleet_html_error_series(), or NULL */
};

/* The section "Error counters over time"; hosts in page order.  0 or
 * -ENOMEM. */
int fleet_html_counters(struct html_out *o, const struct fleet_html_series_host *hosts,
			size_t n);

#endif
