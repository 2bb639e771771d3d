/* The EINVAL memory's text (einval_state.h). */
#include "einval_state.h"
#include "boot_id.h"
#include "../model/line_text.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A path line: 'PATH' or 'PATH<tab>SECONDS', when the kernel last refused
 * it in seconds since boot (a file of a version before them has none: 0,
 * not known, due for a retry).  0 taken, -EINVAL not a path line,
 * -ENOMEM. */
static int path_line(struct einval_state *s, const char *p, size_t n, bool keep)
{
	const char *tab = memchr(p, '\t', n);
	size_t plen = tab ? (size_t)(tab - p) : n;
	int64_t at = 0;
	char *path;
	int rc;

	if (!einval_state_path_ok(p, plen))
		return -EINVAL;
	if (tab) {
		size_t dn = n - plen - 1;

		if (!dn || dn > 18 || (dn > 1 && tab[1] == '0'))
			return -EINVAL;
		for (size_t i = 1; i <= dn; i++) {
			if (tab[i] < '0' || tab[i] > '9')
				return -EINVAL;
			at = at * 10 + (tab[i] - '0');
		}
	}
	if (!keep)
		return 0;
	path = strndup(p, plen);
	if (!path)
		return -ENOMEM;
	rc = einval_state_has(s, path) ? -EINVAL : einval_state_add(s, path, at);
	free(path);
	return rc < 0 ? rc : 0;
}

/* Lines end in '\n', the last one too: a file cut short is malformed. */
int einval_state_parse(const char *text, size_t len, const char *boot_id, bool *same_boot,
		       struct einval_state *out, char *why, size_t why_len)
{
	static const char boot[] = "boot ";
	struct line_walk w = LINE_WALK(text, len);
	const char *p;
	size_t n;
	int line, rc;

	memset(out, 0, sizeof(*out));
	*same_boot = false;
	if (why_len)
		why[0] = '\0';
	if (!text || len > EINVAL_STATE_MAX_TEXT)
		return line_error(why, why_len, 0, "larger than %u KiB", EINVAL_STATE_MAX_TEXT >> 10);
	while ((rc = line_next(&w, &p, &n, why, why_len)) > 0) {
		line = w.line;
		if (line == 1) {
			rc = line_magic(p, n, EINVAL_STATE_MAGIC, line, why, why_len);
		} else if (line == 2) {
			if (n < sizeof(boot) - 1 || memcmp(p, boot, sizeof(boot) - 1) ||
			    !boot_id_ok(p + 5, n - 5))
				rc = line_error(why, why_len, line, "expected 'boot ' and a boot id");
			else
				*same_boot = boot_id && strlen(boot_id) == n - 5 &&
					     !memcmp(boot_id, p + 5, n - 5);
		} else if (out->n >= EINVAL_STATE_MAX_PATHS) {
			rc = line_error(why, why_len, line, "more than %u paths", EINVAL_STATE_MAX_PATHS);
		} else if ((rc = path_line(out, p, n, *same_boot)) == -EINVAL) {
			rc = line_error(why, why_len, line, "not a relative path (and the seconds "
					"since boot it was refused)");
		}
		if (rc < 0)
			break;
	}
	line = w.line;
	if (rc == 0 && line < 2)
		rc = line_error(why, why_len, line + 1, "cut short (no %s)", line ? "boot id" : "header");
	if (rc < 0) {
		einval_state_free(out);
		*same_boot = false;
	}
	return rc;
}

char *einval_state_format(const struct einval_state *s, const char *boot_id)
{
	size_t len = strlen(EINVAL_STATE_MAGIC) + strlen(boot_id) + 8, at;
	char *text;

	for (size_t i = 0; i < s->n; i++)
		len += strlen(s->paths[i]) + 22;
	text = malloc(len);
	if (!text)
		return NULL;
	at = (size_t)snprintf(text, len, "%s\nboot %s\n", EINVAL_STATE_MAGIC, boot_id);
	for (size_t i = 0; i < s->n && at < len; i++)
		at += (size_t)(s->at[i] ? snprintf(text + at, len - at, "%s\t%lld\n", s->paths[i],
						   (long long)s->at[i])
					: snprintf(text + at, len - at, "%s\n", s->paths[i]));
	return text;
}
