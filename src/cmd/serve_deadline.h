/* serve: a deadline on each request, from its request line to the end of
 * its answer, and one on the time before that line (after the connection
 * opened or the previous answer went out: idle, or the line trickling in).
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

/* CLOCK_MONOTONIC in seconds (serve.c's clock too). */
double serve_mono_now(void);

/* Shut down the sockets past their deadline; call it often (the main
 * thread does, between signals). */
void serve_deadline_sweep(struct serve_deadline *d);

#endif
