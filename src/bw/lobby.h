/* The door of a bw/lat server: every connection that comes, until it has
 * shown it may be served.  Several are heard at once, each with its own
 * deadline, so that none holds the others up: a peer outside --allow is
 * refused as soon as it is accepted, before a byte of it is read; the
 * others' AUTH is read as it arrives and its token judged (bw/token.h);
 * an address that guessed too many wrong tokens pauses, doubling
 * (bw/peer_memo.h); one that sends nothing within --idle-timeout is cut.
 * A refused connection hears why in an ERROR, and is then drained and
 * closed in the background (a close with its bytes unread would reset the
 * connection and lose the ERROR), so a refusal costs the door nothing but
 * a send.  Refusals are logged, at a bounded rate.
 *
 * One thread at a time works the lobby: the server between its clients
 * (bw_lobby_admit), the doorman while a client's test runs (bw_lobby_busy,
 * bw/door.h), handing it over by starting and joining that thread. */
#ifndef RD_BW_LOBBY_H
#define RD_BW_LOBBY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "allow.h"
#include "peer_memo.h"
#include "proto.h"
#include "session.h"

/* Connections heard at once, and from one address: one more pushes out
 * the oldest that has been through a poll and has not shown its token (a
 * real client's AUTH comes within milliseconds, and is read as soon as it
 * is accepted and again at the next poll), or is refused when there is
 * none. */
#define BW_LOBBY_PENDING 32
#define BW_LOBBY_PER_ADDRESS 8
/* Refused connections draining at once; one more closes the oldest drain
 * outright to make room. */
#define BW_LOBBY_CLOSING 64
/* How long, and how many bytes, a refused connection is drained. */
#define BW_LOBBY_DRAIN_S 0.5
#define BW_LOBBY_DRAIN_BYTES (64u << 10)
/* The control listener's backlog: a burst of strangers waits there while
 * the door takes them in. */
#define BW_LOBBY_BACKLOG 128
/* A client that showed its token while another client's test runs is held
 * this long before it is told busy: a test that ends meanwhile (its client
 * said BYE, the next one connected at once) lets it in instead. */
#define BW_LOBBY_GRACE_S 0.3
/* After accept failed for want of descriptors or memory, the listener
 * rests this long (the connection waits in the backlog). */
#define BW_LOBBY_SHORT_REST_S 0.1

struct bw_lobby_conn {
	struct bw_session ss;
	double until;		/* its AUTH by then; shown: told busy then */
	uint8_t msg[BW_HDR_LEN + BW_TOKEN_MAX + 2];	/* its AUTH so far */
	size_t got;
	bool shown;		/* its token was right: to be served */
	bool heard;		/* it has been through a poll: may be pushed out */
};

struct bw_lobby_drain {
	int fd;
	double until;
	size_t drained;
};

struct bw_lobby {
	/* set by the caller */
	int lfd;				/* the control listener */
	const struct bw_allow *allow;		/* --allow; n_allow 0: anyone */
	unsigned n_allow;
	const char *token;			/* NULL: any token goes */
	double auth_s;				/* --idle-timeout */
	/* one line per refusal logged: the peer's numeric address and why
	 * (from whichever thread works the lobby); may be NULL */
	void (*log)(void *arg, const char *peer, const char *why);
	void *log_arg;
	/* private */
	struct bw_lobby_conn c[BW_LOBBY_PENDING];
	size_t n;
	struct bw_lobby_drain d[BW_LOBBY_CLOSING];
	size_t nd;
	struct bw_peer_memo peers;
	double rest_until;	/* the listener rests until then (a shortage) */
	double short_said;	/* when a shortage was last said */
};

/* Clear the lobby's private part (the caller's fields stay). */
void bw_lobby_init(struct bw_lobby *lb);
/* Between clients: until one has shown its token.  0 with *ss that
 * client's connection (ss->authed; timeouts and the rest the caller's to
 * set), or -1 with e set when the listener failed. */
int bw_lobby_admit(struct bw_lobby *lb, struct bw_session *ss, struct bw_err *e);
/* While a client's test runs, until stop_fd is readable: the door stays
 * open, and a client that shows its token is held BW_LOBBY_GRACE_S, then
 * told busy, to try again when *until_ms (bw_now() milliseconds) is. */
void bw_lobby_busy(struct bw_lobby *lb, int stop_fd, atomic_llong *until_ms);
/* Refuse a connection: an ERROR saying why (NULL: none, one was sent),
 * then the drain and the close in the background. */
void bw_lobby_refuse(struct bw_lobby *lb, int fd, const char *why);
/* Close everything the lobby holds. */
void bw_lobby_end(struct bw_lobby *lb);

#endif
