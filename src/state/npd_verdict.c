/* npd_verdict_* (npd_verdict.h). */
#include "npd_verdict.h"

#include <stdio.h>
#include <string.h>

static int status_ok(int s)
{
	return s == 0 || s == 1 || s == 3;
}

/* Printable ASCII and UTF-8 bytes: no control byte, no DEL. */
static int line_ok(const char *s, size_t n)
{
	if (n == 0 || n > NPD_VERDICT_LINE_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

int npd_verdict_format(char *buf, size_t n, const struct npd_verdict *v)
{
	size_t len = strnlen(v->line, sizeof(v->line));
	int w;

	if (!status_ok(v->status) || v->when < 0 || !line_ok(v->line, len))
		return -1;
	w = snprintf(buf, n, NPD_VERDICT_MAGIC " %d %lld\n%s\n", v->status, v->when, v->line);
	return w < 0 || (size_t)w >= n ? -1 : w;
}

int npd_verdict_parse(const char *buf, size_t n, struct npd_verdict *v)
{
	const char *p = buf, *end = buf + n, *nl;
	size_t magic = strlen(NPD_VERDICT_MAGIC);
	long long when = 0;
	int digits = 0;

	memset(v, 0, sizeof(*v));
	if (n > NPD_VERDICT_FILE_MAX || n < magic + 1 || memcmp(p, NPD_VERDICT_MAGIC " ", magic + 1))
		return -1;
	p += magic + 1;
	if (end - p < 2 || p[1] != ' ' || !status_ok(p[0] - '0'))
		return -1;
	v->status = p[0] - '0';
	for (p += 2; p < end && *p >= '0' && *p <= '9'; p++) {
		if (++digits > 18)	/* within a long long, whatever comes */
			return -1;
		when = when * 10 + (*p - '0');
	}
	if (!digits || p == end || *p != '\n')
		return -1;
	v->when = when;
	p++;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl || nl + 1 != end || !line_ok(p, (size_t)(nl - p)))
		return -1;
	memcpy(v->line, p, (size_t)(nl - p));
	v->line[nl - p] = 0;
	return 0;
}
