/* `record --from`'s files into the store (record_files.h). */
#include "record_files.h"
#include "record_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Files read at once (by a few threads) before their rows are queued. */
#define READ_CHUNK 256

/* A chunk of files read at once (up to n of them, fewer when their text
 * passes STORE_BATCH_MAX_BYTES: *done says how many), then reported and queued
 * in their order.  0, -ENOMEM, or -EIO when the store failed. */
static int read_chunk(struct store *s, const char *const *files, size_t n_files,
		      const char *time, size_t first, size_t n, record_refused_fn refused,
		      void *arg, struct store_batch *p, bool *begun, struct store_tally *t,
		      size_t *done)
{
	struct record_slot *slots = calloc(n, sizeof(*slots));
	size_t stdin_at = SIZE_MAX;	/* the first "-" of the run reads stdin */
	int rc;

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < n_files && stdin_at == SIZE_MAX; i++)
		if (strcmp(files[i], "-") == 0)
			stdin_at = i;
	rc = record_read_files(files + first, n,
			       stdin_at >= first && stdin_at < first + n ? stdin_at - first : n,
			       time, STORE_BATCH_MAX_BYTES, slots, done);
	for (size_t i = 0; i < n; i++) {	/* the slots past *done are empty */
		if (rc == 0 && i < *done && !slots[i].ok &&
		    refused(arg, files[first + i], slots[i].why) < 0)
			rc = -ENOMEM;
		if (rc == 0 && slots[i].ok)
			rc = store_batch_add(p, &slots[i].row);
		store_row_free(&slots[i].row);
	}
	free(slots);
	if (rc == 0 && p->bytes >= STORE_BATCH_MAX_BYTES && store_batch_flush(s, p, begun, t) < 0)
		rc = -EIO;
	return rc;
}

int record_store_files(struct store *s, const char *const *files, size_t n, const char *time,
		       record_refused_fn refused, void *arg, bool *begun, struct store_tally *t)
{
	struct store_batch p = { 0 };
	int rc = 0;

	for (size_t i = 0, done = 0; rc == 0 && i < n; i += done)
		rc = read_chunk(s, files, n, time, i, n - i < READ_CHUNK ? n - i : READ_CHUNK,
				refused, arg, &p, begun, t, &done);
	if (rc == 0 && store_batch_flush(s, &p, begun, t) < 0)
		rc = -EIO;
	store_batch_free(&p);
	return rc;
}
