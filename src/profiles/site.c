/* The site file parser.  libinih splits the lines; as for profiles, our
 * own line source counts them, so every error says FILE:LINE. */
#include "site.h"
#include "ini_text.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#define MAX_TEXT (64u << 10)	/* a site file is a few lines */
#define MAX_LINE 190		/* inih's buffer is 200 bytes */
#define MAX_NAME 64
#define MAX_PATTERN 128		/* a switch name pattern, FQDN and all */
#define MAX_RAIL 4096		/* a rail index beyond any machine */

struct sstate {
	struct ini_text src;	/* the text, and the line read last */
	bool in_site;		/* the lines follow [site] */
	bool in_firmware;	/* ... or [firmware] (site_firmware.c) */
	int profile_line;
	int rc;			/* first error */
	struct site *out;
	struct profile_error *err;
};

static int fail(struct sstate *st, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct sstate *st, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (st->rc)
		return st->rc;
	st->err->line = line;
	va_start(ap, fmt);
	n = vsnprintf(st->err->message, sizeof(st->err->message), fmt, ap);
	va_end(ap);
	if (n < 0)
		snprintf(st->err->message, sizeof(st->err->message), "malformed site file");
	st->rc = -EINVAL;
	return st->rc;
}

/* A [firmware] line libinih can split: blank, a comment, or one with an
 * '=' (or inih's other separator, ':') that does not start with a blank,
 * which inih would take for the continuation of the line before. */
static bool firmware_line_shape(const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
		i++;
	if (i == n || line[i] == '#' || line[i] == ';')
		return true;
	return i == 0 && (memchr(line, '=', n) || memchr(line, ':', n));
}

/* One line per call, counted; refuses what is not text. */
static char *reader(char *str, int num, void *stream)
{
	struct sstate *st = stream;
	const char *line;
	size_t n;
	int bad;

	if (st->rc || num < 3 || !ini_text_next(&st->src, &line, &n, &bad))
		return NULL;
	if (bad >= 0) {
		fail(st, st->src.line, "control character 0x%02x: a site file is text", bad);
		return NULL;
	}
	if (n > MAX_LINE || n + 3 > (size_t)num) {
		fail(st, st->src.line, "line longer than %d characters", MAX_LINE);
		return NULL;
	}
	if (n && *line == '[') {
		const char *close = memchr(line, ']', n);

		st->in_site = close && close - line == 5 && !memcmp(line, "[site", 5);
		st->in_firmware = close && close - line == 9 && !memcmp(line, "[firmware", 9);
		if (close && !st->in_site && !st->in_firmware)
			fail(st, st->src.line, "unknown section '%.*s': the site file has only [site] "
			     "and [firmware]", (int)(close - line + 1), line);
	} else if (st->in_firmware && !firmware_line_shape(line, n)) {
		int shown = n > 40 ? 40 : (int)n;

		while (shown && (line[shown - 1] == '\r' || line[shown - 1] == ' '))
			shown--;
		fail(st, st->src.line, "[firmware]: expected 'PSID = VERSION[, VERSION...]' or "
		     "'PSID >= VERSION', got '%.*s'", shown, line);
		return NULL;
	}
	memcpy(str, line, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

int name_list_push(struct name_list *l, const char *s, size_t n)
{
	char **v = growbuf_reserve(l->v, &l->cap, l->n + 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	l->v = v;
	l->v[l->n] = strndup(s, n);
	if (!l->v[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

static bool listed(const struct name_list *l, const char *s, size_t n)
{
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == n && !memcmp(l->v[i], s, n))
			return true;
	return false;
}

const char *site_list_item(const char **cursor, size_t *len)
{
	const char *s = *cursor, *e;

	while (*s == ',' || *s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*cursor = s;
		return NULL;
	}
	for (e = s; *e && *e != ',' && *e != ' ' && *e != '\t'; e++)
		;
	*len = (size_t)(e - s);
	*cursor = e;
	return s;
}

/* Names separated by commas or blanks; what is expected for messages. */
static int add_names(struct sstate *st, const char *key, const char *value,
		     struct name_list *l, bool is_id)
{
	const char *cur = value, *s;
	size_t n;

	while ((s = site_list_item(&cur, &n))) {
		const char *e = s + n;

		for (const char *c = s; c < e; c++)
			if (!name_char(*c))
				return fail(st, st->src.line, "%s: '%c' in '%.40s': expected %s", key, *c,
					    s, is_id ? "check ids like sys.memlock" :
					    "RDMA device names like mlx5_0");
		if (e - s > MAX_NAME)
			return fail(st, st->src.line, "%s: a name longer than %d characters", key,
				    MAX_NAME);
		if (is_id && (!memchr(s, '.', (size_t)(e - s)) || *s == '.' || e[-1] == '.'))
			return fail(st, st->src.line, "%s: '%.*s' is not a check id (like sys.memlock)",
				    key, (int)(e - s), s);
		if (!is_id && (listed(&st->out->rail, s, (size_t)(e - s)) ||
			       listed(&st->out->storage, s, (size_t)(e - s))))
			return fail(st, st->src.line, "%s: '%.*s' is named as a rail or storage NIC "
				    "already", key, (int)(e - s), s);
		if (name_list_push(l, s, (size_t)(e - s)) < 0) {
			st->rc = -ENOMEM;
			return st->rc;
		}
	}
	return 0;
}

/* A rail given by its index, not by a device name. */
static bool is_index(const char *rail)
{
	return rail[0] && strspn(rail, "0123456789") == strlen(rail);
}

/* "RAIL PATTERN": one rail (an index or a device name) and one fnmatch
 * pattern for its switch's system name; each rail once. */
static int add_rail_switch(struct sstate *st, const char *value)
{
	static const char form[] = "expected 'RAIL PATTERN' like '0 leaf-r0-*' (RAIL a rail "
				   "index or an RDMA device name, PATTERN the switch's name, "
				   "* and ? allowed)";
	const char *r = value, *re, *p, *pe, *rest;
	struct site *out = st->out;
	struct rail_switch *v;
	bool digits = true;

	for (re = r; *re && *re != ' ' && *re != '\t'; re++) {
		if (!name_char(*re))
			return fail(st, st->src.line, "rail_switch: '%c' in rail '%.*s': %s", *re,
				    (int)(re - r) + 1, r, form);
		digits = digits && *re >= '0' && *re <= '9';
	}
	for (p = re; *p == ' ' || *p == '\t'; p++)
		;
	for (pe = p; *pe && *pe != ' ' && *pe != '\t'; pe++)
		;
	for (rest = pe; *rest == ' ' || *rest == '\t'; rest++)
		;
	if (p == pe)
		return fail(st, st->src.line, "rail_switch: '%.40s' has no pattern: %s", value, form);
	if (*rest)
		return fail(st, st->src.line, "rail_switch: '%.40s' after the pattern: %s (one "
			    "rail a line)", rest, form);
	if (re - r > MAX_NAME)
		return fail(st, st->src.line, "rail_switch: a rail longer than %d characters",
			    MAX_NAME);
	if (digits && (re - r > 4 || strtol(r, NULL, 10) >= MAX_RAIL))
		return fail(st, st->src.line, "rail_switch: rail %.*s: a rail index is below %d",
			    (int)(re - r), r, MAX_RAIL);
	if (pe - p > MAX_PATTERN)
		return fail(st, st->src.line, "rail_switch: a pattern longer than %d characters",
			    MAX_PATTERN);
	for (size_t i = 0; i < out->n_rail_switch; i++) {
		const struct rail_switch *o = &out->rail_switch[i];

		/* "03" and "3" are one rail */
		if (digits ? is_index(o->rail) && strtol(o->rail, NULL, 10) == strtol(r, NULL, 10) :
			     (strlen(o->rail) == (size_t)(re - r) &&
			      !memcmp(o->rail, r, (size_t)(re - r))))
			return fail(st, st->src.line, "rail_switch: rail %.*s given twice (first on "
				    "line %d)", (int)(re - r), r, o->line);
	}
	v = growbuf_reserve(out->rail_switch, &out->cap_rail_switch, out->n_rail_switch + 1,
			    sizeof(*v));
	if (!v) {
		st->rc = -ENOMEM;
		return st->rc;
	}
	out->rail_switch = v;
	v = &out->rail_switch[out->n_rail_switch];
	v->rail = strndup(r, (size_t)(re - r));
	v->pattern = strndup(p, (size_t)(pe - p));
	v->line = st->src.line;
	if (!v->rail || !v->pattern) {
		free(v->rail);
		free(v->pattern);
		st->rc = -ENOMEM;
		return st->rc;
	}
	out->n_rail_switch++;
	return 0;
}

/* job_user / job_group: one account name, as useradd takes them (letters,
 * digits, '.', '_', '-'; not starting with '-'), given once. */
static void job_name(struct sstate *st, const char *key, const char *value)
{
	char **slot = key[4] == 'u' ? &st->out->job_user : &st->out->job_group;
	size_t n = strlen(value);

	if (*slot) {
		fail(st, st->src.line, "'%s' given twice", key);
		return;
	}
	if (n > 32 || value[0] == '-') {
		fail(st, st->src.line, "%s: '%.40s' is not an account name", key, value);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!name_char(value[i])) {
			fail(st, st->src.line, "%s: '%c' in '%.40s': expected one user or group name",
			     key, value[i], value);
			return;
		}
	*slot = strdup(value);
	if (!*slot)
		st->rc = -ENOMEM;
}

const char *const site_hold_keys[SITE_HOLDS] = { "hold_drops", "hold_flaps", "hold_faults" };

/* hold_*: whole seconds, at most a year; 0 until cleared. */
static void hold(struct sstate *st, int k, const char *value)
{
	int64_t v = 0;
	size_t n = strlen(value);

	if (st->out->hold_given[k]) {
		fail(st, st->src.line, "'%s' given twice", site_hold_keys[k]);
		return;
	}
	for (size_t i = 0; i < n && v <= 366 * 86400; i++) {
		if (value[i] < '0' || value[i] > '9') {
			v = -1;
			break;
		}
		v = v * 10 + (value[i] - '0');
	}
	if (v < 0 || v > 366 * 86400 || n > 9) {
		fail(st, st->src.line, "%s: expected whole seconds up to a year (0: until "
		     "cleared), got '%.40s'", site_hold_keys[k], value);
		return;
	}
	st->out->hold_s[k] = v;
	st->out->hold_given[k] = true;
}

/* One [firmware] line, parsed by site_firmware.c; its message, with the
 * line, as every other site key's. */
static void firmware_entry(struct sstate *st, const char *name, const char *value)
{
	char msg[sizeof(st->err->message)];
	int rc = site_fw_line(st->out, name, value, st->src.line, msg, sizeof(msg));

	if (rc == -ENOMEM)
		st->rc = -ENOMEM;
	else if (rc < 0)
		fail(st, st->src.line, "%s", msg);
}

/* exclude: fnmatch(3) patterns of RDMA device names (mlx5_8, mlx5_*) or
 * PCI addresses (0000:c1:00.0, 0000:c1:00.*), separated by commas or
 * blanks, on as many lines as wanted. */
static void add_excludes(struct sstate *st, const char *value)
{
	const char *cur = value, *s;
	size_t n;

	while (!st->rc && (s = site_list_item(&cur, &n))) {
		for (const char *c = s; c < s + n; c++)
			if (!name_char(*c) && !strchr("*?[]!:", *c)) {
				fail(st, st->src.line, "exclude: '%c' in '%.40s': expected RDMA device "
				     "names like mlx5_8 or PCI addresses like 0000:c1:00.0 (* ? [] "
				     "allowed)", *c, s);
				return;
			}
		if (n > MAX_PATTERN) {
			fail(st, st->src.line, "exclude: a pattern longer than %d characters",
			     MAX_PATTERN);
			return;
		}
		if (exclude_add(&st->out->exclude, s, n, st->src.line) < 0)
			st->rc = -ENOMEM;
	}
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct sstate *st = user;
	char buf[MAX_LINE + 1];
	size_t n;

	(void)section;
	if (st->rc)
		return 0;
	/* '#' after a blank starts a comment too, as in profiles */
	for (n = 0; value[n]; n++)
		if ((value[n] == '#' || value[n] == ';') && (n == 0 || value[n - 1] == ' ' ||
							     value[n - 1] == '\t'))
			break;
	while (n && (value[n - 1] == ' ' || value[n - 1] == '\t'))
		n--;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, value);
	if (!st->in_site && !st->in_firmware) {
		fail(st, st->src.line, "'%s' comes before any section: put it under [site]", name);
		return 0;
	}
	if (!buf[0]) {
		fail(st, st->src.line, "%s: expected a value, got nothing", name);
		return 0;
	}
	if (st->in_firmware) {
		firmware_entry(st, name, buf);
		return st->rc ? 0 : 1;
	}
	if (strcmp(name, "profile") == 0) {
		if (st->out->profile) {
			fail(st, st->src.line, "'profile' given twice (first on line %d)",
			     st->profile_line);
			return 0;
		}
		st->out->profile = strdup(buf);
		st->out->profile_line = st->profile_line = st->src.line;
		if (!st->out->profile)
			st->rc = -ENOMEM;
	} else if (strcmp(name, "ignore") == 0) {
		add_names(st, name, buf, &st->out->ignore, true);
	} else if (strcmp(name, "accept_unchecked") == 0) {
		add_names(st, name, buf, &st->out->accept_unchecked, true);
	} else if (strcmp(name, "job_user") == 0 || strcmp(name, "job_group") == 0) {
		job_name(st, name, buf);
	} else if (strcmp(name, "rail") == 0) {
		add_names(st, name, buf, &st->out->rail, false);
	} else if (strcmp(name, "storage") == 0) {
		add_names(st, name, buf, &st->out->storage, false);
	} else if (strcmp(name, "rail_switch") == 0) {
		add_rail_switch(st, buf);
	} else if (strcmp(name, "exclude") == 0) {
		add_excludes(st, buf);
	} else if (strcmp(name, site_hold_keys[0]) == 0 || strcmp(name, site_hold_keys[1]) == 0 ||
		   strcmp(name, site_hold_keys[2]) == 0) {
		hold(st, strcmp(name, site_hold_keys[0]) == 0 ? 0
			 : strcmp(name, site_hold_keys[1]) == 0 ? 1 : 2, buf);
	} else {
		fail(st, st->src.line, "unknown key '%s' in [site]: expected profile, ignore, "
		     "accept_unchecked, rail, storage, rail_switch, job_user, job_group, exclude, hold_drops, hold_flaps "
		     "or hold_faults", name);
	}
	return st->rc ? 0 : 1;
}

int site_parse(const char *text, size_t len, const char *origin, struct site *out,
	       struct profile_error *err)
{
	struct sstate st = { .src = { .text = text, .len = text ? len : 0 }, .out = out,
			     .err = err };
	int syntax;

	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", origin ? origin : "site file");
	if (st.src.len > MAX_TEXT) {
		fail(&st, 0, "larger than %u KiB: not a site file", MAX_TEXT >> 10);
	} else {
		if (st.src.len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
			st.src.pos = 3;
		syntax = ini_parse_stream(reader, &st, handler, &st);
		if (syntax == -2 && !st.rc)
			st.rc = -ENOMEM;
		else if (syntax > 0 && !st.rc)
			fail(&st, syntax, "expected 'key = value', [site], [firmware] or a comment");
	}
	if (st.rc == -ENOMEM)
		snprintf(err->message, sizeof(err->message), "out of memory");
	if (st.rc)
		site_free(out);
	return st.rc;
}

static void list_free(struct name_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

void site_free(struct site *s)
{
	if (!s)
		return;
	free(s->profile);
	free(s->job_user);
	free(s->job_group);
	list_free(&s->ignore);
	list_free(&s->accept_unchecked);
	list_free(&s->rail);
	list_free(&s->storage);
	for (size_t i = 0; i < s->n_rail_switch; i++) {
		free(s->rail_switch[i].rail);
		free(s->rail_switch[i].pattern);
	}
	free(s->rail_switch);
	site_fw_free(s);
	exclude_free(&s->exclude);
	memset(s, 0, sizeof(*s));
}

/* Checks that grew into others keep their old ids as waivers: a fleet
 * that wrote `ignore = sys.memlock` keeps its waiver after the rename. */
static const struct {
	const char *id, *old;
} renamed[] = {
	{ "sys.device_access", "sys.uverbs" },
	{ "sys.job_memlock", "sys.memlock" },
};

const char *site_old_id(const char *id)
{
	for (size_t i = 0; id && i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(renamed[i].id, id) == 0)
			return renamed[i].old;
	return NULL;
}

bool site_ignores(const struct site *s, const char *id)
{
	const char *old = site_old_id(id);

	if (!s || !id)
		return false;
	return listed(&s->ignore, id, strlen(id)) || (old && listed(&s->ignore, old, strlen(old)));
}

bool site_accepts_unchecked(const struct site *s, const char *id)
{
	const char *old = site_old_id(id);

	if (!s || !id)
		return false;
	return listed(&s->accept_unchecked, id, strlen(id)) ||
	       (old && listed(&s->accept_unchecked, old, strlen(old)));
}

int site_role(const struct site *s, const char *nic)
{
	if (!s || !nic)
		return -1;
	if (listed(&s->rail, nic, strlen(nic)))
		return ROLE_RAIL;
	if (listed(&s->storage, nic, strlen(nic)))
		return ROLE_STORAGE;
	return -1;
}

const char *site_rail_switch(const struct site *s, size_t rail, const char *nic, int *line)
{
	const struct rail_switch *hit = NULL;

	for (size_t i = 0; s && i < s->n_rail_switch; i++) {
		const struct rail_switch *e = &s->rail_switch[i];

		if (is_index(e->rail) ? strtoul(e->rail, NULL, 10) == rail :
					nic && strcmp(e->rail, nic) == 0)
			hit = e;
	}
	if (hit && line)
		*line = hit->line;
	return hit ? hit->pattern : NULL;
}
