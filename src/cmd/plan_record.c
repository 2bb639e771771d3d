#include "plan_record.h"
#include "fleet_db.h"
#include "../store/store.h"

#include <string.h>

/* The latest time of host among the store's hosts; NULL when not there. */
static const char *latest_time(const json_t *hosts, const char *host)
{
	size_t i;
	json_t *h;

	json_array_foreach(hosts, i, h) {
		const char *name = json_string_value(json_object_get(h, "host"));

		if (name && strcmp(name, host) == 0)
			return json_string_value(json_object_get(h, "time"));
	}
	return NULL;
}

int plan_record_latest(struct ctx *c, const char *db, const char *host, json_t **out)
{
	struct store *s = NULL;
	json_t *hosts = NULL, *recs = NULL;
	const char *time;
	int rc = fleet_db_open(c, db, STORE_READ, &s);

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	if (store_hosts(s, &hosts) < 0) {
		fprintf(stderr, "%s: %s\n", c->prog, store_error(s));
		rc = EXIT_RUNTIME;
		goto done;
	}
	time = latest_time(hosts, host);
	if (!time) {
		fprintf(stderr, "%s plan: no record of host '%s' in '%s' (`%s fleet ls --db "
			"%s` lists the hosts)\n", c->prog, host, db, c->prog, db);
		rc = EXIT_USAGE;
		goto done;
	}
	if (store_record(s, host, time, &recs) < 0) {
		fprintf(stderr, "%s: %s\n", c->prog, store_error(s));
		rc = EXIT_RUNTIME;
		goto done;
	}
	if (!json_is_object(json_array_get(recs, 0))) {
		fprintf(stderr, "%s plan: the record of '%s' at %s is gone from '%s'\n", c->prog,
			host, time, db);
		rc = EXIT_RUNTIME;
		goto done;
	}
	*out = json_incref(json_array_get(recs, 0));
done:
	json_decref(recs);
	json_decref(hosts);
	store_close(&s);
	return rc;
}
