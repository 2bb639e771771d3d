/* serve's HTTP server: libmicrohttpd answering GET /metrics with the last
 * text a reading gave, and / with a page that points there.
 *
 * The machine is read by one background thread (the refresher), never by
 * a request: a scrape that finds the text older than cache_s wakes it and
 * is answered the text there is.  So a slow reading (a sick NIC, a slow
 * sysfs) delays the figures, never an answer, and no request's deadline
 * counts it.  http_server_prime makes the first reading before listening,
 * so there is always a text to answer with.  At a stop, a reading still
 * running after HTTP_STOP_WAIT_S is abandoned (http_server_stop says so).
 *
 * What the internet sends is bounded here: a connection limit, a per-IP
 * limit, a memory limit per connection (which rejects huge headers), an
 * idle timeout, a deadline on each request from its request line to its
 * answer, and a shorter one on its headers (deadline.h). */
#ifndef RD_HTTP_SERVER_H
#define RD_HTTP_SERVER_H

#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deadline.h"

/* how long a stop waits for a reading under way before leaving it */
#define HTTP_STOP_WAIT_S 2

/* One reading of the text to serve: malloc'd, *len bytes; *ok false when
 * the reading failed (its failure rendered).  NULL: no memory. */
typedef char *(*http_read_fn)(void *arg, size_t *len, bool *ok);

struct http_server {
	/* set by the caller before http_server_init */
	http_read_fn read;
	void *read_arg;
	const char *content_type;	/* of the text read */
	double cache_s, timeout_s;
	const char *log_prefix;		/* libmicrohttpd's messages after it on
					 * stderr ("rdmadoctor serve: "); NULL:
					 * not said */

	pthread_mutex_t cache_lock;	/* metrics ... stopping */
	struct MHD_Response *metrics;	/* the last reading, rendered */
	double read_at;			/* monotonic; when metrics was read */
	bool refreshing;		/* a reading is asked for or under way */
	bool stopping, refresher_done;
	pthread_cond_t wake;		/* refreshing or stopping was set */
	pthread_cond_t idle;		/* refresher_done was set */

	struct MHD_Response *index, *not_found, *not_allowed, *no_memory;

	struct http_deadline deadline;
	struct MHD_Daemon *daemon;
	pthread_t refresher;
	sigset_t stop, old;
};

/* 0, or -ENOMEM; http_server_free whatever it returned. */
int http_server_init(struct http_server *s);
void http_server_free(struct http_server *s);
/* The first reading, before listening: whether it succeeded. */
bool http_server_prime(struct http_server *s);
/* Start the refresher and answer on listen_fd (taken: closed on failure
 * too).  0, or a negative errno with why ("cannot start the reading
 * thread: ...", "cannot start the HTTP server (libmicrohttpd 1.0.1)"). */
int http_server_start(struct http_server *s, int listen_fd, char *why, size_t len);
/* Until SIGINT or SIGTERM, looking at the deadlines in between. */
void http_server_wait(struct http_server *s);
/* Stop answering and the refresher: 0, or -EBUSY when a reading still
 * hangs after HTTP_STOP_WAIT_S (it holds s: nothing may be freed; the
 * caller leaves without it). */
int http_server_stop(struct http_server *s);

#endif
