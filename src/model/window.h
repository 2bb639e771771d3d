/* Counters over a window: the values of a port's counters at the start of
 * a window of samples, kept next to the end values in struct port, and the
 * change between the two (`watch`, `check --window`). */
#ifndef RD_MODEL_WINDOW_H
#define RD_MODEL_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory.h"

struct port_start {
	struct counter_set counters, hw_counters;
	struct counter_set eth_stats, net_stats;	/* v NULL: not read */
	int64_t carrier_changes;	/* NA when unknown */
	int64_t pause_tx[8], pause_rx[8];	/* DCB PFC pause frames; NA */
	/* the FEC counters' totals (link->fec_stats); n 0: not read */
	struct fec_count fec[FEC_COUNTERS];
};

/* Which counters of a port: the PMA counters, hw_counters, `ethtool -S`,
 * the netdev's statistics/ (the first two as false / true for the bool
 * callers). */
enum window_set { WIN_PMA = 0, WIN_HW = 1, WIN_ETH = 2, WIN_NET = 3 };

/* The set of a port (its end values). */
const struct counter_set *window_set_of(const struct port *pt, int set);

/* One counter from the start to the end of the window.  A counter that
 * went down was cleared (or replaced) within the window: reset is set and
 * delta is 0, since how much it grew before the clear is unknown. */
struct counter_change {
	uint64_t start, end, delta;
	bool reset;
};

void port_start_free(struct port_start *s);
void counter_set_clear(struct counter_set *s);
int counter_set_copy(struct counter_set *dst, const struct counter_set *src);
/* The counter of that name when it was read (ok); NULL otherwise. */
const struct counter *counter_find(const struct counter_set *s, const char *name);

/* Make the current counters of every port the start of a window (replacing
 * any earlier start).  0 or -ENOMEM. */
int window_start(struct inventory *inv);

/* The change of a named counter of pt's set (enum window_set; false /
 * true: PMA / hw_counters) over the window; false when the port has no
 * window or either sample lacks it. */
bool window_change(const struct port *pt, int set, const char *name,
		   struct counter_change *out);
/* The DCB PFC pause frames of one priority (tx: sent, else received). */
bool window_pause(const struct port *pt, int prio, bool tx, struct counter_change *out);
/* The same for the netdev's carrier_changes. */
bool window_carrier(const struct port *pt, struct counter_change *out);
/* The same for a FEC counter's total (both samples' FEC statistics). */
bool window_fec(const struct port *pt, enum fec_counter k, struct counter_change *out);

#endif
