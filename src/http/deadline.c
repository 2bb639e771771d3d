/* serve: per-request deadlines (http_deadline.h says why). */
#include "deadline.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct http_conn {
	struct http_conn *prev, *next;
	int fd;			/* owned by libmicrohttpd; only shut down here */
	double since;		/* monotonic start of the current request */
	double headers_by;	/* monotonic; 0: no request's headers awaited */
	bool cut;
};

double http_mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct http_conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* A request starts (awaiting_headers) or the connection goes idle. */
static void restart(struct http_deadline *d, struct http_conn *c, bool awaiting_headers)
{
	if (!c)
		return;
	pthread_mutex_lock(&d->lock);
	c->since = http_mono_now();
	c->headers_by = awaiting_headers ? c->since + HTTP_HEADER_S : 0;
	pthread_mutex_unlock(&d->lock);
}

void http_deadline_init(struct http_deadline *d, double timeout_s)
{
	d->timeout_s = timeout_s;
	d->conns = NULL;
	pthread_mutex_init(&d->lock, NULL);
}

/* After MHD_stop_daemon, which has said "closed" for every connection. */
void http_deadline_destroy(struct http_deadline *d)
{
	while (d->conns) {
		struct http_conn *c = d->conns;

		d->conns = c->next;
		free(c);
	}
	pthread_mutex_destroy(&d->lock);
}

/* Started: track the socket; closed: forget it.  libmicrohttpd says
 * "closed" before it closes the socket, and the sweep shuts sockets down
 * under the same lock, so a tracked fd is never one closed and reused. */
void http_deadline_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
				  enum MHD_ConnectionNotificationCode code)
{
	struct http_deadline *d = cls;
	struct http_conn *c;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);

		c = calloc(1, sizeof(*c));
		if (!c || !ci) {
			free(c);	/* untracked: the idle timeout still holds */
			return;
		}
		c->fd = ci->connect_fd;
		c->since = http_mono_now();
		/* a new connection is there to send a request: its headers
		 * are due from now (libmicrohttpd says nothing of a request
		 * line still coming in) */
		c->headers_by = c->since + HTTP_HEADER_S;
		pthread_mutex_lock(&d->lock);
		c->next = d->conns;
		if (d->conns)
			d->conns->prev = c;
		d->conns = c;
		pthread_mutex_unlock(&d->lock);
		*socket_context = c;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
		c = *socket_context;
		pthread_mutex_lock(&d->lock);
		if (c->prev)
			c->prev->next = c->next;
		else
			d->conns = c->next;
		if (c->next)
			c->next->prev = c->prev;
		pthread_mutex_unlock(&d->lock);
		free(c);
		*socket_context = NULL;
	}
}

/* A request line arrived: the request's own deadline starts here, so that
 * the time a kept-alive connection sat idle before it is not charged to it.
 * libmicrohttpd calls this before it reads the headers, the earliest it
 * says anything of a request.  NULL: the request's req_cls starts empty. */
void *http_deadline_on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	(void)uri;
	restart(cls, conn_of(conn), true);
	return NULL;
}

void http_deadline_headers_in(struct http_deadline *d, struct MHD_Connection *conn)
{
	struct http_conn *c = conn_of(conn);

	if (!c)
		return;
	pthread_mutex_lock(&d->lock);
	c->headers_by = 0;
	pthread_mutex_unlock(&d->lock);
}

/* An answer went out (or the request ended): the connection may now sit
 * idle and then send its next request line, both within one timeout. */
void http_deadline_on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
				 enum MHD_RequestTerminationCode toe)
{
	(void)req_cls;
	(void)toe;
	restart(cls, conn_of(conn), false);
}

void http_deadline_sweep(struct http_deadline *d)
{
	double now = http_mono_now();

	pthread_mutex_lock(&d->lock);
	for (struct http_conn *c = d->conns; c; c = c->next)
		if (!c->cut && (now - c->since > d->timeout_s ||
				(c->headers_by > 0 && now > c->headers_by))) {
			shutdown(c->fd, SHUT_RDWR);
			c->cut = true;
		}
	pthread_mutex_unlock(&d->lock);
}
