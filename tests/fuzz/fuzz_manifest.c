/* libFuzzer target: any bytes as a snapshot's rdmadoctor-manifest
 * (sysfs/manifest.h).  The parser must refuse them with a reason and no
 * entries, or take exactly the count it says of relative paths within the
 * bounds; what it takes formats back to the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct manifest m, again;
	char why[200], *text;
	int rc = manifest_parse((const char *)data, size, &m, why, sizeof(why));

	if (rc < 0) {
		if (m.n || m.v || !why[0] || !memchr(why, '\0', sizeof(why)))
			abort();
		return 0;
	}
	if (m.n > MANIFEST_MAX_ENTRIES)
		abort();
	for (size_t i = 0; i < m.n; i++)
		if (!manifest_path_ok(m.v[i].path, strlen(m.v[i].path)))
			abort();
	text = manifest_format(&m);
	if (!text || strlen(text) != size || memcmp(text, data, size) != 0)
		abort();
	if (manifest_parse(text, strlen(text), &again, why, sizeof(why)) != 0 || again.n != m.n)
		abort();
	free(text);
	manifest_free(&again);
	manifest_free(&m);
	return 0;
}
