/* Opening the database and saying what went wrong with it. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How long a writer waits for another one before giving up. */
#define STORE_BUSY_MS 30000

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

const char *store_error(const struct store *s)
{
	return s ? s->msg : "out of memory";
}

int store_found_version(const struct store *s)
{
	return s->found_version;
}

/* WAL lets readers run beside a writer; it is a property of the file, set
 * once by the first writer. */
static int use_wal(struct store *s)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
	const unsigned char *mode;
	bool wal;

	if (rc != SQLITE_OK)
		return store_fail(s, rc, "open");
	rc = sqlite3_step(st);
	mode = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	wal = mode && (strcmp((const char *)mode, "wal") == 0 ||
		       strcmp((const char *)mode, "memory") == 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, rc, "open");
	if (!wal)
		return store_say(s, -EIO, "cannot open '%s': it will not use WAL mode "
				 "(journal mode '%s'; a network file system?)", s->path,
				 mode ? (const char *)mode : "?");
	return 0;
}

/* "file:PATH?immutable=1", PATH escaped as RFC 3986 wants. */
static char *immutable_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri = malloc(strlen(path) * 3 + sizeof("file:?immutable=1"));
	char *o = uri;

	if (!uri)
		return NULL;
	o += sprintf(o, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	strcpy(o, "?immutable=1");
	return uri;
}

/* A reader who may write neither the file nor its directory cannot make
 * the WAL index (-shm) SQLite wants.  When no -wal file is there, every
 * record is in the main file, and it can be read as an immutable file. */
static bool read_as_immutable(const char *path)
{
	char *wal = NULL, *dir = strdup(path), *slash;
	bool yes;

	if (!dir || asprintf(&wal, "%s-wal", path) < 0) {
		free(dir);
		return false;
	}
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	yes = access(wal, F_OK) != 0 && access(path, W_OK) != 0 &&
	      access(slash ? dir : ".", W_OK) != 0;
	free(wal);
	free(dir);
	return yes;
}

int store_open(const char *path, enum store_mode mode, struct store **out)
{
	struct store *s = calloc(1, sizeof(*s));
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	bool memory = strcmp(path, ":memory:") == 0;
	struct stat st;
	int rc;

	*out = s;
	if (!s)
		return -ENOMEM;
	s->path = strdup(path);
	if (!s->path)
		return store_say(s, -ENOMEM, "out of memory");
	if (!memory && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return store_say(s, -EISDIR, "cannot open '%s': it is a directory (give the "
				 "database file: --db DIR/fleet.db)", path);
	if (mode == STORE_READ && !memory && stat(path, &st) != 0) {
		int err = errno;

		return store_say(s, -err, "no fleet database at '%s': %s (store records with "
				 "`rdmadoctor record`, or give --db PATH)", path, strerror(err));
	}
	if (mode == STORE_WRITE)
		flags |= SQLITE_OPEN_CREATE;
	if (mode == STORE_READ && !memory && read_as_immutable(path)) {
		char *uri = immutable_uri(path);

		if (!uri)
			return store_say(s, -ENOMEM, "out of memory");
		rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
		free(uri);
	} else {
		rc = sqlite3_open_v2(path, &s->db, flags, NULL);
	}
	if (rc != SQLITE_OK)
		return store_fail(s, rc, "open");
	sqlite3_extended_result_codes(s->db, 0);
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	s->writable = !sqlite3_db_readonly(s->db, "main");
	if (mode == STORE_WRITE && !s->writable)
		return store_say(s, -EACCES, "cannot write '%s': it is read-only for this "
				 "user (give another with --db PATH)", path);
	rc = store_exec(s, "PRAGMA synchronous=FULL", "open");
	if (rc < 0)
		return rc;
	rc = store_schema_ready(s);
	if (rc < 0)
		return rc;
	return s->writable ? use_wal(s) : 0;
}

void store_close(struct store **sp)
{
	struct store *s = *sp;

	if (!s)
		return;
	sqlite3_close_v2(s->db);
	free(s->path);
	free(s);
	*sp = NULL;
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
