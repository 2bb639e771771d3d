/* Storing one record: the document whole, plus what is read without it. */
#include "internal.h"
#include "../fleet/facts.h"

#include <errno.h>
#include <stdlib.h>

static void bind_json_text(sqlite3_stmt *st, int col, const json_t *v)
{
	const char *t = json_string_value(v);

	if (t)
		sqlite3_bind_text(st, col, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, col);
}

static int prepare(struct store *s, sqlite3_stmt **st, const char *sql)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

	return rc == SQLITE_OK ? 0 : store_fail(s, rc, "store a record in");
}

static int run(struct store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, rc, "store a record in");
}

int store_put_derived(struct store *s, sqlite3_int64 id, const json_t *record)
{
	const json_t *check = json_object_get(record, "check");
	json_t *facts, *g;
	sqlite3_stmt *st;
	size_t i;
	int rc = prepare(s, &st, "UPDATE records SET profile = ?, verdict = ?, findings = ? "
			 "WHERE id = ?");

	if (rc < 0)
		return rc;
	bind_json_text(st, 1, json_object_get(record, "profile"));
	bind_json_text(st, 2, json_object_get(record, "verdict"));
	sqlite3_bind_int64(st, 3, (sqlite3_int64)json_array_size(json_object_get(check, "findings")));
	sqlite3_bind_int64(st, 4, id);
	rc = run(s, st);
	if (rc < 0)
		return rc;
	facts = fleet_facts(record);
	if (!facts)
		return store_say(s, -ENOMEM, "out of memory");
	json_array_foreach(facts, i, g) {
		char *text = json_dumps(json_object_get(g, "fields"), JSON_COMPACT);

		rc = text ? prepare(s, &st, "INSERT INTO record_groups(record_id, profile, "
				    "nic_model, facts) VALUES (?, ?, ?, ?)")
			  : store_say(s, -ENOMEM, "out of memory");
		if (rc == 0) {
			sqlite3_bind_int64(st, 1, id);
			bind_json_text(st, 2, json_object_get(record, "profile"));
			bind_json_text(st, 3, json_object_get(g, "nic_model"));
			sqlite3_bind_text(st, 4, text, -1, free);
			text = NULL;
			rc = run(s, st);
		}
		free(text);
		if (rc < 0)
			break;
	}
	json_decref(facts);
	return rc;
}

int store_put(struct store *s, const json_t *record, bool *dup)
{
	char *doc = json_dumps(record, JSON_COMPACT);
	sqlite3_stmt *st;
	int rc;

	*dup = false;
	if (!doc)
		return store_say(s, -ENOMEM, "out of memory");
	rc = prepare(s, &st, "INSERT INTO records(host, time, doc) VALUES (?, ?, ?) "
		     "ON CONFLICT(host, time) DO NOTHING");
	if (rc < 0) {
		free(doc);
		return rc;
	}
	bind_json_text(st, 1, json_object_get(record, "host"));
	bind_json_text(st, 2, json_object_get(record, "time"));
	sqlite3_bind_text(st, 3, doc, -1, free);
	rc = run(s, st);
	if (rc < 0)
		return rc;
	if (sqlite3_changes(s->db) == 0) {
		*dup = true;
		return 0;
	}
	return store_put_derived(s, sqlite3_last_insert_rowid(s->db), record);
}
