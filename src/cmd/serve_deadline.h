/* serve: a deadline on each request, from its request line to the end of
 * its answer, and one on the time before that line (after the previous
 * answer went out: idle, or the line trickling in).  A shorter one,
 * SERVE_HEADER_S, on its headers: from the connection's opening (a first
 * request) or from the request line (a kept-alive one) to the end of the
 * headers, so that half-sent requests hold one address's share of the
 * connections for SERVE_HEADER_S, not for the whole timeout.
 * libmicrohttpd's connection timeout counts only idle time, so a client
 * sending one byte a second would hold a connection for ever; these
 * callbacks track every connection's socket and serve_deadline_sweep()
 * shuts down those past their deadline (libmicrohttpd then reads the end
 * of the stream and closes the connection itself). */
#ifndef RD_CMD_SERVE_DEADLINE_H
#define RD_CMD_SERVE_DEADLINE_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>

/* Any client sends its headers at once: 2 s is slack for a slow link
 * and a busy scraper, and short enough that a flood of half-sent
 * requests frees its slots before its sender can do much else. */
#define SERVE_HEADER_S 2.0

struct serve_conn;

struct serve_deadline {
	double timeout_s;
	pthread_mutex_t lock;
	struct serve_conn *conns;
};

void serve_deadline_init(struct serve_deadline *d, double timeout_s);
void serve_deadline_destroy(struct serve_deadline *d);

/* MHD_OPTION_NOTIFY_CONNECTION, MHD_OPTION_URI_LOG_CALLBACK and
 * MHD_OPTION_NOTIFY_COMPLETED, with the struct serve_deadline as cls. */
void serve_deadline_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
				  enum MHD_ConnectionNotificationCode code);
void *serve_deadline_on_uri(void *cls, const char *uri, struct MHD_Connection *conn);
void serve_deadline_on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
				 enum MHD_RequestTerminationCode toe);
/* The request's headers are whole (the access handler was called): its
 * header deadline no longer applies. */
void serve_deadline_headers_in(struct serve_deadline *d, struct MHD_Connection *conn);

/* CLOCK_MONOTONIC in seconds (serve.c's clock too). */
double serve_mono_now(void);

/* Shut down the sockets past their deadline; call it often (the main
 * thread does, between signals). */
void serve_deadline_sweep(struct serve_deadline *d);

#endif
