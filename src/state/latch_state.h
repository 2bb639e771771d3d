/* The agent's memory (docs/state.md): what `serve` and `check --state DIR`
 * saw in earlier readings of this boot.  Pure: bytes in, a struct out, and
 * back; the file itself is state/latch_file.c's.
 *
 *   rdmadoctor-latch 1
 *   boot 6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70
 *   taken 1796524800
 *   base	mlx5_0	1	pma	link_downed	3
 *   boot_taken 1796521200
 *   boot_base	mlx5_0	1	pma	link_downed	1
 *   event	link.flaps	error	1796524500	1796524800	2	0	mlx5_0 port 1	link_downed +1 ...
 *
 * One line each, fields parted by a tab.  `taken`: when the bases were
 * read (0: none yet).  A base is one counter of one port at that reading
 * (sets pma, hw, eth, net).  `boot_taken` and the `boot_base` lines (none,
 * in a file of a version before them) are the same at the boot's first
 * reading: the long baseline, kept while the boot lasts, over which the
 * ratios and per-hour ceilings that a short window between two readings
 * cannot tell are judged (check/ber.c).  An event: check id, severity, first and last
 * seen, times seen, when it expires (0: until cleared), subject, observed;
 * times are seconds since the epoch.  Texts are printable ASCII: the file
 * is outside data (a disk, another version, a hand edit), so it is read
 * bounded, every line checked, and a file that is not all right gives
 * nothing at all. */
#ifndef RD_MODEL_LATCH_STATE_H
#define RD_MODEL_LATCH_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LATCH_STATE_MAGIC "rdmadoctor-latch 1"
#define LATCH_STATE_MAX_TEXT (1u << 20)	/* the file */
#define LATCH_STATE_MAX_BASES 2048u		/* 8 NICs x 2 ports x ~40 error counters */
#define LATCH_STATE_MAX_EVENTS 256u
#define LATCH_STATE_MAX_FIELD 1024u		/* a subject or an observed text */
#define LATCH_STATE_MAX_NAME 128u		/* an id, a device, a counter name */
#define LATCH_STATE_MAX_BOOT 64u

/* The counter sets of a base, as in model/window.h's enum window_set, and
 * the totals of the FEC statistics (model/fec_stats.h, link.ber). */
enum latch_set { LATCH_PMA, LATCH_HW, LATCH_ETH, LATCH_NET, LATCH_FEC };

struct latch_base {
	char *nic;
	int port;
	enum latch_set set;
	char *name;
	uint64_t value;
};

struct latch_event {
	char *id;		/* a check id: "link.flaps" */
	int severity;		/* 0 info, 1 warn, 2 error (check/finding.h's enum severity) */
	int64_t first, last;	/* first and last seen */
	uint64_t count;		/* readings that saw it */
	int64_t expires;	/* 0: until cleared */
	char *subject, *observed;
};

/* The kernel log's records of one kmsg.* id acknowledged by `clear`: those
 * stamped at or before acked (microseconds since boot, the records' own
 * clock), which the next readings leave out of the verdict although the
 * ring still holds them.  id "*": every kmsg.* id (`clear all`). */
struct latch_ack {
	char id[LATCH_STATE_MAX_NAME + 1];
	uint64_t acked;
};

#define LATCH_STATE_MAX_ACKS 64u

struct latch_state {
	char boot[LATCH_STATE_MAX_BOOT + 1];	/* "" when none */
	int64_t taken;		/* when the bases were read; 0: none */
	/* the newest kernel-log fault's stamp the last reading saw (usec since
	 * boot; 0 none): what a `clear` of a kmsg.* id acknowledges */
	uint64_t kmsg_seen;
	struct latch_ack acks[LATCH_STATE_MAX_ACKS];
	size_t n_acks;
	struct latch_base *bases;
	size_t n_bases, cap_bases;
	/* the long baseline: the bases of this boot's first reading (or of
	 * the reading after one of its counters went down), and when */
	int64_t boot_taken;	/* 0: none */
	struct latch_base *boot_bases;
	size_t n_boot_bases, cap_boot_bases;
	struct latch_event *events;
	size_t n_events, cap_events;
};

/* Parse the file.  0: well formed (its boot id in out->boot); -EINVAL:
 * malformed (why filled, out empty); -ENOMEM. */
int latch_state_parse(const char *text, size_t len, struct latch_state *out, char *why,
		      size_t why_len);
/* The file's text; NULL without memory. */
char *latch_state_format(const struct latch_state *s);
void latch_state_free(struct latch_state *s);

/* Whether text is a boot id the file may hold: 1 to LATCH_STATE_MAX_BOOT
 * of [0-9a-f-] (the kernel's is 36). */
bool latch_state_boot_ok(const char *text, size_t len);

/* The event of id on subject; NULL if none. */
struct latch_event *latch_state_event(struct latch_state *s, const char *id,
				      const char *subject);
/* Seen now: an event of id on subject is added (first seen now) or
 * renewed (last seen now, counted, its expiry updated; its severity and
 * observed text are those of the worst sighting, the latest among
 * equals).  Texts that the file cannot hold are made
 * so: characters outside printable ASCII become '?', and a text longer
 * than LATCH_STATE_MAX_FIELD is cut.  1 done, 0 not (full, or an id or
 * subject the file may not hold), -ENOMEM. */
int latch_state_see(struct latch_state *s, const char *id, int severity, const char *subject,
		    const char *observed, int64_t now, int64_t expires);
void latch_state_remove(struct latch_state *s, size_t i);
/* `clear`: take the events of id ("all": every one) on subject (NULL: any)
 * out of s, each shown to seen (when set) before it goes; when any went and
 * id is a kernel-log one (kmsg.*, or all), the kernel log's records are
 * acknowledged up to kmsg_seen (latch_state_ack).  How many went. */
size_t latch_state_clear(struct latch_state *s, const char *id, const char *subject,
			 void (*seen)(const struct latch_event *e, void *arg), void *arg);
/* Remove the events expired at now; how many. */
size_t latch_state_expire(struct latch_state *s, int64_t now);

/* Acknowledge the kernel log's records of id ("*": every kmsg.* id) up to
 * kmsg_seen.  1 done, 0 not (nothing seen, the table full, a name the
 * file may not hold). */
int latch_state_ack(struct latch_state *s, const char *id);
/* The stamp up to which id's records are acknowledged; 0 none. */
uint64_t latch_state_acked(const struct latch_state *s, const char *id);

/* Forget every base (the long ones stay). */
void latch_state_bases_clear(struct latch_state *s);
/* Forget the long bases. */
void latch_state_boot_bases_clear(struct latch_state *s);
/* Add a base (names copied); 1 added, 0 not (full, duplicate, or names
 * the file may not hold), -ENOMEM. */
int latch_state_base_add(struct latch_state *s, const char *nic, int port, enum latch_set set,
			 const char *name, uint64_t value);
/* The same, to the long bases (at most LATCH_STATE_MAX_BASES of them too). */
int latch_state_boot_base_add(struct latch_state *s, const char *nic, int port,
			      enum latch_set set, const char *name, uint64_t value);
/* The long base of that counter; NULL none. */
const struct latch_base *latch_state_boot_base(const struct latch_state *s, const char *nic,
						int port, enum latch_set set, const char *name);

#endif
