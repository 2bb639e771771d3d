/* Shared by the files of src/store/ only.  Who uses whom, one way:
 * conn.c (messages; SQL and batches through the backend's table of
 * functions, store/driver.h) <- sqlite.c, pg.c (the backends) and put.c
 * (writes) <- schema.c (upgrades) <- open.c (which picks the backend);
 * query.c reads through conn.c; row.c needs none of them. */
#ifndef RD_STORE_INTERNAL_H
#define RD_STORE_INTERNAL_H

#include "driver.h"
#include "store.h"

/* How long a writer waits for another one before giving up. */
#define STORE_BUSY_MS 30000

struct store {
	const struct store_driver *drv;
	void *conn;		/* the backend's */
	void *prepared;		/* the backend's statements kept prepared, or NULL */
	char *path;		/* the file or the URI, as shown in messages */
	bool writable;
	int found_version;
	int timeout_ms;		/* how long to wait for the store */
	const char *const *drop;	/* store_latest(), store_history(): members left out */
	char msg[768];
};

/* Set a message of our own; returns err. */
int store_say(struct store *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The backend's exec and run (store/driver.h), messages said. */
int store_exec(struct store *s, const char *sql, const char *doing);
int store_run(struct store *s, const char *sql, const char *const *params, int n,
	      store_row_fn fn, void *arg, long long *changes, const char *doing);

/* A row of integers (or booleans: t, f) into the int array arg, one per
 * column: a store_row_fn. */
int store_ints_row(struct store *s, const char *const *cols, const size_t *lens, int n, void *arg);

/* The first character of a content fingerprint made by an upgrade from
 * a document the backend respelled (store_driver.respells): the next
 * check of that record is compared with the document itself, once. */
#define STORE_CONTENT_RESPELLED '~'

/* Bring the schema to STORE_SCHEMA_VERSION (store/schema.c). */
int store_schema_ready(struct store *s);
/* The indexed columns and drift facts of one record row (store/put.c, also
 * used by the upgrades that introduced them); row->text is not used.
 * id: the record's id as text. */
int store_put_derived(struct store *s, const char *id, const struct store_row *row);

#endif
