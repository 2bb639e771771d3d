/* The agent's memory on disk (latch_file.h). */
#include "latch_file.h"
#include "dir.h"
#include "file_replace.h"
#include "lock.h"
#include "own_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The memory's lock, DIR/latched.lock. */
static int lock(const char *dir, int *fd_out)
{
	char *path = NULL;
	int rc;

	if (asprintf(&path, "%s/%s.lock", dir, LATCH_FILE_NAME) < 0)
		return -ENOMEM;
	rc = state_lock(path, LATCH_LOCK_WAIT_S, fd_out);
	free(path);
	return rc;
}

int latch_file_open(const char *dir, bool make_dir, struct latch_file *lf, char *problem,
		    size_t problem_len)
{
	char why[200], *text = NULL;
	size_t len = 0;
	int rc;

	memset(lf, 0, sizeof(*lf));
	lf->lock_fd = -1;
	problem[0] = '\0';
	if (asprintf(&lf->path, "%s/%s", dir, LATCH_FILE_NAME) < 0) {
		lf->path = NULL;
		return -ENOMEM;
	}
	rc = state_dir_check(dir, make_dir, problem, problem_len);
	if (rc < 0)
		return rc;
	rc = lock(dir, &lf->lock_fd);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		snprintf(problem, problem_len, "cannot lock '%s/%s.lock': %s", dir,
			 LATCH_FILE_NAME, rc == -EWOULDBLOCK ? "held by another rdmadoctor "
			 "for longer than 10 s" : strerror(-rc));
		return rc;
	}
	rc = own_file_read(lf->path, LATCH_STATE_MAX_TEXT, &text, &len);
	if (rc == -ENOENT)
		return 0;
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		snprintf(problem, problem_len, "cannot read '%s': %s", lf->path,
			 rc == -EINVAL ? "not a regular file" : strerror(-rc));
		return 0;
	}
	rc = latch_state_parse(text, len, &lf->st, why, sizeof(why));
	free(text);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		char *bad = NULL;
		bool moved;

		if (asprintf(&bad, "%s.bad", lf->path) < 0)
			bad = NULL;
		moved = bad && rename(lf->path, bad) == 0;

		snprintf(problem, problem_len, "'%s' is malformed (%s)%s%s", lf->path, why,
			 moved ? ": moved aside to " : "", moved ? bad : "");
		free(bad);
	}
	return 0;
}

static int write_text(FILE *out, void *arg)
{
	const char *text = arg;

	return fputs(text, out) == EOF ? -(errno ? errno : EIO) : 0;
}

int latch_file_save(struct latch_file *lf, const char **stage)
{
	char *text = latch_state_format(&lf->st);
	int rc;

	*stage = "format";
	if (!text)
		return -ENOMEM;
	rc = file_replace(lf->path, write_text, text, stage);
	free(text);
	return rc;
}

void latch_file_close(struct latch_file *lf)
{
	if (lf->lock_fd >= 0)
		close(lf->lock_fd);	/* the lock goes with it */
	lf->lock_fd = -1;
	latch_state_free(&lf->st);
	free(lf->path);
	lf->path = NULL;
}
