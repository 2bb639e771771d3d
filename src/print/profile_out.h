/* The profiles as JSON (docs/json/profiles.md): `profiles --json` lists
 * the built-in ones, `profiles show NAME --json` gives one whole.  Not
 * judged ("any") is null, as everywhere in the JSON output. */
#ifndef RD_PRINT_PROFILE_OUT_H
#define RD_PRINT_PROFILE_OUT_H

#include <jansson.h>

#include "../profiles/profile.h"

/* NULL when out of memory. */
json_t *profile_to_json(const struct profile *p);
/* {"schema": 1, "profiles": [{name, description}...]}; NULL when out of
 * memory. */
json_t *profiles_list_to_json(void);

#endif
