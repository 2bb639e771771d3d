/* printf for text output with every %s cleaned (text_printf.h).  The
 * format is walked one conversion at a time: the text between goes out
 * as it is, each conversion through vfprintf with its one argument, a %s
 * first copied with its controls replaced (each by as many bytes, so a
 * width still lines the columns up). */
#include "text_printf.h"
#include "safe_stream.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* One conversion, spec its whole text ("%-12s"): passed as a va_list so
 * that the format, built here, is not a literal the compiler must see. */
static int put_one(FILE *out, const char *spec, ...)
{
	va_list ap;
	int n;

	va_start(ap, spec);
	/* spec is one conversion cut from the caller's format, which the
	 * compiler checked at text_printf's call (its format attribute) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	n = vfprintf(out, spec, ap);
#pragma GCC diagnostic pop
	va_end(ap);
	return n;
}

/* s (n bytes at most) with its controls as '?', or NULL: no memory. */
static char *cleaned(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *c = malloc(len + 1);

	if (!c)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		int bad = safe_seq((const unsigned char *)s + i, len - i, false);

		if (bad <= 0) {
			c[i] = s[i];
			continue;
		}
		memset(c + i, '?', (size_t)bad);
		i += (size_t)bad - 1;
	}
	c[len] = '\0';
	return c;
}

/* A %s: its argument cleaned, then written with the spec's width and
 * precision (which come before it when they are '*'). */
static int put_string(FILE *out, const char *spec, const int *stars, int n_stars,
		      size_t precision, const char *s)
{
	char *c;
	int n;

	if (!s)
		s = "(null)";
	c = cleaned(s, precision);
	if (!c)
		return -1;
	if (n_stars == 2)
		n = put_one(out, spec, stars[0], stars[1], c);
	else if (n_stars == 1)
		n = put_one(out, spec, stars[0], c);
	else
		n = put_one(out, spec, c);
	free(c);
	return n;
}

/* The argument of one conversion, by its letter and length modifier. */
#define PUT_ARG(type)							\
	(n_stars == 2 ? put_one(out, spec, stars[0], stars[1], va_arg(ap, type)) : \
	 n_stars == 1 ? put_one(out, spec, stars[0], va_arg(ap, type)) :	\
	 put_one(out, spec, va_arg(ap, type)))

int text_printf(FILE *out, const char *fmt, ...)
{
	va_list ap;
	int total = 0, rc = 0;

	va_start(ap, fmt);
	while (*fmt && rc >= 0) {
		const char *start = fmt;
		char spec[32], len[3] = "";
		int stars[2], n_stars = 0;
		size_t precision = SIZE_MAX, k;

		if (*fmt != '%' || fmt[1] == '%') {
			/* plain text, or %% */
			k = *fmt == '%' ? 1 : strcspn(fmt, "%");
			rc = fwrite(fmt, 1, k, out) == k ? (int)k : -1;
			fmt += *fmt == '%' ? 2 : k;
			total += rc;
			continue;
		}
		fmt++;
		fmt += strspn(fmt, "-+ #0'");
		if (*fmt == '*') {
			stars[n_stars++] = va_arg(ap, int);
			fmt++;
		} else {
			fmt += strspn(fmt, "0123456789");
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				int p = va_arg(ap, int);

				stars[n_stars++] = p;
				precision = p < 0 ? SIZE_MAX : (size_t)p;
				fmt++;
			} else {
				precision = strtoul(fmt, NULL, 10);
				fmt += strspn(fmt, "0123456789");
			}
		}
		k = strspn(fmt, "hljztL");
		if (k > 2 || (size_t)(fmt + k + 1 - start) >= sizeof(spec)) {
			rc = -1;	/* no such conversion */
			break;
		}
		memcpy(len, fmt, k);
		len[k] = '\0';
		fmt += k;
		memcpy(spec, start, (size_t)(fmt + 1 - start));
		spec[fmt + 1 - start] = '\0';
		switch (*fmt++) {
		case 'd':
		case 'i':
			rc = !strcmp(len, "l") ? PUT_ARG(long) : !strcmp(len, "ll") ? PUT_ARG(long long) :
			     !strcmp(len, "z") ? PUT_ARG(ssize_t) : !strcmp(len, "j") ? PUT_ARG(intmax_t) :
			     !strcmp(len, "t") ? PUT_ARG(ptrdiff_t) : PUT_ARG(int);
			break;
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			rc = !strcmp(len, "l") ? PUT_ARG(unsigned long) :
			     !strcmp(len, "ll") ? PUT_ARG(unsigned long long) :
			     !strcmp(len, "z") ? PUT_ARG(size_t) : !strcmp(len, "j") ? PUT_ARG(uintmax_t) :
			     !strcmp(len, "t") ? PUT_ARG(ptrdiff_t) : PUT_ARG(unsigned int);
			break;
		case 'e':
		case 'E':
		case 'f':
		case 'F':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			rc = !strcmp(len, "L") ? PUT_ARG(long double) : PUT_ARG(double);
			break;
		case 'c':
			rc = PUT_ARG(int);
			break;
		case 'p':
			rc = PUT_ARG(void *);
			break;
		case 's':
			rc = len[0] ? -1 : put_string(out, spec, stars, n_stars, precision,
						      va_arg(ap, const char *));
			break;
		default:
			rc = -1;	/* %n, or no conversion at all */
			break;
		}
		total += rc;
	}
	va_end(ap);
	return rc < 0 ? -1 : total;
}
