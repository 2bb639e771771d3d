/* JSON helpers the fleet's reports share: an object's keys in sorted order,
 * as they list hosts, switches and groups (so output does not depend on
 * hash order), and the nested objects they count into. */
#ifndef RD_FLEET_JSON_KEYS_H
#define RD_FLEET_JSON_KEYS_H

#include <jansson.h>

/* The keys of obj, sorted, NULL-terminated; malloc'd (the strings are
 * obj's own).  NULL when out of memory. */
const char **fleet_sorted_keys(const json_t *obj);

/* The keys of obj as a sorted JSON array of strings; NULL when out of
 * memory. */
json_t *fleet_sorted_key_array(const json_t *obj);

/* obj[key], an empty object made there when missing; NULL when out of
 * memory. */
json_t *fleet_json_child(json_t *obj, const char *key);

#endif
