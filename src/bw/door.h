/* The doorman of a bw/lat server: while one client's test runs, a thread
 * keeps the door (bw/lobby.h) open, so that every other connection is
 * still heard and answered at once (refused with its reason, or told
 * "busy, try again in N s") instead of waiting in the listen backlog.  The
 * server serves one client at a time (bw/server.c). */
#ifndef RD_BW_DOOR_H
#define RD_BW_DOOR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "engine.h"
#include "lobby.h"

struct bw_door {
	struct bw_lobby *lobby;		/* the doorman's while it runs */
	/* private: when the running client's slot should free, in bw_now()
	 * milliseconds (bw_door_busy_until), the doorman's thread, and the
	 * pipe that stops it */
	atomic_llong until_ms;
	pthread_t th;
	int stop[2];
	bool running;
};

/* From the start of one client's session to its end: 0, or -1 with e set
 * (the server then serves without it: later clients wait in the backlog
 * until the session ends). */
int bw_door_open(struct bw_door *d, struct bw_err *e);
void bw_door_busy_until(struct bw_door *d, double until);
/* Stop the doorman: the lobby is the caller's again. */
void bw_door_shut(struct bw_door *d);

#endif
