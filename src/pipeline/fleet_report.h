/* What `fleet report` draws, from the store: the latest records (skimmed
 * of what the page does not show, each with its host's error series) and
 * the drift. */
#ifndef RD_PIPELINE_FLEET_REPORT_H
#define RD_PIPELINE_FLEET_REPORT_H

#include <jansson.h>

#include "../store/store.h"

/* 0; -EIO when the store failed (store_error says why); -ENOENT when
 * there are no records; -ENOMEM.  The caller frees *records and *diff in
 * every case (NULL when not made). */
int fleet_report_load(struct store *s, json_t **records, json_t **diff);

#endif
