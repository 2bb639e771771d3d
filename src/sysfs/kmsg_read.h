/* The live kernel log, read once: /dev/kmsg opened non-blocking, one
 * record per read(2), to the end of the ring (EAGAIN), however large the
 * ring is; what bounds the reading is time (KMSG_READ_SECONDS), and what
 * bounds memory is what is KEPT: only the records that match the fault
 * table (kmsg_parse.h), the newest of them, at most KMSG_KEEP_BYTES and
 * KMSG_KEEP_RECORDS.  They are kept verbatim (with their " KEY=VALUE"
 * lines), one after the other: the bytes a snapshot stores as
 * .rdmadoctor/kmsg/faults through root_fetch (sysfs/kmsg.c).  How the read
 * went (struct kmsg_reading, kmsg_parse.h: records read, matches dropped
 * for the bound, records the ring had lost, a read cut by the time bound)
 * is stored beside them as .rdmadoctor/kmsg/reading, so that a replay says
 * what a bound cut.  Only the kernel's own records (facility 0) are kept
 * unless any_facility: a line a program wrote into /dev/kmsg (facility
 * user or above) is no driver fault.
 *
 * kmsg_read_fd reads any descriptor so: one record per read(2) as
 * /dev/kmsg gives them, or a stream of records (a file, a pipe) cut
 * anywhere; it stops at EOF or EAGAIN. */
#ifndef RD_SYSFS_KMSG_READ_H
#define RD_SYSFS_KMSG_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs/kmsg_parse.h"

#define KMSG_KEEP_BYTES (4u << 20)
#define KMSG_KEEP_RECORDS 20000u
#define KMSG_READ_SECONDS 3.0
#define KMSG_RECORD_MAX 8192	/* the kernel's CONSOLE_EXT_LOG_MAX */

struct kmsg_bounds {
	size_t keep_bytes;	/* the matched records kept, the newest: bytes */
	size_t keep_records;	/* and records */
	double seconds;		/* the read stops here, cut */
};

/* KMSG_KEEP_BYTES, KMSG_KEEP_RECORDS, KMSG_READ_SECONDS */
extern const struct kmsg_bounds kmsg_bounds_default;

/* 0 and *out (malloc'd, *len bytes, NUL after) with the kept records and
 * *st how the read went; a negative errno when the read failed (then
 * nothing).  fd is not closed. */
int kmsg_read_fd(int fd, bool any_facility, const struct kmsg_bounds *b, char **out,
		 size_t *len, struct kmsg_reading *st);

/* The same on a path opened O_RDONLY|O_NONBLOCK, with the default bounds.
 * A negative errno when the path cannot be opened (-EPERM/-EACCES:
 * dmesg_restrict for a non-root user). */
int kmsg_read_matched(const char *path, bool any_facility, char **out, size_t *len,
		      struct kmsg_reading *st);

#endif
