/* Reading records back. */
#include "internal.h"
#include "../fleet/skim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The latest record of each host (the one its latest check saw), and n,
 * how many checks it has (records and seen times). */
#define LATEST "SELECT l.*, l.nrec + coalesce((SELECT count(*) FROM seen WHERE seen.host = " \
	"l.host), 0) AS n FROM (SELECT r.*, row_number() OVER (PARTITION BY host ORDER BY " \
	"last_seen DESC, id DESC) AS rn, count(*) OVER (PARTITION BY host) AS nrec FROM " \
	"records r) l WHERE l.rn = 1"

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

/* Run sql (text parameters ?1..?n, NULL binds SQL NULL) and give each
 * row to fn. */
static int each_row(struct store *s, const char *sql, const char *const *params, int n,
		    int (*fn)(struct store *, sqlite3_stmt *, json_t *), json_t *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return store_fail(s, rc, "read");
	for (int i = 0; i < n; i++) {
		rc = params[i] ? sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_STATIC)
			       : sqlite3_bind_null(st, i + 1);
		if (rc != SQLITE_OK) {
			sqlite3_finalize(st);
			return store_fail(s, rc, "read");
		}
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

/* doc_row with the record's last_seen (column 2) and checks (3) added. */
static int history_row(struct store *s, sqlite3_stmt *st, json_t *out)
{
	json_t *doc = col_doc(s, st, 1, (const char *)sqlite3_column_text(st, 0));

	if (doc && (json_object_set_new(doc, "last_seen", col_text(st, 2)) < 0 ||
		    json_object_set_new(doc, "checks",
					json_integer(sqlite3_column_int64(st, 3))) < 0)) {
		json_decref(doc);
		return store_say(s, -ENOMEM, "out of memory");
	}
	return append(s, out, doc);
}

static int counters_row(struct store *s, sqlite3_stmt *st, json_t *out)
{
	const char *text = (const char *)sqlite3_column_text(st, 2);
	json_t *deltas = text ? json_loads(text, 0, NULL) : json_object();

	if (!json_is_object(deltas)) {
		json_decref(deltas);
		return store_say(s, -EBADMSG, "cannot read '%s': counter deltas that are not a "
				 "JSON object (the file was edited by hand? move it aside)", s->path);
	}
	return append(s, out, json_pack("{s:o, s:o, s:o}", "time", col_text(st, 0),
					"record", col_text(st, 1), "deltas", deltas));
}

/* Rows (host, profile, dmi_product, gpus, previous_profile, has_previous,
 * nic_model|NULL, link_layer, facts|NULL) by host: one entry per host with
 * its facts per group. */
static int facts_row(struct store *s, sqlite3_stmt *st, json_t *out)
{
	const char *host = (const char *)sqlite3_column_text(st, 0);
	const char *model = (const char *)sqlite3_column_text(st, 6);
	const char *text = (const char *)sqlite3_column_text(st, 8);
	json_t *last = json_array_get(out, json_array_size(out) - 1), *fields;

	if (!host)
		return 0;
	if (!last || strcmp(json_string_value(json_object_get(last, "host")), host) != 0) {
		last = json_pack("{s:s, s:o, s:o, s:o, s:[]}", "host", host, "profile",
				 col_text(st, 1), "dmi_product", col_text(st, 2), "gpus",
				 col_text(st, 3), "facts");
		if (last && sqlite3_column_int(st, 5) &&
		    json_object_set_new(last, "previous_profile", col_text(st, 4)) < 0) {
			json_decref(last);
			last = NULL;
		}
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
		      json_pack("{s:s, s:o, s:o}", "nic_model", model, "link_layer",
				col_text(st, 7), "fields", fields));
}

static int query(struct store *s, const char *sql, const char *const *params, int n,
		 int (*fn)(struct store *, sqlite3_stmt *, json_t *), json_t **out)
{
	int rc;

	s->msg[0] = '\0';
	*out = json_array();
	if (!*out)
		return store_say(s, -ENOMEM, "out of memory");
	rc = each_row(s, sql, params, n, fn, *out);
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}

int store_hosts(struct store *s, const struct store_filter *f, json_t **out)
{
	static const struct store_filter none;
	const char *p[4];

	if (!f)
		f = &none;
	p[0] = f->profile;
	p[1] = f->verdict;
	p[2] = f->since;
	p[3] = f->nic_model;
	/* a NULL parameter filters nothing */
	return query(s, "SELECT host, last_seen, profile, verdict, findings, n FROM (" LATEST ") l "
		     "WHERE (?1 IS NULL OR profile = ?1) AND (?2 IS NULL OR verdict = ?2) AND "
		     "(?3 IS NULL OR last_seen >= ?3) AND (?4 IS NULL OR EXISTS (SELECT 1 FROM "
		     "record_groups g WHERE g.record_id = l.id AND g.nic_model = ?4)) "
		     "ORDER BY host", p, 4, host_row, out);
}

int store_history(struct store *s, const char *host, const char *const *drop, json_t **out)
{
	const char *p[] = { host };
	int rc;

	s->drop = drop;
	rc = query(s, "SELECT host, doc, last_seen, 1 + (SELECT count(*) FROM seen WHERE "
		   "seen.record_id = records.id) FROM records WHERE host = ? ORDER BY time, id",
		   p, 1, history_row, out);
	s->drop = NULL;
	return rc;
}

int store_counters(struct store *s, const char *host, json_t **out)
{
	const char *p[] = { host };

	return query(s, "SELECT seen.time, records.time, seen.deltas FROM seen JOIN records ON "
		     "records.id = seen.record_id WHERE seen.host = ? ORDER BY seen.time", p, 1,
		     counters_row, out);
}

int store_record(struct store *s, const char *host, const char *time, json_t **out)
{
	const char *p[] = { host, time };

	return query(s, "SELECT host, doc FROM records WHERE host = ? AND time = ?", p, 2,
		     doc_row, out);
}

int store_latest(struct store *s, const char *const *drop, json_t **out)
{
	int rc;

	s->drop = drop;
	rc = query(s, "SELECT host, doc FROM (" LATEST ") ORDER BY host", NULL, 0, doc_row, out);
	s->drop = NULL;
	return rc;
}

int store_latest_facts(struct store *s, json_t **out)
{
	/* the previous profile: that of the host's latest record with another */
	return query(s, "SELECT r.host, r.profile, r.dmi_product, r.gpus, p.profile, p.id IS NOT "
		     "NULL, g.nic_model, g.link_layer, g.facts FROM (" LATEST ") r "
		     "LEFT JOIN records p ON p.id = (SELECT o.id FROM records o WHERE o.host = "
		     "r.host AND o.profile IS NOT r.profile ORDER BY o.last_seen DESC LIMIT 1) "
		     "LEFT JOIN record_groups g ON g.record_id = r.id "
		     "ORDER BY r.host, g.nic_model, g.link_layer", NULL, 0, facts_row, out);
}
