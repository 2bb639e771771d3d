/* One record of the kernel's log as /dev/kmsg gives it (one read(2), one
 * record; kernel Documentation/ABI/testing/dev-kmsg):
 *   "PRIO,SEQ,USEC,FLAGS[,more];MESSAGE\n" then " KEY=VALUE\n" lines,
 * PRIO the syslog facility*8+level, USEC microseconds since boot.  And the
 * table of NIC/RDMA driver faults matched in the message (kmsg_patterns.c).
 * Pure functions over bytes: a fuzz target (tests/fuzz/fuzz_kmsg.c). */
#ifndef RD_SYSFS_KMSG_PARSE_H
#define RD_SYSFS_KMSG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KMSG_TOKEN_MAX 64

struct kmsg_record {
	unsigned level;			/* PRIO & 7 */
	unsigned facility;		/* PRIO >> 3: 0 the kernel; a user-space
					 * write to /dev/kmsg cannot give 0 */
	uint64_t seq;
	uint64_t usec;			/* since boot */
	const char *msg;		/* into the buffer, not NUL-terminated */
	size_t msg_len;
	char device[KMSG_TOKEN_MAX];	/* DEVICE=+pci:BDF / +net:name, "" when none */
};

/* 0 and *r filled; -EINVAL when the bytes are not one record. */
int kmsg_parse_record(const char *buf, size_t len, struct kmsg_record *r);

struct kmsg_pattern {
	const char *id;		/* check id, "kmsg.fw_timeout" */
	int error;		/* 1 error, 0 warn */
	const char *all[3];	/* every one of these substrings, NULL-ended */
	const char *source;	/* kernel file the message comes from */
};

extern const struct kmsg_pattern kmsg_patterns[];
extern const size_t kmsg_npatterns;

/* The pattern the message matches (first in the table), or NULL.  *error
 * is the pattern's severity, raised to error for an AER fatal line. */
const struct kmsg_pattern *kmsg_match(const char *msg, size_t len, int *error);

/* The first PCI address "DDDD:BB:DD.F" in the message into out (NUL-ended),
 * 1 when found, else 0. */
int kmsg_find_bdf(const char *msg, size_t len, char out[KMSG_TOKEN_MAX]);

/* The netdev the older watchdog WARN names first, "NETDEV WATCHDOG: %s
 * (%s): transmit queue %u timed out", into out (NUL-ended); "" when the
 * message is not of that form. */
void kmsg_watchdog_netdev(const char *msg, size_t len, char out[KMSG_TOKEN_MAX]);

/* The next record of a run of records one after the other (the stored
 * form, .rdmadoctor/kmsg/faults): its first line and the " KEY=VALUE"
 * lines after it.  1 with *rec, *rlen set and *p moved past it, 0 at the end. */
int kmsg_next_record(const char **p, const char *end, const char **rec, size_t *rlen);

/* How one read of the ring went (sysfs/kmsg_read.h), stored beside the
 * kept records as .rdmadoctor/kmsg/reading: one "KEY VALUE\n" line each,
 * the value decimal:
 *   records N     records read
 *   unparsed N    of them not in the form above
 *   first_seq N   the first record's SEQ: SEQ counts from 0 at boot, so
 *                 the ring had already overwritten that many of this boot
 *   lost N        records overwritten while the read ran (gaps in SEQ)
 *   dropped N     matching records left out for the keep bound (the oldest)
 *   cut 0|1       the time bound stopped the read before the ring's end */
struct kmsg_reading {
	uint64_t records, unparsed, first_seq, lost, dropped;
	bool cut;
};

/* The text above, NUL-ended, into buf (at least KMSG_READING_MAX bytes);
 * its length. */
#define KMSG_READING_MAX 160
size_t kmsg_reading_format(const struct kmsg_reading *st, char *buf);

/* 0 and *st from that text, every key present once (others, of a later
 * version, skipped); -EINVAL when the bytes are not such a text (then *st
 * zeroed: no facts). */
int kmsg_reading_parse(const char *buf, size_t len, struct kmsg_reading *st);

#endif
