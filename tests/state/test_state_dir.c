/* The directory and the lock of the node's memories (src/state/dir.c,
 * src/state/lock.c): private to the user the agent runs as, so that no
 * other user can replace the memory or hold its lock (issue 44). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "state/dir.h"
#include "state/lock.h"

#define NOBODY 65534

static char base[PATH_MAX];

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(base, sizeof(base), "%s/rd-state-dir-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static void path(char *out, const char *name)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", base, name);

	assert_true(n > 0 && n < PATH_MAX);
}

static mode_t mode_of(const char *p)
{
	struct stat st;

	assert_int_equal(lstat(p, &st), 0);
	return st.st_mode & 07777;
}

/* made 0700 when missing; a missing one not made is -ENOENT */
static void made_private(void **state)
{
	char d[PATH_MAX], why[300];
	(void)state;

	path(d, "state");
	assert_int_equal(state_dir_check(d, false, why, sizeof(why)), -ENOENT);
	assert_int_equal(state_dir_check(d, true, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(mode_of(d), 0700);
	/* a group may read it */
	assert_int_equal(chmod(d, 0750), 0);
	assert_int_equal(state_dir_check(d, false, why, sizeof(why)), 0);
}

/* writable by the group or by everyone: refused, the fix said */
static void writable_refused(void **state)
{
	char d[PATH_MAX], why[300];
	(void)state;

	path(d, "open");
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(chmod(d, 0777), 0);
	assert_int_equal(state_dir_check(d, true, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by every user (mode 0777)"));
	assert_non_null(strstr(why, "chmod go-w"));
	assert_int_equal(chmod(d, 0770), 0);
	assert_int_equal(state_dir_check(d, true, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by its group"));
	/* the sticky /tmp is no private directory either */
	assert_int_equal(chmod(d, 01777), 0);
	assert_int_equal(state_dir_check(d, false, why, sizeof(why)), -EPERM);
}

/* a link is not followed, a file is no directory */
static void link_and_file_refused(void **state)
{
	char d[PATH_MAX], l[PATH_MAX], f[PATH_MAX], why[300];
	(void)state;

	path(d, "real");
	path(l, "link");
	path(f, "file");
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(symlink(d, l), 0);
	assert_int_equal(state_dir_check(l, true, why, sizeof(why)), -ELOOP);
	assert_non_null(strstr(why, "symbolic link"));
	assert_int_equal(close(open(f, O_CREAT | O_WRONLY, 0600)), 0);
	assert_int_equal(state_dir_check(f, true, why, sizeof(why)), -ENOTDIR);
}

/* another user's directory: refused (its owner could change the memory);
 * root's is accepted for any user */
static void other_owner_refused(void **state)
{
	char d[PATH_MAX], why[300];
	(void)state;

	assert_int_equal(state_dir_check("/", false, why, sizeof(why)), 0);
	if (geteuid() != 0)
		skip();		/* only root can give a directory away */
	path(d, "theirs");
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(chown(d, NOBODY, NOBODY), 0);
	assert_int_equal(state_dir_check(d, false, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "belongs to uid 65534"));
}

/* the lock is made 0600, and one an older version made 0644 is made
 * private by its owner */
static void lock_private(void **state)
{
	char p[PATH_MAX];
	int fd;
	(void)state;

	path(p, "latched.lock");
	assert_int_equal(state_lock(p, 1, &fd), 0);
	assert_int_equal(mode_of(p), 0600);
	close(fd);
	assert_int_equal(chmod(p, 0644), 0);
	assert_int_equal(state_lock(p, 1, &fd), 0);
	assert_int_equal(mode_of(p), 0600);
	close(fd);
}

/* a user other than the owner cannot open the lock, so cannot hold it
 * (before: 0644, opened read-only, flock held, every reading waited) */
static void stranger_cannot_hold(void **state)
{
	char p[PATH_MAX];
	int fd, status;
	pid_t pid;
	(void)state;

	if (geteuid() != 0)
		skip();		/* becoming another user needs root */
	path(p, "latched.lock");
	assert_int_equal(chmod(base, 0755), 0);	/* the stranger may reach the file */
	assert_int_equal(state_lock(p, 1, &fd), 0);
	close(fd);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int f;

		if (setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
			_exit(2);
		f = open(p, O_RDONLY | O_CLOEXEC);
		_exit(f < 0 && errno == EACCES ? 0 : f >= 0 && flock(f, LOCK_EX | LOCK_NB) == 0 ?
		      1 : 3);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(made_private, setup, teardown),
		cmocka_unit_test_setup_teardown(writable_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(link_and_file_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(other_owner_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(lock_private, setup, teardown),
		cmocka_unit_test_setup_teardown(stranger_cannot_hold, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
