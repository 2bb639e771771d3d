/* bw_door_* (door.h). */
#include "door.h"
#include "proto_io.h"
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* How long a refused client's bytes are drained before the close. */
#define DOOR_DRAIN_S 0.5
#define DOOR_DRAIN_BYTES (64u << 10)

bool bw_door_allowed(const struct bw_door *d, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (d->n_allow == 0)
		return true;
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) != 0)
		return false;	/* no address to judge by: not allowed */
	return bw_allow_match(d->allow, d->n_allow, (struct sockaddr *)&ss);
}

void bw_door_close(int fd)
{
	/* a close with unread bytes in our receive queue sends a reset, and
	 * a reset may discard the ERROR the client has not read yet: say FIN
	 * first and swallow what it sent (never parsed) until it closes too */
	double end = bw_now() + DOOR_DRAIN_S;
	size_t drained = 0;
	uint8_t buf[4096];

	shutdown(fd, SHUT_WR);
	while (drained < DOOR_DRAIN_BYTES && bw_wait_fd(fd, POLLIN, end) > 0) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		drained += (size_t)n;
	}
	close(fd);
}

void bw_door_refuse(int fd, const char *why)
{
	struct bw_buf b = { 0 };
	struct bw_err ignore;

	if (bw_text_encode(why, BW_ERROR_MAX, &b) == 0)
		bw_send_msg(fd, BW_MSG_ERROR, b.p, b.len, 500, &ignore);
	bw_buf_free(&b);
	bw_door_close(fd);
}

static void say(const struct bw_door *d, const char *peer, const char *why)
{
	if (d->log)
		d->log(d->log_arg, peer, why);
}

/* Answer one client that came while the slot is taken. */
static void turn_away(struct bw_door *d)
{
	struct bw_session s = { .fd = -1 };
	struct bw_err e;
	char why[128];
	double left;

	if (bw_session_accept(d->lfd, &s, 0, &e) < 0)
		return;	/* gone before we took it, or out of descriptors */
	if (!bw_door_allowed(d, s.fd)) {
		say(d, s.peer_addr, "not allowed (--allow)");
		bw_door_refuse(s.fd, "refused: this address is not in the server's --allow list");
		return;
	}
	if (bw_wait_fd(d->stop[0], POLLIN, bw_now() + BW_DOOR_GRACE_S) > 0) {
		d->handoff = s;	/* the slot freed meanwhile: the server's next */
		return;
	}
	left = (double)atomic_load(&d->until_ms) / 1e3 - bw_now();
	snprintf(why, sizeof(why), "refused: busy with another client's test, try again in %.0f s",
		 left < 1 ? 1 : ceil(left));
	say(d, s.peer_addr, why + strlen("refused: "));
	bw_door_refuse(s.fd, why);
}

static void *doorman(void *arg)
{
	struct bw_door *d = arg;

	for (;;) {
		struct pollfd pf[2] = { { .fd = d->lfd, .events = POLLIN },
					{ .fd = d->stop[0], .events = POLLIN } };

		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (pf[1].revents || d->handoff.fd >= 0)
			return NULL;
		if (pf[0].revents & POLLIN)
			turn_away(d);
	}
}

int bw_door_open(struct bw_door *d, struct bw_err *e)
{
	d->running = false;
	d->handoff.fd = -1;
	if (pipe2(d->stop, O_CLOEXEC) < 0) {
		bw_errf(e, "cannot make the doorman's pipe: %s", strerror(errno));
		return -1;
	}
	if (pthread_create(&d->th, NULL, doorman, d) != 0) {
		close(d->stop[0]);
		close(d->stop[1]);
		bw_errf(e, "cannot start the doorman's thread");
		return -1;
	}
	d->running = true;
	return 0;
}

void bw_door_busy_until(struct bw_door *d, double until)
{
	atomic_store(&d->until_ms, (long long)(until * 1e3));
}

void bw_door_shut(struct bw_door *d)
{
	if (!d->running)
		return;
	/* a byte on the pipe wakes the doorman, which then ends */
	while (write(d->stop[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(d->th, NULL);
	close(d->stop[0]);
	close(d->stop[1]);
	d->running = false;
}
