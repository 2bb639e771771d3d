/* Text for a terminal: values from the examined machine written with
 * their control characters replaced (they could be escape sequences), and
 * word-wrapped to a width. */
#ifndef RD_OUT_TEXT_WRAP_H
#define RD_OUT_TEXT_WRAP_H

#include <stddef.h>
#include <stdio.h>

/* s with control characters (C0, DEL, C1 written as UTF-8) as '?'. */
void text_put_clean(FILE *out, const char *s);

/* s word-wrapped and cleaned: the cursor stands at column col, lines
 * after the first start with indent spaces and end before width (a word
 * longer than a line stands alone on its line, unbroken).  Returns the
 * column after the last word. */
size_t text_wrap(FILE *out, const char *s, size_t col, size_t indent, size_t width);

#endif
