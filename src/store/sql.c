/* The SQL helpers every file of src/store uses: running a statement,
 * transactions, and turning an SQLite failure into a negative errno and a
 * message that says what to do.  A leaf: it calls no other store file. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int store_say(struct store *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	return err;
}

int store_fail(struct store *s, int rc, const char *doing)
{
	const char *what = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);

	switch (rc & 0xff) {
	case SQLITE_FULL:
		return store_say(s, -ENOSPC, "cannot %s '%s': %s (free some space and run "
				 "it again; what was stored before is kept)", doing, s->path, what);
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_CANTOPEN:
	case SQLITE_AUTH:
		return store_say(s, -EACCES, "cannot %s '%s': %s (no permission to write it "
				 "or its directory? give another with --db PATH)", doing,
				 s->path, what);
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return store_say(s, -EBADMSG, "cannot %s '%s': %s: it is not an rdmadoctor "
				 "fleet database, or it is damaged (move it aside; `sqlite3 FILE "
				 ".recover` may save its records)", doing, s->path, what);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return store_say(s, -EBUSY, "cannot %s '%s': another process kept it locked "
				 "for %d s (%s)", doing, s->path, STORE_BUSY_MS / 1000, what);
	case SQLITE_NOMEM:
		return store_say(s, -ENOMEM, "cannot %s '%s': out of memory", doing, s->path);
	case SQLITE_IOERR: {
		/* the system's error of that very failure, not whatever errno
		 * some later call left behind */
		int sys = s->db ? sqlite3_system_errno(s->db) : 0;

		return store_say(s, -EIO, "cannot %s '%s': %s (%s)", doing, s->path, what,
				 sys ? strerror(sys) : "input/output error");
	}
	default:
		return store_say(s, -EIO, "cannot %s '%s': %s", doing, s->path, what);
	}
}

int store_exec(struct store *s, const char *sql, const char *doing)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s, rc, doing);
}

int store_begin(struct store *s)
{
	/* IMMEDIATE: take the write lock now, waiting on the busy timeout,
	 * rather than fail half way when a reader's lock cannot be upgraded */
	return store_exec(s, "BEGIN IMMEDIATE", "start writing to");
}

int store_commit(struct store *s)
{
	return store_exec(s, "COMMIT", "commit the records to");
}

void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}
