/* The door of a bw/lat server: who may come in (--allow), refusing a
 * client with its reason and a clean close, and, while one client's test
 * runs, a doorman that answers every other at once ("busy, try again in N
 * s") instead of leaving it in the listen backlog.  The server serves one
 * client at a time (bw/server.c); the token and the idle cut are checked in
 * the session itself (bw_session_serve). */
#ifndef RD_BW_DOOR_H
#define RD_BW_DOOR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "allow.h"
#include "engine.h"
#include "session.h"

struct bw_door {
	int lfd;				/* the control listener */
	const struct bw_allow *allow;		/* --allow; n_allow 0: anyone */
	unsigned n_allow;
	/* one line per refusal: the peer's numeric address and why (called
	 * from the doorman's thread too); may be NULL */
	void (*log)(void *arg, const char *peer, const char *why);
	void *log_arg;
	/* a client that came while the session was ending: the doorman held
	 * it for a moment instead of calling it busy, and the server takes it
	 * next (fd -1: none; set by bw_door_shut) */
	struct bw_session handoff;
	/* private: when the running client's slot should free, in bw_now()
	 * milliseconds (bw_door_busy_until), the doorman's thread, and the
	 * pipe that stops it */
	atomic_llong until_ms;
	pthread_t th;
	int stop[2];
	bool running;
};

/* Whether the peer of the connected socket fd may come in (--allow). */
bool bw_door_allowed(const struct bw_door *d, int fd);
/* Refuse the client on fd: an ERROR with why, then a close that does not
 * reset the connection under it (what it already sent is discarded
 * unread, so that its kernel does not drop our ERROR), then close fd.
 * Bounded: about a second at most. */
void bw_door_refuse(int fd, const char *why);
/* The same close without the ERROR (one was sent already). */
void bw_door_close(int fd);

/* The doorman, from the start of one client's session to its end.  0, or
 * -1 with e set (the server then serves without it: later clients wait in
 * the backlog as before).  A client that comes is held up to
 * BW_DOOR_GRACE_S before it is told busy: a session that ends meanwhile
 * (the previous client said BYE and the next one connected at once) hands
 * it over (d->handoff) rather than turning it away. */
#define BW_DOOR_GRACE_S 0.3
int bw_door_open(struct bw_door *d, struct bw_err *e);
void bw_door_busy_until(struct bw_door *d, double until);
void bw_door_shut(struct bw_door *d);

#endif
