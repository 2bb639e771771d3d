/* The line-oriented texts rdmadoctor keeps (its memories:
 * state/latch_state.h, state/einval_state.h; snapshot's manifest,
 * sysfs/manifest.h): every line ends in '\n', the last one too (a file cut
 * short is malformed), and the first is the format's magic.  Their parsers
 * walk the lines with line_next and say what is wrong as "line N: what". */
#ifndef RD_MODEL_LINE_TEXT_H
#define RD_MODEL_LINE_TEXT_H

#include <stddef.h>

/* "line LINE: " and the message into why (cut to why_len); -EINVAL. */
int line_error(char *why, size_t why_len, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct line_walk {
	const char *p, *end;
	int line;		/* the number of the line last given */
};

#define LINE_WALK(text, len) { (text), (text) + (len), 0 }

/* The next line, without its newline, in *s and *n (w->line its number):
 * 1; 0 at the end of the text; -EINVAL with why set when the line has no
 * newline. */
int line_next(struct line_walk *w, const char **s, size_t *n, char *why, size_t why_len);
/* Line `line` (s, n) is the format's magic: 0, or -EINVAL with why set. */
int line_magic(const char *s, size_t n, const char *magic, int line, char *why, size_t why_len);

#endif
