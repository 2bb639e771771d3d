/* A host's latest record in the fleet database (what plan --host reads). */
#ifndef RD_STORE_HOST_LATEST_H
#define RD_STORE_HOST_LATEST_H

#include <jansson.h>

#include "store.h"

/* *out: the latest record of host in s (taken by the caller).  0;
 * -ENOENT when the host has no record; -EIO when the store cannot be read
 * (store_error says why). */
int store_host_latest(struct store *s, const char *host, json_t **out);

#endif
