/* Findings: the list every check appends to, and the verdict over it
 * (finding.h). */
#include "finding.h"
#include "../model/growbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct finding *finding_add(struct findings *fs, const char *id, enum severity sev,
			    const char *why)
{
	struct finding *f;

	f = growbuf_reserve(fs->v, &fs->cap, fs->n + 1, sizeof(*fs->v));
	if (!f)
		return NULL;
	fs->v = f;
	f = &fs->v[fs->n++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	f->why = why;
	return f;
}

void finding_set(char **field, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	free(*field);
	*field = s;
}

static void finding_clear(struct finding *f)
{
	free(f->subject);
	free(f->observed);
	free(f->expected);
	free(f->fix);
}

void findings_free(struct findings *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		finding_clear(&fs->v[i]);
	free(fs->v);
	fs->v = NULL;
	fs->n = fs->cap = 0;
}

void findings_remove_if(struct findings *fs, size_t from,
			bool (*gone)(const struct finding *f, size_t i, const void *ctx),
			const void *ctx)
{
	size_t kept = from;

	for (size_t i = from; i < fs->n; i++) {
		if (gone(&fs->v[i], i - from, ctx))
			finding_clear(&fs->v[i]);
		else
			fs->v[kept++] = fs->v[i];
	}
	fs->n = kept;
}

const char *severity_name(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "error";
	case SEV_WARN:
		return "warn";
	case SEV_INFO:
		return "info";
	}
	return "info";
}

const char *check_verdict(const struct findings *fs)
{
	bool warn = false;

	for (size_t i = 0; i < fs->n; i++) {
		if (fs->v[i].waived)
			continue;
		if (fs->v[i].severity == SEV_ERROR)
			return "fail";
		if (fs->v[i].severity == SEV_WARN)
			warn = true;
	}
	return warn ? "warn" : "pass";
}
