#include "tool_text.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

bool tt_next_line(const char **p, const char *end, struct span *line)
{
	const char *s = *p, *nl;

	if (!s || s >= end)
		return false;
	nl = memchr(s, '\n', (size_t)(end - s));
	line->s = s;
	line->n = (size_t)((nl ? nl : end) - s);
	if (line->n && s[line->n - 1] == '\r')
		line->n--;
	*p = nl ? nl + 1 : end;
	return true;
}

struct span tt_trim(struct span s)
{
	while (s.n && blank(s.s[0])) {
		s.s++;
		s.n--;
	}
	while (s.n && blank(s.s[s.n - 1]))
		s.n--;
	return s;
}

bool tt_split(struct span line, char c, struct span *key, struct span *val)
{
	const char *at = memchr(line.s, c, line.n);

	if (!at)
		return false;
	*key = tt_trim((struct span){ line.s, (size_t)(at - line.s) });
	*val = tt_trim((struct span){ at + 1, line.n - (size_t)(at - line.s) - 1 });
	return true;
}

static bool squeezed_out(char c)
{
	return blank(c) || c == '_' || c == '-';
}

/* Compare key, squeezed, with the start of name; *rest is what of the key
 * is left after the whole of name matched (NULL: no match). */
static bool squeezed_prefix(struct span key, const char *name, struct span *rest)
{
	size_t i = 0;

	for (const char *q = name; *q; q++) {
		if (squeezed_out(*q))
			continue;
		while (i < key.n && squeezed_out(key.s[i]))
			i++;
		if (i >= key.n || tolower((unsigned char)key.s[i]) != tolower((unsigned char)*q))
			return false;
		i++;
	}
	while (i < key.n && squeezed_out(key.s[i]))
		i++;
	rest->s = key.s + i;
	rest->n = key.n - i;
	return true;
}

bool tt_key_is(struct span key, const char *name)
{
	struct span rest;

	return squeezed_prefix(key, name, &rest) && rest.n == 0;
}

bool tt_key_lane(struct span key, const char *prefix, int max, int *lane)
{
	struct span rest;
	int v = 0;

	if (!squeezed_prefix(key, prefix, &rest) || rest.n == 0 || rest.n > 2)
		return false;
	for (size_t i = 0; i < rest.n; i++) {
		if (!isdigit((unsigned char)rest.s[i]))
			return false;
		v = v * 10 + (rest.s[i] - '0');
	}
	if (v >= max)
		return false;
	*lane = v;
	return true;
}

bool tt_starts(struct span s, const char *prefix)
{
	size_t n = strlen(prefix);

	return s.n >= n && strncasecmp(s.s, prefix, n) == 0;
}

bool tt_contains(struct span s, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; n && i + n <= s.n; i++)
		if (strncasecmp(s.s + i, needle, n) == 0)
			return true;
	return false;
}

char *tt_dup(struct span s)
{
	char *d;

	s = tt_trim(s);
	d = malloc(s.n + 1);
	if (!d)
		return NULL;
	for (size_t i = 0; i < s.n; i++)
		d[i] = s.s[i] ? s.s[i] : '?';
	d[s.n] = '\0';
	return d;
}

int tt_set(char **field, struct span s)
{
	char *d = tt_dup(s);

	if (!d)
		return -ENOMEM;
	free(*field);
	*field = d;
	return 0;
}

/* A bounded NUL-terminated copy of the number's characters, for strto*. */
static bool number_text(struct span s, char *buf, size_t cap, bool hex)
{
	size_t n = 0;

	s = tt_trim(s);
	while (n < s.n && n + 1 < cap &&
	       (isdigit((unsigned char)s.s[n]) || s.s[n] == '.' || s.s[n] == '-' ||
		s.s[n] == '+' || (hex && (isxdigit((unsigned char)s.s[n]) || s.s[n] == 'x' ||
					  s.s[n] == 'X'))))
		n++;
	memcpy(buf, s.s, n);
	buf[n] = '\0';
	return n > 0;
}

bool tt_double(struct span s, double *out)
{
	char buf[48], *end;
	double v;

	if (!number_text(s, buf, sizeof(buf), false))
		return false;
	errno = 0;
	v = strtod(buf, &end);
	if (end == buf || errno)
		return false;
	*out = v;
	return true;
}

bool tt_int(struct span s, int64_t *out)
{
	char buf[48], *end;
	long long v;

	if (!number_text(s, buf, sizeof(buf), true))
		return false;
	errno = 0;
	v = strtoll(buf, &end, strncasecmp(buf, "0x", 2) == 0 ? 16 : 10);
	if (end == buf || errno || v == INT64_MIN)
		return false;
	*out = v;
	return true;
}

int tt_find_field(const struct tt_field *fields, size_t n, struct span k)
{
	for (size_t i = 0; i < n; i++)
		if (tt_key_is(k, fields[i].key))
			return (int)i;
	return -1;
}

int tt_set_field(const struct tt_field *fields, size_t n, void *base, struct span k,
		 struct span v)
{
	int i = tt_find_field(fields, n, k);

	if (i < 0)
		return 0;
	if (v.n && tt_set((char **)((char *)base + fields[i].off), v) < 0)
		return -ENOMEM;
	return 1;
}
