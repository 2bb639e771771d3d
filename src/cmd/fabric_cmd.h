/* The fabric command's private parts: cmd/fabric.c (the command: options,
 * rendezvous, rounds, report), cmd/fabric_test.c (one pair's test in a
 * round, both sides, ended on the round's deadline) and cmd/fabric_admit.c
 * (who the listening side takes as its partner). */
#ifndef RD_CMD_FABRIC_CMD_H
#define RD_CMD_FABRIC_CMD_H

#include "bw_cmd.h"
#include "../fabric/pair_secret.h"

/* How this rank runs its side of every pair test. */
struct fab_side {
	struct bw_cmd_opts *o;		/* ib_port, gid_index, bind, caps */
	struct bw_params p;		/* the bandwidth test (bidir, size, duration...) */
	bool lat;			/* a latency test after it */
	struct bw_params lat_p;
	enum bw_transport transport;
	const struct bw_report_rail *rails;	/* this rank's rails */
	uint32_t n_rails;
	const char *prog;		/* for the lines that name a refused connection */
};

/* Who one pair test is between, and the listening rank's secret, which the
 * connecting rank proves it knows (fabric/pair_secret.h). */
struct fab_pair_key {
	const unsigned char *secret;
	struct fab_pair_id id;
};

/* What a client measured with one peer, per rail. */
struct fab_measure {
	double ab[BW_RAILS_MAX], ba[BW_RAILS_MAX];	/* Gb/s; NAN not measured */
	double lat_usec;				/* p50 one-way; NAN none */
};

/* The client side: connect to the peer's listener, prove k, check the
 * listener's answer, and run the tests on n_rails rails (rail i to rail
 * i), all over by deadline (bw_now() seconds) whatever the peer does.  0,
 * or -1 with e set. */
int fab_test_client(const struct fab_side *s, const char *addr, uint16_t port, uint32_t n_rails,
		    const struct fab_pair_key *k, double deadline, struct fab_measure *m,
		    struct bw_err *e);
/* The server side: take the partner that proves k on lfd (fab_admit) and
 * serve its tests until it says goodbye or the deadline.  0, or -1 with e
 * set. */
int fab_test_server(const struct fab_side *s, int lfd, const struct fab_pair_key *k,
		    double deadline, struct bw_err *e);
/* The listening side's door for one round (cmd/fabric_admit.c): accept on
 * lfd, several connections at a time, until one proves k, by deadline.
 * Every other connection (a stranger, a rank of another run, a partner of
 * an earlier round late, one that says nothing for a second) is refused,
 * with a line on stderr naming its address and port (prog, the rank, the
 * partner still awaited).  0 with *ss the partner's connection, or -1
 * with e set. */
int fab_admit(int lfd, const struct fab_pair_key *k, const char *prog, double deadline,
	      struct bw_session *ss, struct bw_err *e);

#endif
