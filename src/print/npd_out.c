/* check --npd (npd_out.h): one message that fits NPD's 80 bytes whole, so
 * that NPD's own cut never splits a word or a UTF-8 character. */
#include "npd_out.h"
#include "../profiles/profile.h"

#include <stdio.h>
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
