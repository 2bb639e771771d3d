/* The reader of the kernel log (src/sysfs/kmsg_read.c).  On records this
 * test writes in /dev/kmsg's form into a file or a packet pipe: it reads to
 * the end past any size, keeps the newest matches within its bounds, stops
 * at its time bound, and says what a bound cut.  And on this machine's
 * real /dev/kmsg.  The test writes one
 * record itself (root may write to /dev/kmsg; the kernel stamps it with
 * its own PRIO,SEQ,USEC,FLAGS header, which is the oracle) and reads it
 * back through kmsg_read_matched (which keeps it only when asked for
 * user-space records too, since it is not the kernel's): it stops at the end of the ring, within
 * its bounds, and keeps only records that parse and match the fault table.
 * Where /dev/kmsg cannot be opened or written the test fails and says why:
 * CI runs as root, and a skip there would hide that the reader is untested. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysfs/kmsg_parse.h"
#include "sysfs/kmsg_read.h"

static void test_real_ring(void **state)
{
	char *out, line[256], nonce[64];
	size_t len, found = 0;
	struct kmsg_reading st;
	int fd, rc;
	ssize_t w;

	(void)state;
	/* <12>: facility user (1), level warning (4); the text is written by
	 * this test, not by a driver, and says so */
	snprintf(nonce, sizeof(nonce), "unit_kmsg_read-%ld-%ld", (long)getpid(), (long)time(NULL));
	snprintf(line, sizeof(line),
		 "<12>mlx5_core 0000:99:00.0: written by the test %s: "
		 "Detected insufficient power on the PCIe slot (27W).\n", nonce);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fail_msg("cannot open /dev/kmsg for writing: %s (the test needs root "
			 "and a /dev/kmsg)", strerror(errno));
	w = write(fd, line, strlen(line));
	close(fd);
	if (w != (ssize_t)strlen(line))
		fail_msg("write to /dev/kmsg: %s", w < 0 ? strerror(errno) : "short");

	/* by default only the kernel's records: the test's own is not kept */
	rc = kmsg_read_matched("/dev/kmsg", false, &out, &len, &st);
	if (rc)
		fail_msg("kmsg_read_matched(/dev/kmsg): %s", strerror(-rc));
	assert_null(strstr(out, nonce));
	free(out);

	rc = kmsg_read_matched("/dev/kmsg", true, &out, &len, &st);
	if (rc)
		fail_msg("kmsg_read_matched(/dev/kmsg): %s", strerror(-rc));
	/* the whole ring read, to its end, well inside the time bound; the
	 * kernel's records all in its form */
	assert_true(st.records > 0);
	assert_false(st.cut);
	assert_int_equal(st.unparsed, 0);
	assert_int_equal(strlen(out), len);
	/* each kept record (a line not starting with ' ') parses and matches */
	for (char *p = out; *p;) {
		char *e = strchr(p, '\n');
		struct kmsg_record r;
		const struct kmsg_pattern *pt;
		int err;

		assert_non_null(e);
		if (*p != ' ') {
			assert_int_equal(kmsg_parse_record(p, (size_t)(e - p + 1), &r), 0);
			pt = kmsg_match(r.msg, r.msg_len, &err);
			assert_non_null(pt);
			if (memmem(r.msg, r.msg_len, nonce, strlen(nonce))) {
				/* the kernel kept the level and the text as written */
				assert_int_equal(r.level, 4);
				assert_int_equal(r.facility, 1);
				assert_string_equal(pt->id, "kmsg.pcie_power");
				assert_int_equal(r.msg_len, strlen(line) - 5);
				assert_memory_equal(r.msg, line + 4, r.msg_len);
				assert_true(r.usec > 0);
				found++;
			}
		}
		p = e + 1;
	}
	assert_int_equal(found, 1);
	free(out);
}

/* Records in /dev/kmsg's form written by the tests below: a kernel line
 * that is no fault (usb), and two the table matches (the texts of
 * mlx5e_update_carrier's "Link down" and poll_health's "device's health
 * compromised - reached miss count", prefixed as netdev_info/mlx5_core_err
 * print them), each with the " KEY=VALUE" lines /dev/kmsg adds. */
static int record(char *buf, size_t len, unsigned kind, uint64_t seq)
{
	switch (kind) {
	case 0:
		return snprintf(buf, len, "6,%llu,%llu,-;usb 1-1: an ordinary line %llu, no fault "
				"at all, padded to look like a real one\n SUBSYSTEM=usb\n",
				(unsigned long long)seq, (unsigned long long)seq * 10,
				(unsigned long long)seq);
	case 1:
		return snprintf(buf, len, "6,%llu,%llu,-;mlx5_core 0000:08:00.0 ens1np0: Link down\n"
				" SUBSYSTEM=pci\n DEVICE=+pci:0000:08:00.0\n",
				(unsigned long long)seq, (unsigned long long)seq * 10);
	default:
		return snprintf(buf, len, "3,%llu,%llu,-;mlx5_core 0000:08:00.0: poll_health:825:"
				"(pid 0): device's health compromised - reached miss count\n"
				" SUBSYSTEM=pci\n DEVICE=+pci:0000:08:00.0\n",
				(unsigned long long)seq, (unsigned long long)seq * 10);
	}
}

/* every 100th record a Link down, the last a health fault */
static unsigned kind_of(uint64_t i, uint64_t n)
{
	return i == n - 1 ? 2 : i % 100 == 99 ? 1 : 0;
}

/* the temp file of n records, seq from 0; the number that match */
static int big_log(uint64_t n, uint64_t *matched)
{
	char tmpl[] = "/tmp/unit_kmsg_read.XXXXXX", rec[512];
	int fd = mkstemp(tmpl);
	FILE *f;

	assert_true(fd >= 0);
	unlink(tmpl);
	f = fdopen(dup(fd), "w");
	assert_non_null(f);
	*matched = 0;
	for (uint64_t i = 0; i < n; i++) {
		unsigned k = kind_of(i, n);

		record(rec, sizeof(rec), k, i);
		fputs(rec, f);
		*matched += k != 0;
	}
	assert_int_equal(fclose(f), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static size_t count_records(const char *out)
{
	size_t n = 0;

	for (const char *p = out; *p; p = strchr(p, '\n') + 1)
		n += *p != ' ';
	return n;
}

/* More than the old bound (4 MiB and 200000 records read from the oldest):
 * read to the end, the newest matches kept, what the keep bound dropped
 * counted.  The file is read in chunks that cut records anywhere. */
static void test_reads_past_the_bound(void **state)
{
	const uint64_t n = 250000;
	uint64_t matched;
	struct kmsg_bounds b = { 4u << 20, 1000, 120 };
	struct kmsg_reading st;
	struct kmsg_record r;
	char *out, first[512];
	const char *last;
	size_t len;
	off_t size;
	int fd = big_log(n, &matched);

	(void)state;
	size = lseek(fd, 0, SEEK_END);
	assert_true(size > (off_t)(4u << 20));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(kmsg_read_fd(fd, false, &b, &out, &len, &st), 0);
	assert_int_equal(st.records, n);
	assert_int_equal(st.unparsed, 0);
	assert_false(st.cut);
	assert_int_equal(st.first_seq, 0);
	assert_int_equal(st.lost, 0);
	assert_int_equal(matched, 2500);
	assert_int_equal(st.dropped, matched - 1000);
	assert_int_equal(count_records(out), 1000);
	assert_int_equal(strlen(out), len);
	/* the newest fault, at the very end of the log, is among them */
	last = strstr(out, "3,249999,2499990,-;");
	assert_non_null(last);
	assert_int_equal(kmsg_parse_record(last, strlen(last), &r), 0);
	assert_int_equal(r.seq, n - 1);
	assert_string_equal(r.device, "0000:08:00.0");
	/* and the oldest kept is the 1501st match: record 150099 */
	record(first, sizeof(first), 1, 150099);
	assert_memory_equal(out, first, strlen(first));
	free(out);

	/* the byte bound: as many whole records as fit, the newest */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	b.keep_records = 100000;
	b.keep_bytes = 10 * strlen(first);
	assert_int_equal(kmsg_read_fd(fd, false, &b, &out, &len, &st), 0);
	assert_true(len <= b.keep_bytes);
	assert_int_equal(count_records(out), 9);	/* the health record is longer */
	assert_int_equal(st.dropped, matched - 9);
	assert_non_null(strstr(out, "3,249999,"));
	free(out);

	/* the default bounds of what is kept read it all too, and keep every
	 * match (their time bound left out: under an emulator or a loaded
	 * machine 250,000 records can take longer, and test_time_bound holds
	 * what a read cut by time does) */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	b = kmsg_bounds_default;
	b.seconds = 3600;
	assert_int_equal(kmsg_read_fd(fd, false, &b, &out, &len, &st), 0);
	assert_int_equal(st.records, n);
	assert_false(st.cut);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(count_records(out), matched);
	free(out);
	close(fd);
}

/* The time bound: a read that cannot end in time stops, says so, and
 * keeps what it read. */
static void test_time_bound(void **state)
{
	uint64_t matched;
	struct kmsg_bounds b = { 4u << 20, 20000, 1e-4 };
	struct kmsg_reading st;
	char *out;
	size_t len;
	int fd = big_log(250000, &matched);

	(void)state;
	assert_int_equal(kmsg_read_fd(fd, false, &b, &out, &len, &st), 0);
	assert_true(st.cut);
	assert_true(st.records < 250000);
	assert_int_equal(count_records(out), st.records / 100);
	free(out);
	b.seconds = 0;
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(kmsg_read_fd(fd, false, &b, &out, &len, &st), 0);
	assert_true(st.cut);
	assert_int_equal(st.records, 0);
	assert_int_equal(len, 0);
	assert_string_equal(out, "");
	free(out);
	close(fd);
}

/* One record per read(2), as /dev/kmsg gives them: a packet-mode pipe
 * (O_DIRECT), one write per record, from a child.  The first SEQ is 500
 * (the ring had overwritten 500 records of this boot) and a gap of 7 after
 * record 1000 (records overwritten while read: the -EPIPE the kernel
 * gives, after which it goes on at the oldest it still has). */
static void test_one_record_per_read(void **state)
{
	struct kmsg_bounds b = { 4u << 20, 20000, 60 };
	struct kmsg_reading st;
	char *out;
	size_t len;
	int p[2], status;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe2(p, O_DIRECT | O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char rec[512];

		close(p[0]);
		for (uint64_t i = 0, seq = 500; i < 3000; i++, seq += i == 501 ? 8 : 1) {
			int l = record(rec, sizeof(rec), kind_of(i, 3000), seq);

			if (write(p[1], rec, (size_t)l) != l)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	assert_int_equal(kmsg_read_fd(p[0], false, &b, &out, &len, &st), 0);
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(st.records, 3000);
	assert_int_equal(st.first_seq, 500);
	assert_int_equal(st.lost, 7);
	assert_int_equal(st.dropped, 0);
	assert_false(st.cut);
	assert_int_equal(count_records(out), 30);
	free(out);
}

static void test_missing(void **state)
{
	char *out;
	size_t len;
	struct kmsg_reading st;

	(void)state;
	assert_int_equal(kmsg_read_matched("/nonexistent/kmsg", true, &out, &len, &st), -ENOENT);
	assert_null(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_ring),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_reads_past_the_bound),
		cmocka_unit_test(test_time_bound),
		cmocka_unit_test(test_one_record_per_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
