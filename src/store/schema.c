/* The schema, its version and the steps that upgrade an older file.
 *
 * Version 1: records(id, host, time, doc), one row per host run, the
 *            document whole; (host, time) unique.
 * Version 2: records gains profile, verdict and findings (what `fleet ls`
 *            shows) and record_groups holds the drift facts of each record
 *            per NIC model, indexed by (profile, nic_model) for `fleet
 *            diff`.
 * Version 3: records gains dmi_product, gpus (the machine, for hosts
 *            alike but judged against different profiles), content (the
 *            hash of the document without counters and times) and
 *            last_seen; record_groups gains link_layer; seen holds the
 *            checks that equalled their host's latest record (the time
 *            and the counter deltas, not a copy).
 *
 * The steps change the tables only; the derived columns and rows (the
 * drift facts, what `fleet ls` shows) are then made again from the stored
 * documents, once, by the code of this version.  A new step is a new
 * function at the end of `steps`; never edit an old one: files made by
 * every earlier rdmadoctor must still upgrade. */
#include "internal.h"
#include "../fleet/record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int to_v1(struct store *s)
{
	return store_exec(s,
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
	return store_exec(s,
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
	return store_exec(s,
		"ALTER TABLE records ADD COLUMN dmi_product TEXT;"
		"ALTER TABLE records ADD COLUMN gpus TEXT;"
		"ALTER TABLE records ADD COLUMN content TEXT;"
		"ALTER TABLE records ADD COLUMN last_seen TEXT;"
		"ALTER TABLE records ADD COLUMN counters TEXT;"	/* of the last seen check */
		"UPDATE records SET last_seen = time;"
		"CREATE INDEX records_by_latest ON records(host, last_seen);"
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

/* Make every derived column and row again from the stored documents. */
static int rederive(struct store *s)
{
	sqlite3_stmt *st;
	int rc = store_exec(s, "DELETE FROM record_groups", "upgrade");

	if (rc < 0)
		return rc;
	rc = sqlite3_prepare_v2(s->db, "SELECT id, doc FROM records", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return store_fail(s, rc, "upgrade");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		json_t *doc = text ? json_loads(text, 0, NULL) : NULL;
		struct store_row row = { 0 };
		char *copy = text ? strdup(text) : NULL;
		int err;

		/* store_row_make() takes a missing host or time for no memory */
		if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "host")) ||
		    !json_is_string(json_object_get(doc, "time"))) {
			json_decref(doc);
			free(copy);
			sqlite3_finalize(st);
			return store_say(s, -EBADMSG, "cannot upgrade '%s' to schema %d: record "
					 "%lld is not a JSON object with \"host\" and \"time\" "
					 "(the file was edited by hand? move it aside)", s->path,
					 STORE_SCHEMA_VERSION, (long long)id);
		}
		err = copy ? store_row_make(doc, copy, &row) : -ENOMEM;
		if (err == 0)
			err = store_put_derived(s, id, &row);
		else
			store_say(s, err, "out of memory");
		store_row_free(&row);
		json_decref(doc);
		if (err < 0) {
			sqlite3_finalize(st);
			return err;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, rc, "upgrade");
}

static int (*const steps[STORE_SCHEMA_VERSION])(struct store *) = { to_v1, to_v2, to_v3 };

/* The version in the file: 0 for a new, empty one. */
static int read_version(struct store *s, int *version)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db,
		"SELECT (SELECT count(*) FROM sqlite_schema),"
		" (SELECT count(*) FROM sqlite_schema WHERE name = 'schema_version')",
		-1, &st, NULL);
	int objects, ours;

	if (rc != SQLITE_OK)
		return store_fail(s, rc, "read");
	rc = sqlite3_step(st);
	objects = sqlite3_column_int(st, 0);
	ours = sqlite3_column_int(st, 1);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, rc, "read");
	if (!ours && objects)
		return store_say(s, -EBADMSG, "cannot use '%s': it is an SQLite database but "
				 "not an rdmadoctor fleet database (no schema_version table); "
				 "give another with --db PATH", s->path);
	*version = 0;
	if (!ours)
		return 0;
	rc = sqlite3_prepare_v2(s->db, "SELECT max(version) FROM schema_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return store_fail(s, rc, "read");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_fail(s, rc, "read");
}

static int too_new(struct store *s, int version)
{
	return store_say(s, -EPROTO, "cannot use '%s': a newer rdmadoctor made it "
			 "(schema %d; this one knows up to %d): upgrade rdmadoctor",
			 s->path, version, STORE_SCHEMA_VERSION);
}

int store_schema_ready(struct store *s)
{
	char sql[80];
	int version, rc = read_version(s, &version);

	if (rc < 0)
		return rc;
	s->found_version = version;
	if (version > STORE_SCHEMA_VERSION)
		return too_new(s, version);
	if (version == STORE_SCHEMA_VERSION)
		return 0;
	if (!s->writable)
		return store_say(s, -EACCES, "cannot use '%s': its schema %d needs an upgrade "
				 "to %d, and it is read-only for this user (run once as a user "
				 "who can write it)", s->path, version, STORE_SCHEMA_VERSION);
	rc = store_begin(s);
	if (rc < 0)
		return rc;
	/* another process may have upgraded it while we waited for the lock */
	rc = read_version(s, &version);
	if (rc == 0 && version > STORE_SCHEMA_VERSION)
		rc = too_new(s, version);	/* a newer one upgraded it meanwhile */
	for (int v = version; rc == 0 && v < STORE_SCHEMA_VERSION; v++)
		rc = steps[v](s);
	if (rc == 0 && version > 0 && version < STORE_SCHEMA_VERSION)
		rc = rederive(s);
	if (rc == 0 && version < STORE_SCHEMA_VERSION) {
		snprintf(sql, sizeof(sql), "UPDATE schema_version SET version = %d",
			 STORE_SCHEMA_VERSION);
		rc = store_exec(s, sql, "upgrade");
	}
	if (rc == 0)
		rc = store_commit(s);
	if (rc < 0)
		store_rollback(s);
	return rc;
}
