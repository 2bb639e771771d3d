/* The store's backends: SQLite (store/sqlite.c, a file, the embedded
 * default) and PostgreSQL (store/pg.c, a server every node writes to).
 * The rest of src/store/ speaks SQL that both understand (parameters
 * ?1..?n, CAST(? AS TEXT) where a type must be said, IS DISTINCT FROM,
 * RETURNING, window functions) through this interface; a backend owns its
 * connection, its error messages and its table definitions. */
#ifndef RD_STORE_DRIVER_H
#define RD_STORE_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* One row: n columns as text (NULL for SQL NULL), lens their bytes.
 * 0 to go on, or a negative errno (with store_say()) to stop. */
typedef int (*store_row_fn)(struct store *s, const char *const *cols, const size_t *lens,
			    int n, void *arg);

struct store_driver {
	const char *name;
	/* Connect (target: the path or the URI); messages into s. */
	int (*open)(struct store *s, const char *target, enum store_mode mode);
	/* Once the schema is ready (NULL: nothing to do). */
	int (*ready)(struct store *s);
	void (*close)(struct store *s);
	/* Statements without parameters or rows, several at once. */
	int (*exec)(struct store *s, const char *sql, const char *doing);
	/* One statement with text parameters (NULL: SQL NULL); each row to fn
	 * (NULL: none expected); *changes (NULL: not wanted) the rows changed. */
	int (*run)(struct store *s, const char *sql, const char *const *params, int n,
		   store_row_fn fn, void *arg, long long *changes, const char *doing);
	int (*begin)(struct store *s);
	int (*commit)(struct store *s);
	void (*rollback)(struct store *s);
	/* The schema version found (0: a new, empty store); an error when the
	 * store holds something else than ours.  Inside a transaction
	 * (locked: true) it also keeps other upgraders out until commit. */
	int (*version)(struct store *s, bool locked, int *version);
	/* The table changes from version v to v + 1; steps[v] may be NULL
	 * where a backend starts later (it is then made at n_first). */
	int (*const *steps)(struct store *s);
	int first_version;	/* the oldest version a new store of it has */
	/* Documents come back in another spelling than they went in
	 * (PostgreSQL's JSONB orders keys): a fingerprint made from a stored
	 * document is not one made from the text at ingest. */
	bool respells;
};

extern const struct store_driver store_sqlite;
extern const struct store_driver store_pg;

#endif
