#include "fleet_html_stream.h"
#include "utf8.h"
#include "../fleet/fields.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void put(struct html_out *o, const char *s, size_t n)
{
	if (o->failed || !n)
		return;
	if (fwrite(s, 1, n, o->f) != n)
		o->failed = true;
}

void html_raw(struct html_out *o, const char *markup)
{
	put(o, markup, strlen(markup));
}

void html_printf(struct html_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->failed)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->failed = true;
	va_end(ap);
}

static const char *entity(unsigned char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

void html_text(struct html_out *o, const char *s)
{
	const unsigned char *p, *run;

	if (!s)
		s = FLEET_MISSING;
	p = run = (const unsigned char *)s;
	while (*p) {
		const char *ent = entity(*p);
		size_t n = utf8_seq_len(p);
		bool control = *p < 0x20 ? (*p != '\t' && *p != '\n') : *p == 0x7f;

		if (!ent && n && !control) {
			p += n;
			continue;
		}
		put(o, (const char *)run, (size_t)(p - run));
		html_raw(o, ent ? ent : "&#xFFFD;");
		p += n ? n : 1;
		run = p;
	}
	put(o, (const char *)run, (size_t)(p - run));
}

size_t html_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : FLEET_MISSING);
	size_t w = 0;

	while (*p) {
		size_t n = utf8_seq_len(p);

		p += n ? n : 1;
		w++;
	}
	return w;
}

void html_text_clip(struct html_out *o, const char *s, size_t max)
{
	const unsigned char *p;
	size_t w = 0;
	char *head;

	if (!s)
		s = FLEET_MISSING;
	p = (const unsigned char *)s;

	while (*p && w < max) {
		size_t n = utf8_seq_len(p);

		p += n ? n : 1;
		w++;
	}
	if (!*p) {
		html_text(o, s);
		return;
	}
	head = strndup(s, (size_t)(p - (const unsigned char *)s));
	if (!head) {
		o->failed = true;	/* the page could not be whole */
		return;
	}
	html_text(o, head);
	html_raw(o, "\xe2\x80\xa6");
	free(head);
}

const char *html_member(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}
