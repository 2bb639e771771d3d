/* The agent's memory as text (latch_state.h). */
#include "latch_state.h"
#include "../model/line_text.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const set_names[] = { "pma", "hw", "eth", "net", "fec" };
static const char *const sev_names[] = { "info", "warn", "error" };

#define MAX_FIELDS 9	/* an event line */

bool latch_state_boot_ok(const char *text, size_t len)
{
	if (!len || len > LATCH_STATE_MAX_BOOT)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f') ||
		      text[i] == '-'))
			return false;
	return true;
}

/* A subject or observed text: printable ASCII (a tab parts fields). */
static bool text_ok(const char *p, size_t len)
{
	if (!len || len > LATCH_STATE_MAX_FIELD)
		return false;
	for (size_t i = 0; i < len; i++)
		if (p[i] < ' ' || p[i] > '~')
			return false;
	return true;
}

/* An id, a device or a counter name: printable ASCII without blanks. */
static bool name_ok(const char *p, size_t len)
{
	if (!len || len > LATCH_STATE_MAX_NAME)
		return false;
	for (size_t i = 0; i < len; i++)
		if (p[i] <= ' ' || p[i] > '~')
			return false;
	return true;
}

static void bases_free(struct latch_base *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].nic);
		free(v[i].name);
	}
}

void latch_state_bases_clear(struct latch_state *s)
{
	bases_free(s->bases, s->n_bases);
	s->n_bases = 0;
	s->taken = 0;
}

void latch_state_boot_bases_clear(struct latch_state *s)
{
	bases_free(s->boot_bases, s->n_boot_bases);
	s->n_boot_bases = 0;
	s->boot_taken = 0;
}

static void event_free(struct latch_event *e)
{
	free(e->id);
	free(e->subject);
	free(e->observed);
}

void latch_state_free(struct latch_state *s)
{
	if (!s)
		return;
	latch_state_bases_clear(s);
	free(s->bases);
	latch_state_boot_bases_clear(s);
	free(s->boot_bases);
	for (size_t i = 0; i < s->n_events; i++)
		event_free(&s->events[i]);
	free(s->events);
	memset(s, 0, sizeof(*s));
}

void latch_state_remove(struct latch_state *s, size_t i)
{
	if (i >= s->n_events)
		return;
	event_free(&s->events[i]);
	memmove(&s->events[i], &s->events[i + 1], (s->n_events - i - 1) * sizeof(*s->events));
	s->n_events--;
}

size_t latch_state_clear(struct latch_state *s, const char *id, const char *subject,
			 void (*seen)(const struct latch_event *e, void *arg), void *arg)
{
	bool all = strcmp(id, "all") == 0;
	size_t n = 0;

	for (size_t i = 0; i < s->n_events;) {
		const struct latch_event *e = &s->events[i];

		if ((!all && strcmp(e->id, id) != 0) || (subject && strcmp(e->subject, subject) != 0)) {
			i++;
			continue;
		}
		if (seen)
			seen(e, arg);
		latch_state_remove(s, i);
		n++;
	}
	/* the kernel log still holds a cleared kmsg.* fault's lines: they are
	 * acknowledged, or the next reading would see and remember them again */
	if (n && (all || strncmp(id, "kmsg.", 5) == 0))
		latch_state_ack(s, all ? "*" : id);
	/* a cleared counter finding was counted in the boot's long baseline
	 * too: it begins again at the next reading, or the long window would
	 * judge the same errors again as soon as it is long enough to */
	if (n && (all || !strcmp(id, "link.ber") || !strcmp(id, "counters.errors") ||
		  !strcmp(id, "link.flaps") || !strcmp(id, "counters.saturated")))
		latch_state_boot_bases_clear(s);
	return n;
}

size_t latch_state_expire(struct latch_state *s, int64_t now)
{
	size_t gone = 0;

	for (size_t i = s->n_events; i-- > 0;)
		if (s->events[i].expires && s->events[i].expires <= now) {
			latch_state_remove(s, i);
			gone++;
		}
	return gone;
}

struct latch_event *latch_state_event(struct latch_state *s, const char *id,
				      const char *subject)
{
	for (size_t i = 0; i < s->n_events; i++)
		if (strcmp(s->events[i].id, id) == 0 && strcmp(s->events[i].subject, subject) == 0)
			return &s->events[i];
	return NULL;
}

/* One list of bases: the short ones or the long ones. */
struct base_list {
	struct latch_base **v;
	size_t *n, *cap;
};

static struct base_list short_list(struct latch_state *s)
{
	return (struct base_list){ &s->bases, &s->n_bases, &s->cap_bases };
}

static struct base_list boot_list(struct latch_state *s)
{
	return (struct base_list){ &s->boot_bases, &s->n_boot_bases, &s->cap_boot_bases };
}

static const struct latch_base *base_find(const struct latch_base *v, size_t n,
					  const char *nic, int port, enum latch_set set,
					  const char *name)
{
	for (size_t i = 0; i < n; i++) {
		const struct latch_base *b = &v[i];

		if (b->port == port && b->set == set && strcmp(b->nic, nic) == 0 &&
		    strcmp(b->name, name) == 0)
			return b;
	}
	return NULL;
}

const struct latch_base *latch_state_boot_base(const struct latch_state *s, const char *nic,
						int port, enum latch_set set, const char *name)
{
	return base_find(s->boot_bases, s->n_boot_bases, nic, port, set, name);
}

static int base_push(struct base_list l, const char *nic, size_t nic_len, int port,
		     enum latch_set set, const char *name, size_t name_len, uint64_t value)
{
	struct latch_base *v = growbuf_reserve(*l.v, l.cap, *l.n + 1, sizeof(*v));
	struct latch_base *b;

	if (!v)
		return -ENOMEM;
	*l.v = v;
	b = &v[*l.n];
	b->nic = strndup(nic, nic_len);
	b->name = strndup(name, name_len);
	if (!b->nic || !b->name) {
		free(b->nic);
		free(b->name);
		return -ENOMEM;
	}
	b->port = port;
	b->set = set;
	b->value = value;
	(*l.n)++;
	return 0;
}

static int base_add(struct base_list l, const char *nic, int port, enum latch_set set,
		    const char *name, uint64_t value)
{
	if (*l.n >= LATCH_STATE_MAX_BASES || port < 0 || (unsigned)set > LATCH_FEC ||
	    !name_ok(nic, strlen(nic)) || !name_ok(name, strlen(name)) ||
	    base_find(*l.v, *l.n, nic, port, set, name))
		return 0;
	return base_push(l, nic, strlen(nic), port, set, name, strlen(name), value) < 0 ? -ENOMEM
										      : 1;
}

int latch_state_base_add(struct latch_state *s, const char *nic, int port, enum latch_set set,
			 const char *name, uint64_t value)
{
	return base_add(short_list(s), nic, port, set, name, value);
}

int latch_state_boot_base_add(struct latch_state *s, const char *nic, int port,
			      enum latch_set set, const char *name, uint64_t value)
{
	return base_add(boot_list(s), nic, port, set, name, value);
}

/* A copy the file can hold: printable ASCII, at most LATCH_STATE_MAX_FIELD. */
static char *field_copy(const char *text)
{
	size_t n = strlen(text);
	char *c;

	if (n > LATCH_STATE_MAX_FIELD)
		n = LATCH_STATE_MAX_FIELD;
	c = strndup(text, n);
	for (size_t i = 0; c && i < n; i++)
		if (c[i] < ' ' || c[i] > '~')
			c[i] = '?';
	return c;
}

static int event_push(struct latch_state *s, const struct latch_event *e)
{
	struct latch_event *v = growbuf_reserve(s->events, &s->cap_events, s->n_events + 1,
						sizeof(*v));

	if (!v)
		return -ENOMEM;
	s->events = v;
	v[s->n_events++] = *e;
	return 0;
}

int latch_state_see(struct latch_state *s, const char *id, int severity, const char *subject,
		    const char *observed, int64_t now, int64_t expires)
{
	struct latch_event *e, add;
	char *obs;

	if (!name_ok(id, strlen(id)) || !text_ok(subject, strlen(subject)) || severity < 0 ||
	    severity > 2 || now <= 0 || expires < 0)
		return 0;
	obs = field_copy(observed && *observed ? observed : "-");
	if (!obs)
		return -ENOMEM;
	e = latch_state_event(s, id, subject);
	if (e) {
		/* the text of the worst sighting: a later, milder one does not
		 * hide what was seen */
		if (severity >= e->severity) {
			free(e->observed);
			e->observed = obs;
			e->severity = severity;
		} else {
			free(obs);
		}
		if (now > e->last)
			e->last = now;
		if (e->count < UINT64_MAX)
			e->count++;
		e->expires = expires;
		return 1;
	}
	if (s->n_events >= LATCH_STATE_MAX_EVENTS) {
		free(obs);
		return 0;
	}
	add = (struct latch_event){ .id = strdup(id), .severity = severity, .first = now,
				    .last = now, .count = 1, .expires = expires,
				    .subject = strdup(subject), .observed = obs };
	if (!add.id || !add.subject || event_push(s, &add) < 0) {
		event_free(&add);
		return -ENOMEM;
	}
	return 1;
}

/* ---- parsing ---- */

struct field {
	const char *p;
	size_t n;
};

/* Part a line at its tabs; how many fields, or -1 when more than max. */
static int split(const char *p, size_t n, struct field *f, int max)
{
	int k = 0;
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != '\t')
			continue;
		if (k == max)
			return -1;
		f[k].p = p + start;
		f[k].n = i - start;
		k++;
		start = i + 1;
	}
	return k;
}

/* A decimal number without sign or leading zero, at most max. */
static bool number(const struct field *f, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!f->n || f->n > 20 || (f->n > 1 && f->p[0] == '0'))
		return false;
	for (size_t i = 0; i < f->n; i++) {
		unsigned d = (unsigned)(f->p[i] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (v > max)
		return false;
	*out = v;
	return true;
}

static int word(const struct field *f, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == f->n && !memcmp(names[i], f->p, f->n))
			return i;
	return -1;
}

static bool is(const struct field *f, const char *s)
{
	return strlen(s) == f->n && !memcmp(s, f->p, f->n);
}

static int parse_base(struct base_list l, const struct field *f, int k, int line,
		      char *why, size_t why_len)
{
	uint64_t port, value;
	int set = k == 6 ? word(&f[3], set_names, 5) : -1;
	char nic[LATCH_STATE_MAX_NAME + 1], name[LATCH_STATE_MAX_NAME + 1];

	if (k != 6)
		return line_error(why, why_len, line, "a base has 6 fields, not %d", k);
	if (!name_ok(f[1].p, f[1].n) || !number(&f[2], INT32_MAX, &port) || set < 0 ||
	    !name_ok(f[4].p, f[4].n) || !number(&f[5], UINT64_MAX, &value))
		return line_error(why, why_len, line, "expected '%.*s DEVICE PORT pma|hw|eth|net|fec NAME "
			   "VALUE'", (int)f[0].n, f[0].p);
	if (*l.n >= LATCH_STATE_MAX_BASES)
		return line_error(why, why_len, line, "more than %u bases", LATCH_STATE_MAX_BASES);
	memcpy(nic, f[1].p, f[1].n);
	nic[f[1].n] = '\0';
	memcpy(name, f[4].p, f[4].n);
	name[f[4].n] = '\0';
	if (base_find(*l.v, *l.n, nic, (int)port, (enum latch_set)set, name))
		return line_error(why, why_len, line, "a second base of %s port %d %s", nic, (int)port,
			   name);
	return base_push(l, f[1].p, f[1].n, (int)port, (enum latch_set)set, f[4].p, f[4].n,
			 value);
}

static int parse_event(struct latch_state *s, const struct field *f, int k, int line,
		       char *why, size_t why_len)
{
	uint64_t first, last, count, expires;
	int sev = k == 9 ? word(&f[2], sev_names, 3) : -1;
	struct latch_event e = { 0 };

	if (k != 9)
		return line_error(why, why_len, line, "an event has 9 fields, not %d", k);
	if (!name_ok(f[1].p, f[1].n) || sev < 0 || !number(&f[3], INT64_MAX, &first) ||
	    !number(&f[4], INT64_MAX, &last) || !number(&f[5], UINT64_MAX, &count) ||
	    !number(&f[6], INT64_MAX, &expires) || !text_ok(f[7].p, f[7].n) ||
	    !text_ok(f[8].p, f[8].n))
		return line_error(why, why_len, line, "expected 'event ID SEVERITY FIRST LAST COUNT "
			   "EXPIRES SUBJECT OBSERVED'");
	if (!first || first > last || !count)
		return line_error(why, why_len, line, "first seen after last seen, or seen 0 times");
	if (s->n_events >= LATCH_STATE_MAX_EVENTS)
		return line_error(why, why_len, line, "more than %u events", LATCH_STATE_MAX_EVENTS);
	e.id = strndup(f[1].p, f[1].n);
	e.subject = strndup(f[7].p, f[7].n);
	e.observed = strndup(f[8].p, f[8].n);
	if (!e.id || !e.subject || !e.observed) {
		event_free(&e);
		return -ENOMEM;
	}
	if (latch_state_event(s, e.id, e.subject)) {
		event_free(&e);
		return line_error(why, why_len, line, "a second event of one id on one subject");
	}
	e.severity = sev;
	e.first = (int64_t)first;
	e.last = (int64_t)last;
	e.count = count;
	e.expires = (int64_t)expires;
	if (event_push(s, &e) < 0) {
		event_free(&e);
		return -ENOMEM;
	}
	return 0;
}

/* 'kmsg_seen USEC' and 'kmsg_acked ID USEC' */
static int parse_kmsg(struct latch_state *s, const struct field *f, int k, int line,
		      char *why, size_t why_len)
{
	uint64_t v;

	if (is(&f[0], "kmsg_seen")) {
		if (k != 2 || !number(&f[1], UINT64_MAX, &v))
			return line_error(why, why_len, line, "expected 'kmsg_seen USEC'");
		s->kmsg_seen = v;
		return 0;
	}
	if (k != 3 || !name_ok(f[1].p, f[1].n) || !number(&f[2], UINT64_MAX, &v))
		return line_error(why, why_len, line, "expected 'kmsg_acked ID USEC'");
	if (s->n_acks >= LATCH_STATE_MAX_ACKS)
		return line_error(why, why_len, line, "more than %u kmsg_acked", LATCH_STATE_MAX_ACKS);
	for (size_t i = 0; i < s->n_acks; i++)
		if (strlen(s->acks[i].id) == f[1].n && !memcmp(s->acks[i].id, f[1].p, f[1].n))
			return line_error(why, why_len, line, "a second kmsg_acked of one id");
	memcpy(s->acks[s->n_acks].id, f[1].p, f[1].n);
	s->acks[s->n_acks].id[f[1].n] = '\0';
	s->acks[s->n_acks++].acked = v;
	return 0;
}

int latch_state_ack(struct latch_state *s, const char *id)
{
	size_t i;

	if (!s->kmsg_seen || !name_ok(id, strlen(id)))
		return 0;
	for (i = 0; i < s->n_acks && strcmp(s->acks[i].id, id) != 0; i++)
		;
	if (i == s->n_acks) {
		if (s->n_acks >= LATCH_STATE_MAX_ACKS)
			return 0;
		snprintf(s->acks[i].id, sizeof(s->acks[i].id), "%s", id);
		s->n_acks++;
	}
	s->acks[i].acked = s->kmsg_seen;
	return 1;
}

uint64_t latch_state_acked(const struct latch_state *s, const char *id)
{
	uint64_t most = 0;

	for (size_t i = 0; i < s->n_acks; i++)
		if ((strcmp(s->acks[i].id, id) == 0 || strcmp(s->acks[i].id, "*") == 0) &&
		    s->acks[i].acked > most)
			most = s->acks[i].acked;
	return most;
}

/* 'boot_taken TIME', once */
static int parse_boot_taken(struct latch_state *s, const struct field *line_f, int line,
			    char *why, size_t why_len)
{
	struct field f = { line_f->p + 11, line_f->n - 11 };
	uint64_t t;

	if (s->boot_taken || !number(&f, INT64_MAX, &t) || !t)
		return line_error(why, why_len, line, "expected one 'boot_taken ' and a time");
	s->boot_taken = (int64_t)t;
	return 0;
}

/* Lines 1 to 3 in their order: the magic, the boot id, taken. */
static int parse_head(struct latch_state *s, const char *p, size_t n, int line, char *why,
		      size_t why_len)
{
	struct field f;
	uint64_t t;

	if (line == 1)
		return line_magic(p, n, LATCH_STATE_MAGIC, line, why, why_len);
	if (line == 2) {
		if (n < 6 || memcmp(p, "boot ", 5) || !latch_state_boot_ok(p + 5, n - 5))
			return line_error(why, why_len, line, "expected 'boot ' and a boot id");
		memcpy(s->boot, p + 5, n - 5);
		s->boot[n - 5] = '\0';
		return 0;
	}
	if (n < 7 || memcmp(p, "taken ", 6))
		return line_error(why, why_len, line, "expected 'taken ' and a time");
	f.p = p + 6;
	f.n = n - 6;
	if (!number(&f, INT64_MAX, &t))
		return line_error(why, why_len, line, "expected 'taken ' and a time");
	s->taken = (int64_t)t;
	return 0;
}

/* Lines end in '\n', the last one too: a file cut short is malformed. */
int latch_state_parse(const char *text, size_t len, struct latch_state *out, char *why,
		      size_t why_len)
{
	struct line_walk w = LINE_WALK(text, len);
	const char *p;
	size_t n;
	int line, rc;

	memset(out, 0, sizeof(*out));
	if (why_len)
		why[0] = '\0';
	if (!text || len > LATCH_STATE_MAX_TEXT)
		return line_error(why, why_len, 0, "larger than %u KiB", LATCH_STATE_MAX_TEXT >> 10);
	while ((rc = line_next(&w, &p, &n, why, why_len)) > 0) {
		struct field f[MAX_FIELDS];
		int k;

		line = w.line;
		if (line <= 3) {
			rc = parse_head(out, p, n, line, why, why_len);
		} else if ((k = split(p, n, f, MAX_FIELDS)) < 0) {
			rc = line_error(why, why_len, line, "more than %d fields", MAX_FIELDS);
		} else if (is(&f[0], "base")) {
			rc = parse_base(short_list(out), f, k, line, why, why_len);
		} else if (is(&f[0], "boot_base")) {
			rc = parse_base(boot_list(out), f, k, line, why, why_len);
		} else if (k == 1 && f[0].n > 11 && !memcmp(f[0].p, "boot_taken ", 11)) {
			rc = parse_boot_taken(out, &f[0], line, why, why_len);
		} else if (is(&f[0], "event")) {
			rc = parse_event(out, f, k, line, why, why_len);
		} else if (is(&f[0], "kmsg_seen") || is(&f[0], "kmsg_acked")) {
			rc = parse_kmsg(out, f, k, line, why, why_len);
		} else {
			rc = line_error(why, why_len, line, "expected 'base', 'boot_taken', 'boot_base', "
				 "'event', 'kmsg_seen' or 'kmsg_acked'");
		}
		if (rc < 0)
			break;
	}
	line = w.line;
	if (rc == 0 && line < 3)
		rc = line_error(why, why_len, line + 1, "cut short (no %s)",
			 line == 0 ? "header" : line == 1 ? "boot id" : "'taken' line");
	if (rc == 0 && out->n_boot_bases && !out->boot_taken)
		rc = line_error(why, why_len, line, "'boot_base' lines without a 'boot_taken'");
	if (rc < 0)
		latch_state_free(out);
	return rc;
}

/* ---- formatting ---- */

static int put(char **text, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char **text, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (*len + (size_t)n + 1 > *cap) {
		char *t = growbuf_reserve(*text, cap, *len + (size_t)n + 1, 1);

		if (!t)
			return -ENOMEM;
		*text = t;
	}
	va_start(ap, fmt);
	vsnprintf(*text + *len, *cap - *len, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
	return 0;
}

char *latch_state_format(const struct latch_state *s)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc = put(&text, &len, &cap, "%s\nboot %s\ntaken %" PRId64 "\n", LATCH_STATE_MAGIC,
		     s->boot, s->taken);

	for (size_t i = 0; rc == 0 && i < s->n_bases; i++) {
		const struct latch_base *b = &s->bases[i];

		rc = put(&text, &len, &cap, "base\t%s\t%d\t%s\t%s\t%" PRIu64 "\n", b->nic,
			 b->port, set_names[b->set], b->name, b->value);
	}
	if (rc == 0 && s->boot_taken)
		rc = put(&text, &len, &cap, "boot_taken %" PRId64 "\n", s->boot_taken);
	for (size_t i = 0; rc == 0 && s->boot_taken && i < s->n_boot_bases; i++) {
		const struct latch_base *b = &s->boot_bases[i];

		rc = put(&text, &len, &cap, "boot_base\t%s\t%d\t%s\t%s\t%" PRIu64 "\n", b->nic,
			 b->port, set_names[b->set], b->name, b->value);
	}
	for (size_t i = 0; rc == 0 && i < s->n_events; i++) {
		const struct latch_event *e = &s->events[i];

		rc = put(&text, &len, &cap,
			 "event\t%s\t%s\t%" PRId64 "\t%" PRId64 "\t%" PRIu64 "\t%" PRId64
			 "\t%s\t%s\n",
			 e->id, sev_names[e->severity], e->first, e->last, e->count, e->expires,
			 e->subject, e->observed);
	}
	if (rc == 0 && s->kmsg_seen)
		rc = put(&text, &len, &cap, "kmsg_seen\t%" PRIu64 "\n", s->kmsg_seen);
	for (size_t i = 0; rc == 0 && i < s->n_acks; i++)
		rc = put(&text, &len, &cap, "kmsg_acked\t%s\t%" PRIu64 "\n", s->acks[i].id,
			 s->acks[i].acked);
	if (rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}
