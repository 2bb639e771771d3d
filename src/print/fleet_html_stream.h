/* A stream of HTML for the fleet report: raw markup, escaped text and
 * attribute values, with the first write error kept so a page writer can
 * write everything and check once at the end (fleet_html.c). */
#ifndef RD_OUT_FLEET_HTML_STREAM_H
#define RD_OUT_FLEET_HTML_STREAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct html_out {
	FILE *f;
	bool failed;		/* a write failed: the page is not whole */
};

/* Markup from this program (never outside strings). */
void html_raw(struct html_out *o, const char *markup);
void html_printf(struct html_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Outside text, safe both as element text and as a double-quoted attribute
 * value: & < > " ' become entities; control characters (other than tab and
 * newline) and bytes that are not valid UTF-8 become U+FFFD, so a value can
 * neither open markup nor smuggle bytes a browser would guess about.  NULL
 * writes FLEET_MISSING (fleet/fields.h), the fleet's one spelling of a
 * missing value. */
void html_text(struct html_out *o, const char *s);

/* The string member key of o, or NULL where o has none (or not a string):
 * what html_text then writes as missing. */
const char *html_member(const json_t *o, const char *key);

/* html_text of at most max characters of s, the rest replaced by U+2026
 * (an ellipsis): for labels that must fit a figure. */
void html_text_clip(struct html_out *o, const char *s, size_t max);

/* Characters (UTF-8 code points; an invalid byte counts as one) in s, for
 * sizing SVG labels. */
size_t html_text_width(const char *s);

#endif
