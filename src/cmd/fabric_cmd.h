/* The fabric command's private parts: cmd/fabric.c (the command: options,
 * rendezvous, rounds, report), cmd/fabric_test.c (one pair's test in a
 * round, both sides, ended on the round's deadline) and cmd/fabric_admit.c
 * (who the listening side takes as its partner). */
#ifndef RD_CMD_FABRIC_CMD_H
#define RD_CMD_FABRIC_CMD_H

#include "bw_cmd.h"
#include "../fabric/pair_secret.h"
#include "../fabric/schedule.h"

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
	uint8_t traffic_class;		/* bw_local's: 0 the device's default */
	uint8_t qp_timeout;		/* bw_local's: 0 perftest's 14 */
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
/* The server side of a connection fab_admit let in (closed here). */
int fab_test_serve(const struct fab_side *s, struct bw_session *ss, double deadline,
		   struct bw_err *e);
/* The listening side's door for one round (cmd/fabric_admit.c): accept on
 * lfd, several connections at a time, until one proves k, by deadline.
 * Every other connection (a stranger, a rank of another run, a partner of
 * an earlier round late, one that says nothing for a second) is refused,
 * with a line on stderr naming its address and port (prog, the rank, the
 * partner still awaited).  0 with *ss the partner's connection, or -1
 * with e set. */
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

/* ---- fabric --load (cmd/fabric_load.c) ---- */

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
