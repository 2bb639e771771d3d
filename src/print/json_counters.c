/* A counter set as the JSON documents write it: an object of name to
 * value, null for a counter that could not be read.  A leaf: the
 * inventory, the NPU and the watch documents call it. */
#include "json.h"

#include <stdint.h>

json_t *counters_to_json(const struct counter_set *set)
{
	json_t *o = json_object();

	for (size_t i = 0; i < set->n; i++) {
		const struct counter *c = &set->v[i];
		json_t *v = !c->ok ? json_null() :
			    /* past what a JSON integer holds here: still a number */
			    c->value > INT64_MAX ? json_real((double)c->value) :
			    json_integer((json_int_t)c->value);
		json_t *key = json_string_or_null(c->name);

		if (json_is_string(key))
			json_object_set_new(o, json_string_value(key), v);
		else
			json_decref(v);
		json_decref(key);
	}
	return o;
}
