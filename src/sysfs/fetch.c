#include "fetch.h"
#include "root.h"
#include "tape.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fetch_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0 && n <= 255 && !strchr(s, '/') && strcmp(s, ".") != 0 &&
	       strcmp(s, "..") != 0;
}

bool fetch_failure_noted(const struct root *r, int rc)
{
	return rc < 0 && rc != -ENOMEM && (r->live || rc != -ENOENT);
}

bool fetch_key_ok(const char *key)
{
	const char *p = key;

	if (!key || !*key || strlen(key) >= PATH_MAX / 2)
		return false;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		char part[256];

		if (n == 0 || n > 255)
			return false;
		memcpy(part, p, n);
		part[n] = '\0';
		if (!fetch_name_ok(part))
			return false;
		if (!slash)
			return true;
		p = slash + 1;
	}
}

/* Replay: the bytes, else the recorded errno, else -ENOENT. */
static int replay(struct root *r, const char *path, size_t cap, void **data, size_t *len)
{
	char *buf = malloc(cap + 2), *epath = NULL, *etext = NULL, *end;
	size_t got = 0;
	int rc;
	long e;

	if (!buf)
		return -ENOMEM;
	/* one byte past cap tells "exactly cap" from "longer" */
	rc = root_read_bin(r, path, buf, cap + 1, &got);
	if (rc == 0) {
		if (got > cap) {
			free(buf);
			root_note(r, path, "longer than %zu bytes: not used", cap);
			return -EFBIG;
		}
		buf[got] = '\0';
		*data = buf;
		*len = got;
		return 0;
	}
	free(buf);
	if (rc != -ENOENT)
		return rc;
	if (asprintf(&epath, "%s.errno", path) < 0)
		return -ENOMEM;
	rc = root_read(r, epath, &etext);
	free(epath);
	if (rc < 0)
		return rc == -ENOMEM ? rc : -ENOENT;
	errno = 0;
	e = strtol(etext, &end, 10);
	rc = (errno || end == etext || *end || e <= 0 || e > 4095) ? -EIO : -(int)e;
	free(etext);
	return rc;
}

/* Live: ask, and put what came back (bytes or failure) on the tape. */
static int live(struct root *r, const char *path, size_t cap, root_fetch_fn fetch, void *arg,
		void **data, size_t *len)
{
	void *buf = NULL;
	size_t got = 0;
	int rc = fetch(arg, &buf, &got);

	if (rc == 0 && got > cap) {
		free(buf);
		buf = NULL;
		rc = -EFBIG;
	}
	if (rc == 0) {
		/* callers may treat the bytes as a string */
		char *grown = realloc(buf, got + 1);

		if (!grown) {
			free(buf);
			return -ENOMEM;
		}
		grown[got] = '\0';
		buf = grown;
	}
	if (r->tape && rc != -ENOMEM) {
		int trc;

		if (rc == 0) {
			trc = tape_file(r->tape, path, buf, got);
		} else {
			char *epath = NULL, num[16];

			snprintf(num, sizeof(num), "%d", -rc);
			trc = asprintf(&epath, "%s.errno", path) < 0 ? -ENOMEM :
			      tape_file(r->tape, epath, num, strlen(num));
			free(epath);
		}
		if (trc < 0) {
			free(buf);
			return trc;
		}
	}
	if (rc < 0)
		return rc;
	*data = buf;
	*len = got;
	return 0;
}

int root_fetch(struct root *r, const char *kind, const char *key, size_t cap,
	       root_fetch_fn fetch, void *arg, void **data, size_t *len)
{
	char *path = NULL;
	int rc;

	*data = NULL;
	*len = 0;
	if (!fetch_name_ok(kind) || !fetch_key_ok(key))
		return -EINVAL;
	if (asprintf(&path, "%s/%s/%s", FETCH_DIR, kind, key) < 0)
		return -ENOMEM;
	rc = r->live ? live(r, path, cap, fetch, arg, data, len) : replay(r, path, cap, data, len);
	free(path);
	return rc;
}
