/* Opening the database and saying what went wrong with it. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
