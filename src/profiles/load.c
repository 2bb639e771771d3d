/* Profiles as users give them: text or a file whose based_on names a
 * built-in.  The parser (profile.c) is handed the built-ins (builtin.c) to
 * look based_on up in, so neither of those two calls the other. */
#include "profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT PROFILE_MAX_TEXT

static const struct profile_bases builtins = {
	.find = profile_builtin,
	.at = profile_builtin_at,
	.count = profile_builtin_count,
};

int profile_parse(const char *text, size_t len, const char *origin, struct profile *out,
		  struct profile_error *err)
{
	return profile_parse_bases(text, len, origin, &builtins, out, err);
}

int profile_load_file(const char *path, struct profile *out, struct profile_error *err)
{
	struct profile_error spare;
	FILE *f;
	char *buf;
	size_t n;
	int rc;

	if (!err)
		err = &spare;
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (snprintf(err->file, sizeof(err->file), "%s", path) >= (int)sizeof(err->file))
		memcpy(err->file + sizeof(err->file) - 4, "...", 4);
	f = fopen(path, "r");
	if (!f) {
		rc = -errno;
		snprintf(err->message, sizeof(err->message), "cannot open: %s", strerror(-rc));
		return rc;
	}
	buf = malloc(MAX_TEXT + 1);
	if (!buf) {
		fclose(f);
		snprintf(err->message, sizeof(err->message), "out of memory");
		return -ENOMEM;
	}
	errno = 0;
	n = fread(buf, 1, MAX_TEXT + 1, f);
	rc = ferror(f) ? -(errno ? errno : EIO) : 0;
	fclose(f);
	if (rc < 0) {
		free(buf);
		snprintf(err->message, sizeof(err->message), "cannot read: %s", strerror(-rc));
		return rc;
	}
	rc = profile_parse(buf, n, path, out, err);
	free(buf);
	return rc;
}

