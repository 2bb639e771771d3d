/* The tape: what the readers touched, kept so that `snapshot` can lay the
 * same files, symlinks and read errors out in a new directory.  Replaying
 * that directory with --root then gives the readers exactly the same bytes.
 */
#ifndef RD_SYSFS_TAPE_H
#define RD_SYSFS_TAPE_H

#include <stddef.h>

struct tape;

struct tape *tape_new(void);
void tape_free(struct tape *t);

/* Each returns 0 or -ENOMEM.  Paths are canonical and root-relative. */
int tape_file(struct tape *t, const char *path, const char *data, size_t len);
/* A file the kernel refused to read (EINVAL on an unused GID's type...). */
int tape_error(struct tape *t, const char *path, int err);
int tape_symlink(struct tape *t, const char *path, const char *target);
int tape_dir(struct tape *t, const char *path);

/* Lay the tape out under the directory dirfd.  Read errors become
 * directories holding a ".errno" marker with the errno ("EINVAL\n"):
 * read() there fails with EISDIR, which root.c turns back into the
 * marker's errno, so a replay says what the kernel said.
 * Only symlinks that lead inside the new tree are written (tape_link.h):
 * an absolute one is made relative when what it names is on the tape;
 * each other one is left out and, when dropped is not NULL, told to it. */
typedef void tape_dropped_fn(void *arg, const char *path, const char *target);
int tape_write(const struct tape *t, int dirfd, tape_dropped_fn *dropped, void *arg);

size_t tape_count(const struct tape *t);

#endif
