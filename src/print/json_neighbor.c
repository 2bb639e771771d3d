/* A port's neighbour in JSON (json.h): the same object in the inventory's
 * ports and in check's rails. */
#include "json.h"
#include "../model/neighbor.h"

json_t *neighbor_to_json(const struct neighbor *n)
{
	if (!n)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o}", "system", json_string_or_null(n->system), "port",
			 json_string_or_null(n->port), "chassis_id",
			 json_string_or_null(n->chassis_id), "source",
			 json_string_or_null(n->source));
}
