/* Reading records back. */
#include "internal.h"
#include "../fleet/skim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The latest record of each host, and n, how many it has: (host, time) is
 * unique, so the row with a host's greatest time is exactly one. */
#define LATEST "SELECT r.*, l.n AS n FROM records r JOIN (SELECT host, max(time) AS t, " \
	"count(*) AS n FROM records GROUP BY host) l ON r.host = l.host AND r.time = l.t"

static json_t *col_text(sqlite3_stmt *st, int col)
{
	const char *t = (const char *)sqlite3_column_text(st, col);

	return t ? json_string(t) : json_null();
}

/* Parse a stored document, without the members of s->drop when set; a
 * row someone broke by hand is an error. */
static json_t *col_doc(struct store *s, sqlite3_stmt *st, int col, const char *host)
{
	const char *t = (const char *)sqlite3_column_text(st, col);
	json_t *doc = NULL;

	if (t && s->drop) {
		char *slim, why[200];
		size_t len;
		int rc = fleet_skim(t, (size_t)sqlite3_column_bytes(st, col), s->drop, &slim, &len,
				    why, sizeof(why));

		if (rc == -ENOMEM)
			return NULL;
		if (rc == 0) {
			doc = json_loadb(slim, len, 0, NULL);
			free(slim);
		}
	} else if (t) {
		doc = json_loads(t, 0, NULL);
	}

	if (!json_is_object(doc)) {
		json_decref(doc);
		store_say(s, -EBADMSG, "cannot read '%s': a record of host '%s' is not a JSON "
			  "object (the file was edited by hand? move it aside)", s->path, host);
		return NULL;
	}
	return doc;
}

/* Run sql (up to two optional text parameters) and give each row to fn. */
static int each_row(struct store *s, const char *sql, const char *param, const char *param2,
		    int (*fn)(struct store *, sqlite3_stmt *, json_t *), json_t *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return store_fail(s, rc, "read");
	if ((param && (rc = sqlite3_bind_text(st, 1, param, -1, SQLITE_STATIC)) != SQLITE_OK) ||
	    (param2 && (rc = sqlite3_bind_text(st, 2, param2, -1, SQLITE_STATIC)) != SQLITE_OK)) {
		sqlite3_finalize(st);
		return store_fail(s, rc, "read");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int err = fn(s, st, out);

		if (err < 0) {
			sqlite3_finalize(st);
			return err;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, rc, "read");
}

static int append(struct store *s, json_t *arr, json_t *v)
{
	if (!v)
		return s->msg[0] ? -EBADMSG : store_say(s, -ENOMEM, "out of memory");
	if (json_array_append_new(arr, v) < 0)
		return store_say(s, -ENOMEM, "out of memory");
	return 0;
}

static int host_row(struct store *s, sqlite3_stmt *st, json_t *out)
{
	return append(s, out, json_pack("{s:o, s:o, s:o, s:o, s:I, s:I}",
		"host", col_text(st, 0), "time", col_text(st, 1), "profile", col_text(st, 2),
		"verdict", col_text(st, 3), "findings", (json_int_t)sqlite3_column_int64(st, 4),
		"records", (json_int_t)sqlite3_column_int64(st, 5)));
}

static int doc_row(struct store *s, sqlite3_stmt *st, json_t *out)
{
	return append(s, out, col_doc(s, st, 1, (const char *)sqlite3_column_text(st, 0)));
}

/* Rows (host, profile, nic_model|NULL, facts|NULL) by host: one entry per
 * host with its facts per model. */
static int facts_row(struct store *s, sqlite3_stmt *st, json_t *out)
{
	const char *host = (const char *)sqlite3_column_text(st, 0);
	const char *model = (const char *)sqlite3_column_text(st, 2);
	const char *text = (const char *)sqlite3_column_text(st, 3);
	json_t *last = json_array_get(out, json_array_size(out) - 1), *fields;

	if (!host)
		return 0;
	if (!last || strcmp(json_string_value(json_object_get(last, "host")), host) != 0) {
		last = json_pack("{s:s, s:o, s:[]}", "host", host, "profile", col_text(st, 1),
				 "facts");
		if (append(s, out, last) < 0)
			return -ENOMEM;
	}
	if (!model)
		return 0;	/* a host without NICs */
	fields = text ? json_loads(text, 0, NULL) : NULL;
	if (!json_is_object(fields)) {
		json_decref(fields);
		return store_say(s, -EBADMSG, "cannot read '%s': the drift facts of host '%s' "
				 "are not a JSON object (the file was edited by hand? move it "
				 "aside)", s->path, host);
	}
	return append(s, json_object_get(last, "facts"),
		      json_pack("{s:s, s:o}", "nic_model", model, "fields", fields));
}

static int query(struct store *s, const char *sql, const char *param,
		 int (*fn)(struct store *, sqlite3_stmt *, json_t *), json_t **out,
		 const char *param2)
{
	int rc;

	s->msg[0] = '\0';
	*out = json_array();
	if (!*out)
		return store_say(s, -ENOMEM, "out of memory");
	rc = each_row(s, sql, param, param2, fn, *out);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}

int store_hosts(struct store *s, json_t **out)
{
	return query(s, "SELECT host, time, profile, verdict, findings, n FROM (" LATEST ") "
		     "ORDER BY host", NULL, host_row, out, NULL);
}

int store_history(struct store *s, const char *host, const char *const *drop, json_t **out)
{
	int rc;

	s->drop = drop;
	rc = query(s, "SELECT host, doc FROM records WHERE host = ? ORDER BY time, id",
		   host, doc_row, out, NULL);
	s->drop = NULL;
	return rc;
}

int store_record(struct store *s, const char *host, const char *time, json_t **out)
{
	return query(s, "SELECT host, doc FROM records WHERE host = ? AND time = ?", host,
		     doc_row, out, time);
}

int store_latest(struct store *s, const char *const *drop, json_t **out)
{
	int rc;

	s->drop = drop;
	rc = query(s, "SELECT host, doc FROM (" LATEST ") ORDER BY host", NULL, doc_row, out, NULL);
	s->drop = NULL;
	return rc;
}

int store_latest_facts(struct store *s, json_t **out)
{
	return query(s, "SELECT r.host, r.profile, g.nic_model, g.facts FROM (" LATEST ") r "
		     "LEFT JOIN record_groups g ON g.record_id = r.id ORDER BY r.host, g.nic_model",
		     NULL, facts_row, out, NULL);
}
