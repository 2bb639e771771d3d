/* The tcp transport: `qps` data connections ("streams") per rail between
 * the two sides, so that RDMA and TCP can be compared on one link and so
 * that CI can always run the test.
 *
 * Endpoint bytes: the server's data listener (port) and a random token
 * that every data connection presents first, so that a stranger who
 * connects to the listener is turned away.  The client's endpoint carries
 * no port.  Layout (big-endian): u32 "RDTC" | u8 version | u16 port |
 * u64 token, 15 bytes exactly.
 *
 * Bandwidth: each sending side writes chunks of whole messages (at least
 * 128 KiB per send() call, so that small messages measure the link, not
 * the system call) on every stream from one poll loop; a side counts what
 * it sent (and a receive-only side what it received), like perftest.  At
 * the end of the window a sender shuts its side down and both drain to
 * EOF, bounded in time.  Latency: a ping-pong of `size` bytes on one
 * stream with TCP_NODELAY, the client timing each round trip (--iters
 * counts the round trips of the measured window).  Whatever the peer
 * does, run() ends by bw_local.max_run_ms.  The server's data listener
 * binds to bw_local.bind_addr (the client's data connections leave from
 * it) and, like every data socket, to the bw_local.device interface when
 * one is named. */
#include "engine.h"
#include "proto.h"
#include "session.h"
#include "source_addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <math.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define TCP_EP_MAGIC 0x52445443u	/* "RDTC" */
#define TCP_EP_VERSION 1
#define TCP_EP_LEN 15
#define CONNECT_TIMEOUT_S (BW_CONNECT_WAIT_MS / 1e3)	/* all data connections of a rail */
#define IDLE_TIMEOUT_S 10.0	/* no byte moved: the peer is gone */
#define DRAIN_TIMEOUT_S 5.0	/* after the window, to EOF */
#define MIN_CHUNK (128u * 1024)
#define LAT_SAMPLES_MAX (1u << 22)

struct tcp_state {
	struct bw_params p;
	bool is_server;
	char peer[256];		/* the peer's control address */
	char bind_dev[IF_NAMESIZE];	/* "": no SO_BINDTODEVICE */
	char source[64];	/* client: bw_local.bind_addr, "": any */
	int lfd;		/* server: data listener */
	uint16_t port;
	uint64_t token;
	int *fds;
	uint32_t n_fds;
	uint8_t *sbuf, *rbuf;
	size_t chunk;		/* bytes per send()/recv() call */
	char device[64];
	uint32_t mtu;
	uint32_t max_run_ms;	/* bw_local.max_run_ms */
	uint8_t traffic_class;	/* bw_local's: IP_TOS / IPV6_TCLASS, 0 default */
};

static void tcp_destroy(void *state)
{
	struct tcp_state *s = state;

	if (!s)
		return;
	if (s->lfd >= 0)
		close(s->lfd);
	for (uint32_t i = 0; i < s->n_fds; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	free(s->fds);
	free(s->sbuf);
	free(s->rbuf);
	free(s);
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* A failed socket()/accept() for want of descriptors: say so at once
 * rather than retry or time out. */
static bool out_of_fds(int err, struct bw_err *e)
{
	if (err != EMFILE && err != ENFILE)
		return false;
	bw_errf(e, "too many open files (raise ulimit -n): %s", strerror(err));
	return true;
}

/* The hard end of run() (bw_local.max_run_ms); INFINITY: none. */
static double hard_end(const struct tcp_state *s, double start)
{
	return s->max_run_ms ? start + s->max_run_ms / 1e3 : INFINITY;
}

static void past_limit(const struct tcp_state *s, struct bw_err *e)
{
	bw_errf(e, "the test ran past its limit of %.1f s (%s) and was stopped",
		s->max_run_ms / 1e3,
		s->is_server ? "this server's --max-duration" : "its duration and warm-up");
}

static int tcp_prepare(void **state, const struct bw_params *p, const struct bw_local *l,
		       bool is_server, uint8_t *ep, size_t *ep_len, struct bw_err *e)
{
	struct tcp_state *s = calloc(1, sizeof(*s));
	size_t bufsz;

	*state = s;
	if (!s) {
		bw_errf(e, "out of memory");
		return -1;
	}
	s->lfd = -1;
	s->p = *p;
	s->is_server = is_server;
	s->max_run_ms = l->max_run_ms;
	s->traffic_class = l->traffic_class;
	snprintf(s->peer, sizeof(s->peer), "%s", l->peer_addr ? l->peer_addr : "");
	if (l->device && *l->device) {
		if (strlen(l->device) >= sizeof(s->bind_dev)) {
			bw_errf(e, "'%s' is not a network interface name", l->device);
			return -1;
		}
		snprintf(s->bind_dev, sizeof(s->bind_dev), "%s", l->device);
	}
	s->fds = malloc(p->qps * sizeof(*s->fds));
	if (!s->fds) {
		bw_errf(e, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < p->qps; i++)
		s->fds[i] = -1;
	s->n_fds = p->qps;
	/* whole messages per call, at least MIN_CHUNK bytes */
	s->chunk = p->size >= MIN_CHUNK ? p->size : (MIN_CHUNK / p->size) * p->size;
	if (p->mode == BW_MODE_LAT)
		s->chunk = p->size;
	bufsz = s->chunk;
	s->sbuf = malloc(bufsz);
	s->rbuf = malloc(bufsz);
	if (!s->sbuf || !s->rbuf) {
		bw_errf(e, "cannot allocate %zu bytes of buffers", 2 * bufsz);
		return -1;
	}
	memset(s->sbuf, 0xa5, bufsz);	/* touch it: first use must not fault */
	memset(s->rbuf, 0, bufsz);
	bw_put_be(ep, TCP_EP_MAGIC, 4);
	ep[4] = TCP_EP_VERSION;
	bw_put_be(ep + 5, 0, 2);
	bw_put_be(ep + 7, 0, 8);
	*ep_len = TCP_EP_LEN;
	if (!is_server) {
		if (l->bind_addr)
			snprintf(s->source, sizeof(s->source), "%s", l->bind_addr);
		return 0;
	}

	/* the server listens on an ephemeral port: on --bind's address when
	 * given (else IPv6 dual-stack or IPv4), and only on --device's
	 * interface when given */
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	s->lfd = bw_listen(l->bind_addr, 0, (int)p->qps + 16, e);
	if (s->lfd < 0) {
		char why[sizeof(e->msg)];

		snprintf(why, sizeof(why), "%s", e->msg);
		bw_errf(e, "data connections: %s", why);
		return -1;
	}
	if (s->bind_dev[0] && setsockopt(s->lfd, SOL_SOCKET, SO_BINDTODEVICE, s->bind_dev,
					 (socklen_t)strlen(s->bind_dev)) < 0) {
		bw_errf(e, "cannot bind the data listener to '%s': %s%s", s->bind_dev,
			strerror(errno), errno == EPERM ? " (needs CAP_NET_RAW: run as root)" : "");
		return -1;
	}
	if (getsockname(s->lfd, (struct sockaddr *)&ss, &sl) < 0) {
		bw_errf(e, "cannot read the data listener's port: %s", strerror(errno));
		return -1;
	}
	s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						 : ((struct sockaddr_in *)&ss)->sin_port);
	if (getrandom(&s->token, sizeof(s->token), 0) != (ssize_t)sizeof(s->token)) {
		bw_errf(e, "cannot read random bytes for the data token: %s", strerror(errno));
		return -1;
	}
	bw_put_be(ep + 5, s->port, 2);
	bw_put_be(ep + 7, s->token, 8);
	return 0;
}

/* The netdev that carries fd's local address, and its MTU (for the report). */
static void name_device(struct tcp_state *s, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa, *i;
	struct ifreq ifr;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 || getifaddrs(&ifa) < 0)
		return;
	/* a v4-mapped IPv6 address (dual-stack listener) is the IPv4 it carries */
	if (ss.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((struct sockaddr_in6 *)&ss)->sin6_addr)) {
		struct sockaddr_in v4 = { .sin_family = AF_INET };

		memcpy(&v4.sin_addr, &((struct sockaddr_in6 *)&ss)->sin6_addr.s6_addr[12], 4);
		memset(&ss, 0, sizeof(ss));
		memcpy(&ss, &v4, sizeof(v4));
	}
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != ss.ss_family)
			continue;
		if (ss.ss_family == AF_INET &&
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
			    ((struct sockaddr_in *)&ss)->sin_addr.s_addr)
			break;
		if (ss.ss_family == AF_INET6 &&
		    memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			   &((struct sockaddr_in6 *)&ss)->sin6_addr, sizeof(struct in6_addr)) == 0)
			break;
	}
	if (i && strlen(i->ifa_name) < sizeof(s->device)) {
		snprintf(s->device, sizeof(s->device), "%s", i->ifa_name);
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", i->ifa_name);
		if (ioctl(fd, SIOCGIFMTU, &ifr) == 0 && ifr.ifr_mtu > 0)
			s->mtu = (uint32_t)ifr.ifr_mtu;
	}
	freeifaddrs(ifa);
}

/* The traffic class on a data socket: IP_TOS for IPv4, IPV6_TCLASS for
 * IPv6 (and IPv4-mapped peers of an IPv6 socket, which take both). */
static int set_class(struct tcp_state *s, int fd, struct bw_err *e)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int tc = s->traffic_class;

	if (!tc)
		return 0;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		goto fail;
	if (ss.ss_family == AF_INET6) {
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tc, sizeof(tc)) < 0)
			goto fail;
		/* a v4-mapped peer's packets take IP_TOS; a v6-only socket refuses it */
		(void)setsockopt(fd, IPPROTO_IP, IP_TOS, &tc, sizeof(tc));
	} else if (setsockopt(fd, IPPROTO_IP, IP_TOS, &tc, sizeof(tc)) < 0) {
		goto fail;
	}
	return 0;
fail:
	bw_errf(e, "cannot set traffic class %d on a data socket: %s", tc, strerror(errno));
	return -1;
}

static int tune(struct tcp_state *s, int fd, struct bw_err *e)
{
	int one = 1;

	if (set_class(s, fd, e) < 0)
		return -1;

	if (s->p.mode == BW_MODE_LAT &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
		bw_errf(e, "cannot set TCP_NODELAY: %s", strerror(errno));
		return -1;
	}
	if (set_nonblock(fd) < 0) {
		bw_errf(e, "cannot make a data socket non-blocking: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int client_connect(struct tcp_state *s, uint16_t port, uint64_t token, struct bw_err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char portstr[8];
	double deadline = bw_now() + CONNECT_TIMEOUT_S;
	int rc;

	snprintf(portstr, sizeof(portstr), "%u", port);
	rc = getaddrinfo(s->peer, portstr, &hints, &res);
	if (rc) {
		bw_errf(e, "cannot resolve '%s': %s", s->peer, gai_strerror(rc));
		return -1;
	}
	for (uint32_t k = 0; k < s->n_fds; k++) {
		uint8_t hello[12];
		int fd = -1, err = 0;

		for (ai = res; ai; ai = ai->ai_next) {
			socklen_t el = sizeof(err);

			fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
				    ai->ai_protocol);
			if (fd < 0) {
				err = errno;
				if (out_of_fds(err, e)) {
					freeaddrinfo(res);
					return -1;
				}
				continue;
			}
			if (s->source[0] && bw_bind_source(fd, ai->ai_family, s->source, e) < 0) {
				close(fd);
				freeaddrinfo(res);
				return -1;
			}
			if (s->bind_dev[0] &&
			    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, s->bind_dev,
				       (socklen_t)strlen(s->bind_dev)) < 0) {
				bw_errf(e, "cannot bind data connections to '%s': %s%s",
					s->bind_dev, strerror(errno),
					errno == EPERM ? " (needs CAP_NET_RAW: run as root)" : "");
				close(fd);
				freeaddrinfo(res);
				return -1;
			}
			if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
			    (errno == EINPROGRESS && bw_wait_fd(fd, POLLOUT, deadline) > 0 &&
			     getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0))
				break;
			err = err ? err : errno;
			close(fd);
			fd = -1;
		}
		if (fd < 0) {
			bw_errf(e, "cannot open data connection %u to %s port %u: %s", k + 1,
				s->peer, port, strerror(err ? err : ETIMEDOUT));
			freeaddrinfo(res);
			return -1;
		}
		s->fds[k] = fd;
		bw_put_be(hello, token, 8);
		bw_put_be(hello + 8, k, 4);
		if (bw_write_all(fd, hello, sizeof(hello), deadline, e) < 0) {
			char why[sizeof(e->msg)];

			snprintf(why, sizeof(why), "%s", e->msg);
			bw_errf(e, "cannot send the token on data connection %u: %s", k + 1, why);
			freeaddrinfo(res);
			return -1;
		}
		if (tune(s, fd, e) < 0) {
			freeaddrinfo(res);
			return -1;
		}
	}
	freeaddrinfo(res);
	return 0;
}

/* Accept qps data connections that present the token; strangers are
 * closed and do not count. */
static int server_accept(struct tcp_state *s, struct bw_err *e)
{
	double deadline = bw_now() + CONNECT_TIMEOUT_S;
	uint32_t got = 0;

	while (got < s->n_fds) {
		uint8_t hello[12];
		uint32_t k;
		struct bw_err ignore;
		int fd, w = bw_wait_fd(s->lfd, POLLIN, deadline);

		if (w <= 0) {
			bw_errf(e, "%u of %u data connections came before the timeout (a firewall "
				"between the hosts? the data port is ephemeral)", got, s->n_fds);
			return -1;
		}
		fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (out_of_fds(errno, e))
				return -1;
			continue;	/* a connection that went away, a signal */
		}
		if (bw_read_all(fd, hello, sizeof(hello), bw_now() + 2.0, "the token", &ignore) < 0 ||
		    bw_get_be(hello, 8) != s->token ||
		    (k = (uint32_t)bw_get_be(hello + 8, 4)) >= s->n_fds || s->fds[k] >= 0) {
			close(fd);
			continue;
		}
		s->fds[k] = fd;
		if (tune(s, fd, e) < 0)
			return -1;
		got++;
	}
	close(s->lfd);
	s->lfd = -1;
	return 0;
}

static int tcp_connect(void *state, const uint8_t *peer_ep, size_t peer_len, struct bw_err *e)
{
	struct tcp_state *s = state;

	if (peer_len != TCP_EP_LEN || bw_get_be(peer_ep, 4) != TCP_EP_MAGIC ||
	    peer_ep[4] != TCP_EP_VERSION) {
		bw_errf(e, "the peer's tcp endpoint is malformed (%zu bytes)", peer_len);
		return -1;
	}
	if (s->is_server) {
		if (server_accept(s, e) < 0)
			return -1;
	} else {
		uint16_t port = (uint16_t)bw_get_be(peer_ep + 5, 2);

		if (port == 0) {
			bw_errf(e, "the peer's tcp endpoint has no port");
			return -1;
		}
		if (client_connect(s, port, bw_get_be(peer_ep + 7, 8), e) < 0)
			return -1;
	}
	name_device(s, s->fds[0]);
	return 0;
}

/* ---- bandwidth ---- */

struct stream {
	uint64_t to_send;	/* iterations mode: bytes left; UINT64_MAX: until told */
	bool shut, eof;
};

/* Up to BURST calls while the socket takes whole chunks: fewer polls per
 * byte (iperf3 does the same).  -1 with errno when the stream broke. */
#define BURST 8

static int send_burst(struct tcp_state *s, uint32_t i, struct stream *st, uint64_t *sent,
		      double *progress)
{
	for (int k = 0; k < BURST && !st->shut; k++) {
		size_t want = st->to_send < s->chunk ? st->to_send : s->chunk;
		ssize_t w = send(s->fds[i], s->sbuf, want, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
		*sent += (uint64_t)w;
		*progress = bw_now();
		if (st->to_send != UINT64_MAX)
			st->to_send -= (uint64_t)w;
		if (st->to_send == 0) {
			shutdown(s->fds[i], SHUT_WR);
			st->shut = true;
		}
		if ((size_t)w < want)
			break;	/* the socket buffer is full */
	}
	return 0;
}

static int recv_burst(struct tcp_state *s, uint32_t i, struct stream *st, uint64_t *rcvd,
		      double *progress)
{
	for (int k = 0; k < BURST; k++) {
		ssize_t r = recv(s->fds[i], s->rbuf, s->chunk, MSG_DONTWAIT);

		if (r == 0) {
			st->eof = true;
			return 0;
		}
		if (r < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
		*rcvd += (uint64_t)r;
		*progress = bw_now();
		if ((size_t)r < s->chunk)
			break;	/* drained for now */
	}
	return 0;
}

static int run_bw(struct tcp_state *s, struct bw_result *out, struct bw_err *e)
{
	const struct bw_params *p = &s->p;
	bool client_sends = p->op != BW_OP_READ || p->bidir;
	bool server_sends = p->op == BW_OP_READ || p->bidir;
	bool sends = s->is_server ? server_sends : client_sends;
	bool recvs = s->is_server ? client_sends : server_sends;
	struct stream *st = calloc(s->n_fds, sizeof(*st));
	struct pollfd *pf = calloc(s->n_fds, sizeof(*pf));
	struct bw_sampler sm;
	uint64_t sent = 0, rcvd = 0;
	double last_progress = bw_now(), drain_end = 0, end = hard_end(s, last_progress);
	bool window_open = true;
	int rc = -1;

	if (!st || !pf) {
		bw_errf(e, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < s->n_fds; i++) {
		st[i].to_send = p->iters ? p->iters * p->size : UINT64_MAX;
		st[i].shut = !sends;
		if (!sends)
			shutdown(s->fds[i], SHUT_WR);
		st[i].eof = !recvs;
	}
	bw_sampler_start(&sm, p, out);
	for (;;) {
		bool all_done = true;
		uint64_t counted = sends ? sent : rcvd;
		int n;

		for (uint32_t i = 0; i < s->n_fds; i++) {
			pf[i].fd = s->fds[i];
			pf[i].events =
				(short)((st[i].shut ? 0 : POLLOUT) | (st[i].eof ? 0 : POLLIN));
			if (!st[i].shut || !st[i].eof)
				all_done = false;
		}
		if (all_done)
			break;
		n = poll(pf, s->n_fds, 100);
		if (n < 0 && errno != EINTR) {
			bw_errf(e, "cannot poll the data connections: %s", strerror(errno));
			goto out;
		}
		for (uint32_t i = 0; n > 0 && i < s->n_fds; i++) {
			int rc1 = 0, rc2 = 0;

			if ((pf[i].revents & POLLOUT) && !st[i].shut)
				rc1 = send_burst(s, i, &st[i], &sent, &last_progress);
			if ((pf[i].revents & (POLLIN | POLLHUP | POLLERR)) && !st[i].eof)
				rc2 = recv_burst(s, i, &st[i], &rcvd, &last_progress);
			if (rc1 < 0 || rc2 < 0) {
				if (window_open) {
					bw_errf(e, "data connection %u %s the peer broke: %s",
						i + 1, rc1 < 0 ? "to" : "from", strerror(errno));
					goto out;
				}
				st[i].shut = st[i].eof = true;	/* drain: it is over */
			}
		}
		counted = sends ? sent : rcvd;
		if (window_open) {
			bool more = bw_sampler_tick(&sm, counted, counted / p->size);

			if (p->iters) {
				/* iterations mode: over when this side sent all, or
				 * (receive only) when every stream ended */
				more = false;
				for (uint32_t i = 0; i < s->n_fds; i++)
					if (sends ? !st[i].shut : !st[i].eof)
						more = true;
			}
			if (!more) {
				bw_sampler_finish(&sm, counted, counted / p->size);
				window_open = false;
				drain_end = bw_now() + DRAIN_TIMEOUT_S;
				for (uint32_t i = 0; i < s->n_fds; i++)
					if (!st[i].shut) {
						shutdown(s->fds[i], SHUT_WR);
						st[i].shut = true;
					}
			}
		} else if (bw_now() > drain_end || bw_now() > end) {
			break;	/* the peer did not close in time; the figure stands */
		}
		if (window_open && bw_now() > end) {
			past_limit(s, e);
			goto out;
		}
		if (window_open && bw_now() - last_progress > IDLE_TIMEOUT_S) {
			bw_errf(e, "no data moved for %.0f s: the peer stopped (or the network "
				"dropped the connection)", IDLE_TIMEOUT_S);
			goto out;
		}
	}
	if (window_open)	/* every stream ended before the window did */
		bw_sampler_finish(&sm, sends ? sent : rcvd, (sends ? sent : rcvd) / p->size);
	rc = 0;
out:
	free(st);
	free(pf);
	return rc;
}

/* ---- latency ---- */

/* A ping-pong step failed: say which, after what the I/O said. */
static int lat_broke(struct bw_err *e, const char *who)
{
	char why[sizeof(e->msg)];

	snprintf(why, sizeof(why), "%s", e->msg);
	bw_errf(e, "the ping-pong with the %s broke: %s", who, why);
	return -1;
}

static int run_lat(struct tcp_state *s, struct bw_result *out, struct bw_err *e)
{
	const struct bw_params *p = &s->p;
	int fd = s->fds[0];
	struct bw_sampler sm;
	uint64_t rounds = 0, measured = 0;
	size_t cap = 0;
	double end;

	bw_sampler_start(&sm, p, out);
	end = hard_end(s, sm.t0);
	if (s->is_server) {
		/* echo until the client closes, within max_run_ms */
		for (;;) {
			ssize_t r;
			double idle = bw_now() + IDLE_TIMEOUT_S;
			int w = bw_wait_fd(fd, POLLIN, idle < end ? idle : end);

			if (w <= 0) {
				if (bw_now() >= end)
					past_limit(s, e);
				else
					bw_errf(e, "the client stopped sending for %.0f s",
						IDLE_TIMEOUT_S);
				return -1;
			}
			r = recv(fd, s->rbuf, 1, MSG_PEEK | MSG_DONTWAIT);
			if (r == 0)
				break;
			idle = bw_now() + IDLE_TIMEOUT_S;
			if (bw_read_all(fd, s->rbuf, p->size, idle < end ? idle : end, "a ping",
					e) < 0 ||
			    bw_write_all(fd, s->rbuf, p->size, idle < end ? idle : end, e) < 0) {
				if (bw_now() >= end) {
					past_limit(s, e);
					return -1;
				}
				return lat_broke(e, "client");
			}
			rounds++;
			bw_sampler_tick(&sm, rounds * p->size * 2, rounds);
		}
		bw_sampler_finish(&sm, rounds * p->size * 2, rounds);
		return 0;
	}
	for (;;) {
		double t0 = bw_now(), t1;
		/* only rounds inside the window count: warm-up rounds are not
		 * samples, and --iters counts measured rounds */
		bool measuring = sm.phase == 1;

		if (t0 >= end) {
			past_limit(s, e);
			return -1;
		}
		if (bw_write_all(fd, s->sbuf, p->size, t0 + IDLE_TIMEOUT_S, e) < 0 ||
		    bw_read_all(fd, s->rbuf, p->size, t0 + IDLE_TIMEOUT_S, "the echo", e) < 0)
			return lat_broke(e, "server");
		t1 = bw_now();
		rounds++;
		if (measuring) {
			measured++;
			if (out->n_lat == cap && cap < LAT_SAMPLES_MAX) {
				size_t nc = cap ? cap * 2 : 4096;
				double *n = realloc(out->lat_usec, nc * sizeof(*n));

				if (n) {
					out->lat_usec = n;
					cap = nc;
				}
			}
			if (out->n_lat < cap)
				out->lat_usec[out->n_lat++] = (t1 - t0) * 1e6 / 2;
			else
				out->lat_dropped++;
		}
		if (!bw_sampler_tick(&sm, rounds * p->size * 2, rounds) && !p->iters)
			break;
		if (p->iters && measured >= p->iters)
			break;
	}
	bw_sampler_finish(&sm, rounds * p->size * 2, rounds);
	shutdown(fd, SHUT_WR);
	return 0;
}

static int tcp_run(void *state, struct bw_result *out, struct bw_err *e)
{
	struct tcp_state *s = state;
	int rc;

	memset(out, 0, sizeof(*out));
	out->gid_index = -1;
	out->numa_node = -1;
	rc = s->p.mode == BW_MODE_LAT ? run_lat(s, out, e) : run_bw(s, out, e);
	snprintf(out->device, sizeof(out->device), "%s", s->device);
	out->mtu = s->mtu;
	return rc;
}

const struct bw_engine_ops bw_tcp_engine = {
	.name = "tcp",
	.prepare = tcp_prepare,
	.connect = tcp_connect,
	.run = tcp_run,
	.destroy = tcp_destroy,
};
