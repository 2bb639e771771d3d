/* The kernel log's NIC/RDMA faults since boot (read by sysfs/kmsg.c from
 * /dev/kmsg, or a snapshot's .rdmadoctor/kmsg/faults; judged by
 * check/kmsg.c): one entry per matched record, in the ring's order. */
#ifndef RD_MODEL_KMSG_LOG_H
#define RD_MODEL_KMSG_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kmsg_fault {
	const char *id;		/* the pattern's check id, static */
	bool error;		/* the pattern's severity (AER fatal raised) */
	bool link_up;		/* kmsg.link_flap: a "Link up" line */
	uint64_t usec;		/* since boot, the record's own stamp */
	char *device;		/* "0000:08:00.0" (the line's or DEVICE=+pci:),
				 * a netdev (DEVICE=+net:), or NULL */
	char *line;		/* the message, NUL-ended */
};

struct kmsg_log {
	/* 0 read; else the negative errno why not (-EPERM: dmesg_restrict) */
	int err;
	/* the wall clock (Unix seconds) at the records' zero; < 0 unknown */
	double boot_wall;
	/* records of the log not in /dev/kmsg's form ("PRIO,SEQ,USEC,FLAGS;
	 * MESSAGE"); when every record is such (a non-empty log of which
	 * nothing parses: a damaged snapshot), none_parsed too, and the log
	 * says nothing: kmsg.unreadable, not "no faults" */
	size_t unparsed;
	bool none_parsed;
	/* How the live read went (sysfs/kmsg_read.h), when it is known
	 * (reading_known: read live, or a snapshot that stored it): what a
	 * bound cut, said by kmsg_log_note() in the kmsg.* findings and JSON */
	bool reading_known;
	uint64_t read;		/* records read */
	uint64_t overwritten;	/* records of this boot the ring had lost before the read */
	uint64_t lost;		/* records overwritten while the read ran */
	uint64_t dropped;	/* matching records left out for the keep bound, the oldest */
	uint64_t kept;		/* and those kept */
	bool cut;		/* the read stopped at its time bound, short of the end */
	struct kmsg_fault *v;
	size_t n;
};

void kmsg_log_free(struct kmsg_log *l);
/* What a bound cut from the log, as a clause ("the kernel's ring had
 * overwritten the 812 oldest records of this boot before the read; 40
 * older matching records dropped, the newest 20000 kept") into buf,
 * NUL-ended; "" and 0 when nothing was cut, else 1. */
int kmsg_log_note(const struct kmsg_log *l, char *buf, size_t len);
/* The newest record's stamp; 0 when none. */
uint64_t kmsg_log_newest(const struct kmsg_log *l);
/* Leave out the records that acked(arg, id) says were acknowledged: those
 * stamped at or before it.  How many were left out. */
size_t kmsg_log_drop_acked(struct kmsg_log *l, uint64_t (*acked)(const void *arg, const char *id),
			   const void *arg);

#endif
