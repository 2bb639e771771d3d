/* The boot id, which the node's memories are keyed by: the agent's
 * (docs/state.md) that of the machine under a root, read through the root
 * like every other file, so that a tree (a snapshot, a test's copy of a
 * fixture) has the boot id its file says and a test can "reboot" a tree
 * by writing another; the EINVAL memo's (einval_file.h) that of the
 * running kernel, since that memory is the live system's own. */
#ifndef RD_STATE_BOOT_ID_H
#define RD_STATE_BOOT_ID_H

#include <stdbool.h>
#include <stddef.h>

struct root;

#define BOOT_ID_PATH "proc/sys/kernel/random/boot_id"
#define BOOT_ID_LEN 36	/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */

/* Whether text is a boot id as the kernel prints it (without its
 * newline): 36 characters, lowercase hex and dashes at 8, 13, 18, 23. */
bool boot_id_ok(const char *text, size_t len);

/* 0 and out the boot id; a negative errno (-EINVAL: not a boot id as the
 * kernel prints one). */
int boot_id_read(struct root *r, char out[BOOT_ID_LEN + 1]);
/* The same of the running kernel: "/" BOOT_ID_PATH, never a root's. */
int boot_id_live(char out[BOOT_ID_LEN + 1]);

#endif
