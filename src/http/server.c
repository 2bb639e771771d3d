/* serve's HTTP server (server.h). */
#include "server.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTIONS 512
/* one address's share: a Prometheus server holds one connection, a
 * browser six; 32 leaves the other 480 to everyone else while one address
 * floods, each of its half-sent requests for HTTP_HEADER_S at most */
#define MAX_PER_IP 32
/* threads answering: a scrape reading the machine holds only its own */
#define THREADS 4
/* a request's headers and the answer's headers must fit: 32 KiB is eight
 * times what a browser sends, and what is larger is answered 431 */
#define CONNECTION_MEMORY (32u << 10)
#define SWEEP_NS 200000000L	/* how often deadlines are looked at */

static struct MHD_Response *text_response(char *text, size_t len, enum MHD_ResponseMemoryMode mode,
					  const char *type)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(len, text, mode);

	if (!resp)
		return NULL;
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type) != MHD_YES ||
	    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff") != MHD_YES) {
		MHD_destroy_response(resp);
		return NULL;
	}
	return resp;
}

/* A fresh response, or NULL (no memory: the caller keeps the old one). */
static struct MHD_Response *refresh(struct http_server *s, bool *ok)
{
	size_t len;
	char *text = s->read(s->read_arg, &len, ok);
	struct MHD_Response *resp;

	if (!text)
		return NULL;
	resp = text_response(text, len, MHD_RESPMEM_MUST_FREE, s->content_type);
	if (!resp)
		free(text);
	return resp;
}

/* Put a reading in place of the last (which queued answers still hold). */
static void publish(struct http_server *s, struct MHD_Response *fresh, double read_at)
{
	pthread_mutex_lock(&s->cache_lock);
	if (fresh) {
		if (s->metrics)
			MHD_destroy_response(s->metrics);
		s->metrics = fresh;
	}
	s->read_at = read_at;	/* no memory: the old text, tried again later */
	pthread_mutex_unlock(&s->cache_lock);
}

/* The refresher: reads the machine each time a scrape asks, until told to
 * stop.  Signals are blocked here as in every thread but the main one. */
static void *refresh_loop(void *arg)
{
	struct http_server *s = arg;

	pthread_mutex_lock(&s->cache_lock);
	for (;;) {
		struct MHD_Response *fresh;
		double t0;
		bool ok;

		while (!s->refreshing && !s->stopping)
			pthread_cond_wait(&s->wake, &s->cache_lock);
		if (s->stopping)
			break;
		pthread_mutex_unlock(&s->cache_lock);
		t0 = http_mono_now();
		fresh = refresh(s, &ok);
		publish(s, fresh, t0);
		pthread_mutex_lock(&s->cache_lock);
		s->refreshing = false;
	}
	s->refresher_done = true;
	pthread_cond_broadcast(&s->idle);
	pthread_mutex_unlock(&s->cache_lock);
	return NULL;
}

/* Tell the refresher to stop and wait for it HTTP_STOP_WAIT_S at most: true
 * when it has ended (and is joined), false when a reading hangs. */
static bool stop_refresher(struct http_server *s, pthread_t t)
{
	struct timespec until;
	bool done;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HTTP_STOP_WAIT_S;
	pthread_mutex_lock(&s->cache_lock);
	s->stopping = true;
	pthread_cond_signal(&s->wake);
	while (!s->refresher_done &&
	       pthread_cond_timedwait(&s->idle, &s->cache_lock, &until) != ETIMEDOUT)
		;
	done = s->refresher_done;
	pthread_mutex_unlock(&s->cache_lock);
	if (done)
		pthread_join(t, NULL);
	return done;
}

/* The last text, at once.  Older than --cache: the refresher is woken
 * (unless a reading is under way already) and the next scrape gets what
 * it reads. */
static enum MHD_Result serve_metrics(struct http_server *s, struct MHD_Connection *conn)
{
	enum MHD_Result ret;

	pthread_mutex_lock(&s->cache_lock);
	if (!s->refreshing && http_mono_now() - s->read_at >= s->cache_s) {
		s->refreshing = true;
		pthread_cond_signal(&s->wake);
	}
	if (s->metrics)
		ret = MHD_queue_response(conn, MHD_HTTP_OK, s->metrics);
	else
		ret = MHD_queue_response(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, s->no_memory);
	pthread_mutex_unlock(&s->cache_lock);
	return ret;
}

/* libmicrohttpd calls this once the headers are in, then again after each
 * piece of a body, then once more.  A request that is refused, or that
 * announces a body (nothing here takes one), is answered at the first
 * call: its body is never read and the connection closes after the answer.
 * Any other is answered at the second call, which lets the connection be
 * kept alive for the next scrape (an answer queued before the request is
 * whole makes libmicrohttpd close it). */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **req_cls)
{
	static int headers_seen;
	struct http_server *s = cls;
	const char *length;

	(void)version;
	(void)upload_data;
	http_deadline_headers_in(&s->deadline, conn);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return MHD_queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, s->not_allowed);
	length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	if (!*req_cls && (!length || strcmp(length, "0") == 0) &&
	    !MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
					 MHD_HTTP_HEADER_TRANSFER_ENCODING)) {
		*req_cls = &headers_seen;
		return MHD_YES;
	}
	*upload_data_size = 0;	/* a body without its headers: not taken */
	if (strcmp(url, "/metrics") == 0)
		return serve_metrics(s, conn);
	if (strcmp(url, "/") == 0)
		return MHD_queue_response(conn, MHD_HTTP_OK, s->index);
	return MHD_queue_response(conn, MHD_HTTP_NOT_FOUND, s->not_found);
}

/* libmicrohttpd's own messages are about clients misbehaving: noise unless
 * the caller asks (log_prefix). */
__attribute__((format(printf, 2, 0)))
static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct http_server *s = cls;

	if (!s->log_prefix)
		return;
	fputs(s->log_prefix, stderr);
	vfprintf(stderr, fmt, ap);
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rdmadoctor</title>"
	"</head>\n<body><h1>rdmadoctor</h1>\n<p>The RDMA network of this machine for "
	"Prometheus: <a href=\"/metrics\">/metrics</a>.</p></body></html>\n";
static const char not_found_text[] = "not found: the metrics are at /metrics\n";
static const char not_allowed_text[] = "method not allowed: use GET (or HEAD)\n";
static const char no_memory_text[] = "out of memory rendering the metrics\n";

int http_server_init(struct http_server *s)
{
	pthread_mutex_init(&s->cache_lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	pthread_cond_init(&s->idle, NULL);
	http_deadline_init(&s->deadline, s->timeout_s);
	s->index = text_response((char *)index_page, sizeof(index_page) - 1,
				 MHD_RESPMEM_PERSISTENT, "text/html; charset=utf-8");
	s->not_found = text_response((char *)not_found_text, sizeof(not_found_text) - 1,
				     MHD_RESPMEM_PERSISTENT, "text/plain; charset=utf-8");
	s->not_allowed = text_response((char *)not_allowed_text, sizeof(not_allowed_text) - 1,
				       MHD_RESPMEM_PERSISTENT, "text/plain; charset=utf-8");
	s->no_memory = text_response((char *)no_memory_text, sizeof(no_memory_text) - 1,
				     MHD_RESPMEM_PERSISTENT, "text/plain; charset=utf-8");
	if (!s->index || !s->not_found || !s->not_allowed || !s->no_memory)
		return -ENOMEM;
	if (MHD_add_response_header(s->not_allowed, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES)
		return -ENOMEM;
	return 0;
}

void http_server_free(struct http_server *s)
{
	struct MHD_Response **all[] = { &s->metrics, &s->index, &s->not_found,
					&s->not_allowed, &s->no_memory };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (*all[i])
			MHD_destroy_response(*all[i]);
		*all[i] = NULL;
	}
	http_deadline_destroy(&s->deadline);
	pthread_cond_destroy(&s->wake);
	pthread_cond_destroy(&s->idle);
	pthread_mutex_destroy(&s->cache_lock);
}

/* Until SIGINT or SIGTERM (blocked in every thread, taken here), looking
 * at the deadlines in between. */
void http_server_wait(struct http_server *s)
{
	const struct timespec tick = { 0, SWEEP_NS };

	for (;;) {
		int sig = sigtimedwait(&s->stop, NULL, &tick);

		if (sig == SIGINT || sig == SIGTERM)
			return;
		http_deadline_sweep(&s->deadline);
	}
}

bool http_server_prime(struct http_server *s)
{
	bool ok;

	s->metrics = refresh(s, &ok);
	s->read_at = http_mono_now();
	return ok;
}

int http_server_start(struct http_server *s, int listen_fd, char *why, size_t len)
{
	int err;

	sigemptyset(&s->stop);
	sigaddset(&s->stop, SIGINT);
	sigaddset(&s->stop, SIGTERM);
	/* blocked before the server's threads start, so that they inherit it */
	pthread_sigmask(SIG_BLOCK, &s->stop, &s->old);
	err = pthread_create(&s->refresher, NULL, refresh_loop, s);
	if (err) {
		snprintf(why, len, "cannot start the reading thread: %s", strerror(err));
		close(listen_fd);
		pthread_sigmask(SIG_SETMASK, &s->old, NULL);
		return -err;
	}
	s->daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
				     NULL, on_request, s,
				     MHD_OPTION_EXTERNAL_LOGGER, on_log, s,
				     MHD_OPTION_LISTEN_SOCKET, listen_fd,
				     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)THREADS,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
				     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)MAX_PER_IP,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)s->timeout_s,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
				     MHD_OPTION_NOTIFY_CONNECTION, http_deadline_on_connection,
				     &s->deadline,
				     MHD_OPTION_NOTIFY_COMPLETED, http_deadline_on_completed,
				     &s->deadline,
				     MHD_OPTION_URI_LOG_CALLBACK, http_deadline_on_uri, &s->deadline,
				     MHD_OPTION_END);
	if (!s->daemon) {
		snprintf(why, len, "cannot start the HTTP server (libmicrohttpd %s)",
			 MHD_get_version());
		close(listen_fd);
		stop_refresher(s, s->refresher);	/* idle: it has had nothing to read */
		pthread_sigmask(SIG_SETMASK, &s->old, NULL);
		return -EIO;
	}
	return 0;
}

int http_server_stop(struct http_server *s)
{
	MHD_stop_daemon(s->daemon);	/* closes the listening socket too */
	s->daemon = NULL;
	if (!stop_refresher(s, s->refresher))
		return -EBUSY;
	pthread_sigmask(SIG_SETMASK, &s->old, NULL);
	return 0;
}
