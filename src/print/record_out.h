/* What `record` says it stored: one line for people, or its --json
 * document (docs/json/record.md). */
#ifndef RD_PRINT_RECORD_OUT_H
#define RD_PRINT_RECORD_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "../store/batch.h"

/* How many findings a record's check has. */
size_t record_n_findings(const json_t *rec);
/* db: where; t: what the store made of the records; failed: the files
 * refused, [{"file", "error"}]; one: the record of a single check (this
 * host's), NULL for --from.  NULL when out of memory. */
json_t *record_summary_json(const char *db, const struct store_tally *t, json_t *failed,
			    const json_t *one);
void text_record_summary(FILE *out, const char *db, const struct store_tally *t,
			 const json_t *failed, const json_t *one);
/* The store did not take this host's record rec (why: the store's
 * error, or NULL): what was not stored, with its check.  NULL when out of
 * memory. */
json_t *record_not_stored_json(const char *db, const json_t *rec, const char *why);
void text_record_not_stored(FILE *out, const char *db, const json_t *rec);

#endif
