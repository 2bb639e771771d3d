/* The kernel log's NIC/RDMA faults into the model (model/kmsg_log.h).
 *
 * Live: /dev/kmsg read once (sysfs/kmsg_read.h: bounded by the ring and
 * KMSG_READ_CAP), through root_fetch(r, "kmsg", "faults", ..), so that a
 * snapshot keeps the matched records verbatim (.rdmadoctor/kmsg/faults) or
 * the failure (faults.errno), and a replay judges the same lines; and the
 * wall clock at the log's zero, "kmsg", "boot_time" (Unix seconds, text).
 * A replay root holding neither leaves the log not read (NULL): the tree
 * was not taken with it.  RDMADOCTOR_KMSG_ANY_FACILITY=1 keeps records a
 * program wrote into /dev/kmsg too (tests/check/test_kmsg_live.sh); by
 * default only the kernel's own count. */
#ifndef RD_SYSFS_KMSG_H
#define RD_SYSFS_KMSG_H

struct root;
struct kmsg_log;

#define KMSG_FETCH_KIND "kmsg"

/* *out: the log (or NULL, see above).  0 or -ENOMEM. */
int kmsg_collect(struct root *r, struct kmsg_log **out);

#endif
