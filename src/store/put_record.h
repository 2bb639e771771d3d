/* One record into the store in a transaction of its own: what `record`
 * does with this host's check. */
#ifndef RD_STORE_PUT_RECORD_H
#define RD_STORE_PUT_RECORD_H

#include <jansson.h>
#include <stddef.h>

#include "batch.h"

/* Open db for writing (waiting timeout_ms at most), store rec, commit,
 * close; t counts what the store made of it.  0, or -EIO with the store's
 * error in why (then nothing was stored). */
int store_put_record(const char *db, const json_t *rec, int timeout_ms, struct store_tally *t,
		     char *why, size_t len);

#endif
