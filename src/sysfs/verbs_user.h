/* The verbs userspace through the root (model/verbs_user.h): libibverbs
 * in the first of the multiarch, lib64 and lib directories that has
 * libibverbs.so.1, read whole (its ELF version definitions; the snapshot
 * keeps the file), the provider file names beside it, the driver files of
 * etc/libibverbs.d, and sys/class/infiniband_{verbs,mad}/abi_version. */
#ifndef RD_SYSFS_VERBS_USER_H
#define RD_SYSFS_VERBS_USER_H

#include "root.h"
#include "../model/inventory.h"

/* The largest libibverbs taken (Debian's is 130 KiB, MLNX_OFED's under
 * 1 MiB): a file past it is not one. */
#define VERBS_LIB_MAX (8u << 20)

/* *out allocated (free with verbs_user_free); 0, or -ENOMEM.  What cannot
 * be read is left unknown, with why and a note. */
int verbs_user_read(struct root *r, struct verbs_user **out);

#endif
