/* Storing one record: the document whole, plus what is read without it. */
#include "internal.h"
#include "../fleet/facts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *dup_string(const json_t *v)
{
	const char *s = json_string_value(v);

	return s ? strdup(s) : NULL;
}

void store_row_free(struct store_row *row)
{
	free(row->host);
	free(row->time);
	free(row->profile);
	free(row->verdict);
	free(row->text);
	json_decref(row->facts);
	memset(row, 0, sizeof(*row));
}

int store_row_make(const json_t *record, char *text, struct store_row *row)
{
	const json_t *profile = json_object_get(record, "profile");
	const json_t *verdict = json_object_get(record, "verdict");

	memset(row, 0, sizeof(*row));
	row->text = text ? text : json_dumps(record, JSON_COMPACT);
	row->host = dup_string(json_object_get(record, "host"));
	row->time = dup_string(json_object_get(record, "time"));
	row->profile = dup_string(profile);
	row->verdict = dup_string(verdict);
	row->findings = (long long)json_array_size(
		json_object_get(json_object_get(record, "check"), "findings"));
	row->facts = fleet_facts(record);
	if (!row->text || !row->host || !row->time || !row->facts ||
	    (json_is_string(profile) && !row->profile) ||
	    (json_is_string(verdict) && !row->verdict)) {
		store_row_free(row);
		return -ENOMEM;
	}
	return 0;
}

/* SQLITE_OK or why not (a text over SQLite's length limit, no memory):
 * a bind that failed would leave NULL in its place, silently. */
static int bind_text(sqlite3_stmt *st, int col, const char *t)
{
	return t ? sqlite3_bind_text(st, col, t, -1, SQLITE_STATIC) : sqlite3_bind_null(st, col);
}

/* A statement whose binding failed (bound: the first failure) is
 * finalized with the error said. */
static int bound(struct store *s, sqlite3_stmt *st, int bound)
{
	if (bound == SQLITE_OK)
		return 0;
	sqlite3_finalize(st);
	return store_fail(s, bound, "store a record in");
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

int store_put_derived(struct store *s, sqlite3_int64 id, const struct store_row *row)
{
	json_t *g;
	sqlite3_stmt *st;
	size_t i;
	int rc = prepare(s, &st, "UPDATE records SET profile = ?, verdict = ?, findings = ? "
			 "WHERE id = ?");

	if (rc < 0)
		return rc;
	rc = bind_text(st, 1, row->profile);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 2, row->verdict);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, row->findings);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 4, id);
	rc = bound(s, st, rc);
	if (rc == 0)
		rc = run(s, st);
	json_array_foreach(row->facts, i, g) {
		char *text;

		if (rc < 0)
			break;
		text = json_dumps(json_object_get(g, "fields"), JSON_COMPACT);
		rc = text ? prepare(s, &st, "INSERT INTO record_groups(record_id, profile, "
				    "nic_model, facts) VALUES (?, ?, ?, ?)")
			  : store_say(s, -ENOMEM, "out of memory");
		if (rc == 0) {
			int b = sqlite3_bind_int64(st, 1, id);

			if (b == SQLITE_OK)
				b = bind_text(st, 2, row->profile);
			if (b == SQLITE_OK)
				b = bind_text(st, 3, json_string_value(json_object_get(g, "nic_model")));
			if (b == SQLITE_OK)
				b = bind_text(st, 4, text);
			rc = bound(s, st, b);
			if (rc == 0)
				rc = run(s, st);
		}
		free(text);
	}
	return rc;
}

int store_put_row(struct store *s, const struct store_row *row, bool *dup)
{
	sqlite3_stmt *st;
	int rc = prepare(s, &st, "INSERT INTO records(host, time, doc) VALUES (?, ?, ?) "
			 "ON CONFLICT(host, time) DO NOTHING");

	*dup = false;
	if (rc < 0)
		return rc;
	rc = bind_text(st, 1, row->host);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 2, row->time);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 3, row->text);
	rc = bound(s, st, rc);
	if (rc == 0)
		rc = run(s, st);
	if (rc < 0)
		return rc;
	if (sqlite3_changes(s->db) == 0) {
		*dup = true;
		return 0;
	}
	return store_put_derived(s, sqlite3_last_insert_rowid(s->db), row);
}

int store_put(struct store *s, const json_t *record, const char *text, bool *dup)
{
	struct store_row row;
	char *copy = text ? strdup(text) : NULL;
	int rc;

	*dup = false;
	if (text && !copy)
		return store_say(s, -ENOMEM, "out of memory");
	rc = store_row_make(record, copy, &row);
	if (rc < 0)
		return store_say(s, rc, "out of memory");
	rc = store_put_row(s, &row, dup);
	store_row_free(&row);
	return rc;
}
