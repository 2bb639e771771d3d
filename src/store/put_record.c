/* One record in a transaction of its own (put_record.h). */
#include "put_record.h"
#include "store.h"

#include <errno.h>
#include <stdio.h>

int store_put_record(const char *db, const json_t *rec, int timeout_ms, struct store_tally *t,
		     char *why, size_t len)
{
	struct store *s = NULL;
	enum store_put what;
	int rc = 0;

	if (store_open_wait(db, STORE_WRITE, timeout_ms, &s) < 0 || store_begin(s) < 0 ||
	    store_put(s, rec, NULL, &what) < 0 || store_commit(s) < 0) {
		store_rollback(s);
		snprintf(why, len, "%s", store_error(s));
		rc = -EIO;
	} else {
		store_tally_count(t, what);
	}
	store_close(&s);
	return rc;
}
