/* serve: the Prometheus exporter.  libmicrohttpd answers; this file reads
 * the machine (the inventory and the check, as `check` does), has
 * src/metrics render the text, and keeps it for --cache seconds so that a
 * scrape storm reads sysfs once per period.
 *
 * The machine is read by one background thread (the refresher), never by
 * a request: a scrape that finds the text older than --cache wakes it and
 * is answered the text there is.  So a slow reading (a sick NIC, a slow
 * sysfs) delays the figures, never an answer, and no request's deadline
 * counts it.  The first reading is made before listening, so there is
 * always a text to answer with.  At a stop, a reading still running after
 * STOP_WAIT_S is abandoned: the process exits without waiting for it.
 *
 * What the internet sends is bounded here: a connection limit, a per-IP
 * limit, a memory limit per connection (which rejects huge headers), an
 * idle timeout, a deadline on each request from its request line to its
 * answer, and a shorter one on its headers (http/deadline.c).  The listening socket: http/listen.c. */
#include "cmd.h"
#include "../check/check.h"
#include "../metrics/metrics.h"
#include "latch_run.h"
#include "../pipeline/pipeline.h"
#include "../http/deadline.h"
#include "../http/listen.h"

#include <errno.h>
#include <math.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef RD_VERSION
#define RD_VERSION "unknown"
#endif

/* Loopback unless told otherwise.  9879: the exporter range of the
 * Prometheus port allocation list (9100-9999) is all taken, so any default
 * there is also some listed exporter's; 9879 is none of the Prometheus
 * stack's own (9090-9094) nor node_exporter's (9100).  Not registered. */
#define DEFAULT_LISTEN "127.0.0.1:9879"
#define DEFAULT_CACHE_S 10.0
#define DEFAULT_TIMEOUT_S 10
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
/* how long a stop waits for a reading under way before leaving it */
#define STOP_WAIT_S 2
#define STR_(x) #x
#define STR(x) STR_(x)


struct serve_args {
	const char *listen;
	double cache_s;
	const char *profile;
	double timeout_s;
	struct latch_opts latch;	/* --state DIR|none, --hold */
	bool state_set;
};

struct server {
	struct ctx *c;
	const struct pipeline_option *option;	/* --profile; else picked at each reading */
	struct latch_opts *latch;	/* the memory (dir NULL: none) */
	double cache_s, timeout_s;

	pthread_mutex_t cache_lock;	/* metrics ... stopping */
	struct MHD_Response *metrics;	/* the last reading, rendered */
	double read_at;			/* monotonic; when metrics was read */
	bool refreshing;		/* a reading is asked for or under way */
	bool stopping, refresher_done;
	pthread_cond_t wake;		/* refreshing or stopping was set */
	pthread_cond_t idle;		/* refresher_done was set */
	uint64_t refreshes, failures;	/* only the one reading touches these */

	struct MHD_Response *index, *not_found, *not_allowed, *no_memory;

	struct http_deadline deadline;
};

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- arguments ---- */

static int take_state(struct ctx *c, void *a, const char *v)
{
	(void)c;
	((struct serve_args *)a)->latch.dir = strcmp(v, "none") == 0 ? NULL : v;
	((struct serve_args *)a)->state_set = true;
	return CMD_GO_ON;
}

static int take_hold(struct ctx *c, void *a, const char *v)
{
	return latch_opts_hold(c, "serve", &((struct serve_args *)a)->latch, v);
}

static const struct cmd_opt serve_opts[] = {
	{ "listen", 0, "ADDR:PORT", OPT_STRING_AT(struct serve_args, listen),
	  .help = "where to listen (default " DEFAULT_LISTEN "; loopback\n"
		  "unless told otherwise: 0.0.0.0:9879 or [::]:9879 for\n"
		  "every interface; port 0 picks a free one, printed)" },
	{ "cache", 0, "S", OPT_SECONDS_AT(struct serve_args, cache_s, 0, 3600),
	  .help = "seconds a reading is reused (default 10; 0: every\n"
		  "scrape starts a new reading)" },
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct serve_args, profile),
	  .help = "judge against this profile (default: the one picked\n"
		  "from the machine, as `check` does)" },
	{ "state", 0, "DIR|none", OPT_CALL_AT(take_state), .flags = OPT_NONEMPTY,
	  .needs = "a directory, or none",
	  .help = "remember what each reading saw in DIR/latched (default\n"
		  LATCH_DIR_DEFAULT " when --root is /, none under\n"
		  "another root): a port that went down and came back, a\n"
		  "flap, counters that grew, a kernel-log fault stay in\n"
		  "the findings until they expire or `rdmadoctor clear`,\n"
		  "across restarts of serve, forgotten at a reboot" },
	{ "hold", 0, "CLASS=S", OPT_CALL_AT(take_hold), .help = LATCH_HOLD_HELP },
	{ "timeout", 0, "S", OPT_SECONDS_AT(struct serve_args, timeout_s, 1, 300),
	  .flags = OPT_WHOLE,
	  .help = "a client has S seconds for each request, from its\n"
		  "request line to the end of the answer, and S seconds\n"
		  "to send that line after the previous answer (default\n"
		  "10); whatever S, a request's headers are due within\n"
		  "2 s of the connection opening or of its request line" },
	{ 0 }
};

const struct cmd_spec serve_spec = {
	.name = "serve",
	.opts = serve_opts,
	.about =
	"A Prometheus exporter: answers GET /metrics with the machine's RDMA\n"
	"network in the text format (port state, rate and MTU, PCIe link, port\n"
	"counters and hw_counters, the check's verdict and findings by id and\n"
	"severity).  The machine is read in the background, one reading at a\n"
	"time: a scrape that finds the last reading older than --cache starts\n"
	"the next and is answered the last one at once, so a slow reading never\n"
	"holds a scrape (rdmadoctor_last_check_timestamp_seconds says when it\n"
	"was read).  The first reading is made before listening.  Ctrl-C or\n"
	"SIGTERM stop it, waiting at most " STR(STOP_WAIT_S) " s for a reading under way.\n",
	.epilog =
	"Prometheus scrape config:\n"
	"  scrape_configs:\n"
	"    - job_name: rdmadoctor\n"
	"      static_configs: [{targets: ['HOST:9879']}]\n"
	"\n"
	"Metrics, all rdmadoctor_*, labels device, port, netdev, pci:\n"
	"  port_up, port_state, port_rate_bytes_per_second, port_active_mtu_bytes,\n"
	"  pcie_link_speed_transfers_per_second, pcie_link_width_lanes (and _max_),\n"
	"  port_<counter>_total (port counters; data ones in bytes),\n"
	"  hw_<counter>_total, ethtool_<statistic>_total (not per queue),\n"
	"  port_pfc_pause_frames_sent_total{priority}, netdev_carrier_changes_total,\n"
	"  module_temperature_celsius, module_voltage_volts, module_{tx_bias_amperes,\n"
	"  tx_power_watts,rx_power_watts}{lane} and each one's _threshold_{level}\n"
	"  (the transceiver's own limits), npu_* (Ascend NPU ports),\n"
	"  findings{id,severity}, finding{id,severity,device,port,subject},\n"
	"  finding_latched_since_seconds{...,remembered} (with --state),\n"
	"  check_verdict, last_check_timestamp_seconds,\n"
	"  refresh_duration_seconds.  `curl http://127.0.0.1:9879/metrics` shows\n"
	"  each with its help.  A value the machine does not give is left out,\n"
	"  never shown as 0.\n"
	"\n"
	"exit: 0 stopped by a signal, 2 usage, 3 could not read the machine or\n"
	"listen.\n",
};

/* --listen: checked (fd NULL) or opened; said as "PROG serve: why". */
static int listen_at(struct ctx *c, const char *arg, int *fd)
{
	size_t len = strlen(arg) + 256;
	char *why = malloc(len);
	int rc;

	if (!why)
		return ctx_fail(c, "%s: out of memory", c->prog);
	rc = fd ? http_listen_open(arg, fd, why, len) : http_listen_check(arg, why, len);
	if (rc < 0)
		fprintf(stderr, "%s serve: %s\n", c->prog, why);
	free(why);
	if (rc == 0)
		return fd ? EXIT_OK : CMD_GO_ON;
	return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
}

static int parse_args(struct ctx *c, int argc, char **argv, struct serve_args *a)
{
	int n, rc = opts_parse(c, &serve_spec, argc, argv, a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (c->json) {
		fprintf(stderr, "%s serve: --json does not apply: serve answers in the "
			"Prometheus text format\n", c->prog);
		return EXIT_USAGE;
	}
	return listen_at(c, a->listen, NULL);
}

/* ---- the reading ---- */

/* Read the machine, check it, render the text; the reading failing is
 * itself rendered (rdmadoctor_refresh_success 0).  NULL: no memory. */
static char *read_and_render(struct server *s, size_t *len, bool *ok)
{
	double t0 = http_mono_now(), when = wall_now();
	struct metrics_report rep = { 0 };
	struct pipeline pl;
	struct expo e;
	struct latch_run latch;
	int rc = pipeline_collect(s->c, "serve", &pl, false);

	memset(&latch, 0, sizeof(latch));
	if (rc == EXIT_OK)
		rc = pipeline_choose(s->c, &pl, s->option);
	if (rc == EXIT_OK)
		rc = latch_run_begin(s->c, &pl, s->latch, &latch);
	if (rc == EXIT_OK)
		rc = pipeline_judge(s->c, &pl, false);
	if (rc == EXIT_OK)
		rc = latch_run_end(s->c, &pl, &latch);
	latch_run_free(&latch);

	if (rc == EXIT_OK && !inventory_has_network(&pl.inv) && s->refreshes == 0)
		ctx_hint_no_devices(s->c);	/* said once, at the start */
	s->refreshes++;
	*ok = rc == EXIT_OK;
	if (*ok) {
		rep.inv = &pl.inv;
		rep.findings = &pl.findings;
		rep.profile = pl.profile->name;
	} else {
		s->failures++;
	}
	rep.check_time = when;
	rep.refresh_seconds = http_mono_now() - t0;
	rep.version = RD_VERSION;
	rep.http_version = MHD_get_version();
	rep.refreshes = s->refreshes;
	rep.refresh_failures = s->failures;
	expo_init(&e);
	metrics_render(&rep, &e);
	pipeline_free(&pl);
	return expo_take(&e, len);
}

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
static struct MHD_Response *refresh(struct server *s, bool *ok)
{
	size_t len;
	char *text = read_and_render(s, &len, ok);
	struct MHD_Response *resp;

	if (!text)
		return NULL;
	resp = text_response(text, len, MHD_RESPMEM_MUST_FREE, EXPO_CONTENT_TYPE);
	if (!resp)
		free(text);
	return resp;
}

/* Put a reading in place of the last (which queued answers still hold). */
static void publish(struct server *s, struct MHD_Response *fresh, double read_at)
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
static void *refresher(void *arg)
{
	struct server *s = arg;

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

/* Tell the refresher to stop and wait for it STOP_WAIT_S at most: true
 * when it has ended (and is joined), false when a reading hangs. */
static bool stop_refresher(struct server *s, pthread_t t)
{
	struct timespec until;
	bool done;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += STOP_WAIT_S;
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
static enum MHD_Result serve_metrics(struct server *s, struct MHD_Connection *conn)
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
	struct server *s = cls;
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
 * -v asks. */
__attribute__((format(printf, 2, 0)))
static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct server *s = cls;

	if (!s->c->verbose)
		return;
	fprintf(stderr, "%s serve: ", s->c->prog);
	vfprintf(stderr, fmt, ap);
}

/* ---- setup ---- */

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rdmadoctor</title>"
	"</head>\n<body><h1>rdmadoctor</h1>\n<p>The RDMA network of this machine for "
	"Prometheus: <a href=\"/metrics\">/metrics</a>.</p></body></html>\n";
static const char not_found_text[] = "not found: the metrics are at /metrics\n";
static const char not_allowed_text[] = "method not allowed: use GET (or HEAD)\n";
static const char no_memory_text[] = "out of memory rendering the metrics\n";

static int make_static_responses(struct server *s)
{
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

static void free_responses(struct server *s)
{
	struct MHD_Response **all[] = { &s->metrics, &s->index, &s->not_found,
					&s->not_allowed, &s->no_memory };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (*all[i])
			MHD_destroy_response(*all[i]);
		*all[i] = NULL;
	}
}

/* Until SIGINT or SIGTERM (blocked in every thread, taken here), looking
 * at the deadlines in between. */
static void wait_for_signal(struct server *s, const sigset_t *stop)
{
	const struct timespec tick = { 0, SWEEP_NS };

	for (;;) {
		int sig = sigtimedwait(stop, NULL, &tick);

		if (sig == SIGINT || sig == SIGTERM)
			return;
		http_deadline_sweep(&s->deadline);
	}
}

static int run(struct server *s, int listen_fd)
{
	struct MHD_Daemon *d;
	sigset_t stop, old;
	pthread_t t;
	char name[HTTP_LISTEN_NAME_MAX];
	int err;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	/* blocked before the server's threads start, so that they inherit it */
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	err = pthread_create(&t, NULL, refresher, s);
	if (err) {
		fprintf(stderr, "%s serve: cannot start the reading thread: %s\n", s->c->prog,
			strerror(err));
		close(listen_fd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return EXIT_RUNTIME;
	}
	d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
			     on_request, s,
			     MHD_OPTION_EXTERNAL_LOGGER, on_log, s,
			     MHD_OPTION_LISTEN_SOCKET, listen_fd,
			     MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)THREADS,
			     MHD_OPTION_CONNECTION_LIMIT, (unsigned int)MAX_CONNECTIONS,
			     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)MAX_PER_IP,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)s->timeout_s,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
			     MHD_OPTION_NOTIFY_CONNECTION, http_deadline_on_connection, &s->deadline,
			     MHD_OPTION_NOTIFY_COMPLETED, http_deadline_on_completed, &s->deadline,
			     MHD_OPTION_URI_LOG_CALLBACK, http_deadline_on_uri, &s->deadline,
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "%s serve: cannot start the HTTP server (libmicrohttpd %s)\n",
			s->c->prog, MHD_get_version());
		close(listen_fd);
		stop_refresher(s, t);	/* idle: it has had nothing to read */
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return EXIT_RUNTIME;
	}
	http_listen_name(listen_fd, name, sizeof(name));
	if (!s->c->quiet && s->cache_s > 0)
		fprintf(stderr, "%s serve: listening on http://%s/metrics (reading '%s' at most "
			"every %g s)\n", s->c->prog, name, s->c->root_dir, s->cache_s);
	else if (!s->c->quiet)
		fprintf(stderr, "%s serve: listening on http://%s/metrics (reading '%s' at every "
			"scrape)\n", s->c->prog, name, s->c->root_dir);
	wait_for_signal(s, &stop);
	MHD_stop_daemon(d);	/* closes the listening socket too */
	if (!stop_refresher(s, t)) {
		/* a reading hangs (a sick NIC): it holds the server's state, so
		 * nothing is freed; leave without it */
		if (!s->c->quiet)
			fprintf(stderr, "%s serve: stopped with a reading still under way "
				"after %d s\n", s->c->prog, STOP_WAIT_S);
		fflush(NULL);
		_exit(EXIT_OK);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return EXIT_OK;
}

int cmd_serve(struct ctx *c, int argc, char **argv)
{
	struct serve_args a = { .listen = DEFAULT_LISTEN, .cache_s = DEFAULT_CACHE_S,
				.timeout_s = DEFAULT_TIMEOUT_S };
	struct server s;
	struct pipeline_option option;
	bool ok = false;
	int fd = -1, rc;

	latch_opts_init(&a.latch);
	rc = parse_args(c, argc, argv, &a);
	if (rc != CMD_GO_ON)
		return rc;
	/* the machine's own memory only for the machine itself: a tree
	 * (a snapshot, a test) keeps one only where told */
	if (!a.state_set && strcmp(c->root_dir, "/") == 0)
		a.latch.dir = LATCH_DIR_DEFAULT;
	for (int k = 0; k < LATCH_CLASSES && !a.latch.dir; k++)
		if (a.latch.hold_given[k]) {
			fprintf(stderr, "%s serve: --hold says how long the memory keeps events, and "
				"there is none: give --state DIR (under --root, serve keeps none "
				"unless told)\n", c->prog);
			return EXIT_USAGE;
		}
	memset(&s, 0, sizeof(s));
	memset(&option, 0, sizeof(option));
	s.c = c;
	s.option = &option;
	s.latch = &a.latch;
	s.cache_s = a.cache_s;
	s.timeout_s = a.timeout_s;
	pthread_mutex_init(&s.cache_lock, NULL);
	pthread_cond_init(&s.wake, NULL);
	pthread_cond_init(&s.idle, NULL);
	http_deadline_init(&s.deadline, a.timeout_s);
	rc = pipeline_option(c, "serve", a.profile, &option);
	if (rc < 0 && make_static_responses(&s) < 0) {
		fprintf(stderr, "%s serve: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	}
	/* the first reading before listening: a root that cannot be read is
	 * said now, not at the first scrape */
	if (rc < 0) {
		s.metrics = refresh(&s, &ok);
		s.read_at = http_mono_now();
		if (!ok)
			rc = EXIT_RUNTIME;
	}
	if (rc < 0)
		rc = listen_at(c, a.listen, &fd);
	if (rc == EXIT_OK)
		rc = run(&s, fd);
	free_responses(&s);
	pipeline_option_free(&option);
	http_deadline_destroy(&s.deadline);
	pthread_cond_destroy(&s.wake);
	pthread_cond_destroy(&s.idle);
	pthread_mutex_destroy(&s.cache_lock);
	return rc < 0 ? EXIT_OK : rc;
}
