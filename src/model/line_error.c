/* line_error.h */
#include "line_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int line_error(char *why, size_t why_len, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(why, why_len, "line %d: ", line);

	if (n >= 0 && (size_t)n < why_len) {
		va_start(ap, fmt);
		vsnprintf(why + n, why_len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}
