/* The files a command's arguments name (opt_files.h). */
#include "opt_files.h"
#include "../pipeline/ctx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int opt_need_file(struct ctx *c, const char *cmd, const char *opt, const char *path)
{
	struct stat st;
	int err = 0;

	if (strcmp(path, "-") == 0)
		return CMD_GO_ON;
	if (stat(path, &st) < 0 || access(path, R_OK) < 0)
		err = errno;
	else if (S_ISDIR(st.st_mode))
		err = EISDIR;
	if (!err)
		return CMD_GO_ON;
	fprintf(stderr, "%s %s: %s '%s': %s\n", c->prog, cmd, opt, path, strerror(err));
	return EXIT_USAGE;
}

int opt_need_parent(struct ctx *c, const char *cmd, const char *what, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;
	char *dir;
	struct stat st;
	int err = 0;

	if (!slash)
		return CMD_GO_ON;	/* the current directory */
	dir = len ? strndup(path, len) : strdup("/");
	if (!dir) {
		fprintf(stderr, "%s: out of memory\n", c->prog);
		return EXIT_RUNTIME;
	}
	if (stat(dir, &st) < 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	if (err)
		fprintf(stderr, "%s %s: %s '%s': its directory '%s': %s\n", c->prog, cmd, what,
			path, dir, strerror(err));
	free(dir);
	return err ? EXIT_USAGE : CMD_GO_ON;
}
