/* The directory that holds the node's memories (--state DIR, default
 * /var/lib/rdmadoctor): private to the user the agent runs as, as ssh
 * wants ~/.ssh.  A memory in a directory another user can write is one
 * that user can replace, and a lock another user can open is one that user
 * can hold: every reading would then wait for it and remember nothing.
 *
 * Made 0700 when missing.  Refused, with the reason in words: a symbolic
 * link (not followed: the directory is ours, a link there is someone
 * else's), not a directory, owned by a user that is neither the effective
 * user nor root, or writable by its group or by others.  A group may read
 * it (0750), for a monitoring group. */
#ifndef RD_STATE_DIR_H
#define RD_STATE_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* 0 when dir may hold the memories (made when missing and make); a
 * negative errno with why in problem: -ENOENT (missing, not made),
 * -ELOOP (a link), -ENOTDIR, -EPERM (another user's, or writable by
 * others), or mkdir's and lstat's own. */
int state_dir_check(const char *dir, bool make, char *problem, size_t problem_len);

#endif
