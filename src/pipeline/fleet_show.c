/* `fleet show HOST`'s document (fleet_show.h). */
#include "fleet_show.h"
#include "../fleet/skim.h"
#include "../print/fleet_show_out.h"

#include <errno.h>

int fleet_show_load(struct store *s, const char *host, json_t **doc)
{
	json_t *history, *latest, *counters;

	*doc = NULL;
	/* the changes need only what fleet_skim_drop keeps; the latest
	 * record is shown whole */
	if (store_history(s, host, fleet_skim_drop, &history) < 0)
		return -EIO;
	if (!json_array_size(history)) {
		json_decref(history);
		return -ENOENT;
	}
	/* the record the history ends with, whole (not a newer one stored
	 * meanwhile: the two agree) */
	if (store_record(s, host, json_string_value(json_object_get(json_array_get(history,
			 json_array_size(history) - 1), "time")), &latest) < 0) {
		json_decref(history);
		return -EIO;
	}
	if (!json_array_size(latest)) {
		json_decref(history);
		json_decref(latest);
		return -EBADMSG;
	}
	if (store_counters(s, host, &counters) < 0) {
		json_decref(history);
		json_decref(latest);
		return -EIO;
	}
	*doc = fleet_show_to_json(host, history, json_array_get(latest, 0), counters);
	json_decref(history);
	json_decref(latest);
	json_decref(counters);
	return *doc ? 0 : -ENOMEM;
}
