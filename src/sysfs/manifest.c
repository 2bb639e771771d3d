/* A snapshot's manifest (manifest.h). */
#include "manifest.h"
#include "../model/growbuf.h"
#include "../model/line_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool manifest_path_ok(const char *p, size_t n)
{
	size_t start = 0;

	if (!n || n > MANIFEST_MAX_PATH || p[0] == '/')
		return false;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '/') {
			if (p[i] == '\n' || p[i] == '\0')
				return false;
			continue;
		}
		if (i == start || (i - start == 1 && p[start] == '.') ||
		    (i - start == 2 && p[start] == '.' && p[start + 1] == '.'))
			return false;
		start = i + 1;
	}
	return true;
}

void manifest_free(struct manifest *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static int push(struct manifest *m, char kind, const char *p, size_t n)
{
	struct manifest_entry *v = growbuf_reserve(m->v, &m->cap, m->n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	m->v = v;
	v[m->n].kind = kind;
	v[m->n].path = strndup(p, n);
	if (!v[m->n].path)
		return -ENOMEM;
	m->n++;
	return 0;
}

static bool kind_ok(char k)
{
	return k == 'f' || k == 'l' || k == 'd' || k == 'e';
}

int manifest_add(struct manifest *m, char kind, const char *path)
{
	size_t n = strlen(path);

	if (!kind_ok(kind) || !manifest_path_ok(path, n) || m->n >= MANIFEST_MAX_ENTRIES)
		return -EINVAL;
	return push(m, kind, path, n);
}

char *manifest_format(const struct manifest *m)
{
	size_t len = strlen(MANIFEST_MAGIC) + 40, at;
	char *text;

	for (size_t i = 0; i < m->n; i++)
		len += strlen(m->v[i].path) + 3;
	text = malloc(len);
	if (!text)
		return NULL;
	at = (size_t)snprintf(text, len, "%s\nentries %zu\n", MANIFEST_MAGIC, m->n);
	for (size_t i = 0; i < m->n && at < len; i++)
		at += (size_t)snprintf(text + at, len - at, "%c %s\n", m->v[i].kind, m->v[i].path);
	return text;
}

/* "entries N": N at most MANIFEST_MAX_ENTRIES, no sign, no leading zero. */
static bool entries_line(const char *p, size_t n, size_t *out)
{
	size_t v = 0;

	if (n < 9 || memcmp(p, "entries ", 8) || n - 8 > 7 || (n - 8 > 1 && p[8] == '0'))
		return false;
	for (size_t i = 8; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (size_t)(p[i] - '0');
	}
	if (v > MANIFEST_MAX_ENTRIES)
		return false;
	*out = v;
	return true;
}

/* Lines end in '\n', the last one too: a file cut short is malformed. */
int manifest_parse(const char *text, size_t len, struct manifest *out, char *why,
		   size_t why_len)
{
	struct line_walk w = LINE_WALK(text, len);
	const char *p;
	size_t n, want = 0;
	int line, rc;

	memset(out, 0, sizeof(*out));
	if (why_len)
		why[0] = '\0';
	if (!text || len > MANIFEST_MAX_TEXT)
		return line_error(why, why_len, 0, "larger than %u MiB", MANIFEST_MAX_TEXT >> 20);
	while ((rc = line_next(&w, &p, &n, why, why_len)) > 0) {
		line = w.line;
		if (line == 1) {
			rc = line_magic(p, n, MANIFEST_MAGIC, line, why, why_len);
		} else if (line == 2) {
			if (!entries_line(p, n, &want))
				rc = line_error(why, why_len, line, "expected 'entries N' (N at most %u)",
						MANIFEST_MAX_ENTRIES);
		} else if (out->n >= want) {
			rc = line_error(why, why_len, line, "more than the %zu entries it says", want);
		} else if (n < 3 || !kind_ok(p[0]) || p[1] != ' ' || !manifest_path_ok(p + 2, n - 2)) {
			rc = line_error(why, why_len, line, "expected 'f|l|d|e PATH', a relative path");
		} else {
			rc = push(out, p[0], p + 2, n - 2);
		}
		if (rc < 0)
			break;
	}
	line = w.line;
	if (rc == 0 && line < 2)
		rc = line_error(why, why_len, line + 1, "cut short (no %s)",
				line ? "'entries' line" : "header");
	if (rc == 0 && out->n != want)
		rc = line_error(why, why_len, line, "%zu entries where it says %zu", out->n, want);
	if (rc < 0)
		manifest_free(out);
	return rc;
}
