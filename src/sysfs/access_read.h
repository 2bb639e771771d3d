/* Who can use the RDMA devices, read through the root (model/access.h):
 * /dev/infiniband/{uverbsN,umadN,issmN,rdma_cm} through root_fetch (a
 * snapshot keeps each node's record, .rdmadoctor/devnode/infiniband/NAME),
 * etc/passwd and etc/group, slurmd's unit and its drop-ins, systemd's
 * system.conf, and pam_limits' limits.conf and limits.d. */
#ifndef RD_SYSFS_ACCESS_READ_H
#define RD_SYSFS_ACCESS_READ_H

#include "root.h"
#include "../model/inventory.h"

#define DEVNODE_FETCH_KIND "devnode"

/* *out allocated (free with dev_access_free); 0, or -ENOMEM.  What cannot
 * be read is left unknown with a note, never a failure. */
int access_read(struct root *r, const struct nic *nics, size_t n_nics, struct dev_access **out);

#endif
