/* bw_lobby_* (lobby.h). */
#include "lobby.h"
#include "token.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connections taken from the backlog in one round at most: a flood is
 * worked through quickly, and the connections already in still heard. */
#define ACCEPTS_PER_ROUND 64
/* How often a lasting shortage of descriptors is said. */
#define SHORT_SAY_EVERY_S 60.0

void bw_lobby_init(struct bw_lobby *lb)
{
	lb->n = lb->nd = 0;
	bw_peer_memo_init(&lb->peers);
	lb->rest_until = 0;
	lb->short_said = -SHORT_SAY_EVERY_S;
}

/* A refusal in the log, within the log's budget (peer_memo.h). */
static void say(struct bw_lobby *lb, const char *peer, const char *why)
{
	char line[BW_ERROR_MAX + 80];
	unsigned unlogged;

	if (!lb->log || !bw_peer_log(&lb->peers, peer, bw_now(), &unlogged))
		return;
	if (unlogged) {
		snprintf(line, sizeof(line), "%s (and %u refusals not logged since the last line)",
			 why, unlogged);
		lb->log(lb->log_arg, peer, line);
	} else {
		lb->log(lb->log_arg, peer, why);
	}
}

/* An ERROR without waiting: at the door nothing else was sent on the
 * connection, so its send buffer takes the frame whole. */
static void send_error_now(int fd, const char *why)
{
	struct bw_buf b = { 0 };
	uint8_t frame[BW_HDR_LEN + BW_ERROR_MAX + 2];

	if (bw_text_encode(why, BW_ERROR_MAX, &b) == 0 && b.len <= sizeof(frame) - BW_HDR_LEN) {
		bw_hdr_encode(frame, BW_MSG_ERROR, (uint32_t)b.len);
		memcpy(frame + BW_HDR_LEN, b.p, b.len);
		while (send(fd, frame, BW_HDR_LEN + b.len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
		       errno == EINTR)
			;
	}
	bw_buf_free(&b);
}

static void drain_end(struct bw_lobby *lb, size_t i)
{
	close(lb->d[i].fd);
	lb->d[i] = lb->d[--lb->nd];
}

void bw_lobby_refuse(struct bw_lobby *lb, int fd, const char *why)
{
	if (why)
		send_error_now(fd, why);
	/* FIN after the ERROR; what the client sent is swallowed unread until
	 * it closes too, so that our close does not reset the connection */
	shutdown(fd, SHUT_WR);
	if (lb->nd == BW_LOBBY_CLOSING) {
		size_t oldest = 0;

		for (size_t i = 1; i < lb->nd; i++)
			if (lb->d[i].until < lb->d[oldest].until)
				oldest = i;
		drain_end(lb, oldest);
	}
	lb->d[lb->nd++] = (struct bw_lobby_drain){ fd, bw_now() + BW_LOBBY_DRAIN_S, 0 };
}

/* Take what a refused connection sent; closed once it closed, broke, or
 * sent more than the drain takes. */
static void drain(struct bw_lobby *lb, size_t i)
{
	struct bw_lobby_drain *d = &lb->d[i];
	uint8_t buf[4096];

	while (d->drained < BW_LOBBY_DRAIN_BYTES) {
		ssize_t n = recv(d->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			d->drained += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		break;
	}
	drain_end(lb, i);
}

/* Refuse pending connection i: the client reads text, the log why; the
 * last pending one takes its place. */
static void turn_away(struct bw_lobby *lb, size_t i, const char *why, const char *text)
{
	struct bw_lobby_conn *c = &lb->c[i];

	say(lb, c->ss.peer_addr, why);
	bw_lobby_refuse(lb, c->ss.fd, text);
	lb->c[i] = lb->c[--lb->n];
}

/* The same, the client reading "refused: why". */
static void refuse_pending(struct bw_lobby *lb, size_t i, const char *why)
{
	char text[BW_ERROR_MAX];

	snprintf(text, sizeof(text), "refused: %s", why);
	turn_away(lb, i, why, text);
}

/* Why an address that guessed too often is not heard (pause: seconds). */
static void paused_why(char *out, size_t n, double pause)
{
	snprintf(out, n, "too many wrong tokens from this address: try again in %.0f s",
		 ceil(pause));
}

/* Pending i's AUTH is whole (len bytes of payload): judge its token.  1:
 * it is right; 0: turned away. */
static int judge(struct bw_lobby *lb, size_t i, uint32_t len)
{
	struct bw_lobby_conn *c = &lb->c[i];
	double now = bw_now(), pause = bw_peer_paused(&lb->peers, c->ss.peer_addr, now);
	struct bw_err e = { "" };
	char why[sizeof(e.msg) + 64];
	bool wrong;
	int rc;

	if (pause > 0) {	/* it guessed on several connections at once */
		paused_why(why, sizeof(why), pause);
		refuse_pending(lb, i, why);
		return 0;
	}
	rc = bw_token_judge(lb->token, c->msg + BW_HDR_LEN, len, &wrong, &e);
	if (rc == 0) {
		bw_peer_right_token(&lb->peers, c->ss.peer_addr);
		c->shown = true;
		return 1;
	}
	if (rc != -BW_E_REFUSED) {	/* malformed: said as it is */
		turn_away(lb, i, e.msg, e.msg);
		return 0;
	}
	pause = wrong ? bw_peer_wrong_token(&lb->peers, c->ss.peer_addr, now) : 0;
	if (pause > 0)
		snprintf(why, sizeof(why), "%s; too many in a row: this address waits %.0f s",
			 e.msg, ceil(pause));
	else
		snprintf(why, sizeof(why), "%s", e.msg);
	refuse_pending(lb, i, why);
	return 0;
}

/* Read what pending i sent of its AUTH, and no byte more (its HELLO is the
 * session's to read).  1: its token is right; 0: not whole yet, or it was
 * turned away or closed. */
static int hear(struct bw_lobby *lb, size_t i)
{
	struct bw_lobby_conn *c = &lb->c[i];
	struct bw_err e = { "" };

	for (;;) {
		size_t want = BW_HDR_LEN;
		ssize_t n;

		if (c->got >= BW_HDR_LEN) {
			uint16_t type;
			uint32_t len;

			if (bw_hdr_parse(c->msg, &type, &len, &e) < 0) {
				turn_away(lb, i, e.msg, e.msg);
				return 0;
			}
			if (type != BW_MSG_AUTH) {
				bw_errf(&e, "the client sent message type %u where AUTH was expected",
					type);
				turn_away(lb, i, e.msg, e.msg);
				return 0;
			}
			if (len > BW_TOKEN_MAX + 2) {
				bw_errf(&e, "AUTH of %u bytes is over the limit of %u", len,
					BW_TOKEN_MAX + 2);
				turn_away(lb, i, e.msg, e.msg);
				return 0;
			}
			want = BW_HDR_LEN + len;
			if (c->got == want)
				return judge(lb, i, len);
		}
		n = recv(c->ss.fd, c->msg + c->got, want - c->got, MSG_DONTWAIT);
		if (n > 0) {
			c->got += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		/* gone before its token (a port probe, a client given up):
		 * nobody to answer */
		say(lb, c->ss.peer_addr, n == 0 ? "closed before its token" : strerror(errno));
		bw_session_close(&c->ss);
		lb->c[i] = lb->c[--lb->n];
		return 0;
	}
}

static bool allowed(const struct bw_lobby *lb, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (lb->n_allow == 0)
		return true;
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) != 0)
		return false;	/* no address to judge by: not allowed */
	return bw_allow_match(lb->allow, lb->n_allow, (struct sockaddr *)&ss);
}

/* Pending connections from addr. */
static size_t same_address(const struct bw_lobby *lb, const char *addr)
{
	size_t k = 0;

	for (size_t i = 0; i < lb->n; i++)
		k += strcmp(lb->c[i].ss.peer_addr, addr) == 0;
	return k;
}

/* A place for one more connection from addr: free, or made by pushing out
 * the oldest one that was heard from and showed no token (among addr's own
 * when addr holds its share).  false: none can go, refuse the newcomer. */
static bool make_room(struct bw_lobby *lb, const char *addr)
{
	bool own = same_address(lb, addr) >= BW_LOBBY_PER_ADDRESS;
	size_t victim = lb->n;

	if (!own && lb->n < BW_LOBBY_PENDING)
		return true;
	for (size_t i = 0; i < lb->n; i++) {
		const struct bw_lobby_conn *c = &lb->c[i];

		if (c->shown || !c->heard || (own && strcmp(c->ss.peer_addr, addr) != 0))
			continue;
		if (victim == lb->n || c->until < lb->c[victim].until)
			victim = i;
	}
	if (victim == lb->n)
		return false;
	refuse_pending(lb, victim, own ? "sent no token while newer connections from its "
				   "address came" : "sent no token while newer connections came");
	return true;
}

/* Take one connection from the backlog (busy: while another client's test
 * runs).  1: one was there (taken, or refused at once); 0: none, or the
 * listener rests; -1 with e set when the listener failed. */
static int take(struct bw_lobby *lb, bool busy, struct bw_err *e)
{
	struct bw_session s = { .fd = -1 };
	double now, pause;
	char why[128];
	int rc = bw_session_accept(lb->lfd, &s, 0, e);

	if (rc == -BW_E_TIMEOUT)
		return 0;
	if (rc == -BW_E_AGAIN)	/* that connection's trouble */
		return 1;
	now = bw_now();
	if (rc == -BW_E_SHORT) {
		/* descriptors or memory: the connection waits in the backlog
		 * while the listener rests, so that it cannot spin the door */
		lb->rest_until = now + BW_LOBBY_SHORT_REST_S;
		if (now - lb->short_said >= SHORT_SAY_EVERY_S && lb->log) {
			lb->log(lb->log_arg, NULL, e->msg);
			lb->short_said = now;
		}
		return 0;
	}
	if (rc < 0)
		return -1;
	if (!allowed(lb, s.fd)) {
		say(lb, s.peer_addr, "not allowed (--allow)");
		bw_lobby_refuse(lb, s.fd, "refused: this address is not in the server's --allow list");
		return 1;
	}
	pause = bw_peer_paused(&lb->peers, s.peer_addr, now);
	if (pause > 0) {
		char text[160];

		paused_why(why, sizeof(why), pause);
		say(lb, s.peer_addr, why);
		snprintf(text, sizeof(text), "refused: %s", why);
		bw_lobby_refuse(lb, s.fd, text);
		return 1;
	}
	if (!make_room(lb, s.peer_addr)) {
		char text[160];

		snprintf(why, sizeof(why), "too many connections waiting to show a token%s",
			 same_address(lb, s.peer_addr) >= BW_LOBBY_PER_ADDRESS ? " from this address"
										: "");
		say(lb, s.peer_addr, why);
		snprintf(text, sizeof(text), "refused: %s: try again", why);
		bw_lobby_refuse(lb, s.fd, text);
		return 1;
	}
	/* not pushed out before a poll has given it a chance */
	lb->c[lb->n++] = (struct bw_lobby_conn){ .ss = s, .until = now + lb->auth_s };
	/* a client sends its AUTH as soon as it is connected: often it is
	 * there already, and is judged before anyone can push it out */
	if (hear(lb, lb->n - 1) && busy)
		lb->c[lb->n - 1].until = bw_now() + BW_LOBBY_GRACE_S;
	return 1;
}

static bool any_shown(const struct bw_lobby *lb)
{
	for (size_t i = 0; i < lb->n; i++)
		if (lb->c[i].shown)
			return true;
	return false;
}

/* The seconds until_ms (bw_now() milliseconds) is away, at least 1. */
static double busy_left(const atomic_llong *until_ms)
{
	double left = (double)atomic_load(until_ms) / 1e3 - bw_now();

	return left < 1 ? 1 : ceil(left);
}

/* Those whose time is up: the silent cut, the ones held while busy told
 * so, the drained closed. */
static void expire(struct bw_lobby *lb, double now, atomic_llong *until_ms)
{
	char why[160];

	for (size_t i = lb->n; i-- > 0;) {
		size_t before = lb->n;

		if (now < lb->c[i].until)
			continue;
		/* what it sent meanwhile first (a long session without a
		 * doorman leaves AUTHs unread) */
		if (!lb->c[i].shown && hear(lb, i)) {
			if (until_ms)
				lb->c[i].until = now + BW_LOBBY_GRACE_S;
			continue;
		}
		if (lb->n != before)
			continue;	/* turned away, or gone */
		if (lb->c[i].shown && until_ms)
			snprintf(why, sizeof(why),
				 "busy with another client's test, try again in %.0f s",
				 busy_left(until_ms));
		else if (lb->c[i].shown)
			continue;	/* between clients: the next one served */
		else
			snprintf(why, sizeof(why), "idle: sent %s within %.1f s (--idle-timeout)",
				 lb->c[i].got ? "only part of its token" : "nothing", lb->auth_s);
		refuse_pending(lb, i, why);
	}
	for (size_t i = lb->nd; i-- > 0;)
		if (now >= lb->d[i].until)
			drain_end(lb, i);
}

/* One round: wait for whatever the lobby holds, or stop_fd (-1: none), and
 * work through what came.  until_ms: while busy, when the slot frees (NULL:
 * between clients).  1: stop_fd is readable; 0: go on; -1 with e set: the
 * listener failed. */
static int lobby_round(struct bw_lobby *lb, int stop_fd, atomic_llong *until_ms,
		       struct bw_err *e)
{
	struct pollfd pf[2 + BW_LOBBY_PENDING + BW_LOBBY_CLOSING];
	double now = bw_now(), wake = now + 60;
	size_t np, nd, base_c = 2, base_d;
	bool listening;

	expire(lb, now, until_ms);
	listening = now >= lb->rest_until;
	if (!listening && lb->rest_until < wake)
		wake = lb->rest_until;
	pf[0] = (struct pollfd){ .fd = stop_fd, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = listening ? lb->lfd : -1, .events = POLLIN };
	np = lb->n;
	for (size_t i = 0; i < np; i++) {
		/* one already shown waits for the slot, not for its bytes */
		pf[base_c + i] = (struct pollfd){ .fd = lb->c[i].shown ? -1 : lb->c[i].ss.fd,
						  .events = POLLIN };
		if (lb->c[i].until < wake && (until_ms || !lb->c[i].shown))
			wake = lb->c[i].until;
	}
	base_d = base_c + np;
	nd = lb->nd;
	for (size_t i = 0; i < nd; i++) {
		pf[base_d + i] = (struct pollfd){ .fd = lb->d[i].fd, .events = POLLIN };
		if (lb->d[i].until < wake)
			wake = lb->d[i].until;
	}
	if (poll(pf, base_d + nd, wake > now ? (int)((wake - now) * 1e3) + 1 : 0) < 0) {
		if (errno == EINTR)
			return 0;
		bw_errf(e, "cannot wait for clients: %s", strerror(errno));
		return -1;
	}
	if (stop_fd >= 0 && pf[0].revents)
		return 1;
	for (size_t i = 0; i < np; i++)
		lb->c[i].heard = true;
	/* from the end down: the one that takes a freed place has been worked
	 * through already */
	for (size_t i = nd; i-- > 0;)
		if (i < lb->nd && pf[base_d + i].revents)
			drain(lb, i);
	for (size_t i = np; i-- > 0;)
		if (i < lb->n && !lb->c[i].shown && pf[base_c + i].revents && hear(lb, i) &&
		    until_ms)
			lb->c[i].until = bw_now() + BW_LOBBY_GRACE_S;
	if (pf[1].revents)
		for (int k = 0; k < ACCEPTS_PER_ROUND && !(until_ms == NULL && any_shown(lb)); k++) {
			/* between clients, one that showed its token is served
			 * before more are taken */
			int rc = take(lb, until_ms != NULL, e);

			if (rc < 0)
				return -1;
			if (rc == 0)
				break;
		}
	return 0;
}

int bw_lobby_admit(struct bw_lobby *lb, struct bw_session *ss, struct bw_err *e)
{
	for (;;) {
		size_t first = lb->n;

		/* one that showed its token (while the last test ran, held):
		 * the one that came first */
		for (size_t i = 0; i < lb->n; i++)
			if (lb->c[i].shown && (first == lb->n || lb->c[i].until < lb->c[first].until))
				first = i;
		if (first < lb->n) {
			*ss = lb->c[first].ss;
			ss->authed = true;
			lb->c[first] = lb->c[--lb->n];
			return 0;
		}
		if (lobby_round(lb, -1, NULL, e) < 0)
			return -1;
	}
}

void bw_lobby_busy(struct bw_lobby *lb, int stop_fd, atomic_llong *until_ms)
{
	struct bw_err e;
	int rc;

	while ((rc = lobby_round(lb, stop_fd, until_ms, &e)) == 0)
		;
	if (rc < 0) {	/* the listener failed: the server says so when it is back */
		struct pollfd pf = { .fd = stop_fd, .events = POLLIN };

		while (poll(&pf, 1, -1) < 0 && errno == EINTR)
			;
	}
}

void bw_lobby_end(struct bw_lobby *lb)
{
	while (lb->n)
		bw_session_close(&lb->c[--lb->n].ss);
	while (lb->nd)
		drain_end(lb, lb->nd - 1);
}
