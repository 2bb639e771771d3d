/* The RDMA driver stack through the root (model/drv_stack.h): sys/module/M
 * for the loaded modules, lib/modules/<release>/modules.dep and the .ko
 * files it names (read whole: the snapshot keeps their bytes), the newest
 * installed kernel under lib/modules and boot/vmlinuz-*, and the DKMS
 * builds under var/lib/dkms/<package>/<version>/<kernel>/<arch>/module/. */
#ifndef RD_SYSFS_DRV_STACK_H
#define RD_SYSFS_DRV_STACK_H

#include "root.h"
#include "../model/inventory.h"

/* The largest modules.dep and .ko taken (Debian 12's modules.dep is
 * 520 KiB, its mlx5_core.ko 1.6 MiB; debug builds are larger). */
#define DRV_FILE_MAX (64u << 20)

/* *out allocated (free with drv_stack_free); 0 or -ENOMEM.  kernel: the
 * running release (host.kernel; NULL: unknown).  What cannot be read is
 * left unknown with its why and a note. */
int drv_stack_read(struct root *r, const char *kernel, struct drv_stack **out);

#endif
