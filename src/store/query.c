/* Reading records back, through indexed queries: the latest record of a
 * host from hosts, drift facts by record, never every document. */
#include "internal.h"
#include "../fleet/skim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The latest record of each host (the one its latest check saw): a row
 * of hosts (with checks, how many checks it has: records and seen times)
 * and the record it names, by primary key. */
#define LATEST "hosts h JOIN records r ON r.id = h.record_id"

static json_t *col_text(const char *const *cols, int i)
{
	return cols[i] ? json_string(cols[i]) : json_null();
}

static json_int_t col_int(const char *const *cols, int i)
{
	return cols[i] ? (json_int_t)strtoll(cols[i], NULL, 10) : 0;
}

/* Parse a stored document, without the members of s->drop when set; a
 * row someone broke by hand is an error. */
static json_t *col_doc(struct store *s, const char *t, size_t len, const char *host)
{
	json_t *doc = NULL;

	if (t && s->drop) {
		char *slim, why[200];
		size_t n;
		int rc = fleet_skim(t, len, s->drop, &slim, &n, why, sizeof(why));

		if (rc == -ENOMEM)
			return NULL;
		if (rc == 0) {
			doc = json_loadb(slim, n, 0, NULL);
			free(slim);
		}
	} else if (t) {
		doc = json_loadb(t, len, 0, NULL);
	}

	if (!json_is_object(doc)) {
		json_decref(doc);
		store_say(s, -EBADMSG, "cannot read '%s': a record of host '%s' is not a JSON "
			  "object (the file was edited by hand? move it aside)", s->path,
			  host ? host : "?");
		return NULL;
	}
	return doc;
}

static int append(struct store *s, json_t *arr, json_t *v)
{
	if (!v)
		return s->msg[0] ? -EBADMSG : store_say(s, -ENOMEM, "out of memory");
	if (json_array_append_new(arr, v) < 0)
		return store_say(s, -ENOMEM, "out of memory");
	return 0;
}

static int host_row(struct store *s, const char *const *c, const size_t *lens, int n, void *out)
{
	(void)lens;
	(void)n;
	return append(s, out, json_pack("{s:o, s:o, s:o, s:o, s:I, s:I}",
		"host", col_text(c, 0), "time", col_text(c, 1), "profile", col_text(c, 2),
		"verdict", col_text(c, 3), "findings", col_int(c, 4), "records", col_int(c, 5)));
}

static int doc_row(struct store *s, const char *const *c, const size_t *lens, int n, void *out)
{
	(void)n;
	return append(s, out, col_doc(s, c[1], lens[1], c[0]));
}

/* doc_row with the record's last_seen (column 2) and checks (3) added. */
static int history_row(struct store *s, const char *const *c, const size_t *lens, int n,
		       void *out)
{
	json_t *doc = col_doc(s, c[1], lens[1], c[0]);

	(void)n;
	if (doc && (json_object_set_new(doc, "last_seen", col_text(c, 2)) < 0 ||
		    json_object_set_new(doc, "checks", json_integer(col_int(c, 3))) < 0)) {
		json_decref(doc);
		return store_say(s, -ENOMEM, "out of memory");
	}
	return append(s, out, doc);
}

static int counters_row(struct store *s, const char *const *c, const size_t *lens, int n,
			void *out)
{
	json_t *deltas = c[2] ? json_loadb(c[2], lens[2], 0, NULL) : json_object();

	(void)n;
	if (!json_is_object(deltas)) {
		json_decref(deltas);
		return store_say(s, -EBADMSG, "cannot read '%s': counter deltas that are not a "
				 "JSON object (the file was edited by hand? move it aside)", s->path);
	}
	return append(s, out, json_pack("{s:o, s:o, s:o}", "time", col_text(c, 0),
					"record", col_text(c, 1), "deltas", deltas));
}

/* Hosts alike have the same drift facts, text for text: each distinct
 * text is parsed once and shared (a fleet of a few machine types is a
 * few texts, not a hundred thousand parses).  At most this many kept. */
#define FACTS_CACHE_MAX 4096

struct facts_read {
	json_t *out;	/* the entries */
	json_t *seen;	/* {facts text: parsed} */
	json_t *by_id;	/* {record id: its entry in out} */
};

static json_t *facts_parse(struct facts_read *r, const char *text, size_t len)
{
	json_t *f = json_object_getn(r->seen, text, len);

	if (f)
		return json_incref(f);
	f = json_loadb(text, len, 0, NULL);
	if (json_is_object(f) && json_object_size(r->seen) < FACTS_CACHE_MAX)
		json_object_setn(r->seen, text, len, f);
	return f;
}

/* Rows (host, record id, profile, dmi_product, gpus, previous) by host:
 * one entry per host.  previous: NULL when no record of the host has
 * another profile, else "" for none or "=" and the profile. */
static int host_facts_row(struct store *s, const char *const *c, const size_t *lens, int n,
			  void *arg)
{
	struct facts_read *r = arg;
	json_t *e;

	(void)lens;
	(void)n;
	if (!c[0] || !c[1])
		return 0;
	e = json_pack("{s:s, s:o, s:o, s:o, s:[]}", "host", c[0], "profile", col_text(c, 2),
		      "dmi_product", col_text(c, 3), "gpus", col_text(c, 4), "facts");
	if (e && c[5] && json_object_set_new(e, "previous_profile", c[5][0] == '=' ?
					     json_string(c[5] + 1) : json_null()) < 0) {
		json_decref(e);
		e = NULL;
	}
	if (e && json_object_set(r->by_id, c[1], e) < 0) {
		json_decref(e);
		e = NULL;
	}
	return append(s, r->out, e);
}

/* Where a group goes among a host's: by NIC model, then link layer, in
 * byte order (as ORDER BY gives them in both backends). */
static size_t group_place(const json_t *facts, const char *model, const char *layer)
{
	size_t i;

	for (i = json_array_size(facts); i > 0; i--) {
		const json_t *g = json_array_get(facts, i - 1);
		const char *m = json_string_value(json_object_get(g, "nic_model"));
		const char *l = json_string_value(json_object_get(g, "link_layer"));
		int c = strcmp(m ? m : "", model);

		if (c < 0 || (c == 0 && strcmp(l ? l : "", layer) <= 0))
			break;
	}
	return i;
}

/* Rows (record id, nic_model, link_layer, facts), in any order: each to
 * the entry of its host, in its place. */
static int group_facts_row(struct store *s, const char *const *c, const size_t *lens, int n,
			   void *arg)
{
	struct facts_read *r = arg;
	json_t *e = c[0] ? json_object_get(r->by_id, c[0]) : NULL, *fields, *g, *facts;

	(void)n;
	if (!e || !c[1])
		return 0;
	fields = c[3] ? facts_parse(r, c[3], lens[3]) : NULL;
	if (!json_is_object(fields)) {
		json_decref(fields);
		return store_say(s, -EBADMSG, "cannot read '%s': the drift facts of host '%s' "
				 "are not a JSON object (the file was edited by hand? move it "
				 "aside)", s->path, json_string_value(json_object_get(e, "host")));
	}
	g = json_pack("{s:s, s:o, s:o}", "nic_model", c[1], "link_layer", col_text(c, 2),
		      "fields", fields);
	if (!g)
		return store_say(s, -ENOMEM, "out of memory");
	facts = json_object_get(e, "facts");
	if (json_array_insert_new(facts, group_place(facts, c[1], c[2] ? c[2] : ""), g) < 0)
		return store_say(s, -ENOMEM, "out of memory");
	return 0;
}

static int query(struct store *s, const char *sql, const char *const *params, int n,
		 store_row_fn fn, json_t **out)
{
	int rc;

	s->msg[0] = '\0';
	*out = json_array();
	if (!*out)
		return store_say(s, -ENOMEM, "out of memory");
	rc = store_run(s, sql, params, n, fn, *out, NULL, "read");
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
	return query(s, "SELECT h.host, h.last_seen, r.profile, r.verdict, r.findings, h.checks "
		     "FROM " LATEST " "
		     "WHERE (CAST(?1 AS TEXT) IS NULL OR r.profile = ?1) AND "
		     "(CAST(?2 AS TEXT) IS NULL OR r.verdict = ?2) AND "
		     "(CAST(?3 AS TEXT) IS NULL OR h.last_seen >= ?3) AND "
		     "(CAST(?4 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM record_groups g WHERE "
		     "g.record_id = r.id AND g.nic_model = ?4)) ORDER BY h.host", p, 4, host_row,
		     out);
}

int store_history(struct store *s, const char *host, const char *const *drop, json_t **out)
{
	const char *p[] = { host };
	int rc;

	s->drop = drop;
	rc = query(s, "SELECT host, doc, last_seen, 1 + (SELECT count(*) FROM seen WHERE "
		   "seen.record_id = records.id) FROM records WHERE host = ?1 ORDER BY time, id",
		   p, 1, history_row, out);
	s->drop = NULL;
	return rc;
}

int store_counters(struct store *s, const char *host, json_t **out)
{
	const char *p[] = { host };

	return query(s, "SELECT seen.time, records.time, seen.deltas FROM seen JOIN records ON "
		     "records.id = seen.record_id WHERE seen.host = ?1 ORDER BY seen.time", p, 1,
		     counters_row, out);
}

int store_record(struct store *s, const char *host, const char *time, json_t **out)
{
	const char *p[] = { host, time };

	return query(s, "SELECT host, doc FROM records WHERE host = ?1 AND time = ?2", p, 2,
		     doc_row, out);
}

int store_latest(struct store *s, const char *const *drop, json_t **out)
{
	int rc;

	s->drop = drop;
	rc = query(s, "SELECT r.host, r.doc FROM " LATEST " ORDER BY h.host", NULL, 0, doc_row, out);
	s->drop = NULL;
	return rc;
}

int store_latest_facts(struct store *s, json_t **out)
{
	struct facts_read r = { json_array(), json_object(), json_object() };
	int rc;

	s->msg[0] = '\0';
	*out = NULL;
	if (!r.out || !r.seen || !r.by_id) {
		rc = store_say(s, -ENOMEM, "out of memory");
		goto out;
	}
	/* the previous profile: that of the host's latest record with another,
	 * looked for only where the host has more than one record.  Two
	 * queries: the hosts in order, then their facts as they come, each put
	 * in its place here: the server sorts no wide row */
	rc = store_run(s, "SELECT h.host, h.record_id, r.profile, r.dmi_product, r.gpus, CASE "
		       "WHEN h.records > 1 THEN (SELECT CASE WHEN o.profile IS NULL THEN '' ELSE "
		       "'=' || o.profile END FROM records o WHERE o.host = h.host AND o.profile IS "
		       "DISTINCT FROM r.profile ORDER BY o.last_seen DESC LIMIT 1) END FROM " LATEST
		       " ORDER BY h.host", NULL, 0, host_facts_row, &r, NULL, "read");
	if (rc == 0)
		rc = store_run(s, "SELECT g.record_id, g.nic_model, g.link_layer, g.facts FROM "
			       "hosts h JOIN record_groups g ON g.record_id = h.record_id", NULL, 0,
			       group_facts_row, &r, NULL, "read");
out:
	json_decref(r.seen);
	json_decref(r.by_id);
	if (rc < 0)
		json_decref(r.out);
	else
		*out = r.out;
	return rc;
}

static int fabric_row(struct store *s, const char *const *c, const size_t *lens, int n, void *arg)
{
	json_t **out = arg, *doc = c[0] ? json_loadb(c[0], lens[0], 0, NULL) : NULL;

	(void)n;
	if (!json_is_object(doc)) {
		json_decref(doc);
		return store_say(s, -EBADMSG, "cannot read '%s': a fabric summary that is not a "
				 "JSON object (the file was edited by hand? move it aside)", s->path);
	}
	json_decref(*out);
	*out = doc;
	return 0;
}

int store_latest_fabric(struct store *s, json_t **out)
{
	int rc;

	s->msg[0] = '\0';
	*out = json_null();
	rc = store_run(s, "SELECT fabric FROM records WHERE fabric IS NOT NULL ORDER BY last_seen "
		       "DESC, id DESC LIMIT 1", NULL, 0, fabric_row, out, NULL, "read");
	if (rc < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return rc;
}
