/* The SQLite backend: one file, WAL mode, a busy timeout (two writers at
 * once both land: the second waits for the first), synchronous=FULL (a
 * record whose transaction committed survives a crash or a power cut),
 * every write one transaction.  Its tables, version by version:
 *
 * Version 1: records(id, host, time, doc), one row per host run, the
 *            document whole; (host, time) unique.
 * Version 2: records gains profile, verdict and findings (what `fleet ls`
 *            shows) and record_groups holds the drift facts of each record
 *            per NIC model, indexed by (profile, nic_model) for `fleet
 *            diff`.
 * Version 3: records gains dmi_product, gpus (the machine, for hosts
 *            alike but judged against different profiles), content (the
 *            hash of the document without counters and times), last_seen
 *            counters (those of its last check that differ from its
 *            document's) and fabric (who its fabric report suspects);
 *            record_groups gains
 *            link_layer; seen holds the checks that equalled their host's
 *            latest record (the time and the counter deltas, not a copy).
 * Version 4: hosts holds each host's latest record, its numbers of checks
 *            and of records, and the counters of its last check, so that `fleet ls` and
 *            `fleet diff` read one row per host and an unchanged check is
 *            told and stored without reading a document; content becomes
 *            a SHA-256 fingerprint (store_row_content) and records.counters
 *            is no longer written (the upgrade reads it once into hosts).
 *
 * A new step is a new function at the end of `steps`; never edit an old
 * one: files made by every earlier rdmadoctor must still upgrade. */
#include "internal.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DB(s) ((sqlite3 *)(s)->conn)

/* Columns a row may have, at most (the widest query has 9). */
#define MAX_COLS 16

static int fail(struct store *s, int rc, const char *doing)
{
	const char *what = s->conn ? sqlite3_errmsg(DB(s)) : sqlite3_errstr(rc);

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
				 "for %d s (%s)", doing, s->path, (s->timeout_ms + 999) / 1000, what);
	case SQLITE_NOMEM:
		return store_say(s, -ENOMEM, "cannot %s '%s': out of memory", doing, s->path);
	case SQLITE_IOERR: {
		/* the system's error of that very failure, not whatever errno
		 * some later call left behind */
		int sys = s->conn ? sqlite3_system_errno(DB(s)) : 0;

		return store_say(s, -EIO, "cannot %s '%s': %s (%s)", doing, s->path, what,
				 sys ? strerror(sys) : "input/output error");
	}
	default:
		return store_say(s, -EIO, "cannot %s '%s': %s", doing, s->path, what);
	}
}

static int sqlite_exec(struct store *s, const char *sql, const char *doing)
{
	int rc = sqlite3_exec(DB(s), sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : fail(s, rc, doing);
}

/* Statements kept prepared, by their text: a batch of ten thousand
 * records runs the same few statements, parsed and planned once. */
#define PREPARED_MAX 32

struct prepared {
	struct {
		char *sql;
		sqlite3_stmt *st;
		bool busy;	/* in use (a row callback may run another one) */
	} v[PREPARED_MAX];
	int n;
};

static void prepared_free(struct store *s)
{
	struct prepared *p = s->prepared;

	for (int i = 0; p && i < p->n; i++) {
		sqlite3_finalize(p->v[i].st);
		free(p->v[i].sql);
	}
	free(p);
	s->prepared = NULL;
}

/* The statement of sql, prepared now or before; *slot: its place in the
 * cache (-1: not kept, to be finalized after use). */
static int statement(struct store *s, const char *sql, sqlite3_stmt **st, int *slot)
{
	struct prepared *p = s->prepared;
	int rc;

	*slot = -1;
	for (int i = 0; p && i < p->n; i++) {
		if (!p->v[i].busy && strcmp(p->v[i].sql, sql) == 0) {
			p->v[i].busy = true;
			*st = p->v[i].st;
			*slot = i;
			return SQLITE_OK;
		}
	}
	rc = sqlite3_prepare_v2(DB(s), sql, -1, st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if (!p)
		p = s->prepared = calloc(1, sizeof(*p));
	if (p && p->n < PREPARED_MAX && (p->v[p->n].sql = strdup(sql))) {
		p->v[p->n].st = *st;
		p->v[p->n].busy = true;
		*slot = p->n++;
	}
	return SQLITE_OK;
}

static void statement_done(struct store *s, sqlite3_stmt *st, int slot)
{
	struct prepared *p = s->prepared;

	if (slot < 0) {
		sqlite3_finalize(st);
		return;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	p->v[slot].busy = false;
}

static int sqlite_run(struct store *s, const char *sql, const char *const *params, int n,
		      store_row_fn fn, void *arg, long long *changes, const char *doing)
{
	sqlite3_stmt *st;
	int slot, rc = statement(s, sql, &st, &slot);

	if (rc != SQLITE_OK)
		return fail(s, rc, doing);
	/* a bind that failed would leave NULL in its place, silently */
	for (int i = 0; i < n; i++) {
		rc = params[i] ? sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_STATIC)
			       : sqlite3_bind_null(st, i + 1);
		if (rc != SQLITE_OK) {
			statement_done(s, st, slot);
			return fail(s, rc, doing);
		}
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *cols[MAX_COLS];
		size_t lens[MAX_COLS];
		int nc = sqlite3_column_count(st), err;

		if (nc > MAX_COLS)
			nc = MAX_COLS;
		for (int i = 0; i < nc; i++) {
			cols[i] = (const char *)sqlite3_column_text(st, i);
			lens[i] = (size_t)sqlite3_column_bytes(st, i);
		}
		err = fn ? fn(s, cols, lens, nc, arg) : 0;
		if (err < 0) {
			statement_done(s, st, slot);
			return err;
		}
	}
	/* the error is the statement's: said before the reset clears it */
	if (rc != SQLITE_DONE) {
		int err = fail(s, rc, doing);

		statement_done(s, st, slot);
		return err;
	}
	if (changes)
		*changes = sqlite3_changes(DB(s));
	statement_done(s, st, slot);
	return 0;
}

/* WAL lets readers run beside a writer; it is a property of the file, set
 * once by the first writer. */
static int use_wal(struct store *s)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(DB(s), "PRAGMA journal_mode=WAL", -1, &st, NULL);
	const unsigned char *mode;
	bool wal;

	if (rc != SQLITE_OK)
		return fail(s, rc, "open");
	rc = sqlite3_step(st);
	mode = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
	wal = mode && (strcmp((const char *)mode, "wal") == 0 ||
		       strcmp((const char *)mode, "memory") == 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return fail(s, rc, "open");
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

static int sqlite_open(struct store *s, const char *path, enum store_mode mode)
{
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	bool memory = strcmp(path, ":memory:") == 0;
	struct stat st;
	int rc;

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
		rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
		free(uri);
	} else {
		rc = sqlite3_open_v2(path, &db, flags, NULL);
	}
	s->conn = db;	/* closed by the caller, even when the open failed */
	if (rc != SQLITE_OK)
		return fail(s, rc, "open");
	sqlite3_extended_result_codes(db, 0);
	sqlite3_busy_timeout(db, s->timeout_ms);
	s->writable = !sqlite3_db_readonly(db, "main");
	if (mode == STORE_WRITE && !s->writable)
		return store_say(s, -EACCES, "cannot write '%s': it is read-only for this "
				 "user (give another with --db PATH)", path);
	return sqlite_exec(s, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON", "open");
}

/* After the schema is ready: WAL needs the file to itself a moment, so
 * it waits until an upgrader that holds it is done. */
static int sqlite_ready(struct store *s)
{
	return s->writable ? use_wal(s) : 0;
}

static void sqlite_close(struct store *s)
{
	prepared_free(s);
	sqlite3_close_v2(DB(s));
	s->conn = NULL;
}

static int sqlite_begin(struct store *s)
{
	/* IMMEDIATE: take the write lock now, waiting on the busy timeout,
	 * rather than fail half way when a reader's lock cannot be upgraded */
	return sqlite_exec(s, "BEGIN IMMEDIATE", "start writing to");
}

static int sqlite_commit(struct store *s)
{
	return sqlite_exec(s, "COMMIT", "commit the records to");
}

static void sqlite_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(DB(s)))
		sqlite3_exec(DB(s), "ROLLBACK", NULL, NULL, NULL);
}

/* BEGIN IMMEDIATE holds the write lock already: locked needs nothing more. */
static int sqlite_version(struct store *s, bool locked, int *version)
{
	int counts[2] = { 0, 0 }, rc;

	(void)locked;
	rc = sqlite_run(s, "SELECT (SELECT count(*) FROM sqlite_schema),"
			" (SELECT count(*) FROM sqlite_schema WHERE name = 'schema_version')",
			NULL, 0, store_ints_row, counts, NULL, "read");
	if (rc < 0)
		return rc;
	if (!counts[1] && counts[0])
		return store_say(s, -EBADMSG, "cannot use '%s': it is an SQLite database but "
				 "not an rdmadoctor fleet database (no schema_version table); "
				 "give another with --db PATH", s->path);
	*version = 0;
	if (!counts[1])
		return 0;
	return sqlite_run(s, "SELECT max(version) FROM schema_version", NULL, 0, store_ints_row,
			  version, NULL, "read");
}

static int to_v1(struct store *s)
{
	return sqlite_exec(s,
		"CREATE TABLE schema_version(version INTEGER NOT NULL);"
		"INSERT INTO schema_version VALUES(0);"
		"CREATE TABLE records("
		"  id INTEGER PRIMARY KEY,"
		"  host TEXT NOT NULL,"
		"  time TEXT NOT NULL,"	/* 2026-11-30T07:00:00Z: text order is time order */
		"  doc TEXT NOT NULL,"	/* the record, whole */
		"  UNIQUE(host, time))", "create the tables of");
}

static int to_v2(struct store *s)
{
	return sqlite_exec(s,
		"ALTER TABLE records ADD COLUMN profile TEXT;"
		"ALTER TABLE records ADD COLUMN verdict TEXT;"
		"ALTER TABLE records ADD COLUMN findings INTEGER;"
		"CREATE TABLE record_groups("
		"  record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,"
		"  profile TEXT,"
		"  nic_model TEXT NOT NULL,"
		"  facts TEXT NOT NULL,"	/* {key: value} of fleet/facts.h */
		"  PRIMARY KEY(record_id, nic_model));"
		"CREATE INDEX record_groups_by_group ON record_groups(profile, nic_model)",
		"upgrade (to schema 2)");
}

static int to_v3(struct store *s)
{
	return sqlite_exec(s,
		"ALTER TABLE records ADD COLUMN dmi_product TEXT;"
		"ALTER TABLE records ADD COLUMN gpus TEXT;"
		"ALTER TABLE records ADD COLUMN content TEXT;"
		"ALTER TABLE records ADD COLUMN last_seen TEXT;"
		"ALTER TABLE records ADD COLUMN counters TEXT;"
		"ALTER TABLE records ADD COLUMN fabric TEXT;"	/* its fabric report's suspects */
		"UPDATE records SET last_seen = time;"
		"CREATE INDEX records_by_latest ON records(host, last_seen);"
		"CREATE INDEX records_with_fabric ON records(last_seen) WHERE fabric IS NOT NULL;"
		/* a model can have ports of two link layers (VPI): the key grows */
		"DROP TABLE record_groups;"
		"CREATE TABLE record_groups("
		"  record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,"
		"  profile TEXT,"
		"  nic_model TEXT NOT NULL,"
		"  link_layer TEXT NOT NULL,"
		"  facts TEXT NOT NULL,"
		"  PRIMARY KEY(record_id, nic_model, link_layer));"
		"CREATE INDEX record_groups_by_group ON record_groups(profile, nic_model);"
		"CREATE TABLE seen("
		"  host TEXT NOT NULL,"
		"  time TEXT NOT NULL,"
		"  record_id INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,"
		"  deltas TEXT,"	/* fleet_counter_deltas() since the check before */
		"  PRIMARY KEY(host, time)) WITHOUT ROWID;"
		"CREATE INDEX seen_by_record ON seen(record_id)",
		"upgrade (to schema 3)");
}

static int to_v4(struct store *s)
{
	return sqlite_exec(s,
		"CREATE TABLE hosts("
		"  host TEXT PRIMARY KEY,"
		"  record_id INTEGER NOT NULL,"	/* its latest record: seen last */
		"  last_seen TEXT NOT NULL,"	/* that record's last_seen */
		"  checks INTEGER NOT NULL,"	/* its records and seen times */
		"  records INTEGER NOT NULL,"	/* its records */
		"  counters TEXT NOT NULL)",	/* fleet_counters() of its last check */
		"upgrade (to schema 4)");
}

static int (*const steps[STORE_SCHEMA_VERSION])(struct store *) = { to_v1, to_v2, to_v3,
								     to_v4 };

const struct store_driver store_sqlite = {
	.name = "SQLite",
	.open = sqlite_open,
	.ready = sqlite_ready,
	.close = sqlite_close,
	.exec = sqlite_exec,
	.run = sqlite_run,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.version = sqlite_version,
	.steps = steps,
	.first_version = 0,
};
