/* The site file's [firmware] section: which firmware each board may run,
 * by its PSID (the board_id the driver reads from the card).
 *
 *   MT_0000000359 = 22.39.1002, 22.41.1000     the versions allowed
 *   MT_0000000223 >= 28.39.1002                the oldest allowed
 *
 * libinih splits "PSID >= V" at its '=': the name arrives as "PSID >" and
 * the value as "V".  Anything else after the PSID ("PSID <= V", "PSID ==
 * V", "PSID => V") is refused with the two forms this section takes.
 * Versions are checked here, so that `check` never meets one it cannot
 * compare. */
#include "site.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PSID 64		/* PSIDs are 16 characters; room for others */
#define MAX_PARTS 8		/* 28.39.1002 has 3 */
#define MAX_DIGITS 9		/* a part fits an unsigned long everywhere */

static const char forms[] = "expected 'PSID = VERSION[, VERSION...]' or 'PSID >= VERSION', "
			    "VERSION dotted numbers like 28.39.1002";

static int say(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int say(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vsnprintf(msg, len, fmt, ap) < 0)
		snprintf(msg, len, "[firmware]: %s", forms);
	va_end(ap);
	return -EINVAL;
}

static bool psid_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* The parts of a version, or 0 when it is not one. */
static size_t version_parts(const char *v, size_t n, unsigned long part[MAX_PARTS])
{
	size_t parts = 0, i = 0;

	while (i < n) {
		size_t d = 0;
		unsigned long x = 0;

		if (parts == MAX_PARTS)
			return 0;
		while (i + d < n && v[i + d] >= '0' && v[i + d] <= '9') {
			x = x * 10 + (unsigned long)(v[i + d] - '0');
			d++;
		}
		if (d == 0 || d > MAX_DIGITS)
			return 0;
		part[parts++] = x;
		i += d;
		if (i < n && (v[i] != '.' || i + 1 == n))
			return 0;
		if (i < n)
			i++;
	}
	return parts;
}

bool site_fw_version_ok(const char *v)
{
	unsigned long part[MAX_PARTS];

	return v && version_parts(v, strlen(v), part) > 0;
}

int site_fw_version_cmp(const char *a, const char *b)
{
	unsigned long pa[MAX_PARTS] = { 0 }, pb[MAX_PARTS] = { 0 };

	version_parts(a, strlen(a), pa);
	version_parts(b, strlen(b), pb);
	for (size_t i = 0; i < MAX_PARTS; i++)
		if (pa[i] != pb[i])
			return pa[i] < pb[i] ? -1 : 1;
	return 0;
}

bool site_fw_allows(const struct fw_rule *r, const char *v)
{
	if (r->floor)
		return site_fw_version_cmp(v, r->floor) >= 0;
	for (size_t i = 0; i < r->allowed.n; i++)
		if (site_fw_version_cmp(v, r->allowed.v[i]) == 0)
			return true;
	return false;
}

const struct fw_rule *site_fw_rule(const struct site *s, const char *psid)
{
	for (size_t i = 0; s && psid && i < s->n_fw; i++)
		if (strcasecmp(s->fw[i].psid, psid) == 0)
			return &s->fw[i];
	return NULL;
}

static void rule_free(struct fw_rule *r)
{
	free(r->psid);
	free(r->floor);
	for (size_t i = 0; i < r->allowed.n; i++)
		free(r->allowed.v[i]);
	free(r->allowed.v);
	memset(r, 0, sizeof(*r));
}

/* "V, W X": the versions of an allowed list, separated by commas or blanks. */
static int parse_list(struct fw_rule *r, const char *psid, const char *value, char *msg,
		      size_t len)
{
	unsigned long part[MAX_PARTS];
	const char *cur = value, *s;
	size_t n;

	while ((s = site_list_item(&cur, &n))) {
		if (!version_parts(s, n, part))
			return say(msg, len, "[firmware] %s: '%.*s' is not a firmware version: %s",
				   psid, (int)(n > 40 ? 40 : n), s, forms);
		if (name_list_push(&r->allowed, s, n) < 0)
			return -ENOMEM;
	}
	if (!r->allowed.n)
		return say(msg, len, "[firmware] %s: no version: %s", psid, forms);
	return 0;
}

int site_fw_line(struct site *s, const char *name, const char *value, int line, char *msg,
		 size_t msg_len)
{
	struct fw_rule r = { .line = line };
	const struct fw_rule *old;
	size_t n = strlen(name), p;
	bool floor = false;
	struct fw_rule *v;
	int rc;

	/* "PSID >" (from "PSID >= V"): a floor */
	if (n && name[n - 1] == '>') {
		floor = true;
		n--;
		while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
			n--;
	}
	for (p = 0; p < n && psid_char(name[p]); p++)
		;
	if (p == 0 || p < n)
		return say(msg, msg_len, "[firmware]: '%.40s' is not 'PSID' or 'PSID >': %s", name,
			   forms);
	if (n > MAX_PSID)
		return say(msg, msg_len, "[firmware]: a PSID longer than %d characters", MAX_PSID);
	if (strchr("<>=!", value[0]))
		return say(msg, msg_len, "[firmware] %.*s: '%.40s' after the '=': %s", (int)n,
			   name, value, forms);
	r.psid = strndup(name, n);
	if (!r.psid)
		return -ENOMEM;
	old = site_fw_rule(s, r.psid);
	if (old) {
		rc = say(msg, msg_len, "[firmware] %s given twice (first on line %d)", r.psid,
			 old->line);
		goto free_rule;
	}
	if (floor) {
		unsigned long part[MAX_PARTS];
		size_t vn = strlen(value);

		if (strpbrk(value, ", \t")) {
			rc = say(msg, msg_len, "[firmware] %s >= '%.40s': a floor is one version: %s",
				 r.psid, value, forms);
			goto free_rule;
		}
		if (!version_parts(value, vn, part)) {
			rc = say(msg, msg_len, "[firmware] %s: '%.40s' is not a firmware version: %s",
				 r.psid, value, forms);
			goto free_rule;
		}
		r.floor = strdup(value);
		if (!r.floor) {
			rc = -ENOMEM;
			goto free_rule;
		}
	} else {
		rc = parse_list(&r, r.psid, value, msg, msg_len);
		if (rc < 0)
			goto free_rule;
	}
	v = growbuf_reserve(s->fw, &s->cap_fw, s->n_fw + 1, sizeof(*v));
	if (!v) {
		rc = -ENOMEM;
		goto free_rule;
	}
	s->fw = v;
	s->fw[s->n_fw++] = r;
	return 0;
free_rule:
	rule_free(&r);
	return rc;
}

void site_fw_free(struct site *s)
{
	for (size_t i = 0; i < s->n_fw; i++)
		rule_free(&s->fw[i]);
	free(s->fw);
	s->fw = NULL;
	s->n_fw = s->cap_fw = 0;
}
