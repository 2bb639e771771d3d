/* A listening rank's door for one round (fabric/admit.c): who gets in as
 * the partner of a pair test, by proving the pairing secret
 * (fabric/pair_secret.h). */
#ifndef RD_FABRIC_ADMIT_H
#define RD_FABRIC_ADMIT_H

#include <stddef.h>

#include "pair_secret.h"
#include "../bw/session.h"

/* Who one pair test is between, and the listening rank's secret, which the
 * connecting rank proves it knows (fabric/pair_secret.h). */
struct fab_pair_key {
	const unsigned char *secret;
	struct fab_pair_id id;
};

/* The listening side's door for one round: accept on lfd, several
 * connections at a time, until one proves k, by deadline.  Every other
 * connection (a stranger, a rank of another run, a partner of an earlier
 * round late, one that says nothing for a second) is refused, with a line
 * on stderr naming its address and port (prog, the rank, the partner
 * still awaited).  0 with *ss the partner's connection, or -1 with e
 * set. */
int fab_admit(int lfd, const struct fab_pair_key *k, const char *prog, double deadline,
	      struct bw_session *ss, struct bw_err *e);
/* The same for a round with several partners (fabric --load: a
 * receiver's senders): every connection that proves one of k[0..n-1] not
 * yet let in is handed to in(arg, which, ss) at once (the caller owns ss
 * from then on), until all came or the deadline; the others are refused
 * as above.  The number let in, or -1 with e set when none came. */
long fab_admit_each(int lfd, const struct fab_pair_key *k, size_t n_keys, const char *prog,
		    double deadline, void (*in)(void *arg, size_t which, struct bw_session *ss),
		    void *arg, struct bw_err *e);

#endif
