/* A host's latest record (host_latest.h). */
#include "host_latest.h"

#include <errno.h>

int store_host_latest(struct store *s, const char *host, json_t **out)
{
	json_t *recs = NULL;
	int rc = 0;

	*out = NULL;
	/* the host's records oldest first, whole: the last is what it is now
	 * (an unchanged check since then adds a time, not a record) */
	if (store_history(s, host, NULL, &recs) < 0)
		return -EIO;
	if (!json_is_object(json_array_get(recs, json_array_size(recs) - 1)))
		rc = -ENOENT;
	else
		*out = json_incref(json_array_get(recs, json_array_size(recs) - 1));
	json_decref(recs);
	return rc;
}
