/* One temp-and-rename for the node's memories and every file we replace
 * (file_replace.h). */
#include "file_replace.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkstemp makes 0600; the file gets what any new file would. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/* "<dir>/.<base>.XXXXXX" */
static char *temp_name(const char *path)
{
	char *a = strdup(path), *b = strdup(path), *tmp = NULL;

	if (a && b && asprintf(&tmp, "%s/.%s.XXXXXX", dirname(a), basename(b)) < 0)
		tmp = NULL;
	free(a);
	free(b);
	return tmp;
}

int file_replace(const char *path, file_writer_fn write, void *arg, const char **stage)
{
	return file_replace_mode(path, 0666 & ~current_umask(), write, arg, stage);
}

int file_replace_mode(const char *path, mode_t mode, file_writer_fn write, void *arg,
		      const char **stage)
{
	char *tmp = temp_name(path), *dir_copy = strdup(path);
	FILE *out = NULL;
	int fd = -1, rc, dfd;

	*stage = "create a file beside";
	if (!tmp || !dir_copy) {
		free(tmp);
		free(dir_copy);
		return -ENOMEM;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		free(tmp);
		free(dir_copy);
		return rc;
	}
	*stage = "write";
	if (fchmod(fd, mode) < 0 || !(out = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	rc = write(out, arg);
	if (rc == 0 && (fflush(out) != 0 || ferror(out) || fsync(fileno(out)) < 0))
		rc = -(errno ? errno : EIO);
	if (fclose(out) != 0 && rc == 0)
		rc = -(errno ? errno : EIO);
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		goto fail;
	/* the rename itself is durable once the directory is synced */
	dfd = open(dirname(dir_copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(tmp);
	free(dir_copy);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	free(dir_copy);
	return rc;
}
