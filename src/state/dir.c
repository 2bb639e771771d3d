/* The directory of the node's memories (dir.h). */
#include "dir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int state_dir_check(const char *dir, bool make, char *problem, size_t problem_len)
{
	struct stat st;

	problem[0] = '\0';
	if (make && mkdir(dir, 0700) < 0 && errno != EEXIST) {
		int rc = -errno;

		snprintf(problem, problem_len, "cannot make the directory '%s': %s", dir,
			 strerror(-rc));
		return rc;
	}
	if (lstat(dir, &st) < 0) {
		int rc = -errno;

		snprintf(problem, problem_len, "'%s': %s", dir, strerror(-rc));
		return rc;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(problem, problem_len, "'%s' is a symbolic link, which is not followed: "
			 "give the directory itself", dir);
		return -ELOOP;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(problem, problem_len, "'%s' is not a directory", dir);
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(problem, problem_len, "'%s' belongs to uid %u, neither this user (uid %u) "
			 "nor root: its owner could change what is remembered", dir,
			 (unsigned)st.st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(problem, problem_len, "'%s' is writable by %s (mode %04o): they could "
			 "replace what is remembered; `chmod go-w %s`", dir,
			 st.st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned)(st.st_mode & 07777), dir);
		return -EPERM;
	}
	return 0;
}
