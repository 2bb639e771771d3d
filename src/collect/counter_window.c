/* A counter window around a reading (counter_window.h). */
#include "counter_window.h"
#include "../model/window.h"
#include "../sysfs/counters.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t stop;
static struct sigaction old_sigint;
static int catching;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

void counter_window_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* nested (watch catches it while collecting too): a Ctrl-C already
	 * had still ends the window */
	if (catching++ == 0) {
		stop = 0;
		sigaction(SIGINT, &sa, &old_sigint);
	}
}

void counter_window_catch_end(void)
{
	if (catching > 0 && --catching == 0)
		sigaction(SIGINT, &old_sigint, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleep until the monotonic time t; false when a signal asked to stop. */
static bool sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (!stop) {
		int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

		if (rc == 0)
			return !stop;
		if (rc != EINTR)
			return false;
	}
	return false;
}

int counter_window_begin(struct inventory *inv)
{
	return window_start(inv);
}

int counter_window_open(struct root *r, struct inventory *inv)
{
	int rc = counters_sample(r, inv);

	return rc < 0 ? rc : window_start(inv);
}

int counter_window_sample(struct root *r, struct inventory *inv)
{
	return counters_sample(r, inv);
}

int counter_window_run(struct root *r, struct inventory *inv, struct counter_window *w)
{
	double t0 = now_s(), next = t0;
	int rc = 0;

	counter_window_catch();
	w->samples = 1;
	w->elapsed = 0;
	while (rc == 0 && w->elapsed < w->duration - 1e-9) {
		next += w->interval;
		if (next > t0 + w->duration)
			next = t0 + w->duration;
		if (!sleep_until(next)) {
			w->interrupted = true;
			break;
		}
		rc = counters_sample(r, inv);
		w->elapsed = now_s() - t0;
		w->samples++;
		if (rc == 0 && w->progress)
			w->progress(inv, w, w->arg);
	}
	/* stopped before the first interval ended: sample now, so that the
	 * window has an end and a length */
	if (rc == 0 && w->samples == 1) {
		rc = counters_sample(r, inv);
		w->elapsed = now_s() - t0;
		w->samples++;
	}
	counter_window_catch_end();
	if (rc < 0)
		return rc;
	if (w->elapsed <= 0)
		w->elapsed = 1e-6;
	inv->window_s = w->elapsed;
	return 0;
}

int counter_window_until(struct root *later, struct inventory *inv, double duration)
{
	int rc = counters_sample(later, inv);

	if (rc < 0)
		return rc;
	inv->window_s = duration;
	return 0;
}
