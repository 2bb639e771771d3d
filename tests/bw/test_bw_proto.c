/* The bw control protocol: every message round-trips, and every kind of
 * damage (magic, version, type, length, truncation, bad fields) is refused
 * with a message.  With RD_BW_PROTO_CORPUS=DIR set, the well-formed frames
 * are also written there (tests/fuzz/corpus/bw_proto/ was made that way). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include <sys/resource.h>

#include <sys/socket.h>
#include <unistd.h>

#include "bw/params.h"
#include "bw/proto.h"
#include "bw/proto_io.h"

/* header + payload in one buffer */
static size_t frame(uint8_t *out, size_t cap, uint16_t type, const struct bw_buf *b)
{
	size_t len = b ? b->len : 0;

	assert_true(BW_HDR_LEN + len <= cap);
	bw_hdr_encode(out, type, (uint32_t)len);
	if (len)
		memcpy(out + BW_HDR_LEN, b->p, len);
	return BW_HDR_LEN + len;
}

static void save(const char *name, const uint8_t *p, size_t n)
{
	const char *dir = getenv("RD_BW_PROTO_CORPUS");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static struct bw_hello sample_hello(void)
{
	struct bw_hello h;

	memset(&h, 0, sizeof(h));
	bw_params_defaults(&h.p, BW_MODE_BW);
	h.p.transport = BW_TRANSPORT_VERBS;
	h.p.op = BW_OP_READ;
	h.p.size = 1ull << 20;
	h.p.qps = 4;
	h.p.bidir = true;
	h.p.cq_mod = 16;
	h.p.post_list = 8;
	h.p.inline_size = 220;
	h.n_rails = 8;
	snprintf(h.host, sizeof(h.host), "gpu-node-17");
	return h;
}

static void hello_round_trip(void **state)
{
	struct bw_hello h = sample_hello(), d;
	struct bw_buf b = { 0 };
	struct bw_err e;
	static uint8_t f[4096];
	size_t n;

	(void)state;
	assert_int_equal(bw_hello_encode(&h, &b), 0);
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), 0);
	assert_memory_equal(&d.p, &h.p, sizeof(h.p));
	assert_int_equal(d.n_rails, 8);
	assert_string_equal(d.host, "gpu-node-17");
	n = frame(f, sizeof(f), BW_MSG_HELLO, &b);
	assert_int_equal(bw_frame_check(f, n, &e), 0);
	save("hello", f, n);
	/* every truncation is refused */
	for (size_t k = 0; k < b.len; k++)
		assert_int_equal(bw_hello_decode(b.p, k, &d, &e), -1);
	/* one byte too many, too */
	b.p[b.len] = 0;
	assert_int_equal(bw_hello_decode(b.p, b.len + 1 <= b.cap ? b.len + 1 : b.len - 1, &d, &e),
			 -1);
	/* an unknown op */
	b.p[2] = 9;
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), -1);
	assert_non_null(strstr(e.msg, "unknown"));
	bw_buf_free(&b);
}

/* Version 3: the client's --expect-gbps travels in HELLO so that the
 * server judges by the same floor (bw server --once exits as the client). */
static void hello_carries_the_floor(void **state)
{
	struct bw_hello h = sample_hello(), d;
	struct bw_buf b = { 0 };
	struct bw_err e;
	uint8_t *flag;

	(void)state;
	h.expect_gbps = 187.5;
	assert_int_equal(bw_hello_encode(&h, &b), 0);
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), 0);
	assert_true(d.expect_gbps == 187.5);
	/* the flag and the 8 bytes of the floor end the payload */
	flag = &b.p[b.len - 9];
	assert_int_equal(*flag, 1);
	*flag = 2;	/* an unknown flag */
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), -1);
	assert_non_null(strstr(e.msg, "expect-gbps"));
	*flag = 0;	/* no floor, but bits after it */
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), -1);
	bw_buf_free(&b);
	memset(&b, 0, sizeof(b));
	/* a negative, infinite or NaN floor is refused */
	{
		const double bad[] = { -1.0, INFINITY, 2e6 };

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			uint64_t bits;

			h.expect_gbps = 100;
			assert_int_equal(bw_hello_encode(&h, &b), 0);
			memcpy(&bits, &bad[k], sizeof(bits));
			bw_put_be(&b.p[b.len - 8], bits, 8);
			assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), -1);
			bw_buf_free(&b);
			memset(&b, 0, sizeof(b));
		}
	}
	/* none asked (NAN, or 0 from a memset): NAN on the other end */
	h.expect_gbps = NAN;
	assert_int_equal(bw_hello_encode(&h, &b), 0);
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), 0);
	assert_true(isnan(d.expect_gbps));
	bw_buf_free(&b);
	memset(&b, 0, sizeof(b));
	h.expect_gbps = 0;
	assert_int_equal(bw_hello_encode(&h, &b), 0);
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), 0);
	assert_true(isnan(d.expect_gbps));
	bw_buf_free(&b);
}

static void hello_host_must_be_printable(void **state)
{
	struct bw_hello h = sample_hello(), d;
	struct bw_buf b = { 0 };
	struct bw_err e;

	(void)state;
	snprintf(h.host, sizeof(h.host), "evil\033[2J");
	assert_int_equal(bw_hello_encode(&h, &b), 0);
	assert_int_equal(bw_hello_decode(b.p, b.len, &d, &e), -1);
	bw_buf_free(&b);
}

static void header_damage(void **state)
{
	uint8_t h[BW_HDR_LEN];
	uint16_t type;
	uint32_t len;
	struct bw_err e;

	(void)state;
	bw_hdr_encode(h, BW_MSG_GO, 0);
	assert_int_equal(bw_hdr_parse(h, &type, &len, &e), 0);
	assert_int_equal(type, BW_MSG_GO);
	save("go", h, sizeof(h));
	h[0] ^= 0xff;
	assert_int_equal(bw_hdr_parse(h, &type, &len, &e), -1);
	assert_non_null(strstr(e.msg, "magic"));
	bw_hdr_encode(h, BW_MSG_GO, 0);
	h[5] = BW_PROTO_VERSION + 1;
	assert_int_equal(bw_hdr_parse(h, &type, &len, &e), -1);
	assert_non_null(strstr(e.msg, "version"));
	bw_hdr_encode(h, 99, 0);
	assert_int_equal(bw_hdr_parse(h, &type, &len, &e), -1);
	bw_hdr_encode(h, BW_MSG_RESULT, 0xffffffffu);
	assert_int_equal(bw_hdr_parse(h, &type, &len, &e), -1);
	assert_non_null(strstr(e.msg, "limit"));
	/* GO with a payload, a frame whose length lies */
	{
		uint8_t f[BW_HDR_LEN + 4] = { 0 };

		bw_hdr_encode(f, BW_MSG_GO, 4);
		assert_int_equal(bw_frame_check(f, sizeof(f), &e), -1);
		bw_hdr_encode(f, BW_MSG_BYE, 8);
		assert_int_equal(bw_frame_check(f, sizeof(f), &e), -1);
		assert_int_equal(bw_frame_check(f, 5, &e), -1);
	}
}

static void result_round_trip(void **state)
{
	struct bw_result r, d;
	struct bw_buf b = { 0 };
	struct bw_err e;
	uint32_t rail;
	static uint8_t f[1 << 16];
	size_t n;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.seconds = 5.0001;
	r.bytes = 61234567890ull;
	r.msgs = 934365;
	r.cpu_user_s = 4.5;
	r.cpu_sys_s = 0.25;
	r.mtu = 4096;
	r.gid_index = 3;
	r.numa_node = 1;
	snprintf(r.device, sizeof(r.device), "mlx5_0");
	snprintf(r.gid, sizeof(r.gid), "::ffff:10.0.0.1");
	r.n_intervals = 5;
	r.intervals = calloc(5, sizeof(*r.intervals));
	r.n_lat = 100;
	r.lat_usec = calloc(100, sizeof(double));
	assert_non_null(r.intervals);
	assert_non_null(r.lat_usec);
	for (int i = 0; i < 5; i++)
		r.intervals[i] = (struct bw_interval){ 1.0, 12000000000ull + (uint64_t)i, 18000 };
	for (int i = 0; i < 100; i++)
		r.lat_usec[i] = 1.5 + i / 100.0;
	assert_int_equal(bw_result_encode(2, &r, &b), 0);
	assert_int_equal(bw_result_decode(b.p, b.len, &rail, &d, &e), 0);
	assert_int_equal(rail, 2);
	assert_true(d.seconds == r.seconds);
	assert_int_equal(d.bytes, r.bytes);
	assert_int_equal(d.n_intervals, 5);
	assert_int_equal(d.intervals[4].bytes, 12000000004ull);
	assert_int_equal(d.n_lat, 100);
	assert_true(d.lat_usec[99] == r.lat_usec[99]);
	assert_string_equal(d.device, "mlx5_0");
	assert_string_equal(d.gid, "::ffff:10.0.0.1");
	assert_int_equal(d.gid_index, 3);
	bw_result_free(&d);
	n = frame(f, sizeof(f), BW_MSG_RESULT, &b);
	assert_int_equal(bw_frame_check(f, n, &e), 0);
	save("result", f, n);
	/* truncations, at a few points, are refused and leak nothing */
	for (size_t k = 0; k < b.len; k += 7)
		assert_int_equal(bw_result_decode(b.p, k, &rail, &d, &e), -1);
	/* a NaN in the seconds */
	{
		uint64_t nanbits = 0x7ff8000000000000ull;

		for (int i = 0; i < 8; i++)
			b.p[4 + i] = (uint8_t)(nanbits >> (56 - 8 * i));
		assert_int_equal(bw_result_decode(b.p, b.len, &rail, &d, &e), -1);
	}
	bw_buf_free(&b);
	bw_result_free(&r);
}

static void result_thinned_to_bounds(void **state)
{
	struct bw_result r, d;
	struct bw_buf b = { 0 };
	struct bw_err e;
	uint32_t rail;
	size_t n = BW_LAT_SAMPLES_MAX * 2 + 5;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.n_lat = n;
	r.lat_usec = malloc(n * sizeof(double));
	assert_non_null(r.lat_usec);
	for (size_t i = 0; i < n; i++)
		r.lat_usec[i] = (double)i;
	assert_int_equal(bw_result_encode(0, &r, &b), 0);
	assert_int_equal(bw_result_decode(b.p, b.len, &rail, &d, &e), 0);
	assert_true(d.n_lat <= BW_LAT_SAMPLES_MAX);
	assert_true(d.n_lat >= BW_LAT_SAMPLES_MAX / 2);
	/* evenly: the last kept sample is near the end */
	assert_true(d.lat_usec[d.n_lat - 1] > (double)n * 0.99);
	bw_result_free(&d);
	bw_buf_free(&b);
	/* by rank, not by time: a slowest sample that comes first and a
	 * fastest that comes in between survive (every k-th in time order
	 * dropped them) */
	for (size_t i = 0; i < n; i++)
		r.lat_usec[i] = 10 + (double)(i % 7);
	r.lat_usec[1] = 1e6;
	r.lat_usec[n / 2 + 1] = 0.5;
	assert_int_equal(bw_result_encode(0, &r, &b), 0);
	assert_int_equal(bw_result_decode(b.p, b.len, &rail, &d, &e), 0);
	assert_int_equal(d.n_lat, BW_LAT_SAMPLES_MAX);
	{
		double mn = d.lat_usec[0], mx = d.lat_usec[0];

		for (size_t i = 1; i < d.n_lat; i++) {
			mn = d.lat_usec[i] < mn ? d.lat_usec[i] : mn;
			mx = d.lat_usec[i] > mx ? d.lat_usec[i] : mx;
		}
		assert_true(mn == 0.5);
		assert_true(mx == 1e6);
	}
	bw_result_free(&d);
	bw_buf_free(&b);
	bw_result_free(&r);
	/* intervals over the bound keep the slowest and the fastest */
	memset(&r, 0, sizeof(r));
	r.n_intervals = BW_INTERVALS_MAX * 3 + 1;
	r.intervals = calloc(r.n_intervals, sizeof(*r.intervals));
	assert_non_null(r.intervals);
	for (size_t i = 0; i < r.n_intervals; i++)
		r.intervals[i] = (struct bw_interval){ 1, 1000, 1 };
	r.intervals[4].bytes = 1;
	r.intervals[BW_INTERVALS_MAX + 2].bytes = 99999;
	assert_int_equal(bw_result_encode(0, &r, &b), 0);
	assert_int_equal(bw_result_decode(b.p, b.len, &rail, &d, &e), 0);
	assert_true(d.n_intervals <= BW_INTERVALS_MAX);
	{
		uint64_t mn = UINT64_MAX, mx = 0;

		for (size_t i = 0; i < d.n_intervals; i++) {
			mn = d.intervals[i].bytes < mn ? d.intervals[i].bytes : mn;
			mx = d.intervals[i].bytes > mx ? d.intervals[i].bytes : mx;
		}
		assert_int_equal(mn, 1);
		assert_int_equal(mx, 99999);
	}
	bw_result_free(&d);
	bw_result_free(&r);
	bw_buf_free(&b);
}

static void endpoint_and_text(void **state)
{
	uint8_t ep[40], f[256];
	struct bw_buf b = { 0 };
	struct bw_err e;
	const uint8_t *got;
	size_t len, n;
	uint32_t rail;
	char text[BW_ERROR_MAX + 1];

	(void)state;
	for (int i = 0; i < 40; i++)
		ep[i] = (uint8_t)i;
	assert_int_equal(bw_endpoint_encode(3, ep, sizeof(ep), &b), 0);
	assert_int_equal(bw_endpoint_decode(b.p, b.len, &rail, &got, &len, &e), 0);
	assert_int_equal(rail, 3);
	assert_int_equal(len, 40);
	assert_memory_equal(got, ep, 40);
	n = frame(f, sizeof(f), BW_MSG_ENDPOINT, &b);
	save("endpoint", f, n);
	/* length field larger than what follows; a rail out of range */
	b.p[7] = 41;
	assert_int_equal(bw_endpoint_decode(b.p, b.len, &rail, &got, &len, &e), -1);
	b.p[7] = 40;
	b.p[0] = 0xff;
	assert_int_equal(bw_endpoint_decode(b.p, b.len, &rail, &got, &len, &e), -1);
	bw_buf_free(&b);

	assert_int_equal(bw_text_encode("message size 2147483648 is over the cap", BW_ERROR_MAX,
					&b), 0);
	assert_int_equal(bw_text_decode(b.p, b.len, BW_ERROR_MAX, text, sizeof(text), &e), 0);
	assert_string_equal(text, "message size 2147483648 is over the cap");
	n = frame(f, sizeof(f), BW_MSG_ERROR, &b);
	save("error", f, n);
	assert_int_equal(bw_text_decode(b.p, b.len - 1, BW_ERROR_MAX, text, sizeof(text), &e), -1);
	bw_buf_free(&b);

	/* AUTH: the client's token, a text within BW_TOKEN_MAX */
	assert_int_equal(bw_text_encode("s3cret-token", BW_TOKEN_MAX, &b), 0);
	n = frame(f, sizeof(f), BW_MSG_AUTH, &b);
	assert_int_equal(bw_frame_check(f, n, &e), 0);
	save("auth", f, n);
	bw_buf_free(&b);
}

static void caps_refuse_with_the_cap(void **state)
{
	struct bw_params p;
	struct bw_caps c;
	struct bw_err e;

	(void)state;
	bw_params_defaults(&p, BW_MODE_BW);
	bw_caps_defaults(&c);
	assert_int_equal(bw_params_check(&p, 1, &c, &e), 0);
	p.size = 1ull << 29;
	c.max_size = 1ull << 20;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	assert_non_null(strstr(e.msg, "--max-size"));
	bw_params_defaults(&p, BW_MODE_BW);
	p.qps = 1000;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	assert_non_null(strstr(e.msg, "--max-qps"));
	bw_params_defaults(&p, BW_MODE_BW);
	p.duration_ms = 24u * 3600 * 1000;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	assert_non_null(strstr(e.msg, "--max-duration"));
	bw_params_defaults(&p, BW_MODE_BW);
	p.size = 1ull << 30;
	p.qps = 64;
	c.max_size = 1ull << 30;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	assert_non_null(strstr(e.msg, "--max-memory"));
	bw_params_defaults(&p, BW_MODE_BW);
	p.iters = 1ull << 40;
	p.duration_ms = 0;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	bw_params_defaults(&p, BW_MODE_BW);
	p.transport = BW_TRANSPORT_VERBS;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	assert_non_null(strstr(e.msg, "verbs"));
	bw_params_defaults(&p, BW_MODE_BW);
	p.size = 0;
	assert_int_equal(bw_params_check(&p, 1, NULL, &e), -1);
	bw_params_defaults(&p, BW_MODE_BW);
	p.cq_mod = p.tx_depth + 1;
	assert_int_equal(bw_params_check(&p, 1, NULL, &e), -1);
	bw_params_defaults(&p, BW_MODE_BW);
	assert_int_equal(bw_params_check(&p, BW_RAILS_MAX + 1, NULL, &e), -1);
	/* iterations: the cap counts every stream and rail ... */
	bw_caps_defaults(&c);
	c.max_duration_ms = 10000;
	bw_params_defaults(&p, BW_MODE_BW);
	p.duration_ms = 0;
	p.warmup_ms = 0;
	p.size = 1 << 20;
	p.iters = 100000;	/* 105 GB: ~1.7 s at 60 GB/s on one stream */
	assert_int_equal(bw_params_check(&p, 1, &c, &e), 0);
	p.qps = 8;		/* 8 streams: ~14 s */
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	assert_non_null(strstr(e.msg, "--max-duration"));
	p.qps = 1;
	assert_int_equal(bw_params_check(&p, 8, &c, &e), -1);
	/* ... and a latency round trip takes at least a microsecond */
	bw_params_defaults(&p, BW_MODE_LAT);
	p.duration_ms = 0;
	p.warmup_ms = 0;
	p.iters = 100000000;	/* 100 s at 1 us */
	assert_int_equal(bw_params_check(&p, 1, &c, &e), -1);
	p.iters = 1000000;
	assert_int_equal(bw_params_check(&p, 1, &c, &e), 0);
	/* the hard bound every run gets */
	assert_int_equal(bw_params_run_bound_ms(&p, 10000), 10000);
	bw_params_defaults(&p, BW_MODE_BW);
	assert_int_equal(bw_params_run_bound_ms(&p, 0), 6000 + BW_RUN_MARGIN_MS);
	assert_int_equal(bw_params_run_bound_ms(&p, 3000), 3000 + BW_RUN_MARGIN_MS);
	/* tcp: streams x rails within the open-file limit */
	{
		struct rlimit old, low;

		assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
		low = old;
		low.rlim_cur = 100;
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
		bw_params_defaults(&p, BW_MODE_BW);
		p.qps = 64;
		assert_int_equal(bw_params_check(&p, 1, NULL, &e), 0);
		assert_int_equal(bw_params_check(&p, 2, NULL, &e), -1);
		assert_non_null(strstr(e.msg, "ulimit -n"));
		p.transport = BW_TRANSPORT_VERBS;	/* QPs are not descriptors */
		assert_int_equal(bw_params_check(&p, 2, NULL, &e), 0);
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	}
}

/* Over a real socket pair: a message sent is the message received; a peer
 * that says nothing times out; a closed peer is said to be closed. */
static void socket_io(void **state)
{
	int sv[2];
	struct bw_err e;
	uint8_t *pl;
	uint32_t len;
	uint16_t type;
	uint8_t data[5] = { 1, 2, 3, 4, 5 };

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(bw_send_msg(sv[0], BW_MSG_ENDPOINT, data, 5, 1000, &e), 0);
	assert_int_equal(bw_recv_msg(sv[1], &type, &pl, &len, 100, 1000, "ENDPOINT", &e), 0);
	assert_int_equal(type, BW_MSG_ENDPOINT);
	assert_int_equal(len, 5);
	assert_memory_equal(pl, data, 5);
	free(pl);
	/* over the caller's bound */
	assert_int_equal(bw_send_msg(sv[0], BW_MSG_ENDPOINT, data, 5, 1000, &e), 0);
	assert_int_equal(bw_recv_msg(sv[1], &type, &pl, &len, 4, 1000, "ENDPOINT", &e), -1);
	assert_null(pl);
	/* silence */
	/* (a failure, and which one as a code: -1 was every failure alike) */
	assert_int_equal(bw_recv_msg(sv[0], &type, &pl, &len, 100, 200, "GO", &e), -BW_E_TIMEOUT);
	assert_non_null(strstr(e.msg, "timed out waiting for GO"));
	close(sv[1]);
	assert_int_equal(bw_recv_msg(sv[0], &type, &pl, &len, 100, 1000, "GO", &e), -BW_E_CLOSED);
	assert_non_null(strstr(e.msg, "closed"));
	/* the message may quote the one it replaces */
	bw_errf(&e, "outer (%s)", e.msg);
	assert_non_null(strstr(e.msg, "outer (the peer closed"));
	close(sv[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hello_round_trip),
		cmocka_unit_test(hello_carries_the_floor),
		cmocka_unit_test(hello_host_must_be_printable),
		cmocka_unit_test(header_damage),
		cmocka_unit_test(result_round_trip),
		cmocka_unit_test(result_thinned_to_bounds),
		cmocka_unit_test(endpoint_and_text),
		cmocka_unit_test(caps_refuse_with_the_cap),
		cmocka_unit_test(socket_io),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
