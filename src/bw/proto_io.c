/* Framed socket I/O of the control protocol (and of the tcp transport's
 * data connections): every step bounded by a deadline (poll), never
 * SIGPIPE.  Errors follow bw/'s convention (engine.h): a deadline that
 * passed is BW_E_TIMEOUT, a peer that closed BW_E_CLOSED. */
#include "proto_io.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


static int remaining_ms(double deadline)
{
	double left = deadline - bw_now();

	if (left <= 0)
		return 0;
	return left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

int bw_wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = events };
		int ms = remaining_ms(deadline), rc;

		if (ms == 0)
			return 0;
		rc = poll(&pfd, 1, ms);
		if (rc > 0)
			return 1;
		if (rc == 0)
			continue;	/* re-check the clock */
		if (errno != EINTR)
			return -1;
	}
}

int bw_write_all(int fd, const uint8_t *p, size_t n, double deadline, struct bw_err *e)
{
	while (n) {
		ssize_t w;
		int rc = bw_wait_fd(fd, POLLOUT, deadline);

		if (rc == 0) {
			return bw_errc(e, BW_E_TIMEOUT, "timed out sending to the peer (it stopped reading)");
		}
		if (rc < 0) {
			bw_errf(e, "cannot wait on the connection: %s", strerror(errno));
			return -1;
		}
		w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			bw_errf(e, "cannot send to the peer: %s", strerror(errno));
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int bw_read_all(int fd, uint8_t *p, size_t n, double deadline, const char *what,
		struct bw_err *e)
{
	while (n) {
		ssize_t r;
		int rc = bw_wait_fd(fd, POLLIN, deadline);

		if (rc == 0) {
			return bw_errc(e, BW_E_TIMEOUT, "timed out waiting for %s from the peer", what);
		}
		if (rc < 0) {
			bw_errf(e, "cannot wait on the connection: %s", strerror(errno));
			return -1;
		}
		r = recv(fd, p, n, MSG_DONTWAIT);
		if (r == 0 || (r < 0 && errno == ECONNRESET)) {
			return bw_errc(e, BW_E_CLOSED, "the peer closed the connection while %s was expected",
				       what);
		}
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			bw_errf(e, "cannot read %s from the peer: %s", what, strerror(errno));
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int bw_send_msg(int fd, uint16_t type, const uint8_t *payload, size_t len, int timeout_ms,
		struct bw_err *e)
{
	double deadline = bw_now() + timeout_ms / 1e3;
	uint8_t h[BW_HDR_LEN];
	int rc;

	if (len > BW_PAYLOAD_MAX) {
		bw_errf(e, "message of %zu bytes is too large to send", len);
		return -1;
	}
	bw_hdr_encode(h, type, (uint32_t)len);
	rc = bw_write_all(fd, h, sizeof(h), deadline, e);
	if (rc < 0)
		return rc;
	return len ? bw_write_all(fd, payload, len, deadline, e) : 0;
}

int bw_recv_msg(int fd, uint16_t *type, uint8_t **payload, uint32_t *len, uint32_t max_len,
		int timeout_ms, const char *what, struct bw_err *e)
{
	double deadline = bw_now() + timeout_ms / 1e3;
	uint8_t h[BW_HDR_LEN];
	int rc;

	*payload = NULL;
	rc = bw_read_all(fd, h, sizeof(h), deadline, what, e);
	if (rc < 0)
		return rc;
	if (bw_hdr_parse(h, type, len, e) < 0)
		return -1;
	/* an ERROR may always come, up to its own bound */
	if (*len > (*type == BW_MSG_ERROR ? BW_ERROR_MAX + 2 : max_len)) {
		bw_errf(e, "%s of %u bytes is over the limit of %u", what, *len, max_len);
		return -1;
	}
	*payload = malloc(*len ? *len : 1);
	if (!*payload) {
		return bw_errc(e, BW_E_NOMEM, "out of memory");
	}
	rc = bw_read_all(fd, *payload, *len, deadline, what, e);
	if (rc < 0) {
		free(*payload);
		*payload = NULL;
		return rc;
	}
	return 0;
}
