/* The drift of the fleet's latest records (fleet/diff.h), with the
 * suspects of the newest fabric report: what `fleet diff` shows and
 * `fleet report` draws. */
#ifndef RD_STORE_LATEST_DRIFT_H
#define RD_STORE_LATEST_DRIFT_H

#include <jansson.h>
#include <stddef.h>

#include "store.h"

/* *diff: fleet_diff() of the latest facts, fleet_diff_add_fabric()'s
 * suspects added.  *n_hosts: how many hosts have records, once known
 * (SIZE_MAX before).  0; -EIO when the store failed (store_error says
 * why); -ENOMEM. */
int store_latest_drift(struct store *s, json_t **diff, size_t *n_hosts);

#endif
