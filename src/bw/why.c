/* bw_why: see why.h. */
#include "why.h"

#include <stdarg.h>
#include <stdio.h>

int bw_why(int err, char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return err;
}
