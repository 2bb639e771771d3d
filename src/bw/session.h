/* One test between two sides over the control channel (engine.h has the
 * flow): the client connects and asks, the server checks and serves.
 * Both sides then run the same steps per size: prepare on every rail (in
 * the rail's thread, pinned to its NUMA node), endpoints, connect, GO,
 * run (one thread per rail), RESULT both ways. */
#ifndef RD_BW_SESSION_H
#define RD_BW_SESSION_H

#include <netinet/in.h>
#include <sched.h>

#include "engine.h"
#include "params.h"
#include "proto.h"
#include "proto_io.h"

/* How long a transport's connect() may take per rail (the tcp server
 * accepts its data connections within it); the client waits for GO this
 * much longer per rail than its control timeout. */
#define BW_CONNECT_WAIT_MS 10000
/* After a failed connect()/run(): how long to wait for the peer's ERROR. */
#define BW_PEER_ERROR_WAIT_S 2.0
/* The server's bounds on one control connection, so that no client keeps
 * its one test slot: refused HELLOs in a row before it closes, and tests
 * per connection (a sweep has at most 32 sizes).  Each step is bounded by
 * the control timeout and each test by bw_local.max_run_ms, so these bound
 * a connection's time too. */
#define BW_SERVE_REFUSALS_MAX 2
#define BW_SERVE_TESTS_MAX 64

struct bw_session {
	int fd;			/* control connection */
	int timeout_ms;		/* every control step */
	/* iterations mode has no length to wait for the peer's RESULT by: at
	 * most this long (a server sets its --max-duration); 0: an hour */
	int iters_wait_ms;
	char local_addr[64], peer_addr[64];	/* numeric */
	/* client: a numeric address to connect from (set before
	 * bw_session_connect), or NULL: whatever routing picks */
	const char *source_addr;
	char peer_host[BW_HOST_MAX + 1];	/* as the peer named itself */
	/* the shared secret: the client sends it in AUTH when it connects
	 * (NULL: an empty one); the server requires it (NULL: takes any) */
	const char *token;
	/* server: its AUTH was read and matched already (bw/lobby.h), so
	 * bw_session_serve starts at its HELLOs */
	bool authed;
	/* server: how long a client may say nothing where AUTH or its next
	 * HELLO is due before it is cut (0: timeout_ms), so that an idle
	 * connection does not hold the one test slot */
	int idle_ms;
	/* while the rails run: called about once a second from the main thread
	 * with the seconds since GO and the bytes all rails moved so far
	 * (progress display); may be NULL */
	void (*progress)(void *arg, double elapsed, uint64_t bytes);
	void *progress_arg;
	/* A hard end for everything on this session, in bw_now() seconds; 0:
	 * none.  Every control step then waits at most until it (failing with
	 * -BW_E_TIMEOUT once it passed, whatever timeout_ms says), and each
	 * rail's bw_local.max_run_ms is cut to what is left when the test's
	 * setup starts: a test (client or server side) ends by the deadline,
	 * plus at most its own setup (opening devices, a few ms), whatever the
	 * peer does.  For a caller that runs tests in rounds (fabric). */
	double deadline;
};

/* What one side runs a test with, per rail. */
struct bw_rails {
	const struct bw_engine_ops *eng;
	uint32_t n;
	struct bw_local local[BW_RAILS_MAX];
};

/* The figures of one test (one size). */
struct bw_outcome {
	struct bw_params p;
	uint32_t n_rails;
	struct bw_result local[BW_RAILS_MAX], remote[BW_RAILS_MAX];
};
void bw_outcome_free(struct bw_outcome *o);

/* Client: connect to host:port within timeout_ms.  0, or -1 with e set. */
int bw_session_connect(struct bw_session *s, const char *host, uint16_t port, int timeout_ms,
		       struct bw_err *e);
/* Client: present s->token (AUTH), the first word the server reads after
 * whatever the caller's own handshake (fabric's pairing proof) sent.  0,
 * or -1 with e set (the server's reason when it refused at the door). */
int bw_session_auth(struct bw_session *s, struct bw_err *e);
/* Client: one test: HELLO, then the steps above; fills *o (free it). */
int bw_session_test(struct bw_session *s, const struct bw_hello *h, const struct bw_rails *r,
		    struct bw_outcome *o, struct bw_err *e);
/* Client: the polite end. */
void bw_session_bye(struct bw_session *s);
void bw_session_close(struct bw_session *s);

/* Server: a listener on port (0: ephemeral) with that backlog (IPv6
 * dual-stack or IPv4, or bind_addr): the control listener, and the tcp
 * transport's data listener. */
int bw_listen(const char *bind_addr, uint16_t port, int backlog, struct bw_err *e);
/* Server: accept one control connection within timeout_ms (-1 forever);
 * -BW_E_TIMEOUT when none came, -BW_E_AGAIN when accepting failed for that
 * connection (a network error pending on it, a signal), -BW_E_SHORT for
 * want of descriptors, buffers or memory: a long-running server goes on
 * after either, e says what. */
int bw_session_accept(int lfd, struct bw_session *s, int timeout_ms, struct bw_err *e);

/* Server: serve the tests one client asks for until BYE: first its AUTH
 * (s->token; nothing else is read or allocated before it matched; not
 * when s->authed), then its HELLOs.  For every HELLO that passes the caps, setup() chooses the
 * engine and the rails' locals (or refuses with e set, and the client gets
 * that text); done() gets the outcome of each test.  refused() (may be
 * NULL) hears every refusal (token, idle, limits) with its reason; busy()
 * (may be NULL) when the slot should free at the latest (bw_now()
 * seconds), as it changes.  Returns the number of tests run; -BW_E_REFUSED
 * when it closed on a refusal (said to the client and to refused()); -1
 * with e set when the client broke the protocol or a test failed. */
struct bw_server_ops {
	int (*setup)(void *arg, const struct bw_hello *h, struct bw_rails *r, struct bw_err *e);
	void (*done)(void *arg, const struct bw_hello *h, struct bw_outcome *o);
	void *arg;
	void (*refused)(void *arg, const char *peer, const char *why);
	void (*busy)(void *arg, double until);
};
int bw_session_serve(struct bw_session *s, const struct bw_caps *caps,
		     const struct bw_server_ops *ops, struct bw_err *e);

/* Pin the calling thread to the CPUs of a list in the kernel's cpulist
 * form ("0-15,32-47", bw_local.cpulist); 0, or -1 (left unpinned) when the
 * list is NULL, empty or malformed.  bw_cpulist_parse is the parser alone
 * (the list comes from a file: untrusted). */
int bw_cpulist_parse(const char *list, cpu_set_t *set);
int bw_pin_cpulist(const char *list);

#endif
