/* Storing one record: the document whole, plus what is read without it;
 * or, for a check equal to its host's latest record, only its time and its
 * counters' deltas.  Whether it is equal is told by the content
 * fingerprints (store_row_content), and the deltas by the counters of the
 * host's last check kept in hosts: no stored document is read, and the
 * check itself was parsed before the transaction began (store/row.c), so
 * a writer holds the store for a few short statements per record. */
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

/* The drift facts of record id, all its groups in one statement. */
static int put_groups(struct store *s, const char *id, const struct store_row *row)
{
	size_t n = json_array_size(row->facts), i;
	/* per group: (CAST(?1 AS BIGINT), ?2, ?k, ?k+1, ?k+2) */
	size_t cap = 96 + n * 72, used;
	const char **p = calloc(2 + 3 * n, sizeof(*p));
	char **texts = calloc(n ? n : 1, sizeof(*texts));
	char *sql = malloc(cap);
	json_t *g;
	int rc = 0;

	if (!p || !texts || !sql) {
		rc = store_say(s, -ENOMEM, "out of memory");
		goto out;
	}
	if (!n)
		goto out;
	p[0] = id;
	p[1] = row->profile;
	used = (size_t)snprintf(sql, cap, "INSERT INTO record_groups(record_id, profile, "
				"nic_model, link_layer, facts) VALUES ");
	json_array_foreach(row->facts, i, g) {
		int k = 3 + 3 * (int)i;

		texts[i] = json_dumps(json_object_get(g, "fields"), JSON_COMPACT);
		if (!texts[i]) {
			rc = store_say(s, -ENOMEM, "out of memory");
			goto out;
		}
		p[2 + 3 * i] = json_string_value(json_object_get(g, "nic_model"));
		p[3 + 3 * i] = json_string_value(json_object_get(g, "link_layer"));
		p[4 + 3 * i] = texts[i];
		used += (size_t)snprintf(sql + used, cap - used, "%s(CAST(?1 AS BIGINT), ?2, ?%d, "
					 "?%d, ?%d)", i ? ", " : "", k, k + 1, k + 2);
	}
	rc = run(s, sql, p, 2 + 3 * (int)n, NULL);
out:
	for (i = 0; texts && i < n; i++)
		free(texts[i]);
	free(texts);
	free(p);
	free(sql);
	return rc;
}

int store_put_derived(struct store *s, const char *id, const struct store_row *row)
{
	char findings[24];
	const char *cols[] = { row->profile, row->verdict, row->dmi_product, row->gpus,
			       row->content, findings, id, row->fabric };
	int rc;

	snprintf(findings, sizeof(findings), "%lld", row->findings);
	rc = run(s, "UPDATE records SET profile = ?1, verdict = ?2, dmi_product = ?3, gpus = ?4, "
		 "content = ?5, findings = CAST(?6 AS INTEGER), fabric = ?8 WHERE id = "
		 "CAST(?7 AS BIGINT)", cols, 8, NULL);
	return rc < 0 ? rc : put_groups(s, id, row);
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

/* What is known of a host before one of its checks is stored: its latest
 * record (id, last_seen, content), its last check's counters, and how
 * many checks at the new one's time it has already (records and seen). */
enum { L_ID, L_LAST_SEEN, L_CONTENT, L_COUNTERS, L_AT_TIME, L_COLS };

struct latest {
	char *col[L_COLS];
};

static int latest_row(struct store *s, const char *const *cols, const size_t *lens, int n,
		      void *arg)
{
	struct latest *l = arg;

	for (int i = 0; i < L_COLS && i < n; i++) {
		if (!cols[i] || l->col[i])
			continue;
		l->col[i] = strndup(cols[i], lens[i]);
		if (!l->col[i])
			return store_say(s, -ENOMEM, "out of memory");
	}
	return 0;
}

static int look_up(struct store *s, const struct store_row *row, struct latest *l)
{
	const char *t[] = { row->host, row->time };

	return store_run(s, "SELECT h.record_id, h.last_seen, r.content, h.counters, "
			 "(SELECT count(*) FROM records WHERE host = ?1 AND time = ?2) + "
			 "(SELECT count(*) FROM seen WHERE host = ?1 AND time = ?2) "
			 "FROM (SELECT 1 AS one) x LEFT JOIN hosts h ON h.host = ?1 "
			 "LEFT JOIN records r ON r.id = h.record_id", t, 2, latest_row, l, NULL,
			 "store a record in");
}

/* The check (row) is the same as the host's latest record (l): a seen
 * row with its counters' deltas since the host's last check; the record's
 * and the host's last_seen move on.  *stored: false when another writer
 * stored a check of that time meanwhile. */
static int put_seen(struct store *s, const struct store_row *row, const struct latest *l,
		    bool *stored)
{
	json_t *was = json_loads(l->col[L_COUNTERS], 0, NULL);
	json_t *now = json_loads(row->counters, 0, NULL);
	json_t *deltas = was && now ? fleet_counter_deltas(was, now) : NULL;
	char *dtext = deltas ? json_dumps(deltas, JSON_COMPACT) : NULL;
	char *got = NULL;
	int rc;

	*stored = false;
	if (!was && now) {
		rc = store_say(s, -EBADMSG, "cannot store a record in '%s': the counters kept "
			       "for host '%s' are not JSON (the store was edited by hand? move "
			       "it aside)", s->path, row->host);
	} else if (!dtext) {
		rc = store_say(s, -ENOMEM, "out of memory");
	} else {
		const char *t[] = { row->host, row->time, json_object_size(deltas) ? dtext : NULL,
				    l->col[L_ID] };

		rc = store_run(s, "INSERT INTO seen(host, time, deltas, record_id) VALUES (?1, ?2, "
			       "?3, CAST(?4 AS BIGINT)) ON CONFLICT (host, time) DO NOTHING "
			       "RETURNING record_id", t, 4, first_col, &got, NULL,
			       "store a record in");
	}
	if (rc == 0 && got) {
		const char *u[] = { row->time, l->col[L_ID] };
		const char *h[] = { row->host, row->time, row->counters };

		*stored = true;
		rc = run(s, "UPDATE records SET last_seen = ?1 WHERE id = CAST(?2 AS BIGINT) AND "
			 "last_seen < ?1", u, 2, NULL);
		if (rc == 0)
			rc = run(s, "UPDATE hosts SET checks = checks + 1, counters = CASE WHEN "
				 "last_seen < ?2 THEN ?3 ELSE counters END, last_seen = CASE WHEN "
				 "last_seen < ?2 THEN ?2 ELSE last_seen END WHERE host = ?1", h, 3,
				 NULL);
	}
	free(got);
	free(dtext);
	json_decref(was);
	json_decref(now);
	json_decref(deltas);
	return rc;
}

/* A record of its own: the document and every derived column in one row,
 * its drift facts, and the host's entry (it becomes the latest unless a
 * later one is there).  *stored: false when another writer stored a
 * check of that time meanwhile. */
static int put_new(struct store *s, const struct store_row *row, bool *stored)
{
	char findings[24], *id = NULL;
	const char *t[] = { row->host, row->time, row->text, row->profile, row->verdict,
			    row->dmi_product, row->gpus, row->content, findings, row->fabric };
	int rc;

	*stored = false;
	snprintf(findings, sizeof(findings), "%lld", row->findings);
	/* another writer may have stored the same check meanwhile: kept once */
	rc = store_run(s, "INSERT INTO records(host, time, last_seen, doc, profile, verdict, "
		       "dmi_product, gpus, content, findings, fabric) VALUES (?1, ?2, ?2, ?3, ?4, "
		       "?5, ?6, ?7, ?8, CAST(?9 AS INTEGER), ?10) ON CONFLICT (host, time) DO "
		       "NOTHING RETURNING id", t, 10, first_col, &id, NULL, "store a record in");
	if (rc == 0 && id) {
		const char *h[] = { row->host, id, row->time, row->counters };

		*stored = true;
		rc = put_groups(s, id, row);
		/* the latest is the one seen last; of two seen at once, the newer */
		if (rc == 0)
			rc = run(s, "INSERT INTO hosts(host, record_id, last_seen, checks, records, "
				 "counters) VALUES (?1, CAST(?2 AS BIGINT), ?3, 1, 1, ?4) ON CONFLICT "
				 "(host) DO UPDATE SET checks = hosts.checks + 1, "
				 "records = hosts.records + 1, "
				 "record_id = CASE WHEN excluded.last_seen > hosts.last_seen THEN "
				 "excluded.record_id ELSE hosts.record_id END, "
				 "counters = CASE WHEN excluded.last_seen > hosts.last_seen THEN "
				 "excluded.counters ELSE hosts.counters END, "
				 "last_seen = CASE WHEN excluded.last_seen > hosts.last_seen THEN "
				 "excluded.last_seen ELSE hosts.last_seen END", h, 4, NULL);
	}
	free(id);
	return rc;
}

/* Two documents the same but for counters and times?  Compared as JSON,
 * not as text: the stored one may be in another spelling. */
static bool same_content(const json_t *a, const json_t *b)
{
	json_t *x = fleet_without(a, fleet_skim_volatile);
	json_t *y = x ? fleet_without(b, fleet_skim_volatile) : NULL;
	bool same = x && y && json_equal(x, y);

	json_decref(x);
	json_decref(y);
	return same;
}

static int doc_row(struct store *s, const char *const *cols, const size_t *lens, int n,
		   void *arg)
{
	json_t **doc = arg;

	(void)s;
	if (n >= 1 && cols[0] && !*doc)
		*doc = json_loadb(cols[0], lens[0], 0, NULL);
	return 0;
}

/* The latest record's fingerprint was made by an upgrade from its
 * document as the backend spells it: is the check the same as that
 * document?  Then the record takes the check's fingerprint, and its next
 * checks are told by fingerprint again.  Once per record, after an
 * upgrade. */
static int same_as_respelled(struct store *s, const struct store_row *row,
			     const struct latest *l, bool *same)
{
	const char *t[] = { l->col[L_ID] }, *u[] = { row->content, l->col[L_ID] };
	json_t *doc = NULL, *now = NULL;
	int rc = store_run(s, "SELECT doc FROM records WHERE id = CAST(?1 AS BIGINT)", t, 1,
			   doc_row, &doc, NULL, "store a record in");

	*same = false;
	if (rc == 0 && doc) {
		now = json_loads(row->text, 0, NULL);
		if (!now)
			rc = store_say(s, -ENOMEM, "out of memory");
	}
	if (rc == 0 && now && same_content(doc, now)) {
		*same = true;
		rc = run(s, "UPDATE records SET content = ?1 WHERE id = CAST(?2 AS BIGINT)", u, 2,
			 NULL);
	}
	json_decref(doc);
	json_decref(now);
	return rc;
}

int store_put_row(struct store *s, const struct store_row *row, enum store_put *what)
{
	struct latest l = { { NULL } };
	bool stored = false, same = false;
	int rc = look_up(s, row, &l);

	*what = STORE_ALREADY;
	if (rc == 0 && l.col[L_AT_TIME] && strcmp(l.col[L_AT_TIME], "0") != 0)
		goto out;
	/* only a later check is seen: an older one arriving late is a record */
	if (rc == 0 && l.col[L_ID] && l.col[L_LAST_SEEN] && l.col[L_CONTENT] &&
	    l.col[L_COUNTERS] && strcmp(row->time, l.col[L_LAST_SEEN]) > 0) {
		if (l.col[L_CONTENT][0] == STORE_CONTENT_RESPELLED)
			rc = same_as_respelled(s, row, &l, &same);
		else
			same = strcmp(l.col[L_CONTENT], row->content) == 0;
	}
	if (rc == 0 && same) {
		rc = put_seen(s, row, &l, &stored);
		if (stored)
			*what = STORE_SEEN;
	} else if (rc == 0) {
		rc = put_new(s, row, &stored);
		if (stored)
			*what = STORE_NEW;
	}
out:
	for (int i = 0; i < L_COLS; i++)
		free(l.col[i]);
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
	/* the latest record goes only with all the others (it was seen
	 * last): the host's entry goes, or keeps its latest with fewer checks */
	if (rc == 0)
		rc = run(s, "DELETE FROM hosts WHERE host = ?1 AND NOT EXISTS (SELECT 1 FROM "
			 "records WHERE records.id = hosts.record_id)", t, 1, NULL);
	if (rc == 0)
		rc = run(s, "UPDATE hosts SET records = (SELECT count(*) FROM records WHERE host = "
			 "?1), checks = (SELECT count(*) FROM records WHERE host = ?1) + (SELECT "
			 "count(*) FROM seen WHERE host = ?1) WHERE host = ?1", t, 1, NULL);
	return rc;
}
