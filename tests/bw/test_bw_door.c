/* The server's door (bw/token.c, bw/allow.c, bw/peer_memo.c): tokens as
 * typed and as read from a file, their comparison and an AUTH judged, the
 * pause wrong guesses earn and the log's budget, CIDRs of both families and the match of
 * a peer's address (an IPv4-mapped one counts as its IPv4), and the caps
 * a server has by default. */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bw/allow.h"
#include "bw/peer_memo.h"
#include "bw/params.h"
#include "bw/proto.h"
#include "bw/token.h"

static void token_text(void **state)
{
	char out[BW_TOKEN_MAX + 1], long_one[BW_TOKEN_MAX + 2];
	struct bw_err e;

	(void)state;
	assert_int_equal(bw_token_take("s3cret-token\n", 13, out, sizeof(out), &e), 0);
	assert_string_equal(out, "s3cret-token");
	assert_int_equal(bw_token_take("s3cret-token\r\n", 14, out, sizeof(out), &e), 0);
	assert_string_equal(out, "s3cret-token");
	assert_int_equal(bw_token_take("", 0, out, sizeof(out), &e), -1);
	assert_int_equal(bw_token_take("\n", 1, out, sizeof(out), &e), -1);
	/* shorter than BW_TOKEN_MIN (12): guessed at 3,000 tries a second */
	assert_int_equal(bw_token_take("s3cret-toke", 11, out, sizeof(out), &e), -1);
	assert_non_null(strstr(e.msg, "12 to 256 characters"));
	assert_null(strstr(e.msg, "s3cret"));
	assert_int_equal(bw_token_take("two words and more", 18, out, sizeof(out), &e), -1);
	assert_non_null(strstr(e.msg, "character 4"));
	assert_null(strstr(e.msg, "two"));	/* the secret is never quoted */
	assert_int_equal(bw_token_take("a\0bcdefghijkl", 13, out, sizeof(out), &e), -1);
	memset(long_one, 'x', sizeof(long_one));
	assert_int_equal(bw_token_take(long_one, BW_TOKEN_MAX, out, sizeof(out), &e), 0);
	assert_int_equal(bw_token_take(long_one, BW_TOKEN_MAX + 1, out, sizeof(out), &e), -1);
}

static void token_file(void **state)
{
	char path[] = "/tmp/rd_token_XXXXXX", out[BW_TOKEN_MAX + 1];
	struct bw_err e, warn;
	int fd = mkstemp(path);
	char big[BW_TOKEN_MAX + 10];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "from-a-file-1\n", 14), 14);
	assert_int_equal(bw_token_read_file(path, out, sizeof(out), &e, &warn), 0);
	assert_string_equal(out, "from-a-file-1");
	assert_string_equal(warn.msg, "");	/* mkstemp's 0600 */
	/* readable by others: used, and said (issue 44) */
	assert_int_equal(fchmod(fd, 0644), 0);
	assert_int_equal(bw_token_read_file(path, out, sizeof(out), &e, &warn), 0);
	assert_non_null(strstr(warn.msg, "readable by every user (mode 0644)"));
	assert_non_null(strstr(warn.msg, "chmod 600"));
	assert_int_equal(fchmod(fd, 0640), 0);
	assert_int_equal(bw_token_read_file(path, out, sizeof(out), &e, &warn), 0);
	assert_non_null(strstr(warn.msg, "readable by its group"));
	/* a file longer than any token is refused, not cut */
	memset(big, 'y', sizeof(big));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(write(fd, big, sizeof(big)), (ssize_t)sizeof(big));
	assert_int_equal(bw_token_read_file(path, out, sizeof(out), &e, &warn), -1);
	assert_non_null(strstr(e.msg, path));
	close(fd);
	unlink(path);
	assert_int_equal(bw_token_read_file(path, out, sizeof(out), &e, &warn), -1);
	assert_non_null(strstr(e.msg, "cannot open"));
}

static void token_equal(void **state)
{
	(void)state;
	assert_true(bw_token_equal("abc", "abc"));
	assert_false(bw_token_equal("abc", "abd"));
	assert_false(bw_token_equal("abc", "ab"));
	assert_false(bw_token_equal("abc", "abcd"));
	assert_false(bw_token_equal("abc", ""));
}

static bool match(const char *cidr, const char *peer)
{
	struct bw_allow a;
	struct bw_err e;
	struct sockaddr_in v4 = { .sin_family = AF_INET };
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };

	assert_int_equal(bw_allow_parse(cidr, &a, &e), 0);
	if (inet_pton(AF_INET, peer, &v4.sin_addr) == 1)
		return bw_allow_match(&a, 1, (struct sockaddr *)&v4);
	assert_int_equal(inet_pton(AF_INET6, peer, &v6.sin6_addr), 1);
	return bw_allow_match(&a, 1, (struct sockaddr *)&v6);
}

static void allow_cidrs(void **state)
{
	static const char *const bad[] = { "", "/8", "10.0.0.0/33", "fd00::/129", "10.0.0.0/",
					   "10.0.0.0/+8", "10.0.0.0/ 8", "10.0.0.0/8x", "host",
					   "10.0.0.0/0008", "1.2.3.4.5" };
	struct bw_allow a;
	struct bw_err e;

	(void)state;
	assert_true(match("127.0.0.1/32", "127.0.0.1"));
	assert_false(match("127.0.0.1/32", "127.0.0.2"));
	assert_true(match("10.0.0.0/8", "10.200.1.1"));
	assert_false(match("10.0.0.0/8", "11.0.0.1"));
	assert_true(match("10.1.2.128/25", "10.1.2.200"));
	assert_false(match("10.1.2.128/25", "10.1.2.100"));
	assert_true(match("0.0.0.0/0", "192.0.2.1"));
	assert_true(match("192.0.2.7", "192.0.2.7"));	/* an address: all bits */
	assert_false(match("192.0.2.7", "192.0.2.8"));
	/* a dual-stack listener sees an IPv4 peer as ::ffff:a.b.c.d */
	assert_true(match("127.0.0.0/8", "::ffff:127.0.0.5"));
	assert_false(match("127.0.0.0/8", "::ffff:10.0.0.5"));
	assert_true(match("::ffff:10.0.0.0/104", "10.9.9.9"));	/* and the other way */
	assert_false(match("::ffff:10.0.0.0/104", "11.9.9.9"));
	assert_true(match("fd00::/64", "fd00::1"));
	assert_false(match("fd00::/64", "fd00:0:0:1::1"));
	assert_true(match("::1/128", "::1"));
	assert_false(match("::1/128", "127.0.0.1"));	/* families do not mix */
	assert_false(match("127.0.0.1/32", "::1"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(bw_allow_parse(bad[i], &a, &e), -1);
		assert_non_null(strstr(e.msg, "not an address"));
	}
	/* no list: anyone */
	{
		struct sockaddr_in v4 = { .sin_family = AF_INET };

		assert_true(bw_allow_match(NULL, 0, (struct sockaddr *)&v4));
	}
}

static void caps_for_a_link_test(void **state)
{
	struct bw_caps c;

	(void)state;
	bw_caps_defaults(&c);
	assert_int_equal(c.max_size, 64ull << 20);
	assert_int_equal(c.max_duration_ms, 60 * 1000);
	assert_int_equal(c.max_memory, 2ull << 30);
}

static void auth_frame(void **state)
{
	uint8_t f[BW_HDR_LEN + 2 + BW_TOKEN_MAX + 1];
	struct bw_buf b = { 0 };
	struct bw_err e;
	char tok[BW_TOKEN_MAX + 2];

	(void)state;
	assert_int_equal(bw_text_encode("s3cret", BW_TOKEN_MAX, &b), 0);
	bw_hdr_encode(f, BW_MSG_AUTH, (uint32_t)b.len);
	memcpy(f + BW_HDR_LEN, b.p, b.len);
	assert_int_equal(bw_frame_check(f, BW_HDR_LEN + b.len, &e), 0);
	bw_buf_free(&b);
	/* a token one past the bound is malformed */
	memset(tok, 'z', sizeof(tok));
	tok[BW_TOKEN_MAX + 1] = 0;
	bw_put_be(f + BW_HDR_LEN, BW_TOKEN_MAX + 1, 2);
	memcpy(f + BW_HDR_LEN + 2, tok, BW_TOKEN_MAX + 1);
	bw_hdr_encode(f, BW_MSG_AUTH, 2 + BW_TOKEN_MAX + 1);
	assert_int_equal(bw_frame_check(f, sizeof(f), &e), -1);
	assert_non_null(strstr(e.msg, "malformed"));
}

/* Five wrong tokens in a row are free; then 1, 2, 4... s, up to 60; a
 * right one forgets them; another address is not touched. */
static void wrong_tokens_pause(void **state)
{
	struct bw_peer_memo *m = malloc(sizeof(*m));
	double now = 1000;

	(void)state;
	assert_non_null(m);
	bw_peer_memo_init(m);
	for (int i = 0; i < BW_PEER_FREE_GUESSES; i++)
		assert_true(bw_peer_wrong_token(m, "10.0.0.9", now) == 0);
	assert_true(bw_peer_paused(m, "10.0.0.9", now) == 0);
	assert_true(bw_peer_wrong_token(m, "10.0.0.9", now) == 1);
	assert_true(bw_peer_paused(m, "10.0.0.9", now + 0.5) == 0.5);
	assert_true(bw_peer_paused(m, "10.0.0.9", now + 1) == 0);
	assert_true(bw_peer_paused(m, "10.0.0.8", now) == 0);
	assert_true(bw_peer_wrong_token(m, "10.0.0.9", now + 1) == 2);
	assert_true(bw_peer_wrong_token(m, "10.0.0.9", now + 3) == 4);
	for (int i = 0; i < 40; i++)
		bw_peer_wrong_token(m, "10.0.0.9", now + 10);
	assert_true(bw_peer_paused(m, "10.0.0.9", now + 10) == BW_PEER_PAUSE_MAX_S);
	bw_peer_right_token(m, "10.0.0.9");
	assert_true(bw_peer_paused(m, "10.0.0.9", now + 10) == 0);
	assert_true(bw_peer_wrong_token(m, "10.0.0.9", now + 10) == 0);
	free(m);
}

/* More addresses than it holds: the one seen least lately gives way, and
 * the newest keeps what it earned. */
static void peers_bounded(void **state)
{
	struct bw_peer_memo *m = malloc(sizeof(*m));
	char a[32];

	(void)state;
	assert_non_null(m);
	bw_peer_memo_init(m);
	for (int i = 0; i < BW_PEERS_MAX + 10; i++) {
		snprintf(a, sizeof(a), "10.1.%d.%d", i / 256, i % 256);
		for (int k = 0; k <= BW_PEER_FREE_GUESSES; k++)
			bw_peer_wrong_token(m, a, 100 + i);
	}
	assert_int_equal(m->n, BW_PEERS_MAX);
	assert_true(bw_peer_paused(m, "10.1.0.0", 100) == 0);	/* forgotten */
	snprintf(a, sizeof(a), "10.1.%d.%d", (BW_PEERS_MAX + 9) / 256, (BW_PEERS_MAX + 9) % 256);
	assert_true(bw_peer_paused(m, a, 100 + BW_PEERS_MAX + 9) == 1);
	free(m);
}

/* Addresses only refused (logged) give way before a guesser: strangers
 * knocking from many addresses cannot wipe a guesser's pause. */
static void guessers_kept(void **state)
{
	struct bw_peer_memo *m = malloc(sizeof(*m));
	unsigned unlogged;
	char a[32];

	(void)state;
	assert_non_null(m);
	bw_peer_memo_init(m);
	for (int k = 0; k <= BW_PEER_FREE_GUESSES + 5; k++)
		bw_peer_wrong_token(m, "10.9.9.9", 10);
	assert_true(bw_peer_paused(m, "10.9.9.9", 10) == BW_PEER_PAUSE_MAX_S / 2 + 2);
	for (int i = 0; i < 3 * BW_PEERS_MAX; i++) {
		snprintf(a, sizeof(a), "10.3.%d.%d", i / 256, i % 256);
		bw_peer_log(m, a, 11 + i, &unlogged);
	}
	assert_true(bw_peer_paused(m, "10.9.9.9", 20) > 0);
	/* and its count goes on: the next wrong token doubles the pause */
	assert_true(bw_peer_wrong_token(m, "10.9.9.9", 100) == BW_PEER_PAUSE_MAX_S);
	free(m);
}

/* The log: ten lines of an address at once, then one every 6 s; the line
 * that is logged counts those that were not. */
static void log_budget(void **state)
{
	struct bw_peer_memo *m = malloc(sizeof(*m));
	unsigned unlogged = 99, said = 0;

	(void)state;
	assert_non_null(m);
	bw_peer_memo_init(m);
	for (int i = 0; i < 1000; i++)
		said += bw_peer_log(m, "10.0.0.7", 50, &unlogged);
	assert_int_equal(said, BW_PEER_LOG_BURST);
	assert_int_equal(unlogged, 0);
	/* another address has its own budget */
	assert_true(bw_peer_log(m, "10.0.0.6", 50, &unlogged));
	assert_int_equal(unlogged, 1000 - BW_PEER_LOG_BURST);
	assert_false(bw_peer_log(m, "10.0.0.7", 50 + BW_PEER_LOG_EVERY_S / 2, &unlogged));
	assert_true(bw_peer_log(m, "10.0.0.7", 50 + BW_PEER_LOG_EVERY_S + 0.01, &unlogged));
	assert_int_equal(unlogged, 1);
	/* many addresses at once: the budget of all of them together */
	said = 0;
	for (int i = 0; i < 500; i++) {
		char a[32];

		snprintf(a, sizeof(a), "10.2.%d.%d", i / 256, i % 256);
		said += bw_peer_log(m, a, 60, &unlogged);
	}
	assert_true(said <= BW_LOG_BURST);
	free(m);
}

static void auth_judged(void **state)
{
	struct bw_buf b = { 0 };
	struct bw_err e;
	bool wrong;

	(void)state;
	assert_int_equal(bw_text_encode("the-right-token", BW_TOKEN_MAX, &b), 0);
	assert_int_equal(bw_token_judge("the-right-token", b.p, b.len, &wrong, &e), 0);
	assert_int_equal(bw_token_judge(NULL, b.p, b.len, &wrong, &e), 0);
	assert_int_equal(bw_token_judge("another-token", b.p, b.len, &wrong, &e), -BW_E_REFUSED);
	assert_true(wrong);
	assert_non_null(strstr(e.msg, "bad token"));
	assert_null(strstr(e.msg, "right"));
	bw_buf_free(&b);
	b = (struct bw_buf){ 0 };
	assert_int_equal(bw_text_encode("", BW_TOKEN_MAX, &b), 0);
	assert_int_equal(bw_token_judge("another-token", b.p, b.len, &wrong, &e), -BW_E_REFUSED);
	assert_false(wrong);	/* none presented: no guess */
	assert_non_null(strstr(e.msg, "no token"));
	assert_int_equal(bw_token_judge("another-token", b.p, b.len - 1, &wrong, &e), -1);
	assert_non_null(strstr(e.msg, "malformed"));
	bw_buf_free(&b);
}

static void loopback_addresses(void **state)
{
	(void)state;
	assert_true(bw_addr_loopback("127.0.0.1"));
	assert_true(bw_addr_loopback("127.3.2.1"));
	assert_true(bw_addr_loopback("::1"));
	assert_true(bw_addr_loopback("::ffff:127.0.0.1"));
	assert_true(bw_addr_loopback("localhost"));
	assert_false(bw_addr_loopback(NULL));
	assert_false(bw_addr_loopback("0.0.0.0"));
	assert_false(bw_addr_loopback("::"));
	assert_false(bw_addr_loopback("10.0.0.1"));
	assert_false(bw_addr_loopback("128.0.0.1"));
	assert_false(bw_addr_loopback("::ffff:10.0.0.1"));
	assert_false(bw_addr_loopback("localhost.example"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(token_text),
		cmocka_unit_test(token_file),
		cmocka_unit_test(token_equal),
		cmocka_unit_test(allow_cidrs),
		cmocka_unit_test(caps_for_a_link_test),
		cmocka_unit_test(auth_frame),
		cmocka_unit_test(wrong_tokens_pause),
		cmocka_unit_test(peers_bounded),
		cmocka_unit_test(guessers_kept),
		cmocka_unit_test(log_budget),
		cmocka_unit_test(auth_judged),
		cmocka_unit_test(loopback_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
