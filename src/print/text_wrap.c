#include "text_wrap.h"
#include "safe_stream.h"

#include <stdbool.h>
#include <string.h>

/* n bytes of s, cleaned as text_put_clean does. */
static void put_clean_n(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int bad = safe_seq((const unsigned char *)s + i, n - i, false);

		if (bad <= 0) {
			fputc(s[i], out);
			continue;
		}
		for (int j = 0; j < bad; j++)
			fputc('?', out);
		i += (size_t)bad - 1;
	}
}

void text_put_clean(FILE *out, const char *s)
{
	if (s)
		put_clean_n(out, s, strlen(s));
}

/* Columns of n bytes: UTF-8 continuation bytes take none. */
static size_t cols(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

static size_t ticks(const char *s, size_t n)
{
	size_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += s[i] == '`';
	return t;
}

size_t text_wrap(FILE *out, const char *s, size_t col, size_t indent, size_t width)
{
	bool line_start = true;

	if (!s)
		return col;
	while (*s) {
		size_t n = strcspn(s, " "), w;

		/* a `command` is kept on one line where it fits one, so that
		 * it can be copied */
		if (ticks(s, n) % 2) {
			const char *end = strchr(s + n, '`');

			if (end) {
				size_t m = (size_t)(end + 1 - s) + strcspn(end + 1, " ");

				if (width > indent && cols(s, m) <= width - indent)
					n = m;
			}
		}
		w = cols(s, n);

		if (n) {
			if (!line_start && col + 1 + w > width) {
				fprintf(out, "\n%*s", (int)indent, "");
				col = indent;
			} else if (!line_start) {
				fputc(' ', out);
				col++;
			}
			put_clean_n(out, s, n);
			col += w;
			line_start = false;
		}
		s += n;
		while (*s == ' ')
			s++;
	}
	return col;
}
