/* snapshot's writer: a tape (tape.h) written as a tree at a new path,
 * beside it first and renamed at the end, so that a full disk or a crash
 * leaves no half snapshot under the name the user asked for. */
#ifndef RD_SYSFS_TAPE_DIR_H
#define RD_SYSFS_TAPE_DIR_H

#include <stddef.h>

#include "tape.h"

/* Write t to the directory out (which must not exist); dropped is told
 * each link left out (tape_write).  0, or a negative errno with why
 * ("cannot create a directory next to 'x': ...", "cannot write snapshot
 * 'x': ..."); nothing is left under out then. */
int tape_write_dir(const struct tape *t, const char *out, tape_dropped_fn *dropped, void *arg,
		   char *why, size_t len);

#endif
