/* The live kernel log, read once: /dev/kmsg opened non-blocking, one
 * record per read(2), until EAGAIN (the end of the ring), at most
 * KMSG_READ_CAP bytes and KMSG_READ_RECORDS records.  Only the records
 * that match the fault table (kmsg_parse.h) are kept, verbatim (with their
 * " KEY=VALUE" lines), one after the other: the bytes a snapshot stores
 * as .rdmadoctor/kmsg/faults through root_fetch (sysfs/kmsg.c).  Only the
 * kernel's own records (facility 0) are kept unless any_facility: a line a
 * program wrote into /dev/kmsg (facility user or above) is no driver fault. */
#ifndef RD_SYSFS_KMSG_READ_H
#define RD_SYSFS_KMSG_READ_H

#include <stdbool.h>
#include <stddef.h>

#define KMSG_READ_CAP (4u << 20)
#define KMSG_READ_RECORDS 200000u
#define KMSG_RECORD_MAX 8192	/* the kernel's CONSOLE_EXT_LOG_MAX */

/* 0 and *out (malloc'd, *len bytes, NUL after) with the matched records;
 * *seen the records read.  A negative errno when the path cannot be opened
 * (-EPERM/-EACCES: dmesg_restrict for a non-root user). */
int kmsg_read_matched(const char *path, bool any_facility, char **out, size_t *len,
		      size_t *seen);

#endif
