/* The EINVAL memory (sysfs/einval_memo.h, einval_state.h): its file's
 * parser on good and broken text, and the reader against a real kernel
 * file that answers EINVAL (/sys/class/net/lo/speed: loopback has no
 * speed): the first run reads it and remembers it, a second run in the
 * same boot does not open it (the root's count of opened files and the
 * skip count say so) and says why, a file of another boot or a malformed
 * one gives no facts (the file is read again), a /run that cannot be
 * written only costs a note. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "sysfs/attr.h"
#include "sysfs/einval_memo.h"
#include "state/einval_file.h"
#include "state/einval_state.h"
#include "sysfs/root.h"

#define BOOT_A "6f1c2a4e-0c3b-4f7e-9d1a-2b3c4d5e6f70"
#define BOOT_B "00000000-1111-2222-3333-444444444444"

static int parse(const char *text, const char *boot, bool *same, struct einval_state *s)
{
	char why[160];

	return einval_state_parse(text, strlen(text), boot, same, s, why, sizeof(why));
}

static void state_text(void **state)
{
	static const char good[] = EINVAL_STATE_MAGIC "\nboot " BOOT_A "\n"
		"sys/devices/pci0000:c0/0000:c1:00.0/infiniband/mlx5_8/ports/1/hw_counters/a\n"
		"sys/devices/virtual/net/lo/speed\n";
	static const char *const broken[] = {
		"",
		"rdmadoctor-einval 2\nboot " BOOT_A "\n",
		EINVAL_STATE_MAGIC "\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A,				/* cut short */
		EINVAL_STATE_MAGIC "\nboot 6F1C2A4E-0C3B-4F7E-9D1A-2B3C4D5E6F70\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\n/sys/class/net/lo/speed\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/../etc/shadow\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys//a\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a b\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\nsys/b",		/* cut short */
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\t\n",			/* no time */
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\t-5\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\t12x\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\t1\t2\n",
		EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\t99999999999999999999\n",
	};
	struct einval_state s, t = { 0 };
	bool same;
	char *text, *big;
	size_t at;

	(void)state;
	assert_int_equal(parse(good, BOOT_A, &same, &s), 0);
	assert_true(same);
	assert_int_equal(s.n, 2);
	assert_true(einval_state_has(&s, "sys/devices/virtual/net/lo/speed"));
	/* round trip */
	text = einval_state_format(&s, BOOT_A);
	assert_string_equal(text, good);
	free(text);
	einval_state_free(&s);
	/* another boot's: well formed, no facts */
	assert_int_equal(parse(good, BOOT_B, &same, &s), 0);
	assert_false(same);
	assert_int_equal(s.n, 0);
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		if (parse(broken[i], BOOT_A, &same, &s) != -EINVAL || s.n || same)
			fail_msg("case %zu taken", i);
	}
	/* bounded: more paths than the file may hold */
	big = malloc(64 + (EINVAL_STATE_MAX_PATHS + 1) * 16);
	assert_non_null(big);
	at = (size_t)sprintf(big, "%s\nboot %s\n", EINVAL_STATE_MAGIC, BOOT_A);
	for (unsigned i = 0; i <= EINVAL_STATE_MAX_PATHS; i++)
		at += (size_t)sprintf(big + at, "sys/f%u\n", i);
	assert_int_equal(parse(big, BOOT_A, &same, &s), -EINVAL);
	free(big);
	/* the writer keeps within it too */
	for (unsigned i = 0; i <= EINVAL_STATE_MAX_PATHS + 5; i++) {
		char p[32];

		snprintf(p, sizeof(p), "sys/f%u", i);
		assert_true(einval_state_add(&t, p, 0) >= 0);
	}
	assert_int_equal(t.n, EINVAL_STATE_MAX_PATHS);
	assert_int_equal(einval_state_add(&t, "../x", 0), 0);
	einval_state_free(&t);
}

/* The retry, on a memo with a faked clock: held files are skipped until
 * EINVAL_MEMO_RETRY_S after their refusal, then asked again; a refusal
 * renews the time, a read forgets the file. */
static void retry(void **state)
{
	const char *p = "sys/devices/pci0000:c0/0000:c1:00.0/infiniband/mlx5_8/ports/1/"
			"hw_counters/np_cnp_sent";
	struct einval_memo m = { .now = 1000 };
	struct einval_state s;
	bool same;
	char *text;

	(void)state;
	assert_int_equal(einval_memo_retry_in(&m, p), -1);
	assert_int_equal(einval_memo_refused(&m, p), 1);
	assert_true(m.dirty);
	assert_true(einval_memo_skips(&m, p));
	assert_int_equal(einval_memo_retry_in(&m, p), EINVAL_MEMO_RETRY_S);
	m.now = 1000 + EINVAL_MEMO_RETRY_S - 1;
	assert_true(einval_memo_skips(&m, p));
	assert_int_equal(einval_memo_retry_in(&m, p), 1);
	/* due: not skipped, asked again */
	m.now = 1000 + EINVAL_MEMO_RETRY_S;
	assert_false(einval_memo_skips(&m, p));
	assert_int_equal(einval_memo_retry_in(&m, p), 0);
	assert_int_equal(einval_memo_refused_ago(&m, p), EINVAL_MEMO_RETRY_S);
	/* refused again: skipped for another hour */
	m.dirty = false;
	assert_int_equal(einval_memo_refused(&m, p), 2);
	assert_true(m.dirty);
	assert_true(einval_memo_skips(&m, p));
	assert_int_equal(einval_memo_retry_in(&m, p), EINVAL_MEMO_RETRY_S);
	/* the time is in the file */
	text = einval_state_format(&m.st, BOOT_A);
	assert_non_null(strstr(text, "/np_cnp_sent\t4600\n"));
	assert_int_equal(parse(text, BOOT_A, &same, &s), 0);
	assert_int_equal(s.at[0], 4600);
	free(text);
	einval_state_free(&s);
	/* read at the next retry: forgotten */
	m.now += EINVAL_MEMO_RETRY_S;
	m.n_loaded = 1;
	assert_true(einval_memo_read_ok(&m, p));
	assert_int_equal(m.st.n, 0);
	assert_int_equal(m.n_loaded, 0);
	assert_false(einval_memo_skips(&m, p));
	assert_false(einval_memo_read_ok(&m, p));
	/* a file of a version before the times: due at once */
	assert_int_equal(parse(EINVAL_STATE_MAGIC "\nboot " BOOT_A "\nsys/a\n", BOOT_A, &same, &s),
			 0);
	assert_int_equal(s.at[0], 0);
	einval_state_free(&s);
	einval_state_free(&m.st);
}

static int64_t boot_seconds(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_BOOTTIME, &ts) == 0 ? (int64_t)ts.tv_sec : 0;
}

static char dir[64];

static bool lo_speed_refused(void)
{
	char buf[64];
	int fd = open("/sys/class/net/lo/speed", O_RDONLY);
	ssize_t got;

	if (fd < 0)
		return false;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	return got < 0 && errno == EINVAL;
}

static bool noted(const struct root *r, const char *what)
{
	for (size_t i = 0; i < r->n_notes; i++)
		if (strstr(r->notes[i].what, what))
			return true;
	return false;
}

/* One run of the reader: a live root keeping its memory in dir, lo's
 * speed read once; *opened the files it opened for it. */
static char *one_run(struct root *r, bool all_paths, unsigned long *opened, char **why)
{
	static int run_no;
	unsigned long before;
	char mark[64], *text;

	/* a marker in the syscall trace: tests/sysfs/test_einval_strace.sh
	 * finds which run opened what */
	snprintf(mark, sizeof(mark), "/proc/rdmadoctor-einval-run-%d", ++run_no);
	(void)access(mark, F_OK);
	assert_int_equal(root_open(r, "/"), 0);
	assert_true(r->live);
	assert_int_equal(einval_file_load(r, dir, all_paths), 0);
	before = r->opens;
	text = attr_str_why(r, "sys/class/net/lo", "speed", why);
	*opened = r->opens - before;
	root_memo_save(r);
	return text;
}

static char *file_text(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void real_file(void **state)
{
	char file[128], boot[64], *why = NULL, *text;
	unsigned long opened;
	struct root r;
	FILE *f;

	(void)state;
	if (!lo_speed_refused())
		skip();	/* no /sys here, or a kernel that gives lo a speed */
	strcpy(dir, "/tmp/rd-einval-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/%s", dir, EINVAL_MEMO_FILE);
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	assert_non_null(f);
	assert_non_null(fgets(boot, sizeof(boot), f));
	fclose(f);
	boot[strcspn(boot, "\n")] = '\0';

	/* the counters-only memory (the default) leaves lo's speed alone */
	assert_null(one_run(&r, false, &opened, &why));
	assert_int_equal(opened, 1);
	assert_null(r.memo->st.n ? "remembered" : NULL);
	free(why);
	root_close(&r);
	assert_null(file_text(file));
	assert_true(einval_memo_applies(&(struct einval_memo){ 0 },
					"sys/devices/pci0000:c0/0000:c1:00.0/infiniband/mlx5_8/"
					"ports/1/hw_counters/np_cnp_sent"));
	assert_false(einval_memo_applies(&(struct einval_memo){ 0 },
					 "sys/devices/virtual/net/lo/speed"));

	/* first run: read, refused, remembered */
	text = one_run(&r, true, &opened, &why);
	assert_null(text);
	assert_int_equal(opened, 1);
	assert_non_null(strstr(why, "Invalid argument"));
	assert_true(noted(&r, "the kernel refused it with EINVAL: not read again this boot"));
	free(why);
	root_close(&r);
	text = file_text(file);
	assert_non_null(text);
	assert_non_null(strstr(text, boot));
	/* with when it was refused, in seconds since boot */
	assert_non_null(strstr(text, "\nsys/devices/virtual/net/lo/speed\t"));

	/* second run, same boot: not opened, and said why */
	text = one_run(&r, true, &opened, &why);
	assert_null(text);
	assert_int_equal(opened, 0);
	assert_int_equal(r.memo->skipped, 1);
	assert_string_equal(why, "the kernel refused it with EINVAL earlier this boot "
			    "(sys/class/net/lo/speed); not read again");
	assert_true(noted(&r, "earlier this boot: not read again until it is retried in "));
	free(why);
	root_close(&r);

	/* another boot's file: forgotten, read again */
	f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f, "%s\nboot %s\nsys/devices/virtual/net/lo/speed\n", EINVAL_STATE_MAGIC,
		strcmp(boot, BOOT_B) ? BOOT_B : BOOT_A);
	fclose(f);
	assert_null(one_run(&r, true, &opened, &why));
	assert_int_equal(opened, 1);
	assert_true(noted(&r, "of another boot: forgotten"));
	free(why);
	root_close(&r);
	assert_non_null(strstr(file_text(file), boot));

	/* garbage, and a file cut short: no facts, read again, rewritten */
	f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f, "%s\nboot %s\nsys/devices/virtual/net/lo/speed", EINVAL_STATE_MAGIC, boot);
	fclose(f);
	assert_null(one_run(&r, true, &opened, &why));
	assert_int_equal(opened, 1);
	assert_true(noted(&r, "malformed (line 3: cut short"));
	free(why);
	root_close(&r);
	assert_non_null(strstr(file_text(file), "\nsys/devices/virtual/net/lo/speed\t"));

	/* refused more than EINVAL_MEMO_RETRY_S ago (the file says when):
	 * asked again, refused again, its time renewed; -v says so */
	f = fopen(file, "w");
	assert_non_null(f);
	fprintf(f, "%s\nboot %s\nsys/devices/virtual/net/lo/speed\t1\n", EINVAL_STATE_MAGIC,
		boot);
	fclose(f);
	if (boot_seconds() > 1 + EINVAL_MEMO_RETRY_S) {
		text = one_run(&r, true, &opened, &why);
		assert_null(text);
		assert_int_equal(opened, 1);
		assert_int_equal(r.memo->skipped, 0);
		assert_true(noted(&r, "retried: the kernel refused it with EINVAL again: not read "
				  "again until it is retried in 60 min"));
		free(why);
		root_close(&r);
		assert_null(strstr(file_text(file), "\nsys/devices/virtual/net/lo/speed\t1\n"));
		assert_non_null(strstr(file_text(file), "\nsys/devices/virtual/net/lo/speed\t"));
		/* and the next run skips it again */
		assert_null(one_run(&r, true, &opened, &why));
		assert_int_equal(opened, 0);
		free(why);
		root_close(&r);
	}

	/* a directory that cannot be made (a file in its place): a note, the
	 * memo neither read nor written, the run goes on */
	unlink(file);
	f = fopen(file, "w");	/* a file where the directory would be */
	assert_non_null(f);
	fclose(f);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s", EINVAL_MEMO_FILE);
	assert_null(one_run(&r, true, &opened, &why));
	assert_int_equal(opened, 1);
	assert_true(noted(&r, "is not a directory; files the kernel refused with EINVAL are "
			  "read again"));
	free(why);
	root_close(&r);
	unlink(file);
	dir[strlen(dir) - strlen(EINVAL_MEMO_FILE) - 1] = '\0';
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(state_text),
		cmocka_unit_test(retry),
		cmocka_unit_test(real_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
