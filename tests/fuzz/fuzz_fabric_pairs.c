/* libFuzzer target: the --pairs FILE of `rdmadoctor fabric` (src/fabric/
 * schedule.c).  Seeds in corpus/fabric_pairs/.  A schedule that parses
 * never has a node twice in a round nor a node with itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/schedule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = { "a", "b", "c", "gpu-01", "gpu-02", "n:5" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fab_schedule s;
	char err[200];

	if (fab_schedule_parse((const char *)data, size, names, 6, &s, err, sizeof(err)) != 0)
		return 0;
	for (size_t r = 0; r < s.n_rounds; r++) {
		uint8_t busy[6] = { 0 };

		if (!s.rounds[r].n_pairs)
			abort();
		for (size_t i = 0; i < s.rounds[r].n_pairs; i++) {
			const struct fab_pair *p = &s.rounds[r].pairs[i];

			if (p->a >= p->b || p->b >= 6 || busy[p->a] || busy[p->b])
				abort();
			busy[p->a] = busy[p->b] = 1;
		}
	}
	fab_schedule_free(&s);
	return 0;
}
