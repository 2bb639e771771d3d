/* The one lock of the node's memories: an flock on a file of its own
 * beside the memory ("DIR/latched.lock"), held from reading the memory to
 * writing it back so that `serve`, `check --state` and `clear` never lose
 * each other's changes. */
#ifndef RD_STATE_LOCK_H
#define RD_STATE_LOCK_H

/* Lock path (made 0600 when missing, and made 0600 when its owner finds it
 * open to others: a user who can open the lock can hold it, and every
 * reading would wait for that user), waiting wait_s at most for another
 * holder.  0 and *fd (close it to unlock), or a negative errno
 * (-EWOULDBLOCK: held by another for longer than wait_s). */
int state_lock(const char *path, int wait_s, int *fd);

#endif
