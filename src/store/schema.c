/* The schema's version and its upgrade, for every backend: the backend's
 * steps change the tables (store/sqlite.c, store/pg.c list them), then the
 * derived columns and rows (the drift facts, what `fleet ls` shows) are
 * made again from the stored documents, once, by the code of this version.
 * All of it is one transaction: a crash or a full disk in the middle leaves
 * the old version as it was. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One stored document (id, doc) made derived rows again. */
static int rederive_row(struct store *s, const char *const *cols, const size_t *lens, int n,
			void *arg)
{
	json_t *doc = n >= 2 && cols[1] ? json_loadb(cols[1], lens[1], 0, NULL) : NULL;
	struct store_row row = { 0 };
	char *copy = n >= 2 && cols[1] ? strndup(cols[1], lens[1]) : NULL;
	int err;

	(void)arg;
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
	err = copy ? store_row_make(doc, copy, &row) : -ENOMEM;
	if (err == 0)
		err = store_put_derived(s, cols[0], &row);
	else
		store_say(s, err, "out of memory");
	store_row_free(&row);
	json_decref(doc);
	return err;
}

static int rederive(struct store *s)
{
	int rc = store_exec(s, "DELETE FROM record_groups", "upgrade");

	return rc < 0 ? rc : store_run(s, "SELECT id, doc FROM records", NULL, 0, rederive_row,
				       NULL, NULL, "upgrade");
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
