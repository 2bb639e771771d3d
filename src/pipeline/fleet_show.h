/* `fleet show HOST`'s document, from the store: the host's history, its
 * latest record whole and its counters' series. */
#ifndef RD_PIPELINE_FLEET_SHOW_H
#define RD_PIPELINE_FLEET_SHOW_H

#include <jansson.h>

#include "../store/store.h"

/* *doc: fleet_show_to_json()'s.  0; -EIO when the store failed
 * (store_error says why); -ENOENT when the host has no record; -EBADMSG
 * when its latest record does not carry the time it is stored under (the
 * file edited by hand); -ENOMEM. */
int fleet_show_load(struct store *s, const char *host, json_t **doc);

#endif
