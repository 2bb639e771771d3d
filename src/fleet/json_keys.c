/* The fleet reports' JSON helpers (fleet/json_keys.h). */
#include "json_keys.h"

#include <stdlib.h>
#include <string.h>

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **fleet_sorted_keys(const json_t *obj)
{
	const char **keys = calloc(json_object_size(obj) + 1, sizeof(*keys));
	const char *k;
	json_t *v;
	size_t n = 0;

	if (!keys)
		return NULL;
	json_object_foreach((json_t *)obj, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof(*keys), str_cmp);
	return keys;
}

json_t *fleet_sorted_key_array(const json_t *obj)
{
	const char **names = fleet_sorted_keys(obj);
	json_t *out = names ? json_array() : NULL;

	for (size_t i = 0; out && names[i]; i++)
		if (json_array_append_new(out, json_string(names[i])) < 0) {
			json_decref(out);
			out = NULL;
		}
	free(names);
	return out;
}

json_t *fleet_json_child(json_t *obj, const char *key)
{
	json_t *c = json_object_get(obj, key);

	if (c)
		return c;
	c = json_object();
	return json_object_set_new(obj, key, c) < 0 ? NULL : c;
}
