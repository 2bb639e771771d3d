/* The fleet report (`rdmadoctor fleet report --html FILE`): one
 * self-contained HTML page, no network, no script: the fleet summary (hosts,
 * by verdict, by profile), per-host findings, the drift table of `fleet diff`,
 * bandwidth per host and rail as an SVG bar chart and, when pair results
 * exist, a client x server bandwidth heatmap; per host the error counters
 * that moved, as small bar charts (fleet_html_counters.h).
 *
 * records: JSON array of the latest record per host, each
 *   {"schema":1, "host", "time", "profile", "verdict", "check":{...}, "bw":[...]}
 *   and, from `fleet report`, FLEET_SERIES_KEY: the host's error series, and
 *   "last_seen": its latest check (the record's time when absent)
 * diff: the `fleet diff --json` document, or NULL.
 * Both are read only; any field may be missing or of another type (a page
 * still comes out, saying so with FLEET_MISSING, "-").  Every string from them is
 * HTML-escaped; every number is printed with a fixed precision (Gb/s with
 * two decimals) and also kept in a data-* attribute for tests and tools.
 * Returns 0, or -1 when a write to out failed (the page is then not whole:
 * the caller writes to a temporary file and renames it only on 0). */
#ifndef RD_OUT_FLEET_HTML_H
#define RD_OUT_FLEET_HTML_H

#include <jansson.h>
#include <stdio.h>

int fleet_html_write(FILE *out, json_t *records, json_t *diff);

#endif
