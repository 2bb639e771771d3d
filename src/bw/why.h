/* The leaf modules of bw/ that report with a caller's text buffer instead
 * of a struct bw_err (rails.c, loopback.c): one way to fill it. */
#ifndef RD_BW_WHY_H
#define RD_BW_WHY_H

#include <stddef.h>

/* why = the formatted text (cut to whysz); returns err, for
 * `return bw_why(-EINVAL, why, whysz, ...)`. */
int bw_why(int err, char *why, size_t whysz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
