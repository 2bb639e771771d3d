/* The Prometheus text format 0.0.4 (exposition_formats.md): lines of
 * "# HELP", "# TYPE" and samples; all lines of a family together. */
#include "expo.h"
#include "../model/growbuf.h"
#include "../print/safe_stream.h"
#include "../print/utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void expo_init(struct expo *e)
{
	memset(e, 0, sizeof(*e));
}

void expo_free(struct expo *e)
{
	free(e->buf);
	expo_init(e);
}

bool expo_failed(const struct expo *e)
{
	return e->failed;
}

char *expo_take(struct expo *e, size_t *len)
{
	char *text = e->buf;

	if (e->failed || !text) {
		expo_free(e);
		/* an empty exposition is still a valid one */
		text = e->failed ? NULL : calloc(1, 1);
		*len = 0;
		return text;
	}
	*len = e->len;
	expo_init(e);
	return text;
}

/* Room for n more bytes and the NUL. */
static bool reserve(struct expo *e, size_t n)
{
	char *p;

	if (e->failed)
		return false;
	if (n < e->cap - e->len)
		return true;
	if (n > SIZE_MAX / 2 - e->len - 1) {
		e->failed = true;
		return false;
	}
	p = growbuf_reserve(e->buf, &e->cap, e->len + n + 1, 1);
	if (!p) {
		e->failed = true;
		return false;
	}
	e->buf = p;
	return true;
}

static void put(struct expo *e, const char *s, size_t n)
{
	if (!reserve(e, n))
		return;
	memcpy(e->buf + e->len, s, n);
	e->len += n;
	e->buf[e->len] = '\0';
}

static void puts_(struct expo *e, const char *s)
{
	put(e, s, strlen(s));
}

static void putc_(struct expo *e, char c)
{
	put(e, &c, 1);
}

/* Text with backslash and newline escaped, and the double quote too when
 * in a label value; broken UTF-8, other control characters (ESC: a
 * terminal that shows a scrape obeys it) and bidirectional controls
 * (safe_stream.h's rule) replaced by U+FFFD. */
static void put_escaped(struct expo *e, const char *s, bool quote)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_seq_len(p);
		int bad = *p == '\n' ? 0 : safe_seq(p, strnlen((const char *)p, 3), false);

		if (n == 0 || bad > 0) {
			puts_(e, "\xef\xbf\xbd");	/* U+FFFD */
			p += bad > 0 ? (size_t)bad : 1;
		} else if (*p == '\\') {
			puts_(e, "\\\\");
			p++;
		} else if (*p == '\n') {
			puts_(e, "\\n");
			p++;
		} else if (*p == '"' && quote) {
			puts_(e, "\\\"");
			p++;
		} else {
			put(e, (const char *)p, n);
			p += n;
		}
	}
}

void expo_label_value(struct expo *e, const char *value)
{
	put_escaped(e, value ? value : "", true);
}

bool expo_metric_name_ok(const char *name)
{
	if (!name || !*name || (name[0] >= '0' && name[0] <= '9'))
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == ':'))
			return false;
	return true;
}

void expo_family(struct expo *e, const char *name, const char *type, const char *help)
{
	puts_(e, "# HELP ");
	puts_(e, name);
	putc_(e, ' ');
	put_escaped(e, help, false);
	puts_(e, "\n# TYPE ");
	puts_(e, name);
	putc_(e, ' ');
	puts_(e, type);
	putc_(e, '\n');
}

void expo_number(struct expo *e, double v)
{
	char text[40];

	if (isnan(v)) {
		puts_(e, "NaN");
		return;
	}
	if (isinf(v)) {
		puts_(e, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	/* %.15g is exact for what people write (400e9, 0.25); %.17g for the
	 * rest, so that the scraper reads back the very same double */
	snprintf(text, sizeof(text), "%.15g", v);
	if (strtod(text, NULL) != v)
		snprintf(text, sizeof(text), "%.17g", v);
	puts_(e, text);
}

static void put_series(struct expo *e, const char *name, const struct expo_label *labels,
		       size_t n_labels)
{
	puts_(e, name);
	if (!n_labels)
		return;
	putc_(e, '{');
	for (size_t i = 0; i < n_labels; i++) {
		if (i)
			putc_(e, ',');
		puts_(e, labels[i].name);
		puts_(e, "=\"");
		expo_label_value(e, labels[i].value);
		putc_(e, '"');
	}
	putc_(e, '}');
}

void expo_sample(struct expo *e, const char *name, const struct expo_label *labels,
		 size_t n_labels, double value)
{
	put_series(e, name, labels, n_labels);
	putc_(e, ' ');
	expo_number(e, value);
	putc_(e, '\n');
}

void expo_sample_u64(struct expo *e, const char *name, const struct expo_label *labels,
		     size_t n_labels, uint64_t value)
{
	char text[24];

	put_series(e, name, labels, n_labels);
	snprintf(text, sizeof(text), " %" PRIu64 "\n", value);
	puts_(e, text);
}

static void fam_begin(struct expo *e, struct expo_fam *f)
{
	if (!f->begun)
		expo_family(e, f->name, f->type, f->help);
	f->begun = true;
}

void expo_fam_sample(struct expo *e, struct expo_fam *f, const struct expo_label *labels,
		     size_t n_labels, double value)
{
	fam_begin(e, f);
	expo_sample(e, f->name, labels, n_labels, value);
}

void expo_fam_sample_u64(struct expo *e, struct expo_fam *f, const struct expo_label *labels,
			 size_t n_labels, uint64_t value)
{
	fam_begin(e, f);
	expo_sample_u64(e, f->name, labels, n_labels, value);
}
