/* `fleet show HOST`'s --json document (docs/json/fleet.md: its records,
 * the changes between them, its counters, the latest record whole) and
 * `fleet rm`'s line for people. */
#ifndef RD_PRINT_FLEET_SHOW_OUT_H
#define RD_PRINT_FLEET_SHOW_OUT_H

#include <jansson.h>
#include <stdio.h>

/* history: the host's records oldest first (skimmed); latest: the last
 * whole; counters: its counter series.  NULL when out of memory. */
json_t *fleet_show_to_json(const char *host, const json_t *history, json_t *latest,
			   json_t *counters);
/* "removed N checks of host H", from fleet rm's document. */
void fleet_text_rm(FILE *out, const json_t *doc);

#endif
