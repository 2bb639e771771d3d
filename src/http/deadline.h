/* serve: a deadline on each request, from its request line to the end of
 * its answer, and one on the time before that line (after the previous
 * answer went out: idle, or the line trickling in).  A shorter one,
 * HTTP_HEADER_S, on its headers: from the connection's opening (a first
 * request) or from the request line (a kept-alive one) to the end of the
 * headers, so that half-sent requests hold one address's share of the
 * connections for HTTP_HEADER_S, not for the whole timeout.
 * libmicrohttpd's connection timeout counts only idle time, so a client
 * sending one byte a second would hold a connection for ever; these
 * callbacks track every connection's socket and http_deadline_sweep()
 * shuts down those past their deadline (libmicrohttpd then reads the end
 * of the stream and closes the connection itself). */
#ifndef RD_HTTP_DEADLINE_H
#define RD_HTTP_DEADLINE_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>

/* Any client sends its headers at once: 2 s is slack for a slow link
 * and a busy scraper, and short enough that a flood of half-sent
 * requests frees its slots before its sender can do much else. */
#define HTTP_HEADER_S 2.0

struct http_conn;

struct http_deadline {
	double timeout_s;
	pthread_mutex_t lock;
	struct http_conn *conns;
};

void http_deadline_init(struct http_deadline *d, double timeout_s);
void http_deadline_destroy(struct http_deadline *d);

/* MHD_OPTION_NOTIFY_CONNECTION, MHD_OPTION_URI_LOG_CALLBACK and
 * MHD_OPTION_NOTIFY_COMPLETED, with the struct http_deadline as cls. */
void http_deadline_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
				  enum MHD_ConnectionNotificationCode code);
void *http_deadline_on_uri(void *cls, const char *uri, struct MHD_Connection *conn);
void http_deadline_on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
				 enum MHD_RequestTerminationCode toe);
/* The request's headers are whole (the access handler was called): its
 * header deadline no longer applies. */
void http_deadline_headers_in(struct http_deadline *d, struct MHD_Connection *conn);

/* CLOCK_MONOTONIC in seconds (serve.c's clock too). */
double http_mono_now(void);

/* Shut down the sockets past their deadline; call it often (the main
 * thread does, between signals). */
void http_deadline_sweep(struct http_deadline *d);

#endif
