/* Time sampling for the test loops: warm-up excluded, per-interval samples,
 * the measured window's totals and CPU time.  The engines call tick() with
 * running totals (one precise clock read per call), or poll() on every
 * turn of a hot loop: perftest's loops read no clock at all while they run
 * (an alarm signal moves them from warm-up to sampling to the end), and a
 * precise clock read costs a system call wherever the clock source has no
 * user-space reader; poll() reads the precise clock only at the edges. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engine.h"
#include "../model/growbuf.h"

double bw_now_coarse(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* When the next edge can come: the end of the warm-up, the next interval
 * cut or the end of the window, whichever is first. */
static void plan_edge(struct bw_sampler *s)
{
	double e = 1e300;

	if (s->phase == 0) {
		e = s->t0 + (double)s->p->warmup_ms / 1e3;
	} else if (s->phase == 1) {
		if (s->p->interval_ms)
			e = s->last_cut + (double)s->p->interval_ms / 1e3;
		if (s->p->duration_ms && s->window_start + (double)s->p->duration_ms / 1e3 < e)
			e = s->window_start + (double)s->p->duration_ms / 1e3;
	}
	s->next_edge = e;
}

double bw_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of the calling thread: each rail runs in its own thread. */
static void thread_cpu(double *user, double *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0) {
		*user = *sys = 0;
		return;
	}
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void push_interval(struct bw_sampler *s, double now, uint64_t bytes, uint64_t msgs)
{
	struct bw_result *o = s->out;

	struct bw_interval *n = growbuf_reserve(o->intervals, &s->cap, o->n_intervals + 1,
						sizeof(*n));

	if (!n)
		return;	/* keep the totals; lose this sample */
	o->intervals = n;
	o->intervals[o->n_intervals++] = (struct bw_interval){
		.seconds = now - s->last_cut,
		.bytes = bytes - s->bytes_at_cut,
		.msgs = msgs - s->msgs_at_cut,
	};
	s->last_cut = now;
	s->bytes_at_cut = bytes;
	s->msgs_at_cut = msgs;
}

static void begin_window(struct bw_sampler *s, double now, uint64_t bytes, uint64_t msgs)
{
	s->phase = 1;
	s->window_start = s->last_cut = now;
	s->bytes_at_start = s->bytes_at_cut = bytes;
	s->msgs_at_start = s->msgs_at_cut = msgs;
	if (now == s->t0) {	/* the window opens at t0: the CPU time taken then */
		s->out->cpu_user_s = s->cpu_user_t0;
		s->out->cpu_sys_s = s->cpu_sys_t0;
	} else {
		thread_cpu(&s->out->cpu_user_s, &s->out->cpu_sys_s);
	}
}

static void end_window(struct bw_sampler *s, double now, uint64_t bytes, uint64_t msgs)
{
	struct bw_result *o = s->out;
	double user, sys;

	/* A tail shorter than a tenth of an interval says nothing about the
	 * link (it is mostly timer slack); keep it in the totals only. */
	if (now - s->last_cut >= (double)s->p->interval_ms / 1e4 || o->n_intervals == 0)
		push_interval(s, now, bytes, msgs);
	o->seconds = now - s->window_start;
	o->bytes = bytes - s->bytes_at_start;
	o->msgs = msgs - s->msgs_at_start;
	thread_cpu(&user, &sys);
	o->cpu_user_s = user - o->cpu_user_s;
	o->cpu_sys_s = sys - o->cpu_sys_s;
	s->phase = 2;
}

void bw_sampler_start(struct bw_sampler *s, const struct bw_params *p, struct bw_result *out)
{
	memset(s, 0, sizeof(*s));
	s->p = p;
	s->out = out;
	struct timespec res;

	s->t0 = bw_now();
	thread_cpu(&s->cpu_user_t0, &s->cpu_sys_t0);
	if (p->warmup_ms == 0)
		begin_window(s, s->t0, 0, 0);
	/* the coarse clock trails the precise one by less than its
	 * resolution; 10 ms where the resolution cannot be read */
	s->slack = clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 ?
		(double)res.tv_sec + (double)res.tv_nsec / 1e9 : 0.01;
	plan_edge(s);
}

bool bw_sampler_poll(struct bw_sampler *s, uint64_t bytes, uint64_t msgs)
{
	if (s->phase == 2)
		return false;
	__atomic_store_n(&s->out->live_bytes, bytes, __ATOMIC_RELAXED);
	if (bw_now_coarse() + s->slack < s->next_edge)
		return true;
	return bw_sampler_tick(s, bytes, msgs);
}

bool bw_sampler_tick(struct bw_sampler *s, uint64_t bytes, uint64_t msgs)
{
	double now;

	if (s->phase == 2)
		return false;
	__atomic_store_n(&s->out->live_bytes, bytes, __ATOMIC_RELAXED);
	now = bw_now();
	if (s->phase == 0) {
		if (now - s->t0 >= (double)s->p->warmup_ms / 1e3)
			begin_window(s, now, bytes, msgs);
		plan_edge(s);
		return true;
	}
	if (s->p->interval_ms && now - s->last_cut >= (double)s->p->interval_ms / 1e3)
		push_interval(s, now, bytes, msgs);
	if (s->p->duration_ms && now - s->window_start >= (double)s->p->duration_ms / 1e3) {
		end_window(s, now, bytes, msgs);
		return false;
	}
	plan_edge(s);
	return true;
}

void bw_sampler_finish(struct bw_sampler *s, uint64_t bytes, uint64_t msgs)
{
	double now = bw_now();

	if (s->phase == 2)
		return;
	if (s->phase == 0)	/* ended inside the warm-up: measure all of it */
		begin_window(s, s->t0, 0, 0);
	end_window(s, now, bytes, msgs);
}

void bw_result_free(struct bw_result *r)
{
	free(r->intervals);
	free(r->lat_usec);
	r->intervals = NULL;
	r->lat_usec = NULL;
	r->n_intervals = r->n_lat = 0;
}
