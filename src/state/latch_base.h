/* Counter baselines of one boot (latch_state.h's bases): the error
 * counters of each port at the agent's last reading, so that the next
 * reading judges what grew since, as a window (model/window.h) that spans
 * two runs of the agent. */
#ifndef RD_MODEL_LATCH_BASE_H
#define RD_MODEL_LATCH_BASE_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/inventory.h"
#include "latch_state.h"

/* Which counters are kept: set as in window.h's enum window_set; driver
 * the NIC's (nic.driver), which says what its hw_counters count. */
typedef bool (*latch_keep_fn)(const char *driver, const char *name, int set);

/* Replace the bases with the counters of inv that keep() names, each
 * port's carrier_changes and its FEC statistics' totals, read at now.
 * The long bases are taken the same way where there are none (the boot's
 * first reading) or a counter went below its long base (cleared); else
 * they stay.  0 or -ENOMEM. */
int latch_base_take(struct latch_state *s, const struct inventory *inv, latch_keep_fn keep,
		    int64_t now);

/* Make the bases the start of a window for each port that has some and no
 * window yet, the window lasting from s->taken to now (at least 1 s: a
 * clock set back), marked inv->window_latched; and the long bases, where
 * they are older than the short ones, each such port's start_boot, the
 * long window lasting inv->window_boot_s.  How many ports got one; -ENOMEM. */
int latch_base_start(struct inventory *inv, const struct latch_state *s, int64_t now);

#endif
