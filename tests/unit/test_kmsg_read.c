/* The live reader on this machine's real /dev/kmsg.  The test writes one
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysfs/kmsg_parse.h"
#include "sysfs/kmsg_read.h"

static void test_real_ring(void **state)
{
	char *out, line[256], nonce[64];
	size_t len, seen, found = 0;
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
	rc = kmsg_read_matched("/dev/kmsg", false, &out, &len, &seen);
	if (rc)
		fail_msg("kmsg_read_matched(/dev/kmsg): %s", strerror(-rc));
	assert_null(strstr(out, nonce));
	free(out);

	rc = kmsg_read_matched("/dev/kmsg", true, &out, &len, &seen);
	if (rc)
		fail_msg("kmsg_read_matched(/dev/kmsg): %s", strerror(-rc));
	assert_true(seen > 0);
	assert_true(seen <= KMSG_READ_RECORDS);
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

static void test_missing(void **state)
{
	char *out;
	size_t len, seen;

	(void)state;
	assert_int_equal(kmsg_read_matched("/nonexistent/kmsg", true, &out, &len, &seen), -ENOENT);
	assert_null(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_ring),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
