/* libFuzzer target: any bytes as a count on plan's command line ("70B").
 * Accepted values are finite and above zero, and a whole number accepted
 * lies in its range. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/count.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	double v;
	long long n;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!plan_parse_count(s, &v) && !(isfinite(v) && v > 0))
		abort();
	if (!plan_parse_whole(s, 1, 1 << 20, &n) && (n < 1 || n > 1 << 20))
		abort();
	free(s);
	return 0;
}
