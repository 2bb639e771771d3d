/* The schema's version and its upgrade, for every backend: the backend's
 * steps change the tables (store/sqlite.c, store/pg.c list them), then the
 * derived columns and rows (the drift facts, what `fleet ls` shows, the
 * content fingerprints, each host's entry) are made again from the stored
 * documents, once, by the code of this version.
 * All of it is one transaction: a crash or a full disk in the middle leaves
 * the old version as it was. */
#include "internal.h"
#include "../fleet/counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The counters of a host's last check, as schema 3 kept them: the
 * document's, with those of the record's counters column laid over. */
static char *last_counters(const json_t *doc, const char *changed, size_t len)
{
	json_t *base = fleet_counters(json_object_get(doc, "check"));
	json_t *over = changed ? json_loadb(changed, len, 0, NULL) : json_object();
	json_t *all = base && json_is_object(over) ? fleet_counters_overlay(base, over) : NULL;
	char *text = all ? json_dumps(all, JSON_COMPACT) : NULL;

	json_decref(base);
	json_decref(over);
	json_decref(all);
	return text;
}

struct rederive {
	char last_id[24];	/* the last row done: the next page starts after it */
	long long rows;
};

/* One stored document (id, doc, counters, is the host's latest) made
 * derived rows again. */
static int rederive_row(struct store *s, const char *const *cols, const size_t *lens, int n,
			void *arg)
{
	struct rederive *r = arg;
	json_t *doc = n >= 4 && cols[1] ? json_loadb(cols[1], lens[1], 0, NULL) : NULL;
	struct store_row row = { 0 };
	char *copy = n >= 4 && cols[1] ? strndup(cols[1], lens[1]) : NULL;
	int err;

	/* store_row_make() takes a missing host or time for no memory */
	if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "host")) ||
	    !json_is_string(json_object_get(doc, "time"))) {
		json_decref(doc);
		free(copy);
		return store_say(s, -EBADMSG, "cannot upgrade '%s' to schema %d: record %s is "
				 "not a JSON object with \"host\" and \"time\" (the file was "
				 "edited by hand? move it aside)", s->path, STORE_SCHEMA_VERSION,
				 cols[0] ? cols[0] : "?");
	}
	snprintf(r->last_id, sizeof(r->last_id), "%s", cols[0]);
	r->rows++;
	err = copy ? store_row_make(doc, copy, &row) : -ENOMEM;
	if (err == 0 && s->drv->respells)
		row.content[0] = STORE_CONTENT_RESPELLED;
	if (err == 0)
		err = store_put_derived(s, cols[0], &row);
	else
		store_say(s, err, "out of memory");
	if (err == 0 && cols[3] && strcmp(cols[3], "1") == 0) {
		char *counters = last_counters(doc, cols[2], lens[2]);
		const char *p[] = { counters, cols[0] };

		err = counters ? store_run(s, "UPDATE hosts SET counters = ?1 WHERE record_id = "
					   "CAST(?2 AS BIGINT)", p, 2, NULL, NULL, NULL, "upgrade")
			       : store_say(s, -ENOMEM, "out of memory");
		free(counters);
	}
	store_row_free(&row);
	json_decref(doc);
	return err;
}

/* Every record's derived rows, and every host's entry (its latest record:
 * the one seen last, of two the newer).  A few hundred documents at a
 * time: a store of years is not read into memory at once. */
static int rederive(struct store *s)
{
	struct rederive r = { "0", 0 };
	int rc = store_exec(s, "DELETE FROM record_groups; DELETE FROM hosts", "upgrade");

	if (rc == 0)
		rc = store_exec(s, "INSERT INTO hosts(host, record_id, last_seen, checks, records, "
				"counters) SELECT host, id, last_seen, nrec + (SELECT count(*) FROM "
				"seen WHERE seen.host = w.host), nrec, '{}' FROM (SELECT host, id, last_seen, "
				"row_number() OVER (PARTITION BY host ORDER BY last_seen DESC, id "
				"DESC) AS rn, count(*) OVER (PARTITION BY host) AS nrec FROM "
				"records) w WHERE rn = 1", "upgrade");
	do {
		const char *p[] = { r.last_id };

		r.rows = 0;
		if (rc == 0)
			rc = store_run(s, "SELECT r.id, r.doc, r.counters, CASE WHEN h.record_id IS "
				       "NULL THEN 0 ELSE 1 END FROM records r LEFT JOIN hosts h ON "
				       "h.record_id = r.id WHERE r.id > CAST(?1 AS BIGINT) ORDER BY "
				       "r.id LIMIT 256", p, 1, rederive_row, &r, NULL, "upgrade");
	} while (rc == 0 && r.rows);
	return rc;
}

static int too_new(struct store *s, int version)
{
	return store_say(s, -EPROTO, "cannot use '%s': a newer rdmadoctor made it "
			 "(schema %d; this one knows up to %d): upgrade rdmadoctor",
			 s->path, version, STORE_SCHEMA_VERSION);
}

int store_schema_ready(struct store *s)
{
	char v[16];
	const char *p[] = { v };
	int version, rc = s->drv->version(s, false, &version);

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
	rc = s->drv->version(s, true, &version);
	if (rc == 0 && version > STORE_SCHEMA_VERSION)
		rc = too_new(s, version);	/* a newer one upgraded it meanwhile */
	if (rc == 0 && version == 0)
		version = s->drv->first_version;
	for (int at = version; rc == 0 && at < STORE_SCHEMA_VERSION; at++)
		rc = s->drv->steps[at](s);
	if (rc == 0 && s->found_version > 0 && version < STORE_SCHEMA_VERSION)
		rc = rederive(s);
	if (rc == 0 && version < STORE_SCHEMA_VERSION) {
		snprintf(v, sizeof(v), "%d", STORE_SCHEMA_VERSION);
		rc = store_run(s, "UPDATE schema_version SET version = CAST(?1 AS INTEGER)", p, 1,
			       NULL, NULL, NULL, "upgrade");
	}
	if (rc == 0)
		rc = store_commit(s);
	if (rc < 0)
		store_rollback(s);
	return rc;
}
