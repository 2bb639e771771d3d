/* record --from: rows read and checked, waiting for the write, written
 * in batches within the run's one transaction, and the tally of what the
 * store made of them. */
#ifndef RD_STORE_BATCH_H
#define RD_STORE_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* Prepared rows are written once this much text waits: a batch of a
 * thousand hosts is parsed before the write lock is taken, so another
 * writer waits for the writing only; a huge run still fits in memory. */
#define STORE_BATCH_MAX_BYTES (64u << 20)

struct store_tally {
	size_t stored, seen, already;
};

void store_tally_count(struct store_tally *t, enum store_put what);

struct store_batch {
	struct store_row *rows;
	size_t n, cap, bytes;
};

/* Take a row (moved; *row is left empty).  0 or -ENOMEM. */
int store_batch_add(struct store_batch *b, struct store_row *row);
/* Write what waits, in the run's one transaction (begun on first use:
 * *begun), by host, then time, then the order given.  0 or the store's
 * error; the batch is empty after, whatever it returned. */
int store_batch_flush(struct store *s, struct store_batch *b, bool *begun,
		      struct store_tally *t);
void store_batch_free(struct store_batch *b);

#endif
