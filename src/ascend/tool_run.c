#include "tool_run.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const tool_dirs[] = { "/usr/local/Ascend/driver/tools", "/usr/local/bin" };

static char *executable_in(const char *dir, size_t dlen, const char *name)
{
	char *path;

	if (!dlen)
		return NULL;
	if (asprintf(&path, "%.*s/%s", (int)dlen, dir, name) < 0)
		return NULL;
	if (access(path, X_OK) == 0)
		return path;
	free(path);
	return NULL;
}

char *tool_find(const char *name)
{
	const char *path = getenv("PATH");
	char *found;

	for (const char *p = path; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);

		if ((found = executable_in(p, n, name)))
			return found;
		p = colon ? colon + 1 : p + n;
	}
	for (size_t i = 0; i < sizeof(tool_dirs) / sizeof(tool_dirs[0]); i++)
		if ((found = executable_in(tool_dirs[i], strlen(tool_dirs[i]), name)))
			return found;
	return NULL;
}

/* Found once per run: every collect (serve and watch collect again and
 * again) asks for the same two tools, and a search stats every directory of
 * PATH.  A tool not found is remembered as not found, as one run sees one
 * installation. */
#define TOOL_CACHE 4	/* more than the tools this program runs */

const char *tool_path(const char *name)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct {
		char *name, *path;
	} cache[TOOL_CACHE];
	const char *path = NULL;
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < TOOL_CACHE && cache[i].name && strcmp(cache[i].name, name) != 0; i++)
		;
	if (i < TOOL_CACHE && !cache[i].name && (cache[i].name = strdup(name)))
		cache[i].path = tool_find(name);
	if (i < TOOL_CACHE && cache[i].name)
		path = cache[i].path;
	pthread_mutex_unlock(&lock);
	return path;
}

int tool_timeout_ms(void)
{
	const char *v = getenv("RDMADOCTOR_TOOL_TIMEOUT_MS");
	char *end;
	long ms;

	if (!v || !*v)
		return TOOL_TIMEOUT_MS;
	errno = 0;
	ms = strtol(v, &end, 10);
	return errno || *end || ms < 1 || ms > 600000 ? TOOL_TIMEOUT_MS : (int)ms;
}

char *tool_job_text(const struct tool_job *j)
{
	size_t len = strlen(j->tool) + 1;
	char *s, *w;

	for (size_t i = 0; i < TOOL_MAX_ARGS && j->args[i]; i++)
		len += strlen(j->args[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	w = stpcpy(s, j->tool);
	for (size_t i = 0; i < TOOL_MAX_ARGS && j->args[i]; i++) {
		*w++ = ' ';
		w = stpcpy(w, j->args[i]);
	}
	return s;
}

void tool_jobs_free(struct tool_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(jobs[i].out);
	free(jobs);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One child being run. */
struct child {
	struct tool_job *job;
	pid_t pid;
	int fd;			/* its stdout; -1 after EOF */
	int64_t deadline;
	size_t cap;
	bool too_big;
};

/* Start job: its own process group (so a kill takes its children too),
 * stdin and stderr on /dev/null, stdout to a pipe. */
static int start(struct child *c, struct tool_job *job, const char *path, int timeout_ms)
{
	const char *argv[TOOL_MAX_ARGS + 2];
	int pfd[2], devnull;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->job = job;
	c->fd = -1;
	argv[0] = path;
	for (size_t i = 0; i <= TOOL_MAX_ARGS; i++)
		argv[i + 1] = i < TOOL_MAX_ARGS ? job->args[i] : NULL;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0) {
		int e = -errno;

		close(pfd[0]);
		close(pfd[1]);
		return e;
	}
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(pfd[0]);
		close(pfd[1]);
		close(devnull);
		return e;
	}
	if (pid == 0) {
		sigset_t none;

		/* a caller may block signals it waits for (labels --every):
		 * exec keeps the mask, and the tool must be stoppable */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		if (dup2(devnull, 0) < 0 || dup2(pfd[1], 1) < 0 || dup2(devnull, 2) < 0)
			_exit(127);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid);	/* also here: no race with the kill below */
	close(pfd[1]);
	close(devnull);
	c->pid = pid;
	c->fd = pfd[0];
	c->deadline = now_ms() + timeout_ms;
	return 0;
}

static void drain(struct child *c)
{
	char buf[4096];
	ssize_t got = read(c->fd, buf, sizeof(buf));

	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (got <= 0) {
		close(c->fd);
		c->fd = -1;
		return;
	}
	if (c->too_big || c->job->len + (size_t)got > TOOL_MAX_OUTPUT) {
		c->too_big = true;
		return;
	}
	{
		char *g = growbuf_reserve(c->job->out, &c->cap, c->job->len + (size_t)got, 1);

		if (!g) {
			c->too_big = true;	/* reported as -ENOMEM at the end */
			c->job->err = -ENOMEM;
			return;
		}
		c->job->out = g;
	}
	memcpy(c->job->out + c->job->len, buf, (size_t)got);
	c->job->len += (size_t)got;
}

/* The child has exited (reaped): its result. */
static void finish(struct child *c, int wstatus)
{
	struct tool_job *j = c->job;

	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	if (j->err == 0 && c->too_big)
		j->err = -EFBIG;
	if (j->err == 0)
		j->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) :
			    WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 255;
	if (j->err) {
		free(j->out);
		j->out = NULL;
		j->len = 0;
	}
	c->pid = 0;
}

/* At the limit: kill the group, give it a moment to go, never block on a
 * child stuck in the driver. */
static void cut(struct child *c)
{
	int wstatus;

	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	for (int i = 0; i < 20; i++) {
		if (waitpid(c->pid, &wstatus, WNOHANG) != 0)
			break;
		usleep(10000);
	}
	c->job->err = -ETIMEDOUT;
	finish(c, 0);
}

int tool_run_all(struct tool_job *jobs, size_t n, int timeout_ms)
{
	size_t lanes = 0;
	size_t *next = NULL;
	bool *lane_dead = NULL;
	struct child *kids = NULL;
	struct pollfd *pfds = NULL;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		jobs[i].err = jobs[i].status = 0;
		if (jobs[i].lane + 1 > lanes)
			lanes = jobs[i].lane + 1;
	}
	next = calloc(lanes ? lanes : 1, sizeof(*next));
	lane_dead = calloc(lanes ? lanes : 1, sizeof(*lane_dead));
	kids = calloc(lanes ? lanes : 1, sizeof(*kids));
	pfds = calloc(lanes ? lanes : 1, sizeof(*pfds));
	if (!next || !lane_dead || !kids || !pfds) {
		rc = -ENOMEM;
		goto out;
	}
	for (;;) {
		size_t active = 0, np = 0;
		bool waiting_exit = false;
		int64_t t = now_ms(), wait = -1;

		/* each idle lane starts its next job */
		for (size_t l = 0; l < lanes; l++) {
			while (!kids[l].pid) {
				struct tool_job *j = NULL;
				const char *path = NULL;

				while (next[l] < n && jobs[next[l]].lane != l)
					next[l]++;
				if (next[l] >= n)
					break;
				j = &jobs[next[l]++];
				if (lane_dead[l]) {
					j->err = -ECANCELED;
					continue;
				}
				path = tool_path(j->tool);
				if (!path) {
					j->err = -ENOPKG;
					continue;
				}
				j->err = start(&kids[l], j, path, timeout_ms);
			}
		}
		for (size_t l = 0; l < lanes; l++) {
			struct child *c = &kids[l];
			int wstatus;

			if (!c->pid)
				continue;
			if (c->fd < 0) {
				pid_t w = waitpid(c->pid, &wstatus, WNOHANG);

				if (w == c->pid || (w < 0 && errno == ECHILD)) {
					finish(c, w == c->pid ? wstatus : 0);
					continue;
				}
			}
			if (t >= c->deadline) {
				cut(c);
				lane_dead[l] = true;
				continue;
			}
			active++;
			if (c->fd >= 0) {
				pfds[np].fd = c->fd;
				pfds[np].events = POLLIN;
				pfds[np].revents = 0;
				np++;
			} else {
				waiting_exit = true;
			}
			if (wait < 0 || c->deadline - t < wait)
				wait = c->deadline - t;
		}
		if (!active) {
			bool more = false;

			for (size_t l = 0; l < lanes && !more; l++)
				more = kids[l].pid != 0 || next[l] < n;
			/* a lane whose next job just failed to start loops once more */
			for (size_t l = 0; l < lanes && !more; l++)
				for (size_t i = next[l]; i < n && !more; i++)
					more = jobs[i].lane == l;
			if (!more)
				break;
			continue;
		}
		if (waiting_exit && (wait < 0 || wait > 10))
			wait = 10;
		if (poll(pfds, np, (int)(wait < 0 ? 10 : wait > INT_MAX ? INT_MAX : wait)) < 0 &&
		    errno != EINTR) {
			rc = -errno;
			break;
		}
		for (size_t l = 0; l < lanes; l++)
			for (size_t i = 0; i < np; i++)
				if (kids[l].pid && kids[l].fd == pfds[i].fd && pfds[i].revents)
					drain(&kids[l]);
	}
out:
	if (kids)
		for (size_t l = 0; l < lanes; l++)
			if (kids[l].pid)
				cut(&kids[l]);
	free(next);
	free(lane_dead);
	free(kids);
	free(pfds);
	return rc;
}
