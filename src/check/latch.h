/* The agent's memory judged (docs/state.md): which findings of a reading
 * are events to remember (a port down, a link that flapped, error
 * counters that grew since the last reading, a kernel-log fault), and the
 * remembered ones put back into the verdict while they are held.  Pure:
 * findings and a state/latch_state.h in, the same out. */
#ifndef RD_CHECK_LATCH_H
#define RD_CHECK_LATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "finding.h"
#include "../state/latch_state.h"

/* How long each kind of event is held after it was last seen. */
enum latch_class {	/* the order of profiles/site.h's hold_* keys */
	LATCH_DROPS,	/* counters.errors that grew, transport retries only;
			 * link.ber's warning (pre-FEC near the limit) */
	LATCH_FLAPS,	/* port.down, link.flaps, kmsg.link_flap */
	LATCH_FAULTS,	/* counters.errors that grew (errors), other kmsg.*,
			 * link.ber's error (uncorrectable blocks) */
	LATCH_CLASSES,
	LATCH_NONE = -1,	/* not an event */
};

#define LATCH_DROPS_HOLD_S 600	/* ten minutes; the others: until cleared */

struct latch_holds {
	int64_t s[LATCH_CLASSES];	/* seconds; 0: until cleared */
};

void latch_holds_default(struct latch_holds *h);
const char *latch_class_name(enum latch_class c);
/* "drops" -> LATCH_DROPS; LATCH_NONE when no class is so named. */
enum latch_class latch_class_named(const char *name);

/* Which class the finding is an event of; LATCH_NONE when it is none.
 * windowed: the reading judged counters over a window (counters.errors
 * then means grown, not a lifetime count). */
enum latch_class latch_class_of(const struct finding *f, bool windowed);

/* Remember the events among fs, seen at now.  How many were new, or
 * -ENOMEM. */
int latch_record(struct latch_state *s, const struct findings *fs, int64_t now,
		 const struct latch_holds *h, bool windowed);

/* Put the memory into fs: a finding seen now that is remembered gets its
 * latch (since, count, expiry), and the remembered severity when that is
 * higher (saying so); a remembered event not seen now (or only as a value
 * that could not be read) is added as a finding that says so, at the
 * severity it was seen with.  Events of
 * ids this version does not know are left out.  Sort and waive after.
 * 0 or -ENOMEM. */
int latch_merge(const struct latch_state *s, struct findings *fs);

/* latch.state: the memory at path could not be read or written (what,
 * in words): not checked, a warning, so that a verdict without its
 * memory is never a pass.  0 or -ENOMEM. */
int latch_unkept(struct findings *fs, const char *path, const char *what);

#endif
