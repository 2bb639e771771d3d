/* The client side of bw and lat (client.h). */
#include "client.h"
#include "params.h"
#include "progress.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Ctrl-C (or SIGTERM) during a sweep: what finished is reported, with why
 * the rest did not (as watch does).  The handler cuts the control
 * connection (shutdown is async-signal-safe), so that the size running
 * ends at once on both sides instead of at the end of its window; a
 * second signal ends the process as it would have (SA_RESETHAND). */
static volatile sig_atomic_t interrupted;
static volatile int cut_fd = -1;
static struct timespec first_interrupt;

/* The first SIGINT/SIGTERM ends the sweep with a report; a second one a
 * second or more later (an impatient user) ends the process at once. One
 * sooner is the same interrupt delivered twice: timeout(1) and other
 * wrappers forward a signal both to their child and to its process group. */
static void on_interrupt(int sig)
{
	int fd = cut_fd;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);	/* async-signal-safe (POSIX) */
	if (interrupted) {
		if (now.tv_sec - first_interrupt.tv_sec < 1 ||
		    (now.tv_sec - first_interrupt.tv_sec == 1 &&
		     now.tv_nsec < first_interrupt.tv_nsec))
			return;
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	first_interrupt = now;
	interrupted = sig;
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
}

static void catch_interrupts(struct sigaction old[2])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sa.sa_flags = 0;	/* no SA_RESTART: waits end with EINTR */
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
}

static void release_interrupts(const struct sigaction old[2])
{
	cut_fd = -1;
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
}

/* Why the sweep stopped early, when a signal stopped it. */
static const char *interrupt_reason(char *buf, size_t len, uint64_t size, size_t done)
{
	snprintf(buf, len, "interrupted (%s) during the %" PRIu64 "-byte test; %zu size%s finished",
		 interrupted == SIGTERM ? "SIGTERM" : "Ctrl-C", size, done, done == 1 ? "" : "s");
	return buf;
}

/* A test that failed midway: what finished is still reported (and with
 * --json there is always one document), with why the rest did not. */
static int failed(const struct bw_client_conf *cf, const struct bw_session *ss, const char *host,
		  struct bw_outcome *outs, size_t done, const char *error, bool report)
{
	int rc = report ? cf->report(cf->arg, ss, host, outs, done, error) : -1;

	return rc == 0 ? -1 : rc;
}

int bw_client_run(const struct bw_client_conf *cf)
{
	struct bw_opts *o = cf->o;
	const struct bw_rail_set *rs = cf->rs;
	struct bw_session ss = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails rails;
	struct bw_outcome *outs = NULL;
	struct bw_progress pg = { .out = stderr, .prog = cf->prog, .cmd = cf->cmd };
	struct bw_err e = { "" };
	char host[BW_HOST_MAX + 1] = "";
	size_t done = 0;
	struct sigaction old_sig[2];
	char why[160];
	int rc;

	if (bw_params_check(&o->p, rs->n, NULL, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		return -EINVAL;
	}
	gethostname(host, sizeof(host) - 1);
	catch_interrupts(old_sig);
	ss.token = o->token;
	if (bw_session_connect(&ss, o->host, o->port, (int)(o->timeout_s * 1000), &e) < 0 ||
	    bw_session_auth(&ss, &e) < 0) {
		fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
		rc = failed(cf, &ss, host, NULL, 0, e.msg, cf->always_report);
		goto out;
	}
	cut_fd = ss.fd;
	if (cf->progress) {
		ss.progress = bw_progress_show;
		ss.progress_arg = &pg;
	}
	outs = calloc(o->n_sizes, sizeof(*outs));
	if (!outs) {
		fprintf(stderr, "%s: out of memory\n", cf->prog);
		rc = -1;
		goto out;
	}
	/* the numeric address the control channel reached: both sides then
	 * name the same peer (GID choice, tcp data connections) */
	bw_rails_fill(rs->rail, rs->n, o->ib_port, o->gid_index, o->p.transport, rs->n,
		      ss.peer_addr, &rails);
	/* the client's own bound on each run (engine.h): its window and a
	 * margin; iterations mode has none of its own (the server's cap) */
	for (uint32_t i = 0; i < rails.n; i++)
		rails.local[i].max_run_ms = bw_params_run_bound_ms(&o->p, 0);
	for (size_t k = 0; k < o->n_sizes; k++) {
		bw_opts_hello(o, o->sizes[k], rs->n, host, &h);
		if (bw_params_check(&h.p, rs->n, NULL, &e) < 0) {
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
			rc = -EINVAL;
			goto out;
		}
		pg.size = h.p.size;
		pg.total = ((double)h.p.warmup_ms + h.p.duration_ms) / 1e3;
		rc = interrupted ? -1 : bw_session_test(&ss, &h, &rails, &outs[k], &e);
		bw_progress_end(&pg);
		if (interrupted) {
			interrupt_reason(why, sizeof(why), h.p.size, done);
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, why);
			rc = failed(cf, &ss, host, outs, done, why, true);
			goto out;
		}
		if (rc < 0) {
			fprintf(stderr, "%s %s: %s\n", cf->prog, cf->cmd, e.msg);
			rc = failed(cf, &ss, host, outs, done, e.msg, done || cf->always_report);
			goto out;
		}
		done++;
	}
	bw_session_bye(&ss);
	rc = cf->report(cf->arg, &ss, host, outs, done, NULL);
out:
	release_interrupts(old_sig);
	for (size_t k = 0; outs && k < o->n_sizes; k++)
		bw_outcome_free(&outs[k]);
	free(outs);
	bw_session_close(&ss);
	return rc;
}
