/* fleet/fact_group.h */
#include "fact_group.h"

#include <string.h>

int fleet_group_make(json_t *fields, const char *model, const char *ll, json_t **group)
{
	*group = NULL;
	if (!json_object_size(fields)) {
		json_decref(fields);
		return 0;
	}
	*group = json_pack("{s:s, s:s, s:o}", "nic_model", model, "link_layer", ll, "fields",
			   fields);
	return *group ? 0 : -1;
}

bool fleet_group_is(const json_t *g, const char *model, const char *ll)
{
	const char *m = json_string_value(json_object_get(g, "nic_model"));
	const char *l = json_string_value(json_object_get(g, "link_layer"));

	return m && l && strcmp(m, model) == 0 && strcmp(l, ll) == 0;
}

const json_t *fleet_group_fields(const json_t *entry, const char *model, const char *ll)
{
	const json_t *g;
	size_t i;

	json_array_foreach(json_object_get(entry, "facts"), i, g)
		if (fleet_group_is(g, model, ll) && json_is_object(json_object_get(g, "fields")))
			return json_object_get(g, "fields");
	return NULL;
}
