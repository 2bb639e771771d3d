/* `fleet report`'s records made ready for the page: each gets its host's
 * error series (what the page plots) and its last_seen. */
#ifndef RD_PIPELINE_FLEET_SERIES_H
#define RD_PIPELINE_FLEET_SERIES_H

#include <jansson.h>

#include "../store/store.h"

/* Each record of records gets FLEET_SERIES_KEY, made host by host so that
 * only one host's whole history is held at a time, and its last_seen: the
 * newest of its time and its seen checks' (what `fleet ls` shows as the
 * host's latest check).  0, -EIO when the store failed (store_error says
 * why), or -ENOMEM. */
int fleet_add_series(struct store *s, json_t *records);

#endif
