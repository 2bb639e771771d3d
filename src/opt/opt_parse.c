/* Option values (opt_parse.h). */
#include "opt_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool opt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* strtoull would take "-1" as a huge number, and leading blanks */
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool opt_parse_bytes(const char *s, uint64_t max, uint64_t *out)
{
	char buf[32];
	size_t n = s ? strlen(s) : 0;
	uint64_t mul = 1, v;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n + 1);
	switch (buf[n - 1]) {
	case 'K': case 'k': mul = 1ull << 10; break;
	case 'M': case 'm': mul = 1ull << 20; break;
	case 'G': case 'g': mul = 1ull << 30; break;
	default: break;
	}
	if (mul > 1)
		buf[n - 1] = 0;
	if (!opt_parse_u64(buf, 1, max / mul, &v))
		return false;
	*out = v * mul;
	return true;
}

bool opt_parse_ifname(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n > 15 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || isspace((unsigned char)*s))
			return false;
	return true;
}

bool opt_parse_number(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v) || v < min || v > max)
		return false;
	*out = v;
	return true;
}
