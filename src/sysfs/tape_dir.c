/* snapshot's writer (tape_dir.h). */
#include "tape_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static void remove_tree(const char *dir)
{
	/* best effort: what is left is a directory named .partial */
	(void)nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Written beside the target and renamed at the end: a full disk or a crash
 * leaves no half snapshot under the name the user asked for. */
static char *partial_dir(const char *out)
{
	char *tmpl = NULL;

	if (asprintf(&tmpl, "%s.partial-XXXXXX", out) < 0)
		tmpl = NULL;
	if (tmpl && !mkdtemp(tmpl)) {
		free(tmpl);
		tmpl = NULL;
	}
	return tmpl;
}

int tape_write_dir(const struct tape *t, const char *out, tape_dropped_fn *dropped, void *arg,
		   char *why, size_t len)
{
	char *tmp = partial_dir(out);
	int dirfd, rc;

	if (!tmp) {
		rc = -errno;
		snprintf(why, len, "cannot create a directory next to '%s': %s", out,
			 strerror(errno));
		return rc < 0 ? rc : -ENOMEM;
	}
	dirfd = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		rc = -errno;
	else
		rc = tape_write(t, dirfd, dropped, arg);
	if (dirfd >= 0)
		close(dirfd);
	if (rc == 0 && rename(tmp, out) < 0)
		rc = -errno;
	if (rc < 0) {
		snprintf(why, len, "cannot write snapshot '%s': %s", out, strerror(-rc));
		remove_tree(tmp);
	}
	free(tmp);
	return rc;
}
