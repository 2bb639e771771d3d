/* The session's deadline (struct bw_session.deadline) and its error codes,
 * over real sockets: a silent peer ends a client's test and a server's
 * wait by the deadline, whatever the control timeout (an hour here: a
 * session that ignored the deadline would hang this test until ctest's
 * limit); a listener nobody connects to times out with BW_E_TIMEOUT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "bw/params.h"
#include "bw/session.h"

static void client_ends_by_the_deadline(void **state)
{
	int sv[2];
	struct bw_session s = { .fd = -1 };
	struct bw_hello h;
	struct bw_rails r;
	struct bw_outcome o;
	struct bw_err e = { "" };

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	memset(&h, 0, sizeof(h));
	memset(&r, 0, sizeof(r));
	bw_params_defaults(&h.p, BW_MODE_BW);
	h.n_rails = 1;
	r.n = 1;
	s.fd = sv[0];
	s.timeout_ms = 3600 * 1000;
	s.deadline = bw_now() + 0.2;
	/* HELLO goes out; the peer never answers */
	assert_int_equal(bw_session_test(&s, &h, &r, &o, &e), -BW_E_TIMEOUT);
	assert_non_null(strstr(e.msg, "did not answer"));
	bw_outcome_free(&o);
	close(sv[0]);
	close(sv[1]);
}

static int no_setup(void *arg, const struct bw_hello *h, struct bw_rails *r, struct bw_err *e)
{
	(void)arg;
	(void)h;
	(void)r;
	bw_errf(e, "not reached");
	return -1;
}

static void no_done(void *arg, const struct bw_hello *h, struct bw_outcome *o)
{
	(void)arg;
	(void)h;
	(void)o;
}

static void server_ends_by_the_deadline(void **state)
{
	int sv[2];
	struct bw_session s = { .fd = -1 };
	struct bw_caps caps;
	struct bw_server_ops ops = { no_setup, no_done, NULL, NULL, NULL };
	struct bw_err e = { "" };

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	bw_caps_defaults(&caps);
	s.fd = sv[1];
	s.timeout_ms = 3600 * 1000;
	s.deadline = bw_now() + 0.2;
	/* a client that connected and says nothing */
	assert_int_equal(bw_session_serve(&s, &caps, &ops, &e), -1);
	assert_non_null(strstr(e.msg, "timed out waiting for AUTH"));
	close(sv[0]);
	close(sv[1]);
}

static void accept_times_out(void **state)
{
	struct bw_session s = { .fd = -1 };
	struct bw_err e = { "" };
	int lfd = bw_listen("127.0.0.1", 0, 4, &e);

	(void)state;
	assert_true(lfd >= 0);
	assert_int_equal(bw_session_accept(lfd, &s, 50, &e), -BW_E_TIMEOUT);
	assert_non_null(strstr(e.msg, "no client came"));
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(client_ends_by_the_deadline),
		cmocka_unit_test(server_ends_by_the_deadline),
		cmocka_unit_test(accept_times_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
