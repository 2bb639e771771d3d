/* Storing one record: the document whole, plus what is read without it;
 * or, for a check equal to its host's latest record, only its time and its
 * counters' deltas. */
#include "internal.h"
#include "../fleet/counters.h"
#include "../fleet/skim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* SQLITE_OK or why not (a text over SQLite's length limit, no memory):
 * a bind that failed would leave NULL in its place, silently. */
static int bind_text(sqlite3_stmt *st, int col, const char *t)
{
	return t ? sqlite3_bind_text(st, col, t, -1, SQLITE_STATIC) : sqlite3_bind_null(st, col);
}

/* Prepare sql and bind the texts (NULL: SQL NULL), then the integers;
 * n_texts + n_ints parameters in that order. */
static int prepare_bound(struct store *s, sqlite3_stmt **st, const char *sql,
			 const char *const *texts, int n_texts, const sqlite3_int64 *ints,
			 int n_ints)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);

	for (int i = 0; rc == SQLITE_OK && i < n_texts; i++)
		rc = bind_text(*st, i + 1, texts[i]);
	for (int i = 0; rc == SQLITE_OK && i < n_ints; i++)
		rc = sqlite3_bind_int64(*st, n_texts + i + 1, ints[i]);
	if (rc == SQLITE_OK)
		return 0;
	sqlite3_finalize(*st);
	*st = NULL;
	return store_fail(s, rc, "store a record in");
}

/* Run a statement without rows and finalize it. */
static int run(struct store *s, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, rc, "store a record in");
}

static int exec_bound(struct store *s, const char *sql, const char *const *texts, int n_texts,
		      const sqlite3_int64 *ints, int n_ints)
{
	sqlite3_stmt *st;
	int rc = prepare_bound(s, &st, sql, texts, n_texts, ints, n_ints);

	return rc < 0 ? rc : run(s, st);
}

int store_put_derived(struct store *s, sqlite3_int64 id, const struct store_row *row)
{
	const char *cols[] = { row->profile, row->verdict, row->dmi_product, row->gpus,
			       row->content };
	sqlite3_int64 ints[] = { row->findings, id };
	json_t *g;
	size_t i;
	int rc = exec_bound(s, "UPDATE records SET profile = ?, verdict = ?, dmi_product = ?, "
			    "gpus = ?, content = ?, findings = ? WHERE id = ?", cols, 5, ints, 2);

	json_array_foreach(row->facts, i, g) {
		char *text;

		if (rc < 0)
			break;
		text = json_dumps(json_object_get(g, "fields"), JSON_COMPACT);
		if (!text)
			return store_say(s, -ENOMEM, "out of memory");
		{
			const char *t[] = { row->profile,
					    json_string_value(json_object_get(g, "nic_model")),
					    json_string_value(json_object_get(g, "link_layer")), text };

			rc = exec_bound(s, "INSERT INTO record_groups(record_id, profile, nic_model, "
					"link_layer, facts) VALUES (?5, ?1, ?2, ?3, ?4)", t, 4, &id, 1);
		}
		free(text);
	}
	return rc;
}

/* Has the host a check at row's time already (a record or a seen)? */
static int has_time(struct store *s, const struct store_row *row, bool *yes)
{
	const char *t[] = { row->host, row->time };
	sqlite3_stmt *st;
	int rc = prepare_bound(s, &st, "SELECT EXISTS(SELECT 1 FROM records WHERE host = ?1 AND "
			       "time = ?2) OR EXISTS(SELECT 1 FROM seen WHERE host = ?1 AND "
			       "time = ?2)", t, 2, NULL, 0);

	if (rc < 0)
		return rc;
	rc = sqlite3_step(st);
	*yes = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_fail(s, rc, "store a record in");
}

/* The counters of what the record last saw: its counters column, or, for
 * a record never seen again yet, its own document's. */
static json_t *last_counters(const char *counters, const char *doc)
{
	json_t *j, *c;

	if (counters)
		return json_loads(counters, 0, NULL);
	j = json_loads(doc, 0, NULL);
	c = j ? fleet_counters(json_object_get(j, "check")) : NULL;
	json_decref(j);
	return c;
}

/* The check is the same as the record (id, document doc, counters of its
 * last check): add the seen row and move the record's last_seen on. */
static int put_seen(struct store *s, const struct store_row *row, sqlite3_int64 id,
		    const char *doc, const char *counters)
{
	json_t *now = NULL, *was = NULL, *whole = json_loads(row->text, 0, NULL), *deltas = NULL;
	char *dtext = NULL, *ctext = NULL;
	int rc = -ENOMEM;

	now = whole ? fleet_counters(json_object_get(whole, "check")) : NULL;
	was = now ? last_counters(counters, doc) : NULL;
	deltas = was ? fleet_counter_deltas(was, now) : NULL;
	dtext = deltas ? json_dumps(deltas, JSON_COMPACT) : NULL;
	ctext = dtext ? json_dumps(now, JSON_COMPACT) : NULL;
	if (ctext) {
		const char *t[] = { row->host, row->time, json_object_size(deltas) ? dtext : NULL };
		const char *u[] = { row->time, ctext };

		rc = exec_bound(s, "INSERT INTO seen(host, time, deltas, record_id) VALUES (?, ?, ?, ?)",
				t, 3, &id, 1);
		if (rc == 0)
			rc = exec_bound(s, "UPDATE records SET last_seen = ?, counters = ? WHERE id = ?",
					u, 2, &id, 1);
	} else {
		store_say(s, rc, "out of memory");
	}
	free(dtext);
	free(ctext);
	json_decref(whole);
	json_decref(now);
	json_decref(was);
	json_decref(deltas);
	return rc;
}

/* Is the stored document doc, without counters and times, the row's? */
static bool same_content(const char *doc, const struct store_row *row)
{
	char *a = NULL, *b = NULL, why[200];
	size_t la, lb;
	bool same = false;

	if (fleet_skim(doc, strlen(doc), fleet_skim_volatile, &a, &la, why, sizeof(why)) == 0 &&
	    fleet_skim(row->text, strlen(row->text), fleet_skim_volatile, &b, &lb, why,
		       sizeof(why)) == 0)
		same = la == lb && memcmp(a, b, la) == 0;
	free(a);
	free(b);
	return same;
}

/* A check later than the host's latest record, with the same content:
 * *done when it was stored as seen. */
static int try_seen(struct store *s, const struct store_row *row, bool *done)
{
	const char *t[] = { row->host };
	sqlite3_stmt *st;
	int rc = prepare_bound(s, &st, "SELECT id, last_seen, content, doc, counters FROM records "
			       "WHERE host = ? ORDER BY last_seen DESC, id DESC LIMIT 1", t, 1,
			       NULL, 0);

	*done = false;
	if (rc < 0)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *last = (const char *)sqlite3_column_text(st, 1);
		const char *content = (const char *)sqlite3_column_text(st, 2);
		const char *doc = (const char *)sqlite3_column_text(st, 3);

		/* only a later check: an older one arriving late is a record */
		if (last && content && doc && strcmp(row->time, last) > 0 &&
		    strcmp(content, row->content) == 0 && same_content(doc, row)) {
			rc = put_seen(s, row, sqlite3_column_int64(st, 0), doc,
				      (const char *)sqlite3_column_text(st, 4));
			*done = rc == 0;
			sqlite3_finalize(st);
			return rc;
		}
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, rc, "store a record in");
}

int store_put_row(struct store *s, const struct store_row *row, enum store_put *what)
{
	const char *t[] = { row->host, row->time, row->text };
	bool yes;
	int rc = has_time(s, row, &yes);

	*what = STORE_ALREADY;
	if (rc < 0 || yes)
		return rc;
	rc = try_seen(s, row, &yes);
	if (rc < 0 || yes) {
		*what = STORE_SEEN;
		return rc;
	}
	rc = exec_bound(s, "INSERT INTO records(host, time, last_seen, doc) VALUES (?1, ?2, ?2, ?3)",
			t, 3, NULL, 0);
	if (rc < 0)
		return rc;
	*what = STORE_NEW;
	return store_put_derived(s, sqlite3_last_insert_rowid(s->db), row);
}

int store_put(struct store *s, const json_t *record, const char *text, enum store_put *what)
{
	struct store_row row;
	char *copy = text ? strdup(text) : NULL;
	int rc;

	*what = STORE_ALREADY;
	if (text && !copy)
		return store_say(s, -ENOMEM, "out of memory");
	rc = store_row_make(record, copy, &row);
	if (rc < 0)
		return store_say(s, rc, "out of memory");
	rc = store_put_row(s, &row, what);
	store_row_free(&row);
	return rc;
}

int store_rm(struct store *s, const char *host, const char *before, long long *removed)
{
	const char *t[] = { host, before };
	int rc;

	*removed = 0;
	s->msg[0] = '\0';
	if (before) {
		/* seen times before it, then records nothing newer stands for */
		rc = exec_bound(s, "DELETE FROM seen WHERE host = ? AND time < ?", t, 2, NULL, 0);
		*removed += sqlite3_changes(s->db);
		if (rc == 0)
			rc = exec_bound(s, "DELETE FROM records WHERE host = ? AND last_seen < ?",
					t, 2, NULL, 0);
	} else {
		rc = exec_bound(s, "DELETE FROM seen WHERE host = ?", t, 1, NULL, 0);
		*removed += sqlite3_changes(s->db);
		if (rc == 0)
			rc = exec_bound(s, "DELETE FROM records WHERE host = ?", t, 1, NULL, 0);
	}
	if (rc == 0)
		*removed += sqlite3_changes(s->db);
	return rc;
}
