/* serve: the Prometheus exporter.  src/http answers (server.h: the
 * refresher, the cache, the limits and deadlines; listen.h: the socket);
 * this file reads the machine (the inventory and the check, as `check`
 * does) and has src/metrics render the text, which is kept for --cache
 * seconds so that a scrape storm reads sysfs once per period. */
#include "cmd.h"
#include "../check/finding.h"
#include "../metrics/metrics.h"
#include "../opt/hold.h"
#include "../pipeline/latch_run.h"
#include "../pipeline/pipeline.h"
#include "../http/listen.h"
#include "../http/server.h"

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
	uint64_t refreshes, failures;	/* only the one reading touches these */
	struct http_server http;
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
	return opt_hold(c, "serve", &((struct serve_args *)a)->latch, v);
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
	"SIGTERM stop it, waiting at most " STR(HTTP_STOP_WAIT_S) " s for a reading under way.\n",
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
	"  hw_<counter>_total{class} (class: what it counts in its driver's\n"
	"  vocabulary, as check judges it: retransmit, seq_err, rnr, ack_timeout,\n"
	"  drop, cnp_sent, cnp_handled, ecn_marked, phy_err, link_downed,\n"
	"  retry_exceeded, or none; a ratio with another family wants\n"
	"  ignoring(class)), ethtool_<statistic>_total (not per queue),\n"
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
static char *read_and_render(void *arg, size_t *len, bool *ok)
{
	struct server *s = arg;
	double t0 = http_mono_now(), when = wall_now();
	struct metrics_report rep = { 0 };
	struct pipeline pl;
	struct expo e;
	int rc = latch_pipeline_run(s->c, "serve", &pl, s->option, s->latch);

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

static int run(struct server *s, int listen_fd)
{
	char name[HTTP_LISTEN_NAME_MAX], why[160];

	if (http_server_start(&s->http, listen_fd, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s serve: %s\n", s->c->prog, why);
		return EXIT_RUNTIME;
	}
	http_listen_name(listen_fd, name, sizeof(name));
	if (!s->c->quiet && s->http.cache_s > 0)
		fprintf(stderr, "%s serve: listening on http://%s/metrics (reading '%s' at most "
			"every %g s)\n", s->c->prog, name, s->c->root_dir, s->http.cache_s);
	else if (!s->c->quiet)
		fprintf(stderr, "%s serve: listening on http://%s/metrics (reading '%s' at every "
			"scrape)\n", s->c->prog, name, s->c->root_dir);
	http_server_wait(&s->http);
	if (http_server_stop(&s->http) < 0) {
		/* a reading hangs (a sick NIC): it holds the server's state, so
		 * nothing is freed; leave without it */
		if (!s->c->quiet)
			fprintf(stderr, "%s serve: stopped with a reading still under way "
				"after %d s\n", s->c->prog, HTTP_STOP_WAIT_S);
		fflush(NULL);
		_exit(EXIT_OK);
	}
	return EXIT_OK;
}

int cmd_serve(struct ctx *c, int argc, char **argv)
{
	struct serve_args a = { .listen = DEFAULT_LISTEN, .cache_s = DEFAULT_CACHE_S,
				.timeout_s = DEFAULT_TIMEOUT_S };
	struct server s;
	struct pipeline_option option;
	char log_prefix[256];
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
	s.http.read = read_and_render;
	s.http.read_arg = &s;
	s.http.content_type = EXPO_CONTENT_TYPE;
	s.http.cache_s = a.cache_s;
	s.http.timeout_s = a.timeout_s;
	s.http.log_prefix = c->verbose ? log_prefix : NULL;
	snprintf(log_prefix, sizeof(log_prefix), "%s serve: ", c->prog);
	rc = pipeline_option(c, "serve", a.profile, &option);
	if (rc >= 0) {
		pipeline_option_free(&option);
		return rc;
	}
	if (http_server_init(&s.http) < 0) {
		fprintf(stderr, "%s serve: out of memory\n", c->prog);
		rc = EXIT_RUNTIME;
	}
	/* the first reading before listening: a root that cannot be read is
	 * said now, not at the first scrape */
	if (rc < 0 && !http_server_prime(&s.http))
		rc = EXIT_RUNTIME;
	if (rc < 0)
		rc = listen_at(c, a.listen, &fd);
	if (rc == EXIT_OK)
		rc = run(&s, fd);
	http_server_free(&s.http);
	pipeline_option_free(&option);
	return rc < 0 ? EXIT_OK : rc;
}
