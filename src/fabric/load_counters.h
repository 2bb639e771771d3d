/* fabric --load's port counters: what one port's counter deltas around a
 * round add up to, per kind (load.h's fab_ckind), with the same frames
 * counted once where two sources count them (the larger, never the sum).
 * Pure; used by the judge (load.c) and tested through it. */
#ifndef RD_FABRIC_LOAD_COUNTERS_H
#define RD_FABRIC_LOAD_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "load.h"

struct fab_port_sum {
	uint64_t k[FAB_CK_ECN_MARKED + 1];	/* saturating at UINT64_MAX */
	bool known[FAB_CK_ECN_MARKED + 1];	/* a counter of that kind was read, not reset */
	bool any_reset_loss;			/* a drop or retransmit counter was reset */
	uint8_t pause_prios;			/* bit p: pauses grew on priority p */
};

/* The totals of p's counters; counters of no kind and reset ones (neither
 * growth nor zero) are left out. */
void fab_port_sum(const struct fab_port_load *p, struct fab_port_sum *s);

#endif
