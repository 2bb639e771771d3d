/* fabric --load: one load round of this rank (fabric/load_round.c). */
#ifndef RD_FABRIC_LOAD_ROUND_H
#define RD_FABRIC_LOAD_ROUND_H

#include "pair_test.h"
#include "schedule.h"

/* A rank this rank may meet: where its listener is and its secret. */
struct fab_peer {
	const char *addr;
	uint16_t port;
	const unsigned char *secret;
	uint32_t n_rails;
	bool ok;		/* it answered the rendezvous */
};

/* One flow this rank started as the connecting side of a load round. */
struct fab_load_flow {
	uint32_t peer;
	uint32_t n_rails;		/* the rails it ran on */
	struct fab_measure m;
	char error[sizeof(((struct bw_err *)0)->msg)];	/* "": none */
};

/* This rank's part of one load round, all at once: a thread per pair it
 * connects in (pairs with a == self: it sends, or both ways with
 * s->p.bidir), and a thread per partner that connects to it (b == self),
 * each let in by the round's door as it proves itself.  Every thread ends
 * by deadline.  The flows it started in *flows (malloc'd, *n_flows).  0,
 * or -1 (no memory). */
int fab_load_round(const struct fab_side *s, int lfd, const unsigned char *secret,
		   const struct fab_peer *peers, uint32_t self, const struct fab_round *rd,
		   uint32_t round, double deadline, struct fab_load_flow **flows,
		   size_t *n_flows);

#endif
