/* The one UTF-8 sequence validator: the fleet page's escaping and the
 * Prometheus exposition both replace what is not UTF-8 with U+FFFD. */
#ifndef RD_OUT_UTF8_H
#define RD_OUT_UTF8_H

#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes there
 * are not one (overlong forms, surrogates and values past U+10FFFF
 * included, as RFC 3629 says).  s is NUL-terminated: a sequence cut short
 * by the NUL is not one, and nothing past it is read. */
size_t utf8_seq_len(const unsigned char *s);

#endif
