/* Parsers for access_parse.h.  Each follows the program that owns the file:
 * pam_limits (modules/pam_limits/pam_limits.c: parse_config_file, split,
 * process_limit), systemd (config_parse_rlimit, rlimit_parse_size,
 * parse_size), glibc's nss_files for passwd and group. */
#include "access_parse.h"
#include "../model/growbuf.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of text: [*s, *e), *next past its newline; false at the end. */
static bool next_line(const char **pos, const char **s, const char **e)
{
	const char *p = *pos, *nl;

	if (!p || !*p)
		return false;
	nl = strchr(p, '\n');
	*s = p;
	*e = nl ? nl : p + strlen(p);
	*pos = nl ? nl + 1 : *e;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static char *lower_dup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	for (size_t i = 0; d && d[i]; i++)
		d[i] = (char)tolower((unsigned char)d[i]);
	return d;
}

/* pam_limits' value: unlimited words, else strtoull as it calls it (base
 * 10, whatever follows the digits ignored; nothing parsed skips the line),
 * then KiB to bytes, saturating at infinity. */
static bool pam_value(const char *v, uint64_t *bytes)
{
	unsigned long long x;
	char *end;

	if (!strcmp(v, "-1") || !strcmp(v, "-") || !strcmp(v, "unlimited") ||
	    !strcmp(v, "infinity")) {
		*bytes = MEMLOCK_INFINITY;
		return true;
	}
	errno = 0;
	x = strtoull(v, &end, 10);
	if (x == 0 && end == v)
		return false;
	if (x == ULLONG_MAX) {
		*bytes = MEMLOCK_INFINITY;	/* RLIM_INFINITY: not scaled */
		return true;
	}
	*bytes = x >= UINT64_MAX / 1024 ? MEMLOCK_INFINITY : (uint64_t)x * 1024;
	return true;
}

static int push_line(struct memlock_line **v, size_t *n, size_t *cap, const char *file,
		     int lineno, const char *domain, const char *type, const char *value,
		     uint64_t bytes, bool no_limits)
{
	struct memlock_line *nv = growbuf_reserve(*v, cap, *n + 1, sizeof(**v));
	struct memlock_line *l;

	if (!nv)
		return -ENOMEM;
	*v = nv;
	l = &nv[*n];
	memset(l, 0, sizeof(*l));
	l->file = strdup(file);
	l->domain = strdup(domain);
	l->value = strdup(value ? value : "");
	if (!l->file || !l->domain || !l->value) {
		free(l->file);
		free(l->domain);
		free(l->value);
		return -ENOMEM;
	}
	l->line = lineno;
	l->no_limits = no_limits;
	l->soft = type && (!strcmp(type, "soft") || !strcmp(type, "-"));
	l->hard = type && (!strcmp(type, "hard") || !strcmp(type, "-"));
	l->bytes = bytes;
	(*n)++;
	return 0;
}

int limits_conf_parse(const char *text, const char *file, struct memlock_line **v, size_t *n,
		      size_t *cap)
{
	const char *pos = text, *s, *e;
	int lineno = 0;

	while (next_line(&pos, &s, &e)) {
		char *buf, *f[3] = { NULL, NULL, NULL }, *value = NULL, *p, *hash;
		size_t nf = 0;
		int rc = 0;

		lineno++;
		buf = strndup(s, (size_t)(e - s));
		if (!buf)
			return -ENOMEM;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		p = buf;
		/* split: three blank-separated fields, then the rest, trimmed */
		while (nf < 3) {
			while (*p && (blank(*p) || isspace((unsigned char)*p)))
				p++;
			if (!*p)
				break;
			f[nf++] = p;
			while (*p && !blank(*p))
				p++;
			if (*p)
				*p++ = '\0';
		}
		if (nf == 3) {
			while (blank(*p))
				p++;
			if (*p) {
				char *t = p + strlen(p);

				while (t > p && blank(t[-1]))
					*--t = '\0';
				value = p;
			}
		}
		for (char *c = f[1]; c && *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (nf == 3 && value) {
			char *item = lower_dup(f[2], strlen(f[2]));
			char *val = lower_dup(value, strlen(value));
			uint64_t bytes;

			if (!item || !val)
				rc = -ENOMEM;
			else if (!strcmp(item, "memlock") &&
				 (!strcmp(f[1], "soft") || !strcmp(f[1], "hard") || !strcmp(f[1], "-")) &&
				 pam_value(val, &bytes))
				rc = push_line(v, n, cap, file, lineno, f[0], f[1], value, bytes, false);
			free(item);
			free(val);
		} else if (nf == 2 && !value && f[1][0] == '-') {
			rc = push_line(v, n, cap, file, lineno, f[0], NULL, NULL, 0, true);
		}
		free(buf);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int unit_size_parse(const char *s, size_t len, uint64_t *bytes)
{
	static const struct {
		char c;
		unsigned shift;
	} suffix[] = { { 'E', 60 }, { 'P', 50 }, { 'T', 40 }, { 'G', 30 }, { 'M', 20 },
		       { 'K', 10 }, { 'B', 0 } };
	char buf[64], *end;
	unsigned long long whole, frac = 0, frac_div = 1;
	unsigned shift = 0;
	size_t i;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!strcmp(buf, "infinity")) {
		*bytes = MEMLOCK_INFINITY;
		return 0;
	}
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	whole = strtoull(buf, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == '.') {
		char *f = end + 1;

		if (!isdigit((unsigned char)*f))
			return -EINVAL;
		for (; isdigit((unsigned char)*f); f++) {
			if (frac_div <= 100000000000000ULL) {
				frac = frac * 10 + (unsigned)(*f - '0');
				frac_div *= 10;
			}
		}
		end = f;
	}
	while (blank(*end))
		end++;
	if (*end) {
		for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
			if (*end == suffix[i].c)
				break;
		if (i == sizeof(suffix) / sizeof(suffix[0]) || end[1])
			return -EINVAL;
		shift = suffix[i].shift;
	}
	if (shift && whole > (UINT64_MAX >> shift))
		return -EINVAL;
	*bytes = (uint64_t)whole << shift;
	if (frac && shift)
		*bytes += (uint64_t)(((unsigned __int128)frac << shift) / frac_div);
	return 0;
}

/* SOFT:HARD or one value for both. */
static int unit_limit_value(const char *v, struct unit_limit *out)
{
	const char *colon = strchr(v, ':');

	if (!colon) {
		if (unit_size_parse(v, strlen(v), &out->soft) < 0)
			return -EINVAL;
		out->hard = out->soft;
		return 0;
	}
	if (unit_size_parse(v, (size_t)(colon - v), &out->soft) < 0 ||
	    unit_size_parse(colon + 1, strlen(colon + 1), &out->hard) < 0)
		return -EINVAL;
	/* systemd refuses a soft limit above the hard one */
	return out->soft > out->hard ? -EINVAL : 0;
}

int unit_limit_parse(const char *text, const char *file, const char *section, const char *key,
		     struct unit_limit *lim, int *bad_line)
{
	const char *pos = text, *s, *e;
	size_t klen = strlen(key), slen = strlen(section);
	bool in = false;
	int lineno = 0;

	while (next_line(&pos, &s, &e)) {
		struct unit_limit v = { 0 };
		const char *p;
		char *val;

		lineno++;
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		if (s == e || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			in = (size_t)(e - s) == slen + 2 && !memcmp(s + 1, section, slen) &&
			     e[-1] == ']';
			continue;
		}
		if (!in || (size_t)(e - s) < klen || memcmp(s, key, klen) != 0)
			continue;
		p = s + klen;
		while (p < e && blank(*p))
			p++;
		if (p == e || *p != '=')
			continue;
		p++;
		while (p < e && blank(*p))
			p++;
		if (p == e) {
			free(lim->source);
			memset(lim, 0, sizeof(*lim));	/* "LimitMEMLOCK=" resets */
			continue;
		}
		val = strndup(p, (size_t)(e - p));
		if (!val)
			return -ENOMEM;
		if (unit_limit_value(val, &v) < 0) {
			if (bad_line && !*bad_line)
				*bad_line = lineno;
		} else {
			char *src;

			if (asprintf(&src, "%s:%d", file, lineno) < 0) {
				free(val);
				return -ENOMEM;
			}
			free(lim->source);
			lim->set = true;
			lim->soft = v.soft;
			lim->hard = v.hard;
			lim->source = src;
		}
		free(val);
	}
	return 0;
}

static bool id_field(const char *s, size_t n, uint32_t *out)
{
	uint64_t v = 0;

	if (!n || n > 10)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Split [s, e) at ':' into at most max fields; the count. */
static size_t fields(const char *s, const char *e, const char **f, size_t *len, size_t max)
{
	size_t n = 0;

	while (n < max) {
		const char *c = memchr(s, ':', (size_t)(e - s));

		f[n] = s;
		len[n] = (size_t)((c ? c : e) - s);
		n++;
		if (!c)
			break;
		s = c + 1;
	}
	return n;
}

int passwd_parse(const char *text, struct accounts *a)
{
	const char *pos = text, *s, *e;
	size_t cap = a->n_users;

	while (next_line(&pos, &s, &e)) {
		const char *f[7];
		size_t len[7], nf = fields(s, e, f, len, 7);
		struct account_user u;
		struct account_user *v;

		if (nf < 4 || !len[0] || *s == '+' || *s == '-' || *s == '#' ||
		    !id_field(f[2], len[2], &u.uid) || !id_field(f[3], len[3], &u.gid))
			continue;
		v = growbuf_reserve(a->users, &cap, a->n_users + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		a->users = v;
		u.name = strndup(f[0], len[0]);
		if (!u.name)
			return -ENOMEM;
		a->users[a->n_users++] = u;
	}
	return 0;
}

int group_parse(const char *text, struct accounts *a)
{
	const char *pos = text, *s, *e;
	size_t cap = a->n_groups;

	while (next_line(&pos, &s, &e)) {
		const char *f[4];
		size_t len[4], nf = fields(s, e, f, len, 4);
		struct account_group g = { 0 };
		struct account_group *v;
		size_t mcap = 0;

		if (nf < 3 || !len[0] || *s == '+' || *s == '-' || *s == '#' ||
		    !id_field(f[2], len[2], &g.gid))
			continue;
		v = growbuf_reserve(a->groups, &cap, a->n_groups + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		a->groups = v;
		g.name = strndup(f[0], len[0]);
		if (!g.name)
			return -ENOMEM;
		a->groups[a->n_groups++] = g;
		if (nf < 4)
			continue;
		for (const char *m = f[3], *end = f[3] + len[3]; m < end;) {
			const char *c = memchr(m, ',', (size_t)(end - m));
			size_t ml = (size_t)((c ? c : end) - m);
			struct account_group *last = &a->groups[a->n_groups - 1];

			/* glibc's list parser skips blanks before a name, and so here */
			while (ml && isspace((unsigned char)*m))
				m++, ml--;
			while (ml && isspace((unsigned char)m[ml - 1]))
				ml--;
			if (ml) {
				char **mv = growbuf_reserve(last->members, &mcap, last->n_members + 1,
							    sizeof(*mv));

				if (!mv)
					return -ENOMEM;
				last->members = mv;
				mv[last->n_members] = strndup(m, ml);
				if (!mv[last->n_members])
					return -ENOMEM;
				last->n_members++;
			}
			m = c ? c + 1 : end;
		}
	}
	return 0;
}

int devnode_record_parse(const char *text, struct dev_node *d)
{
	char type[8], acl[1024];
	unsigned mode;
	uint32_t uid, gid;
	int used = 0;

	if (!strcmp(text, "missing") || !strcmp(text, "missing\n")) {
		d->present = 0;
		return 0;
	}
	if (sscanf(text, "%7s %o %" SCNu32 " %" SCNu32 " %1023s%n", type, &mode, &uid, &gid, acl,
		   &used) != 5 || (text[used] && strcmp(text + used, "\n") != 0) ||
	    (strcmp(type, "chr") && strcmp(type, "other")) || mode > 07777)
		return -EINVAL;
	free(d->acl);
	d->acl = NULL;
	d->n_acl = 0;
	d->present = 1;
	d->chr = !strcmp(type, "chr");
	d->mode = mode;
	d->uid = uid;
	d->gid = gid;
	if (!strcmp(acl, "-")) {
		d->has_acl = 0;
	} else if (!strcmp(acl, "?")) {
		d->has_acl = -1;
	} else {
		size_t n = 1;

		for (const char *c = acl; *c; c++)
			n += *c == ',';
		d->acl = calloc(n, sizeof(*d->acl));
		if (!d->acl)
			return -ENOMEM;
		for (char *tok = acl, *next; tok; tok = next) {
			unsigned tag, perm;
			uint32_t id;
			int k = 0;

			next = strchr(tok, ',');
			if (next)
				*next++ = '\0';
			if (sscanf(tok, "%x:%" SCNu32 ":%u%n", &tag, &id, &perm, &k) != 3 || tok[k] ||
			    perm > 7 || !tag || tag > ACL_TAG_OTHER || (tag & (tag - 1))) {
				free(d->acl);
				d->acl = NULL;
				d->n_acl = 0;
				d->present = -1;
				return -EINVAL;
			}
			d->acl[d->n_acl++] = (struct acl_entry){ (uint16_t)tag, (uint16_t)perm, id };
		}
		d->has_acl = 1;
	}
	return 0;
}

char *devnode_record_format(const struct dev_node *d)
{
	char *out = NULL, *acl;
	size_t len = 0;
	FILE *f;

	if (d->present == 0)
		return strdup("missing\n");
	f = open_memstream(&acl, &len);
	if (!f)
		return NULL;
	if (d->has_acl < 0)
		fputs("?", f);
	else if (!d->has_acl || !d->n_acl)
		fputs("-", f);
	for (size_t i = 0; d->has_acl > 0 && i < d->n_acl; i++)
		fprintf(f, "%s%x:%" PRIu32 ":%u", i ? "," : "", d->acl[i].tag, d->acl[i].id,
			d->acl[i].perm);
	if (fclose(f) != 0) {
		free(acl);
		return NULL;
	}
	if (asprintf(&out, "%s %04o %" PRIu32 " %" PRIu32 " %s\n", d->chr ? "chr" : "other",
		     d->mode & 07777, d->uid, d->gid, acl) < 0)
		out = NULL;
	free(acl);
	return out;
}
