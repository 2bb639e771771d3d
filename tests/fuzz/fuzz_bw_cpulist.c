/* libFuzzer target: the kernel's cpulist text ("0-15,32-47") that bw pins
 * its rail threads with (bw_cpulist_parse in src/bw/session.c), read from a
 * file through the root handle (a replayed snapshot may hold anything).
 * A list that parses names at least one CPU, each below CPU_SETSIZE. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bw/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	cpu_set_t set;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	if (bw_cpulist_parse(s, &set) == 0 && CPU_COUNT(&set) == 0)
		abort();
	free(s);
	return 0;
}
