/* rdmadoctor-npd: Node Problem Detector's plugin for rdmadoctor.  NPD runs
 * a custom plugin inside its own pod, where rdmadoctor (some forty shared
 * libraries) cannot run; this program needs none (linked statically, the C
 * library alone).  It prints the verdict rdmadoctor's agent last wrote
 * (`labels --every S --npd FILE`, the line and status `check --npd` would
 * give; state/npd_verdict.h) as NPD reads a plugin
 * (pkg/custompluginmonitor/plugin/plugin.go): one line on stdout, exit 0
 * OK, 1 a problem, 3 unknown.  A verdict older than --max-age, a missing
 * or malformed file, are unknown, never OK: a stopped agent does not leave
 * a node healthy.  `--install DIR` copies this program into DIR (the
 * DaemonSet's init container puts it on a host path NPD's pod mounts). */
#include "state/npd_verdict.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_FILE "/var/lib/rdmadoctor/npd"
#define DEFAULT_MAX_AGE 900
#define UNKNOWN 3
/* How far ahead of this clock a verdict may be dated (the agent's and
 * NPD's pods read the same host clock: only a step of it) */
#define FUTURE_SLACK 300

static const char usage[] =
	"usage: rdmadoctor-npd [--max-age S] [FILE]\n"
	"       rdmadoctor-npd --install DIR\n"
	"\n"
	"Node Problem Detector's custom plugin: prints the verdict rdmadoctor's\n"
	"agent last wrote to FILE (default " DEFAULT_FILE ", by\n"
	"`rdmadoctor labels --every S --npd FILE`) as NPD reads a plugin: one\n"
	"line, exit 0 OK, 1 a problem, 3 unknown.  A verdict older than --max-age\n"
	"seconds (default 900), a missing or malformed file: unknown, with why.\n"
	"--install DIR copies this program to DIR/rdmadoctor-npd (for NPD's pod to\n"
	"run from a host path); it needs no library.\n";

/* Unknown, and why: NPD shows stdout, cut at 80 bytes. */
static int unknown(const char *why)
{
	printf("%.*s\n", NPD_VERDICT_LINE_MAX, why);
	return UNKNOWN;
}

static int say(const char *path, long long max_age)
{
	char buf[NPD_VERDICT_FILE_MAX + 1], why[NPD_VERDICT_LINE_MAX + 1];
	struct npd_verdict v;
	ssize_t n;
	long long age;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0) {
		snprintf(why, sizeof(why), "%s: %s", errno == ENOENT ?
			 "no verdict from rdmadoctor's agent yet" : "cannot read rdmadoctor's verdict",
			 path);
		return unknown(why);
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0 || npd_verdict_parse(buf, (size_t)n, &v) < 0) {
		snprintf(why, sizeof(why), "rdmadoctor's verdict file is malformed: %s", path);
		return unknown(why);
	}
	age = (long long)time(NULL) - v.when;
	if (age < -FUTURE_SLACK) {	/* a clock stepped back, or a file not ours */
		snprintf(why, sizeof(why), "rdmadoctor's verdict is dated %lld s ahead of this "
			 "clock", -age);
		return unknown(why);
	}
	if (age > max_age) {
		snprintf(why, sizeof(why), "rdmadoctor's last verdict is %lld s old: is its agent "
			 "running?", age);
		return unknown(why);
	}
	printf("%s\n", v.line);
	return v.status;
}

/* Copy this program to dir/rdmadoctor-npd: a hidden file beside it, then
 * renamed, so that NPD never runs half of one. */
static int install(const char *dir)
{
	char tmp[PATH_MAX], dst[PATH_MAX], buf[65536];
	int in, out, ok = 1;
	ssize_t n;

	if (snprintf(dst, sizeof(dst), "%s/rdmadoctor-npd", dir) >= (int)sizeof(dst) ||
	    snprintf(tmp, sizeof(tmp), "%s/.rdmadoctor-npd.new", dir) >= (int)sizeof(tmp)) {
		fprintf(stderr, "rdmadoctor-npd: --install: the path is too long\n");
		return 2;
	}
	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		fprintf(stderr, "rdmadoctor-npd: cannot read this program: %s\n", strerror(errno));
		return 3;
	}
	unlink(tmp);
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0755);
	if (out < 0) {
		fprintf(stderr, "rdmadoctor-npd: cannot create %s: %s\n", tmp, strerror(errno));
		close(in);
		return 3;
	}
	while (ok && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			ok = errno == EINTR;
			continue;
		}
		for (ssize_t off = 0; ok && off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0 && errno != EINTR)
				ok = 0;
			else if (w > 0)
				off += w;
		}
	}
	close(in);
	if (fsync(out) != 0 || fchmod(out, 0755) != 0)
		ok = 0;
	if (close(out) != 0)
		ok = 0;
	if (!ok || rename(tmp, dst) != 0) {
		fprintf(stderr, "rdmadoctor-npd: cannot write %s: %s\n", dst, strerror(errno));
		unlink(tmp);
		return 3;
	}
	fprintf(stderr, "rdmadoctor-npd: installed %s\n", dst);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = DEFAULT_FILE;
	long long max_age = DEFAULT_MAX_AGE;
	int i = 1;

	if (argc == 3 && !strcmp(argv[1], "--install"))
		return install(argv[2]);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage, stdout);
		return 0;
	}
	if (i + 1 < argc && !strcmp(argv[i], "--max-age")) {
		char *end;

		errno = 0;
		max_age = strtoll(argv[i + 1], &end, 10);
		if (errno || *end || end == argv[i + 1] || max_age < 1) {
			/* NPD shows stdout: the usage error must be there too */
			printf("rdmadoctor-npd: --max-age wants whole seconds, got '%.32s'\n",
			       argv[i + 1]);
			return UNKNOWN;
		}
		i += 2;
	}
	if (i < argc && argv[i][0] == '-') {
		printf("rdmadoctor-npd: unknown option or missing value: '%.40s' (see --help)\n",
		       argv[i]);
		return UNKNOWN;
	}
	if (i < argc)
		path = argv[i++];
	if (i < argc) {
		printf("rdmadoctor-npd: unexpected '%.40s' (see --help)\n", argv[i]);
		return UNKNOWN;
	}
	return say(path, max_age);
}
