/* ini_text.h: the lines of a text buffer, counted. */
#include "ini_text.h"

#include <string.h>

bool ini_text_next(struct ini_text *t, const char **line, size_t *n, int *bad)
{
	const char *s, *end;
	size_t k;

	if (t->pos >= t->len)
		return false;
	t->line++;
	s = t->text + t->pos;
	end = memchr(s, '\n', t->len - t->pos);
	k = end ? (size_t)(end - s) : t->len - t->pos;
	t->pos += k + (end ? 1 : 0);
	if (k && s[k - 1] == '\r')
		k--;			/* CRLF files */
	*bad = -1;
	for (size_t i = 0; i < k && *bad < 0; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			*bad = c;
	}
	while (k && (*s == ' ' || *s == '\t')) {
		s++;
		k--;
	}
	*line = s;
	*n = k;
	return true;
}
