/* Reading the documents `record` is given: whole files checked, parsed,
 * and for --from made into store rows, several files at once. */
#ifndef RD_STORE_RECORD_READ_H
#define RD_STORE_RECORD_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "store.h"

/* The bytes of the last document read, kept for the next file: ten
 * thousand files, one buffer. */
struct doc_buf {
	char *buf;
	size_t used, cap;
};

/* Read a whole file (or stdin for "-") into b and parse it; NULL with why.
 * slim: check the whole text but build only the slim copy of fleet/skim.h
 * (fleet_skim_ingest: without the members no fleet fact reads, but with
 * the counters); b keeps the whole text.
 * *mtime: the file's modification time, now for stdin. */
json_t *record_read_doc(struct doc_buf *b, const char *file, bool slim, time_t *mtime,
			char *why, size_t len);

/* One file of --from: a row to store, or why not. */
struct record_slot {
	bool ok;
	struct store_row row;
	char why[512];
};

/* Read files[0..n) into slots[0..n) (zeroed by the caller), on up to one
 * thread per CPU; time: the --time given, or NULL for each file's own.
 * Standard input is read once: a "-" at any index but stdin_at is
 * refused.  No file is begun once the rows read hold budget bytes of
 * text (files of up to 64 MiB each: a chunk of them must not take all
 * memory); *done: how many, files[0..*done), were read (at least one).
 * 0, or -ENOMEM (then the slots are to be freed all the same). */
int record_read_files(const char *const *files, size_t n, size_t stdin_at, const char *time,
		      size_t budget, struct record_slot *slots, size_t *done);

#endif
