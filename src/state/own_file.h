/* A small file of rdmadoctor's own (a memory it keeps between runs: the
 * EINVAL memo, the agent's latched state), read whole. */
#ifndef RD_SYSFS_OWN_FILE_H
#define RD_SYSFS_OWN_FILE_H

#include <stddef.h>

/* path's bytes, at most max + 1 of them (a file longer than max is then
 * seen to be, and its parser refuses it), NUL-ended in *text (malloc'ed)
 * with *len.  Not through a link (the file is ours, and a link there is
 * someone else's), nor a directory, FIFO or device: -EISDIR / -EINVAL.
 * 0, or a negative errno (-ENOENT: none). */
int own_file_read(const char *path, size_t max, char **text, size_t *len);

#endif
