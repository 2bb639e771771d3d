/* The live reader on this machine's real /dev/kmsg (skipped where it
 * cannot be opened): it stops at the end of the ring, within its bounds,
 * and keeps only records that parse and match the fault table. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sysfs/kmsg_parse.h"
#include "sysfs/kmsg_read.h"

static void test_real_ring(void **state)
{
	char *out;
	size_t len, seen;
	int rc = kmsg_read_matched("/dev/kmsg", &out, &len, &seen);

	(void)state;
	if (rc == -EPERM || rc == -EACCES || rc == -ENOENT) {
		skip();
		return;
	}
	assert_int_equal(rc, 0);
	assert_true(seen > 0);	/* a booted kernel has logged something */
	assert_true(seen <= KMSG_READ_RECORDS);
	assert_int_equal(strlen(out), len);
	/* each kept record (a line not starting with ' ') parses and matches */
	for (char *p = out; *p;) {
		char *e = strchr(p, '\n');
		struct kmsg_record r;
		int err;

		assert_non_null(e);
		if (*p != ' ') {
			assert_int_equal(kmsg_parse_record(p, (size_t)(e - p + 1), &r), 0);
			assert_non_null(kmsg_match(r.msg, r.msg_len, &err));
		}
		p = e + 1;
	}
	free(out);
}

static void test_missing(void **state)
{
	char *out;
	size_t len, seen;

	(void)state;
	assert_int_equal(kmsg_read_matched("/nonexistent/kmsg", &out, &len, &seen), -ENOENT);
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
