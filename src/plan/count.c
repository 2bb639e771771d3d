#include "count.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

static double suffix_scale(char c)
{
	switch (c) {
	case 'k': case 'K': return 1e3;
	case 'm': case 'M': return 1e6;
	case 'b': case 'B': case 'g': case 'G': return 1e9;
	case 't': case 'T': return 1e12;
	default: return 0;
	}
}

const char *plan_parse_count(const char *s, double *out)
{
	char *end;
	double v, scale = 1;

	const char *digits = s && (*s == '-' || *s == '+') ? s + 1 : s;

	/* strtod would also skip leading blanks and read "inf", "nan" and hex */
	if (!s || !(isdigit((unsigned char)*digits) || *digits == '.'))
		return "is not a number";
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		return "is not a number (write it in decimal: 70B, 8e9, 4096)";
	errno = 0;
	v = strtod(s, &end);
	if (end == s)
		return "is not a number";
	if (*end == ' ' || *end == '\t')
		return "has a space in it (write 70B, not 70 B)";
	if (*end) {
		scale = suffix_scale(*end);
		if (!scale)
			return "has an unknown suffix (use K, M, B or T: 70B, 405B, 8e9)";
		if (end[1])
			return "has something after its suffix (write 70B, not 70Bn or 70 B)";
	}
	if (errno == ERANGE && fabs(v) > 1)
		return "is too large";
	v *= scale;
	if (isnan(v) || !isfinite(v))
		return "is too large";
	if (v <= 0)
		return "must be more than zero";
	*out = v;
	return NULL;
}

const char *plan_parse_whole(const char *s, long long min, long long max, long long *out)
{
	double v;
	const char *why = plan_parse_count(s, &v);

	if (why)
		return why;
	if (v != floor(v))
		return "must be a whole number";
	if (v < (double)min || v > (double)max)
		return "is out of range";
	*out = (long long)v;
	return NULL;
}
