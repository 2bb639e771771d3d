/* What a fabric --load rank tells the others through PMIx after the load
 * rounds: its ports' counter deltas around each round (load.h), as a
 * small JSON text:
 *
 *   {"v":1,"ports":[{"round":0,"rail":0,"rate":400.0,"pfc":8,
 *     "c":[["hw:np_cnp_sent",12,false],["eth:rx_prio3_pause",900,false]]},
 *    {"round":1,"rail":0,"rate":null,"pfc":null,"unread":"...","c":[]}]}
 *
 * rate and pfc are null when unknown; unread is there only when the
 * counters could not be read; each counter is [name, delta, reset].
 * Every field of a peer's text is checked (it comes from another process),
 * unit-tested in tests/fabric/test_fabric_load_wire.c and fuzzed by
 * tests/fuzz/fuzz_fabric_load_wire.c. */
#ifndef RD_FABRIC_LOAD_WIRE_H
#define RD_FABRIC_LOAD_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "load.h"
#include "wire.h"	/* FAB_ERROR_MAX, FAB_WIRE_TEXT_MAX */

#define FAB_LOAD_WIRE_VERSION 1
#define FAB_LOAD_PORTS_MAX (1u << 16)	/* port loads one rank may report */
#define FAB_LOAD_COUNTERS_MAX 256	/* counters per port load */
#define FAB_LOAD_NAME_MAX 63		/* a counter's prefixed name, bytes */

/* The text of n port loads (malloc'd), or NULL (no memory, or a counter
 * name the decoder would refuse: no prefix, no kind, too long, not
 * printable ASCII).  A delta above 2^63 - 1 is sent as 2^63 - 1 (JSON's
 * integers here are signed; growth that large is growth all the same).
 * unread is sent cut to FAB_ERROR_MAX bytes, with every byte outside
 * printable ASCII as '?' and an empty one as "unknown", so that what is
 * sent always decodes. */
char *fab_load_encode(const struct fab_port_load *p, size_t n);

/* Decoded port loads; they own their names and texts. */
struct fab_load_ports {
	struct fab_port_load *p;
	size_t n;
	struct fab_cdelta *c;	/* every port's counters, one block */
	char *text;		/* every name and unread text, one block */
};

/* 0, or -1 with err set and *out empty.  Each port's rank is set to self;
 * round must be below n_rounds, rail below n_rails.  Refused: a counter
 * name over FAB_LOAD_NAME_MAX bytes, not printable ASCII, without a known
 * prefix or of no kind (fab_counter_kind), or given twice in one port; a
 * delta outside 0..2^63 - 1; a rate outside 0..1e5 Gb/s; pfc outside
 * 0..255; an unread text that is empty, over FAB_ERROR_MAX bytes or not
 * printable ASCII; two port loads of one round and rail. */
int fab_load_decode(const char *text, size_t len, uint32_t self, uint32_t n_rounds,
		    uint32_t n_rails, struct fab_load_ports *out, char *err, size_t errsz);
void fab_load_ports_free(struct fab_load_ports *lp);

#endif
