/* bw/'s errors (the convention is stated at struct bw_err in engine.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

/* Formatted into a copy first: the arguments may quote e->msg itself
 * ("... (%s)", e->msg), which vsnprintf into the same buffer would not
 * survive.  format(printf, 2, 0): fmt is a printf format whose arguments
 * come as a va_list, so the compiler checks them where bw_errf and bw_errc
 * are called, and passing fmt on here is not a non-literal format. */
__attribute__((format(printf, 2, 0)))
static void fill(struct bw_err *e, const char *fmt, va_list ap)
{
	char tmp[sizeof(e->msg)];

	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	memcpy(e->msg, tmp, sizeof(tmp));
}

void bw_errf(struct bw_err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	fill(e, fmt, ap);
	va_end(ap);
}

int bw_errc(struct bw_err *e, enum bw_errc code, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		fill(e, fmt, ap);
		va_end(ap);
	}
	return -(int)code;
}
