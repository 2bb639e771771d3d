/* The control channel's two sides and the per-rail threads of a test.
 * Every wait is bounded: control steps by the session timeout, the
 * result exchange by the test's own length plus that timeout. */
#include "session.h"
#include "source_addr.h"
#include "token.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>


void bw_outcome_free(struct bw_outcome *o)
{
	for (uint32_t i = 0; i < BW_RAILS_MAX; i++) {
		bw_result_free(&o->local[i]);
		bw_result_free(&o->remote[i]);
	}
}

/* ---- pinning ---- */

int bw_cpulist_parse(const char *list, cpu_set_t *set)
{
	const char *p = list;
	int n = 0;

	if (!p)
		return -1;
	CPU_ZERO(set);
	/* "0-15,32-47" */
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0 || a >= CPU_SETSIZE)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= CPU_SETSIZE)
				return -1;
			p = end;
		}
		for (long c = a; c <= b; c++, n++)
			CPU_SET((int)c, set);
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return n ? 0 : -1;
}

int bw_pin_cpulist(const char *list)
{
	cpu_set_t set;

	if (bw_cpulist_parse(list, &set) < 0)
		return -1;
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0 ? 0 : -1;
}

/* ---- addresses ---- */

static void numeric(const struct sockaddr *sa, socklen_t sl, char *out, size_t outsz)
{
	char host[NI_MAXHOST];

	if (getnameinfo(sa, sl, host, sizeof(host), NULL, 0, NI_NUMERICHOST) != 0) {
		snprintf(out, outsz, "?");
		return;
	}
	/* a v4-mapped address reads better as the IPv4 it is */
	int n = snprintf(out, outsz, "%s", strncmp(host, "::ffff:", 7) == 0 && strchr(host, '.') ?
						   host + 7 : host);
	if (n < 0 || (size_t)n >= outsz)	/* a numeric address never is this long */
		snprintf(out, outsz, "?");
}

static void fill_addrs(struct bw_session *s)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(s->fd, (struct sockaddr *)&ss, &sl) == 0)
		numeric((struct sockaddr *)&ss, sl, s->local_addr, sizeof(s->local_addr));
	sl = sizeof(ss);
	if (getpeername(s->fd, (struct sockaddr *)&ss, &sl) == 0)
		numeric((struct sockaddr *)&ss, sl, s->peer_addr, sizeof(s->peer_addr));
}

int bw_session_connect(struct bw_session *s, const char *host, uint16_t port, int timeout_ms,
		       struct bw_err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char portstr[8];
	double deadline = bw_now() + timeout_ms / 1e3;
	int rc, err = 0;

	s->fd = -1;
	s->timeout_ms = timeout_ms;
	snprintf(portstr, sizeof(portstr), "%u", port);
	rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc) {
		bw_errf(e, "cannot resolve '%s': %s", host, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai && s->fd < 0; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
				ai->ai_protocol);
		socklen_t el = sizeof(err);

		if (fd < 0) {
			err = errno;
			continue;
		}
		if (s->source_addr && bw_bind_source(fd, ai->ai_family, s->source_addr, e) < 0) {
			close(fd);
			freeaddrinfo(res);
			return -1;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			s->fd = fd;
			break;
		}
		err = errno;
		if (err == EINPROGRESS) {
			struct pollfd pfd = { .fd = fd, .events = POLLOUT };
			double left = deadline - bw_now();
			int w = left > 0 ? poll(&pfd, 1, (int)(left * 1000) + 1) : 0;

			err = ETIMEDOUT;
			if (w > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && !err) {
				s->fd = fd;
				break;
			}
		}
		close(fd);
	}
	freeaddrinfo(res);
	if (s->fd < 0) {
		bw_errf(e, "cannot connect to %s port %u: %s (is `rdmadoctor bw server` running "
			"there, and the port open?)", host, port, strerror(err ? err : ETIMEDOUT));
		return -1;
	}
	fill_addrs(s);
	return 0;
}

void bw_session_close(struct bw_session *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void bw_session_bye(struct bw_session *s)
{
	struct bw_err e;

	bw_send_msg(s->fd, BW_MSG_BYE, NULL, 0, 1000, &e);
}

int bw_listen(const char *bind_addr, uint16_t port, int backlog, struct bw_err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *res, *ai;
	char portstr[8];
	int rc, fd = -1, err = 0, one = 1, zero = 0;

	snprintf(portstr, sizeof(portstr), "%u", port);
	if (!bind_addr)
		hints.ai_family = AF_INET6;	/* :: takes IPv4 too (V6ONLY off) */
	rc = getaddrinfo(bind_addr, portstr, &hints, &res);
	if (rc && !bind_addr) {
		hints.ai_family = AF_INET;
		rc = getaddrinfo(NULL, portstr, &hints, &res);
	}
	if (rc) {
		bw_errf(e, "cannot resolve '%s': %s", bind_addr ? bind_addr : "*",
			gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, backlog) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		bw_errf(e, "cannot listen on port %u: %s%s", port, strerror(err),
			err == EADDRINUSE ? " (another server on it? use --port)" :
			err == EMFILE || err == ENFILE ? " (too many open files: raise ulimit -n)" : "");
	return fd;
}

/* accept(2)'s errors that are not the listener's: BW_E_AGAIN for the
 * connection's own (Linux passes a network error already pending on the
 * new connection to accept: ENETDOWN, EPROTO, ENOPROTOOPT, EHOSTDOWN,
 * ENONET, EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH, which accept(2), "Error
 * handling", says to retry as EAGAIN; a client gone before it was taken,
 * ECONNABORTED; a firewall's refusal, EPERM; a signal), BW_E_SHORT for a
 * shortage that may pass (descriptors, buffers, memory); 0 otherwise. */
static enum bw_errc accept_passing(int err)
{
	switch (err) {
	case EAGAIN: case EINTR: case ECONNABORTED: case EPERM:
	case ENETDOWN: case EPROTO: case ENOPROTOOPT: case EHOSTDOWN: case ENONET:
	case EHOSTUNREACH: case EOPNOTSUPP: case ENETUNREACH:
		return BW_E_AGAIN;
	case EMFILE: case ENFILE: case ENOBUFS: case ENOMEM:
		return BW_E_SHORT;
	default:
		return 0;
	}
}

int bw_session_accept(int lfd, struct bw_session *s, int timeout_ms, struct bw_err *e)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	int rc;

	s->fd = -1;
	rc = poll(&pfd, 1, timeout_ms);
	if (rc == 0)
		return bw_errc(e, BW_E_TIMEOUT, "no client came");
	if (rc < 0 && errno == EINTR)
		return bw_errc(e, BW_E_AGAIN, "interrupted while waiting for a client");
	if (rc < 0) {
		bw_errf(e, "cannot wait for a client: %s", strerror(errno));
		return -1;
	}
	s->fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (s->fd < 0) {
		int err = errno;
		enum bw_errc code = accept_passing(err);

		if (code)
			return bw_errc(e, code, "cannot accept a client: %s%s", strerror(err),
				       code == BW_E_SHORT && err != ENOMEM ? " (raise ulimit -n?)" :
				       "");
		bw_errf(e, "cannot accept a client: %s", strerror(err));
		return -1;
	}
	fill_addrs(s);
	return 0;
}

/* ---- messages ---- */

/* A step's wait: ms, or less when the session's deadline comes first (0
 * once it passed: the step then times out at once). */
static int step_ms(const struct bw_session *s, int ms)
{
	double left;

	if (s->deadline <= 0)
		return ms;
	left = (s->deadline - bw_now()) * 1e3;
	if (left <= 0)
		return 0;
	return left < ms ? (int)left + 1 : ms;
}

/* Send what an encoder just wrote into b (enc_rc: its result), then free b:
 * every message with a payload goes out this way. */
static int send_encoded(struct bw_session *s, uint16_t type, int enc_rc, struct bw_buf *b,
			int timeout_ms, struct bw_err *e)
{
	int rc = enc_rc == 0 ? bw_send_msg(s->fd, type, b->p, b->len, step_ms(s, timeout_ms), e)
			     : bw_errc(e, BW_E_NOMEM, "out of memory");

	bw_buf_free(b);
	return rc;
}

static void send_error(struct bw_session *s, const char *text)
{
	struct bw_buf b = { 0 };
	struct bw_err ignore;

	send_encoded(s, BW_MSG_ERROR, bw_text_encode(text, BW_ERROR_MAX, &b), &b, 1000, &ignore);
}

/* Receive a message of the wanted type; an ERROR from the peer becomes
 * -BW_E_PEER with e = "the peer says: ..."; other failures as
 * bw_recv_msg's. */
static int recv_want(struct bw_session *s, uint16_t want, uint8_t **pl, uint32_t *len,
		     uint32_t max, int timeout_ms, const char *what, struct bw_err *e)
{
	uint16_t type;
	int rc = bw_recv_msg(s->fd, &type, pl, len, max, step_ms(s, timeout_ms), what, e);

	if (rc < 0)
		return rc;
	if (type == want)
		return 0;
	rc = -1;
	if (type == BW_MSG_ERROR) {
		char text[BW_ERROR_MAX + 1];

		if (bw_text_decode(*pl, *len, BW_ERROR_MAX, text, sizeof(text), e) == 0)
			rc = bw_errc(e, BW_E_PEER, "the peer (%s) says: %s", s->peer_addr, text);
	} else {
		bw_errf(e, "the peer sent message type %u where %s was expected", type, what);
	}
	free(*pl);
	*pl = NULL;
	return rc;
}

/* A step on the data path failed (connect, run): the peer may already have
 * said why on the control connection (its ERROR is the cause, our broken
 * connection the effect).  Wait a little for it; take its text when it
 * came. */
static void peer_error(struct bw_session *s, struct bw_err *e)
{
	struct bw_err ignore;
	uint16_t type;
	uint8_t *pl = NULL;
	uint32_t len;
	char text[BW_ERROR_MAX + 1];

	if (bw_wait_fd(s->fd, POLLIN, bw_now() + BW_PEER_ERROR_WAIT_S) <= 0 ||
	    bw_recv_msg(s->fd, &type, &pl, &len, 0, 1000, "ERROR", &ignore) < 0)
		return;
	if (type == BW_MSG_ERROR &&
	    bw_text_decode(pl, len, BW_ERROR_MAX, text, sizeof(text), &ignore) == 0)
		bw_errf(e, "the peer (%s) says: %s", s->peer_addr, text);
	free(pl);
}

/* The client's first word: its token.  A server that refused it at the
 * door (address, busy) may have said why and closed already: then its
 * ERROR, not our failed send, is the reason. */
int bw_session_auth(struct bw_session *s, struct bw_err *e)
{
	struct bw_buf b = { 0 };
	int rc = send_encoded(s, BW_MSG_AUTH, bw_text_encode(s->token ? s->token : "",
							    BW_TOKEN_MAX, &b),
			      &b, s->timeout_ms, e);

	if (rc < 0)
		peer_error(s, e);
	return rc;
}

/* ---- rails ---- */

struct rail_job {
	const struct bw_rails *r;
	const struct bw_params *p;
	uint32_t i;
	bool is_server;
	void *state;
	uint8_t *ep;
	size_t ep_len;
	struct bw_result *out;
	struct bw_err e;
	int rc;
	atomic_int *finished;
};

static void *prepare_thread(void *arg)
{
	struct rail_job *j = arg;

	bw_pin_cpulist(j->r->local[j->i].cpulist);
	j->rc = j->r->eng->prepare(&j->state, j->p, &j->r->local[j->i], j->is_server, j->ep,
				   &j->ep_len, &j->e);
	return NULL;
}

static void *run_thread(void *arg)
{
	struct rail_job *j = arg;

	bw_pin_cpulist(j->r->local[j->i].cpulist);
	j->rc = j->r->eng->run(j->state, j->out, &j->e);
	atomic_fetch_add(j->finished, 1);
	return NULL;
}

/* Start one thread per rail and wait for all; the first failure wins e. */
static int on_rails(struct bw_session *s, struct rail_job *jobs, uint32_t n,
		    void *(*fn)(void *), bool progress, struct bw_err *e)
{
	pthread_t th[BW_RAILS_MAX];
	atomic_int finished = 0;
	uint32_t started = 0;
	int rc = 0;

	for (uint32_t i = 0; i < n; i++) {
		jobs[i].finished = &finished;
		jobs[i].rc = -1;
		if (pthread_create(&th[i], NULL, fn, &jobs[i]) != 0) {
			bw_errf(&jobs[i].e, "cannot start a thread for rail %u", i);
			atomic_fetch_add(&finished, 1);
			break;
		}
		started++;
	}
	if (progress && s->progress) {
		double t0 = bw_now(), next = t0 + 1;

		while ((uint32_t)atomic_load(&finished) < started) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			if (bw_now() >= next) {
				uint64_t bytes = 0;

				for (uint32_t i = 0; i < started; i++)
					bytes += __atomic_load_n(&jobs[i].out->live_bytes,
								 __ATOMIC_RELAXED);
				s->progress(s->progress_arg, bw_now() - t0, bytes);
				next += 1;
			}
		}
	}
	for (uint32_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < n; i++)
		if (jobs[i].rc != 0) {
			if (n > 1)
				bw_errf(e, "rail %u (%s): %s", i,
					jobs[i].r->local[i].device ? jobs[i].r->local[i].device
								   : "-",
					jobs[i].e.msg);
			else
				*e = jobs[i].e;
			rc = -1;
			break;
		}
	return rc;
}

/* Endpoints: the client sends first, the server reads first. */
static int exchange_endpoints(struct bw_session *s, bool is_server, struct rail_job *jobs,
			      uint32_t n, uint8_t **peer_ep, size_t *peer_len, uint8_t **hold,
			      struct bw_err *e)
{
	for (int phase = 0; phase < 2; phase++) {
		bool sending = (phase == 0) != is_server;

		for (uint32_t i = 0; i < n; i++) {
			if (sending) {
				struct bw_buf b = { 0 };

				if (send_encoded(s, BW_MSG_ENDPOINT,
						 bw_endpoint_encode(i, jobs[i].ep, jobs[i].ep_len, &b),
						 &b, s->timeout_ms, e) < 0)
					return -1;
			} else {
				uint32_t len, rail;
				const uint8_t *ep;

				if (recv_want(s, BW_MSG_ENDPOINT, &hold[i], &len,
					      BW_ENDPOINT_MAX + 8, s->timeout_ms, "ENDPOINT",
					      e) < 0)
					return -1;
				if (bw_endpoint_decode(hold[i], len, &rail, &ep, &peer_len[i], e) <
				    0)
					return -1;
				if (rail != i) {
					bw_errf(e, "ENDPOINT for rail %u came where rail %u was "
						"expected", rail, i);
					return -1;
				}
				peer_ep[i] = (uint8_t *)ep;
			}
		}
	}
	return 0;
}

static int go_barrier(struct bw_session *s, bool is_server, uint32_t n_rails, struct bw_err *e)
{
	uint8_t *pl = NULL;
	uint32_t len;

	/* the server sends GO after it accepted the data connections of every
	 * rail (up to BW_CONNECT_WAIT_MS each): wait that long too, so that
	 * its ERROR, not our timeout, says what went wrong */
	int wait_ms = s->timeout_ms + (is_server ? 0 : BW_CONNECT_WAIT_MS * (int)n_rails);

	if (!is_server && bw_send_msg(s->fd, BW_MSG_GO, NULL, 0, step_ms(s, s->timeout_ms), e) < 0)
		return -1;
	if (recv_want(s, BW_MSG_GO, &pl, &len, 0, wait_ms, "GO", e) < 0)
		return -1;
	free(pl);
	if (is_server && bw_send_msg(s->fd, BW_MSG_GO, NULL, 0, step_ms(s, s->timeout_ms), e) < 0)
		return -1;
	return 0;
}

static int exchange_results(struct bw_session *s, bool is_server, struct bw_outcome *o,
			    struct bw_err *e)
{
	/* the peer may still be running or draining: its window plus a margin */
	double test_s = ((double)o->p.warmup_ms + o->p.duration_ms) / 1e3;
	int wait_ms = s->timeout_ms + (int)(test_s * 1000) + 15000;

	if (o->p.iters)
		wait_ms = s->timeout_ms + (s->iters_wait_ms > 0 ? s->iters_wait_ms : 3600 * 1000);
	for (int phase = 0; phase < 2; phase++) {
		bool sending = (phase == 0) != is_server;

		for (uint32_t i = 0; i < o->n_rails; i++) {
			if (sending) {
				struct bw_buf b = { 0 };

				if (send_encoded(s, BW_MSG_RESULT, bw_result_encode(i, &o->local[i], &b),
						 &b, s->timeout_ms, e) < 0)
					return -1;
			} else {
				uint8_t *pl;
				uint32_t len, rail;
				int rc;

				if (recv_want(s, BW_MSG_RESULT, &pl, &len, BW_PAYLOAD_MAX,
					      i ? s->timeout_ms : wait_ms, "RESULT", e) < 0)
					return -1;
				rc = bw_result_decode(pl, len, &rail, &o->remote[i], e);
				free(pl);
				if (rc < 0)
					return -1;
				if (rail != i) {
					bw_errf(e, "RESULT for rail %u came where rail %u was "
						"expected", rail, i);
					return -1;
				}
			}
		}
	}
	return 0;
}

/* The steps both sides share, after HELLO was accepted. */
/* Each rail's run() bounded by the session's deadline too: what is left of
 * it now, before prepare() (where the engines take max_run_ms). */
static void bound_rails(const struct bw_session *s, struct bw_rails *out)
{
	if (s->deadline <= 0)
		return;
	for (uint32_t i = 0; i < out->n && i < BW_RAILS_MAX; i++) {
		double left = (s->deadline - bw_now()) * 1e3;
		uint32_t ms = left < 1 ? 1 : left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;

		if (!out->local[i].max_run_ms || ms < out->local[i].max_run_ms)
			out->local[i].max_run_ms = ms;
	}
}

static int run_test(struct bw_session *s, bool is_server, const struct bw_rails *asked,
		    struct bw_outcome *o, struct bw_err *e)
{
	struct bw_rails bounded, *r = &bounded;
	struct rail_job jobs[BW_RAILS_MAX];
	uint8_t *peer_ep[BW_RAILS_MAX] = { 0 }, *hold[BW_RAILS_MAX] = { 0 };
	size_t peer_len[BW_RAILS_MAX] = { 0 };
	uint32_t n = asked->n;
	int rc = -1;

	bounded = *asked;
	bound_rails(s, &bounded);	/* engines take max_run_ms in prepare() */
	memset(jobs, 0, sizeof(jobs));
	for (uint32_t i = 0; i < n; i++) {
		jobs[i].r = r;
		jobs[i].p = &o->p;
		jobs[i].i = i;
		jobs[i].is_server = is_server;
		jobs[i].out = &o->local[i];
		jobs[i].ep = malloc(BW_ENDPOINT_MAX);
		if (!jobs[i].ep) {
			bw_errf(e, "out of memory");
			goto out;
		}
	}
	if (on_rails(s, jobs, n, prepare_thread, false, e) < 0)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		if (jobs[i].ep_len > BW_ENDPOINT_MAX) {
			bw_errf(e, "the %s transport made an endpoint of %zu bytes", r->eng->name,
				jobs[i].ep_len);
			goto out;
		}
	if (exchange_endpoints(s, is_server, jobs, n, peer_ep, peer_len, hold, e) < 0)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		if (r->eng->connect(jobs[i].state, peer_ep[i], peer_len[i], &jobs[i].e) < 0) {
			if (n > 1)
				bw_errf(e, "rail %u: %s", i, jobs[i].e.msg);
			else
				*e = jobs[i].e;
			peer_error(s, e);
			goto out;
		}
	if (go_barrier(s, is_server, n, e) < 0)
		goto out;
	if (on_rails(s, jobs, n, run_thread, true, e) < 0) {
		peer_error(s, e);
		goto out;
	}
	rc = exchange_results(s, is_server, o, e);
out:
	/* whatever failed here, the peer hears why instead of waiting */
	if (rc < 0)
		send_error(s, e->msg);
	for (uint32_t i = 0; i < n; i++) {
		if (jobs[i].state)
			r->eng->destroy(jobs[i].state);
		free(jobs[i].ep);
		free(hold[i]);
	}
	return rc;
}

int bw_session_test(struct bw_session *s, const struct bw_hello *h, const struct bw_rails *r,
		    struct bw_outcome *o, struct bw_err *e)
{
	struct bw_buf b = { 0 };
	uint8_t *pl = NULL;
	uint32_t len;
	int rc;

	memset(o, 0, sizeof(*o));
	o->p = h->p;
	o->n_rails = h->n_rails;
	if (send_encoded(s, BW_MSG_HELLO, bw_hello_encode(h, &b), &b, s->timeout_ms, e) < 0)
		return -1;
	rc = recv_want(s, BW_MSG_OK, &pl, &len, BW_HOST_MAX + 2, s->timeout_ms, "OK", e);
	if (rc < 0) {
		if (rc == -BW_E_TIMEOUT && s->deadline > 0 && bw_now() >= s->deadline)
			bw_errf(e, "the server at %s did not answer before the deadline",
				s->peer_addr);
		else if (rc == -BW_E_TIMEOUT)
			bw_errf(e, "the server at %s did not answer within %.0f s: busy with "
				"another client's test? (it runs one at a time; try again, or "
				"raise --timeout)", s->peer_addr, s->timeout_ms / 1e3);
		return rc;
	}
	rc = bw_text_decode(pl, len, BW_HOST_MAX, s->peer_host, sizeof(s->peer_host), e);
	free(pl);
	if (rc < 0)
		return -1;
	return run_test(s, false, r, o, e);
}

/* A refusal: e says why, the client hears it, refused() logs it. */
static void refusal(struct bw_session *s, const struct bw_server_ops *ops, struct bw_err *e)
{
	char text[sizeof(e->msg) + 16];

	snprintf(text, sizeof(text), "refused: %s", e->msg);
	send_error(s, text);
	if (ops->refused)
		ops->refused(ops->arg, s->peer_addr, e->msg);
}

static void busy_until(const struct bw_server_ops *ops, double until)
{
	if (ops->busy)
		ops->busy(ops->arg, until);
}

static int idle_ms(const struct bw_session *s)
{
	return s->idle_ms > 0 ? s->idle_ms : s->timeout_ms;
}

/* The client's first message, AUTH, within the idle bound: nothing else
 * is read, and nothing allocated for the client, before its token matched
 * (compared in constant time).  0; -BW_E_REFUSED (said and logged); or -1
 * with e set (sent to the client) when it broke the protocol. */
static int check_auth(struct bw_session *s, const struct bw_server_ops *ops, struct bw_err *e)
{
	uint8_t *pl;
	uint32_t len;
	uint16_t type;
	bool wrong;
	int rc = bw_recv_msg(s->fd, &type, &pl, &len, BW_TOKEN_MAX + 2, step_ms(s, idle_ms(s)),
			     "AUTH", e);

	if (rc == -BW_E_TIMEOUT && !(s->deadline > 0 && bw_now() >= s->deadline)) {
		bw_errf(e, "idle: sent nothing within %.1f s (--idle-timeout)", idle_ms(s) / 1e3);
		refusal(s, ops, e);
		return -BW_E_REFUSED;
	}
	if (rc < 0) {
		send_error(s, e->msg);
		return -1;
	}
	if (type != BW_MSG_AUTH) {
		free(pl);
		bw_errf(e, "the client sent message type %u where AUTH was expected", type);
		send_error(s, e->msg);
		return -1;
	}
	rc = bw_token_judge(s->token, pl, len, &wrong, e);
	free(pl);
	if (rc == -BW_E_REFUSED) {
		refusal(s, ops, e);
		return rc;
	}
	if (rc < 0) {
		send_error(s, e->msg);
		return -1;
	}
	return 0;
}

/* When the test just accepted should end: its window, or for iterations
 * the server's cap on it. */
static double test_end(const struct bw_params *p, const struct bw_caps *caps)
{
	double ms = p->iters ? caps->max_duration_ms : (double)p->warmup_ms + p->duration_ms;

	return bw_now() + ms / 1e3;
}

int bw_session_serve(struct bw_session *s, const struct bw_caps *caps,
		     const struct bw_server_ops *ops, struct bw_err *e)
{
	int tests = 0, refused = 0, rc;
	char host[BW_HOST_MAX + 1] = "";

	busy_until(ops, bw_now() + idle_ms(s) / 1e3);
	rc = s->authed ? 0 : check_auth(s, ops, e);
	if (rc < 0)
		return rc;
	gethostname(host, sizeof(host) - 1);
	for (;;) {
		struct bw_hello h;
		struct bw_rails r;
		struct bw_outcome o;
		struct bw_buf b = { 0 };
		uint8_t *pl;
		uint32_t len;
		uint16_t type;

		/* the client asks at once (its inventory was collected before
		 * it connected): one that keeps silent is cut */
		busy_until(ops, bw_now() + idle_ms(s) / 1e3);
		rc = bw_recv_msg(s->fd, &type, &pl, &len, BW_HOST_MAX + 128,
				 step_ms(s, idle_ms(s)), "HELLO", e);
		if (rc < 0) {
			/* a client that just closed after its tests ended well,
			 * or after it heard why its request was refused */
			if ((tests || refused) && rc == -BW_E_CLOSED)
				return tests;
			if (rc == -BW_E_TIMEOUT && !(s->deadline > 0 && bw_now() >= s->deadline)) {
				bw_errf(e, "idle: asked for nothing within %.1f s (--idle-timeout)",
					idle_ms(s) / 1e3);
				refusal(s, ops, e);
				return -BW_E_REFUSED;
			}
			send_error(s, e->msg);
			return -1;
		}
		if (type == BW_MSG_BYE) {
			free(pl);
			return tests;
		}
		if (type != BW_MSG_HELLO) {
			free(pl);
			bw_errf(e, "the client sent message type %u where HELLO was expected",
				type);
			send_error(s, e->msg);
			return -1;
		}
		rc = bw_hello_decode(pl, len, &h, e);
		free(pl);
		if (rc < 0) {
			send_error(s, e->msg);
			return -1;
		}
		snprintf(s->peer_host, sizeof(s->peer_host), "%s", h.host);
		memset(&r, 0, sizeof(r));
		if (bw_params_check(&h.p, h.n_rails, caps, e) < 0 ||
		    ops->setup(ops->arg, &h, &r, e) < 0) {
			/* refused: say why; the client may ask again, once: a
			 * client that keeps asking for what it cannot have must
			 * not keep the server's one test slot */
			refusal(s, ops, e);
			if (++refused >= BW_SERVE_REFUSALS_MAX)
				return -BW_E_REFUSED;
			continue;
		}
		refused = 0;
		if (tests >= BW_SERVE_TESTS_MAX) {
			bw_errf(e, "a client may run at most %d tests on one connection; "
				"connect again", BW_SERVE_TESTS_MAX);
			send_error(s, e->msg);
			return -1;
		}
		r.n = h.n_rails;
		if (send_encoded(s, BW_MSG_OK, bw_text_encode(host, BW_HOST_MAX, &b), &b,
				 s->timeout_ms, e) < 0)
			return -1;
		memset(&o, 0, sizeof(o));
		o.p = h.p;
		o.n_rails = h.n_rails;
		busy_until(ops, test_end(&h.p, caps));
		rc = run_test(s, true, &r, &o, e);
		if (rc == 0)
			ops->done(ops->arg, &h, &o);
		bw_outcome_free(&o);
		if (rc < 0)
			return -1;
		tests++;
	}
}
