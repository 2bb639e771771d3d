/* `record --from`: files read a chunk at a time (by a few threads), their
 * rows queued in their order and written in the caller's transaction. */
#ifndef RD_STORE_RECORD_FILES_H
#define RD_STORE_RECORD_FILES_H

#include <stddef.h>

#include "batch.h"
#include "store.h"

/* Told of each file that is not stored, in order; < 0 stops (out of
 * memory). */
typedef int (*record_refused_fn)(void *arg, const char *file, const char *why);

/* Read files[0..n) (the first "-" reads standard input; time: that of
 * check documents, NULL their files' modification time) and queue and
 * write their rows into s, beginning a transaction when there are rows
 * (*begun), not committing it; t counts what the store made of them.  0,
 * -ENOMEM, or -EIO when the store failed (store_error says why; the
 * caller rolls back). */
int record_store_files(struct store *s, const char *const *files, size_t n, const char *time,
		       record_refused_fn refused, void *arg, bool *begun, struct store_tally *t);

#endif
