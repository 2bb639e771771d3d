/* The agent's memory on disk (docs/state.md): DIR/latched, its text
 * latch_state.h's, read by own_file.h, replaced whole (file_replace.h), with
 * DIR/latched.lock held (lock.h) from reading it to writing it so that
 * `serve`, `check --state` and `clear` never lose each other's changes.
 *
 * A file that cannot be read or parsed gives no memory at all: a
 * malformed one is moved aside to DIR/latched.bad (kept to look at) and
 * a fresh one begun, and the caller says so (latch.state, not checked). */
#ifndef RD_STATE_LATCH_FILE_H
#define RD_STATE_LATCH_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "latch_state.h"

#define LATCH_DIR_DEFAULT "/var/lib/rdmadoctor"
#define LATCH_FILE_NAME "latched"
/* how long to wait for another rdmadoctor holding the lock */
#define LATCH_LOCK_WAIT_S 10

struct latch_file {
	char *path;		/* "DIR/latched" */
	int lock_fd;		/* -1: not held */
	struct latch_state st;	/* what the file held (empty when nothing) */
};

/* Lock and read DIR's memory; the directory is made (0700) when missing
 * and make_dir, and refused when another user could change it (dir.h:
 * -ENOENT, -ELOOP, -ENOTDIR, -EPERM, with why in problem).  0, with lf->st what the file held (empty when there was
 * none); when the file was there but gave nothing (unreadable, malformed)
 * still 0, with why it gave nothing in problem ("" otherwise).  A
 * negative errno when the lock cannot be had (how in problem): nothing
 * can be kept then.  -ENOMEM. */
int latch_file_open(const char *dir, bool make_dir, struct latch_file *lf, char *problem,
		    size_t problem_len);
/* Write lf->st over the file: 0, or a negative errno with *stage saying
 * what failed (the file is then as it was). */
int latch_file_save(struct latch_file *lf, const char **stage);
/* Unlock and free. */
void latch_file_close(struct latch_file *lf);

#endif
