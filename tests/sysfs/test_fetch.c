/* root_fetch, the one live-or-replay path for data that is not a file: a
 * live fetch recorded on the tape replays the same bytes and the same
 * failure; keys that could leave .rdmadoctor/ are refused; nothing is
 * fetched on a replay root. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sysfs/fetch.h"
#include "sysfs/root.h"
#include "sysfs/tape.h"

struct answer {
	const char *bytes;	/* NULL: fail with err */
	size_t len;
	int err;
	int calls;
};

static int fake_fetch(void *arg, void **data, size_t *len)
{
	struct answer *a = arg;

	a->calls++;
	if (!a->bytes)
		return -a->err;
	*data = malloc(a->len);
	if (!*data)
		return -ENOMEM;
	memcpy(*data, a->bytes, a->len);
	*len = a->len;
	return 0;
}

static void keys(void **state)
{
	(void)state;
	assert_true(fetch_key_ok("eth0/linkmodes"));
	assert_true(fetch_key_ok("3/link"));
	assert_true(fetch_key_ok("mlx5_0"));
	assert_false(fetch_key_ok(""));
	assert_false(fetch_key_ok("/etc/passwd"));
	assert_false(fetch_key_ok("../x"));
	assert_false(fetch_key_ok("a/../b"));
	assert_false(fetch_key_ok("a//b"));
	assert_false(fetch_key_ok("a/"));
	assert_false(fetch_name_ok("a/b"));
	assert_false(fetch_name_ok(".."));
	assert_false(fetch_name_ok(NULL));
}

static void live_then_replay(void **state)
{
	char out[] = "/tmp/rdfetch-XXXXXX", cmd[64];
	/* a reply with a NUL inside: bytes, not a string */
	struct answer ok = { "ab\0cd", 5, 0, 0 }, bad = { NULL, 0, EOPNOTSUPP, 0 };
	struct root r, replay;
	void *d;
	size_t n;
	int fd;
	(void)state;

	assert_non_null(mkdtemp(out));
	assert_int_equal(root_open(&r, "/"), 0);
	assert_true(r.live);
	assert_int_equal(root_record(&r), 0);
	assert_int_equal(root_fetch(&r, "dcb", "eth0", 64, fake_fetch, &ok, &d, &n), 0);
	assert_int_equal(n, 5);
	assert_memory_equal(d, "ab\0cd", 5);
	assert_int_equal(((char *)d)[5], '\0');
	free(d);
	assert_int_equal(root_fetch(&r, "dcb", "eth1", 64, fake_fetch, &bad, &d, &n),
			 -EOPNOTSUPP);
	assert_null(d);
	/* more than the caller's cap is refused, not cut */
	assert_int_equal(root_fetch(&r, "dcb", "eth2", 4, fake_fetch, &ok, &d, &n), -EFBIG);
	assert_int_equal(root_fetch(&r, "dcb", "../escape", 64, fake_fetch, &ok, &d, &n),
			 -EINVAL);
	assert_int_equal(ok.calls, 2);
	fd = open(out, O_PATH | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(tape_write(r.tape, fd, NULL, NULL), 0);
	close(fd);
	root_close(&r);

	assert_int_equal(root_open(&replay, out), 0);
	assert_false(replay.live);
	assert_int_equal(root_fetch(&replay, "dcb", "eth0", 64, fake_fetch, &ok, &d, &n), 0);
	assert_int_equal(n, 5);
	assert_memory_equal(d, "ab\0cd", 5);
	free(d);
	/* the failure replays as the same errno */
	assert_int_equal(root_fetch(&replay, "dcb", "eth1", 64, fake_fetch, &ok, &d, &n),
			 -EOPNOTSUPP);
	/* the oversized answer was recorded as its failure */
	assert_int_equal(root_fetch(&replay, "dcb", "eth2", 64, fake_fetch, &ok, &d, &n),
			 -EFBIG);
	assert_int_equal(root_fetch(&replay, "dcb", "eth9", 64, fake_fetch, &ok, &d, &n),
			 -ENOENT);
	/* a replay root never calls out */
	assert_int_equal(ok.calls, 2);
	/* a replayed file longer than the cap is not used */
	assert_int_equal(root_fetch(&replay, "dcb", "eth0", 4, fake_fetch, &ok, &d, &n), -EFBIG);
	root_close(&replay);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", out);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys),
		cmocka_unit_test(live_then_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
