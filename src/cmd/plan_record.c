#include "plan_record.h"
#include "fleet_db.h"
#include "../store/store.h"

#include <string.h>

int plan_record_latest(struct ctx *c, const char *db, const char *host, json_t **out)
{
	struct store *s = NULL;
	json_t *recs = NULL;
	int rc = fleet_db_open(c, db, STORE_READ, STORE_WAIT_MS, &s);

	*out = NULL;
	if (rc != EXIT_OK)
		return rc;
	/* the host's records oldest first, whole: the last is what it is now
	 * (an unchanged check since then adds a time, not a record) */
	if (store_history(s, host, NULL, &recs) < 0) {
		fprintf(stderr, "%s: %s\n", c->prog, store_error(s));
		rc = EXIT_RUNTIME;
		goto done;
	}
	if (!json_is_object(json_array_get(recs, json_array_size(recs) - 1))) {
		fprintf(stderr, "%s plan: no record of host '%s' in '%s' (`%s fleet ls --db "
			"%s` lists the hosts)\n", c->prog, host, db, c->prog, db);
		rc = EXIT_USAGE;
		goto done;
	}
	*out = json_incref(json_array_get(recs, json_array_size(recs) - 1));
done:
	json_decref(recs);
	store_close(&s);
	return rc;
}
