/* The line source that both INI parsers (profiles, the site file) hand to
 * libinih: one line of a text buffer per call, counted, so that every
 * error can say FILE:LINE.  A leaf: it knows neither parser. */
#ifndef RD_PROFILES_INI_TEXT_H
#define RD_PROFILES_INI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct ini_text {
	const char *text;
	size_t len, pos;	/* pos: where the next line starts */
	int line;		/* the line handed out last, from 1 */
};

/* The next line: *line and *n without its end (LF or CRLF) and without
 * its leading blanks; *bad the first control character in it other than
 * a tab (a NUL included), else -1.  false at the end of the text. */
bool ini_text_next(struct ini_text *t, const char **line, size_t *n, int *bad);

#endif
