/* The facts groups that are no NIC model: a record's per-rail switches
 * (fleet/rails.h) and per-board firmware (fleet/firmware.h) ride in the
 * drift facts as a group {nic_model, link_layer, fields} with names no NIC
 * has, so the store needs no schema of its own for them.  Made, told
 * apart and found here, once. */
#ifndef RD_FLEET_FACT_GROUP_H
#define RD_FLEET_FACT_GROUP_H

#include <jansson.h>
#include <stdbool.h>

/* *group = {nic_model: model, link_layer: ll, fields} (fields taken);
 * no group (*group NULL) when fields is empty.  0, or -1 out of memory. */
int fleet_group_make(json_t *fields, const char *model, const char *ll, json_t **group);
/* Whether g is the group of that model and link layer. */
bool fleet_group_is(const json_t *g, const char *model, const char *ll);
/* The fields of that group in a host entry's "facts", or NULL. */
const json_t *fleet_group_fields(const json_t *entry, const char *model, const char *ll);

#endif
