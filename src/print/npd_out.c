/* check --npd (npd_out.h): one message that fits NPD's 80 bytes whole, so
 * that NPD's own cut never splits a word or a UTF-8 character. */
#include "npd_out.h"
#include "../profiles/profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message being built: at most NPD_MAX_MESSAGE bytes, cut with "..." at
 * a character boundary when the text is longer. */
struct msg {
	char s[NPD_MAX_MESSAGE + 1];
	size_t len;
	bool cut;
};

/* Append text with control characters as blanks (outside data: a subject
 * or observed value read from the machine), keeping room for tail. */
static void put(struct msg *m, const char *text, size_t tail)
{
	size_t room = NPD_MAX_MESSAGE - tail;

	for (const unsigned char *p = (const unsigned char *)text; p && *p && !m->cut; p++) {
		if (m->len >= room) {
			m->cut = true;
			break;
		}
		m->s[m->len++] = (char)(*p < 0x20 || *p == 0x7f ? ' ' : *p);
	}
}

/* End the message: when cut, back off to a character boundary and a
 * blank if there is one near, and say "..."; then the tail. */
static void finish(FILE *out, struct msg *m, const char *tail)
{
	if (m->cut) {
		size_t keep = m->len > 3 ? m->len - 3 : 0;

		while (keep > 0 && ((unsigned char)m->s[keep] & 0xc0) == 0x80)
			keep--;	/* not inside a UTF-8 sequence */
		m->len = keep;
		memcpy(m->s + m->len, "...", 3);
		m->len += 3;
	}
	m->s[m->len] = '\0';
	fprintf(out, "%s%s\n", m->s, tail);
}

/* "ID SUBJECT: OBSERVED" and, when there are more, " (+N more)". */
static void one(FILE *out, const char *lead, const struct finding *f, size_t more)
{
	struct msg m = { .len = 0 };
	char tail[32] = "";

	if (more)
		snprintf(tail, sizeof(tail), " (+%zu more)", more);
	put(&m, lead, strlen(tail));
	put(&m, f->id, strlen(tail));
	put(&m, " ", strlen(tail));
	put(&m, f->subject ? f->subject : "host", strlen(tail));
	put(&m, ": ", strlen(tail));
	put(&m, f->observed ? f->observed : "?", strlen(tail));
	finish(out, &m, tail);
}

enum npd_status npd_check(FILE *out, const struct check_report *rep)
{
	size_t errors, unchecked, warnings = 0;
	const struct finding *f = check_lead_error(rep->findings, &errors);
	struct msg m = { .len = 0 };
	char line[NPD_MAX_MESSAGE + 1];

	if (f) {
		one(out, "", f, errors - 1);
		return NPD_PROBLEM;
	}
	f = check_lead_unchecked(rep->findings, &unchecked);
	if (f) {
		one(out, "not checked: ", f, unchecked - 1);
		return NPD_UNKNOWN;
	}
	for (size_t i = 0; i < rep->findings->n; i++)
		warnings += rep->findings->v[i].severity == SEV_WARN && !rep->findings->v[i].waived;
	if (warnings)
		snprintf(line, sizeof(line), "OK, %zu warning%s: rdmadoctor check says which", warnings,
			 warnings == 1 ? "" : "s");
	else
		snprintf(line, sizeof(line), "OK: rdmadoctor check passes");
	put(&m, line, 0);
	if (rep->profile && rep->profile->name) {
		put(&m, " (", 0);
		put(&m, rep->profile->name, 1);
		put(&m, ")", 0);
	}
	finish(out, &m, "");
	return NPD_OK;
}

void npd_error(FILE *out, const char *why)
{
	struct msg m = { .len = 0 };

	static const char *const prefixes[] = { "rdmadoctor check: ", "rdmadoctor: " };

	/* the error as the program says it on stderr, without its name */
	for (size_t i = 0; why && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(why, prefixes[i], strlen(prefixes[i])))
			why += strlen(prefixes[i]);
	put(&m, "rdmadoctor could not check: ", 0);
	put(&m, why && *why ? why : "see its stderr", 0);
	finish(out, &m, "");
}

/* What one of the printers above wrote (status st) as a verdict: the line
 * without its newline, any byte the file does not take made '?'. */
static int verdict_from(char *text, size_t len, int st, long long now, struct npd_verdict *v)
{
	size_t n = len && text[len - 1] == '\n' ? len - 1 : len;

	memset(v, 0, sizeof(*v));
	if (n > NPD_VERDICT_LINE_MAX)
		n = NPD_VERDICT_LINE_MAX;
	for (size_t i = 0; i < n; i++)
		v->line[i] = (unsigned char)text[i] < 0x20 || text[i] == 0x7f ? '?' : text[i];
	if (n == 0)
		v->line[n++] = '?';
	v->status = st;
	v->when = now;
	free(text);
	return 0;
}

/* A printer above as a verdict: say() writes the line, returns its status. */
static int verdict_of(int (*say)(FILE *out, const void *arg), const void *arg, long long now,
		      struct npd_verdict *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int st;

	if (!f)
		return -ENOMEM;
	st = say(f, arg);
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	return verdict_from(text, len, st, now, v);
}

static int say_check(FILE *out, const void *rep)
{
	return (int)npd_check(out, rep);
}

static int say_error(FILE *out, const void *why)
{
	npd_error(out, why);
	return NPD_UNKNOWN;
}

int npd_verdict_of(const struct check_report *rep, long long now, struct npd_verdict *v)
{
	return verdict_of(say_check, rep, now, v);
}

int npd_verdict_of_error(const char *why, long long now, struct npd_verdict *v)
{
	return verdict_of(say_error, why, now, v);
}
