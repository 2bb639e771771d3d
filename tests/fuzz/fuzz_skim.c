/* libFuzzer target: the validating JSON skim of `record --from`
 * (src/fleet/skim.c) against jansson itself.  Whatever the bytes, both
 * take them or both refuse them (but a NUL byte, refused here only), and
 * the slim copy parses to the same document less the dropped members.  Seeds in corpus/skim/. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fleet/skim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* jansson's tree without the members of the drop keys. */
static void remove_dropped(json_t *j)
{
	const char *k;
	json_t *v, *tmp;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach_safe(j, tmp, k, v) {
			bool drop = false;

			for (const char *const *d = fleet_skim_drop; *d; d++)
				drop |= strcmp(*d, k) == 0;
			if (drop)
				json_object_del(j, k);
			else
				remove_dropped(v);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			remove_dropped(v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL), *k;
	char *slim, why[200];
	size_t len;
	int rc = fleet_skim((const char *)data, size, fleet_skim_drop, &slim, &len, why,
			    sizeof(why));

	/* a NUL byte is refused here; jansson takes it in places */
	if (memchr(data, 0, size)) {
		if (rc != -1)
			abort();
		json_decref(j);
		return 0;
	}
	if ((rc == 0) != (j != NULL))
		abort();	/* the two disagree on what is JSON */
	if (rc == 0) {
		/* jansson keeps the last of duplicate keys; a dropped key
		 * given twice is gone either way */
		k = json_loadb(slim, len, 0, NULL);
		remove_dropped(j);
		if (!k || !json_equal(j, k) || strlen(slim) != len)
			abort();
		json_decref(k);
		free(slim);
	} else if (rc != -1 || !why[0]) {
		abort();
	}
	json_decref(j);
	return 0;
}
