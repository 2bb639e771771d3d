/* A fabric run's rendezvous (fabric/rendezvous.c): each rank opens its bw
 * listener and publishes its endpoint (name, address, port, rails, and a
 * secret of its own that whoever connects to the listener must prove,
 * fabric/pair_secret.h); a fence exchanges them; a rank missing after it
 * never answered.  The nodes get their names as the report gives them. */
#ifndef RD_FABRIC_RENDEZVOUS_H
#define RD_FABRIC_RENDEZVOUS_H

#include "run_state.h"

/* 0, or -1 with the error said (fab_say). */
int fab_meet(struct fab_run *r);

#endif
