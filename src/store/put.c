/* Storing one record: the document whole, plus what is read without it;
 * or, for a check equal to its host's latest record, only its time and its
 * counters' deltas. */
#include "internal.h"
#include "../fleet/counters.h"
#include "../fleet/skim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(struct store *s, const char *sql, const char *const *p, int n, long long *changes)
{
	return store_run(s, sql, p, n, NULL, NULL, changes, "store a record in");
}

int store_put_derived(struct store *s, const char *id, const struct store_row *row)
{
	char findings[24];
	const char *cols[] = { row->profile, row->verdict, row->dmi_product, row->gpus,
			       row->content, findings, id, row->fabric };
	json_t *g;
	size_t i;
	int rc;

	snprintf(findings, sizeof(findings), "%lld", row->findings);
	rc = run(s, "UPDATE records SET profile = ?1, verdict = ?2, dmi_product = ?3, gpus = ?4, "
		 "content = ?5, findings = CAST(?6 AS INTEGER), fabric = ?8 WHERE id = "
		 "CAST(?7 AS BIGINT)", cols, 8, NULL);
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
					    json_string_value(json_object_get(g, "link_layer")), text, id };

			rc = run(s, "INSERT INTO record_groups(record_id, profile, nic_model, "
				 "link_layer, facts) VALUES (CAST(?5 AS BIGINT), ?1, ?2, ?3, ?4)",
				 t, 5, NULL);
		}
		free(text);
	}
	return rc;
}

/* The first column of the first row, copied (NULL: no row or SQL NULL). */
static int first_col(struct store *s, const char *const *cols, const size_t *lens, int n,
		     void *arg)
{
	char **out = arg;

	(void)lens;
	if (*out || n < 1 || !cols[0])
		return 0;
	*out = strdup(cols[0]);
	return *out ? 0 : store_say(s, -ENOMEM, "out of memory");
}

/* Has the host a check at row's time already (a record or a seen)? */
static int has_time(struct store *s, const struct store_row *row, bool *yes)
{
	const char *t[] = { row->host, row->time };
	char *one = NULL;
	int rc = store_run(s, "SELECT 1 FROM records WHERE host = ?1 AND time = ?2 UNION ALL "
			   "SELECT 1 FROM seen WHERE host = ?1 AND time = ?2", t, 2, first_col,
			   &one, NULL, "store a record in");

	*yes = one != NULL;
	free(one);
	return rc;
}

/* The check (row, its text parsed: now) is the same as the record (id,
 * its document parsed: doc; counters: those of its last check that
 * differ from its document's, or NULL): add the seen row, move the
 * record's last_seen on. */
static int put_seen(struct store *s, const struct store_row *row, const char *id,
		    const json_t *doc, const json_t *now, const char *counters)
{
	json_t *base = fleet_counters(json_object_get(doc, "check"));
	json_t *cur = fleet_counters(json_object_get(now, "check"));
	json_t *changed = counters ? json_loads(counters, 0, NULL) : json_object();
	json_t *was = base && changed ? fleet_counters_overlay(base, changed) : NULL;
	json_t *deltas = was && cur ? fleet_counter_deltas(was, cur) : NULL;
	json_t *keep = deltas ? fleet_counters_changed(base, cur) : NULL;
	char *dtext = keep ? json_dumps(deltas, JSON_COMPACT) : NULL;
	char *ctext = dtext ? json_dumps(keep, JSON_COMPACT) : NULL;
	int rc = -ENOMEM;

	if (ctext) {
		const char *t[] = { row->host, row->time, json_object_size(deltas) ? dtext : NULL,
				    id };
		const char *u[] = { row->time, json_object_size(keep) ? ctext : NULL, id };

		rc = run(s, "INSERT INTO seen(host, time, deltas, record_id) VALUES (?1, ?2, ?3, "
			 "CAST(?4 AS BIGINT)) ON CONFLICT (host, time) DO NOTHING", t, 4, NULL);
		if (rc == 0)
			rc = run(s, "UPDATE records SET last_seen = ?1, counters = ?2 WHERE id = "
				 "CAST(?3 AS BIGINT)", u, 3, NULL);
	} else {
		store_say(s, rc, "out of memory");
	}
	free(dtext);
	free(ctext);
	json_decref(base);
	json_decref(cur);
	json_decref(changed);
	json_decref(was);
	json_decref(deltas);
	json_decref(keep);
	return rc;
}

/* Two documents the same but for counters and times?  Compared as JSON,
 * not as text: a backend may keep a document in another spelling
 * (PostgreSQL's JSONB orders keys). */
static bool same_content(const json_t *a, const json_t *b)
{
	json_t *x = fleet_without(a, fleet_skim_volatile);
	json_t *y = x ? fleet_without(b, fleet_skim_volatile) : NULL;
	bool same = x && y && json_equal(x, y);

	json_decref(x);
	json_decref(y);
	return same;
}

/* The host's latest record: id, last_seen, content, doc, counters. */
struct latest {
	char *col[5];
	size_t doc_len;
};

static int latest_row(struct store *s, const char *const *cols, const size_t *lens, int n,
		      void *arg)
{
	struct latest *l = arg;

	for (int i = 0; i < 5 && i < n; i++) {
		if (!cols[i])
			continue;
		l->col[i] = strndup(cols[i], lens[i]);
		if (!l->col[i])
			return store_say(s, -ENOMEM, "out of memory");
	}
	l->doc_len = n > 3 ? lens[3] : 0;
	return 0;
}

/* A check later than the host's latest record, with the same content:
 * *done when it was stored as seen. */
static int try_seen(struct store *s, const struct store_row *row, bool *done)
{
	const char *t[] = { row->host };
	struct latest l = { { NULL }, 0 };
	int rc = store_run(s, "SELECT id, last_seen, content, doc, counters FROM records "
			   "WHERE host = ?1 ORDER BY last_seen DESC, id DESC LIMIT 1", t, 1,
			   latest_row, &l, NULL, "store a record in");

	*done = false;
	/* only a later check: an older one arriving late is a record */
	if (rc == 0 && l.col[0] && l.col[1] && l.col[2] && l.col[3] &&
	    strcmp(row->time, l.col[1]) > 0 && strcmp(l.col[2], row->content) == 0) {
		json_t *doc = json_loadb(l.col[3], l.doc_len, 0, NULL);
		json_t *now = doc ? json_loads(row->text, 0, NULL) : NULL;

		if (now && same_content(doc, now)) {
			rc = put_seen(s, row, l.col[0], doc, now, l.col[4]);
			*done = rc == 0;
		} else if (doc && !now) {
			rc = store_say(s, -ENOMEM, "out of memory");
		}
		json_decref(doc);
		json_decref(now);
	}
	for (int i = 0; i < 5; i++)
		free(l.col[i]);
	return rc;
}

int store_put_row(struct store *s, const struct store_row *row, enum store_put *what)
{
	const char *t[] = { row->host, row->time, row->text };
	char *id = NULL;
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
	/* another writer may have stored the same check meanwhile: kept once */
	rc = store_run(s, "INSERT INTO records(host, time, last_seen, doc) VALUES (?1, ?2, ?2, ?3) "
		       "ON CONFLICT (host, time) DO NOTHING RETURNING id", t, 3, first_col, &id,
		       NULL, "store a record in");
	if (rc == 0 && id) {
		*what = STORE_NEW;
		rc = store_put_derived(s, id, row);
	}
	free(id);
	return rc;
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
	long long n = 0;
	int rc;

	*removed = 0;
	s->msg[0] = '\0';
	/* seen times first, then the records nothing newer stands for (a
	 * record removed takes its seen times with it: none are left) */
	if (before) {
		rc = run(s, "DELETE FROM seen WHERE host = ?1 AND time < ?2", t, 2, &n);
		*removed += n;
		if (rc == 0)
			rc = run(s, "DELETE FROM records WHERE host = ?1 AND last_seen < ?2", t, 2, &n);
	} else {
		rc = run(s, "DELETE FROM seen WHERE host = ?1", t, 1, &n);
		*removed += n;
		if (rc == 0)
			rc = run(s, "DELETE FROM records WHERE host = ?1", t, 1, &n);
	}
	if (rc == 0)
		*removed += n;
	return rc;
}
