/* One pair's test inside a fabric round, both sides, ended on the round's
 * deadline (fabric/pair_test.c). */
#ifndef RD_FABRIC_PAIR_TEST_H
#define RD_FABRIC_PAIR_TEST_H

#include "admit.h"
#include "../bw/params.h"
#include "../bw/report.h"
#include "../bw/session.h"

/* How this rank runs its side of every pair test. */
struct fab_side {
	int ib_port, gid_index;		/* as in `rdmadoctor bw` */
	const char *bind;		/* --bind: the address to serve and connect from */
	const struct bw_caps *caps;	/* what the serving side accepts */
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

/* Every rank runs one command line: a pair's server takes what its
 * test p asks (--size, --qps, --duration) even past bw server's default
 * caps (sized for a stranger's link test). */
void fab_caps_fit(struct bw_caps *c, const struct bw_params *p);

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

#endif
