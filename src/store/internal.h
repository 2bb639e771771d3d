/* Shared by the files of src/store/ only. */
#ifndef RD_STORE_INTERNAL_H
#define RD_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

/* How long a writer waits for another one before giving up. */
#define STORE_BUSY_MS 30000

struct store {
	sqlite3 *db;
	char *path;
	bool writable;
	int found_version;
	const char *const *drop;	/* store_latest(), store_history(): members left out */
	char msg[768];
};

/* store/sql.c: the leaf every other file of src/store uses. */
/* Set the message for an SQLite failure while doing `doing` ("store a
 * record in") and return the matching negative errno. */
int store_fail(struct store *s, int sqlite_rc, const char *doing);
/* Set a message of our own; returns err. */
int store_say(struct store *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Run SQL without results; 0 or store_fail(). */
int store_exec(struct store *s, const char *sql, const char *doing);

/* Bring the schema to STORE_SCHEMA_VERSION (store/schema.c). */
int store_schema_ready(struct store *s);
/* The indexed columns and drift facts of one record row (store/put.c, also
 * used by the upgrade that introduced them); row->text is not used. */
int store_put_derived(struct store *s, sqlite3_int64 id, const struct store_row *row);

#endif
