/* libFuzzer target: any bytes as /run/rdmadoctor/einval (the EINVAL
 * memory, state/einval_state.h).  The parser must refuse them with a
 * reason and no paths, or take only relative paths of allowed characters
 * within the bounds, of the boot asked for; what it takes formats back to
 * text it takes again, the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/einval_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BOOT "6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct einval_state s, again;
	char why[160];
	bool same, same2;
	char *text;
	int rc = einval_state_parse((const char *)data, size, BOOT, &same, &s, why, sizeof(why));

	if (rc < 0) {
		if (s.n || s.paths || same || !why[0] || !memchr(why, '\0', sizeof(why)))
			abort();
		return 0;
	}
	if (!same && s.n)
		abort();
	if (s.n > EINVAL_STATE_MAX_PATHS)
		abort();
	for (size_t i = 0; i < s.n; i++)
		if (!einval_state_path_ok(s.paths[i], strlen(s.paths[i])) ||
		    !einval_state_has(&s, s.paths[i]))
			abort();
	text = einval_state_format(&s, BOOT);
	if (!text)
		abort();
	if (einval_state_parse(text, strlen(text), BOOT, &same2, &again, why, sizeof(why)) != 0 ||
	    !same2 || again.n != s.n)
		abort();
	for (size_t i = 0; i < s.n; i++)
		if (strcmp(again.paths[i], s.paths[i]) != 0)
			abort();
	free(text);
	einval_state_free(&again);
	einval_state_free(&s);
	return 0;
}
