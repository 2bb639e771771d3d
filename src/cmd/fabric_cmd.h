/* The fabric command's private parts: cmd/fabric.c (the command: options,
 * rendezvous, rounds, report) and cmd/fabric_test.c (one pair's test in a
 * round, both sides, ended on the round's deadline). */
#ifndef RD_CMD_FABRIC_CMD_H
#define RD_CMD_FABRIC_CMD_H

#include "bw_cmd.h"

/* How this rank runs its side of every pair test. */
struct fab_side {
	struct bw_cmd_opts *o;		/* ib_port, gid_index, bind, caps */
	struct bw_params p;		/* the bandwidth test (bidir, size, duration...) */
	bool lat;			/* a latency test after it */
	struct bw_params lat_p;
	enum bw_transport transport;
	const struct bw_report_rail *rails;	/* this rank's rails */
	uint32_t n_rails;
};

/* What a client measured with one peer, per rail. */
struct fab_measure {
	double ab[BW_RAILS_MAX], ba[BW_RAILS_MAX];	/* Gb/s; NAN not measured */
	double lat_usec;				/* p50 one-way; NAN none */
};

/* The client side: connect to the peer's listener and run the tests on
 * n_rails rails (rail i to rail i), all over by deadline (bw_now()
 * seconds) whatever the peer does.  0, or -1 with e set. */
int fab_test_client(const struct fab_side *s, const char *addr, uint16_t port, uint32_t n_rails,
		    double deadline, struct fab_measure *m, struct bw_err *e);
/* The server side: accept the peer on lfd and serve its tests until it
 * says goodbye or the deadline.  A connection from another address than
 * peer_addr (when that is numeric) is a late one from an earlier round:
 * closed.  0, or -1 with e set. */
int fab_test_server(const struct fab_side *s, int lfd, const char *peer_addr, double deadline,
		    struct bw_err *e);

#endif
