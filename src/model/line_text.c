/* line_text.h */
#include "line_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

int line_next(struct line_walk *w, const char **s, size_t *n, char *why, size_t why_len)
{
	const char *nl;

	if (w->p >= w->end)
		return 0;
	w->line++;
	nl = memchr(w->p, '\n', (size_t)(w->end - w->p));
	if (!nl)
		return line_error(why, why_len, w->line, "cut short (no newline)");
	*s = w->p;
	*n = (size_t)(nl - w->p);
	w->p = nl + 1;
	return 1;
}

int line_magic(const char *s, size_t n, const char *magic, int line, char *why, size_t why_len)
{
	if (n == strlen(magic) && !memcmp(s, magic, n))
		return 0;
	return line_error(why, why_len, line, "expected '%s'", magic);
}
