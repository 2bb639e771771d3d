/* The boot id of the machine under a root: proc/sys/kernel/random/boot_id,
 * read through the root like every other file, so that a tree (a
 * snapshot, a test's copy of a fixture) has the boot id its file says and
 * a test can "reboot" a tree by writing another.  The agent's memory
 * (docs/state.md) is keyed by it. */
#ifndef RD_SYSFS_BOOT_ID_H
#define RD_SYSFS_BOOT_ID_H

#include <stddef.h>

struct root;

#define BOOT_ID_PATH "proc/sys/kernel/random/boot_id"
#define BOOT_ID_LEN 36	/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */

/* 0 and out the boot id; a negative errno (-EINVAL: not a boot id as the
 * kernel prints one). */
int boot_id_read(struct root *r, char out[BOOT_ID_LEN + 1]);

#endif
