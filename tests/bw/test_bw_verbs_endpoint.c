/* The verbs endpoint bytes: what one side encodes the other decodes, and
 * every field the network could get wrong is refused with its reason.
 * RD_BW_ENDPOINT_CORPUS=DIR writes the seeds of tests/fuzz/corpus/bw_endpoint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bw/verbs_endpoint.h"

static struct verbs_ep_qp roce_qp(uint32_t i)
{
	struct verbs_ep_qp q = {
		.qpn = 0x11 + i, .psn = 0xabcdef - i, .rkey = 0x2db, .addr = 0x557287fb5000ull + i * 0x20000,
		.len = 65536, .lid = 0, .mtu = 1024, .link = VERBS_EP_LINK_ETH,
		.gid_type = VERBS_EP_GID_ROCE_V2, .rd_atomic = 128,
	};
	static const uint8_t g[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 2, 15 };

	memcpy(q.gid, g, 16);
	return q;
}

static void save(const char *name, const uint8_t *b, size_t n)
{
	const char *dir = getenv("RD_BW_ENDPOINT_CORPUS");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(b, 1, n, f);
		fclose(f);
	}
}

static void round_trip(void **state)
{
	struct verbs_ep_qp q[3] = { roce_qp(0), roce_qp(1), roce_qp(2) };
	uint8_t buf[512];
	struct verbs_ep ep;
	char err[200];
	size_t n;
	(void)state;

	n = verbs_ep_encode(q, 3, buf, sizeof(buf));
	assert_int_equal(n, 12 + 3 * 52);
	save("roce-3qp", buf, n);
	/* network byte order, at the documented offsets */
	assert_memory_equal(buf, "RDVB\0\1\0\3\0\x34\0\0", 12);
	assert_memory_equal(buf + 12, "\0\0\0\x11\0\xab\xcd\xef", 8);
	assert_int_equal(verbs_ep_decode(buf, n, &ep, err, sizeof(err)), 0);
	assert_int_equal(ep.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ep.qp[i].qpn, q[i].qpn);
		assert_int_equal(ep.qp[i].psn, q[i].psn);
		assert_int_equal(ep.qp[i].rkey, q[i].rkey);
		assert_true(ep.qp[i].addr == q[i].addr);
		assert_true(ep.qp[i].len == q[i].len);
		assert_int_equal(ep.qp[i].mtu, 1024);
		assert_memory_equal(ep.qp[i].gid, q[i].gid, 16);
		assert_int_equal(ep.qp[i].gid_type, VERBS_EP_GID_ROCE_V2);
		assert_int_equal(ep.qp[i].rd_atomic, 128);
	}
	verbs_ep_free(&ep);

	/* infiniband: lid addressing, no gid */
	q[0] = roce_qp(0);
	q[0].link = VERBS_EP_LINK_IB;
	q[0].gid_type = VERBS_EP_GID_NONE;
	memset(q[0].gid, 0, 16);
	q[0].lid = 7;
	q[0].mtu = 4096;
	n = verbs_ep_encode(q, 1, buf, sizeof(buf));
	save("ib-1qp", buf, n);
	assert_int_equal(verbs_ep_decode(buf, n, &ep, err, sizeof(err)), 0);
	assert_int_equal(ep.qp[0].lid, 7);
	verbs_ep_free(&ep);

	/* encode refuses what it cannot describe */
	assert_int_equal(verbs_ep_encode(q, 0, buf, sizeof(buf)), 0);
	assert_int_equal(verbs_ep_encode(q, 3, buf, 100), 0);
}

/* Encode one good record, apply f, decode: must fail with `want` in err. */
static void refused(void (*f)(struct verbs_ep_qp *), size_t off, uint8_t byte, const char *want,
		    const char *seed)
{
	struct verbs_ep_qp q[2] = { roce_qp(0), roce_qp(1) };
	uint8_t buf[512];
	struct verbs_ep ep;
	char err[200] = "";
	size_t n;

	if (f)
		f(&q[1]);
	n = verbs_ep_encode(q, 2, buf, sizeof(buf));
	assert_int_not_equal(n, 0);
	if (off)
		buf[off] = byte;
	if (seed)
		save(seed, buf, n);
	assert_int_equal(verbs_ep_decode(buf, n, &ep, err, sizeof(err)), -1);
	assert_null(ep.qp);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
}

static void zero_qpn(struct verbs_ep_qp *q) { q->qpn = 0; }
static void big_qpn(struct verbs_ep_qp *q) { q->qpn = 0x1000000; }
static void big_psn(struct verbs_ep_qp *q) { q->psn = 0x1000000; }
static void empty_buf(struct verbs_ep_qp *q) { q->len = 0; }
static void wrap(struct verbs_ep_qp *q) { q->addr = UINT64_MAX - 10; q->len = 11; }
static void odd_mtu(struct verbs_ep_qp *q) { q->mtu = 1500; }
static void big_mtu(struct verbs_ep_qp *q) { q->mtu = 8192; }
static void bad_link(struct verbs_ep_qp *q) { q->link = 3; }
static void no_gid(struct verbs_ep_qp *q) { memset(q->gid, 0, 16); }
static void no_type(struct verbs_ep_qp *q) { q->gid_type = 0; }
static void no_reads(struct verbs_ep_qp *q) { q->rd_atomic = 0; }
static void other_gid(struct verbs_ep_qp *q) { q->gid[15] = 16; }
static void other_mtu(struct verbs_ep_qp *q) { q->mtu = 2048; }
static void ib_no_lid(struct verbs_ep_qp *q)
{
	q->link = VERBS_EP_LINK_IB;
	q->gid_type = 0;
	q->lid = 0;
}
static void ib_mcast_lid(struct verbs_ep_qp *q)
{
	q->link = VERBS_EP_LINK_IB;
	q->gid_type = 0;
	q->lid = 0xc001;
}
static void ib_with_type(struct verbs_ep_qp *q)
{
	q->link = VERBS_EP_LINK_IB;
	q->lid = 5;
}

static void fields_refused(void **state)
{
	const size_t r1 = 12 + 52;	/* the second record */
	(void)state;

	refused(zero_qpn, 0, 0, "qp 1: queue pair number 0", "bad-qpn");
	refused(big_qpn, 0, 0, "not a valid 24-bit qpn", NULL);
	refused(big_psn, 0, 0, "packet sequence number 16777216 exceeds 24 bits", NULL);
	refused(empty_buf, 0, 0, "buffer is empty", NULL);
	refused(wrap, 0, 0, "wraps around", "wrap");
	refused(odd_mtu, 0, 0, "mtu 1500 is not one of", NULL);
	refused(big_mtu, 0, 0, "mtu 8192", NULL);
	refused(bad_link, 0, 0, "unknown link layer 3", NULL);
	refused(no_gid, 0, 0, "empty gid", NULL);
	refused(no_type, 0, 0, "without a roce gid type", NULL);
	refused(no_reads, 0, 0, "accepts no rdma reads", NULL);
	refused(other_gid, 0, 0, "qp 1: describes a different port", "mixed-port");
	refused(other_mtu, 0, 0, "different port", NULL);
	refused(ib_no_lid, 0, 0, "lid 0x0 is not a unicast lid", NULL);
	refused(ib_mcast_lid, 0, 0, "lid 0xc001", NULL);
	refused(ib_with_type, 0, 0, "infiniband endpoint with a roce gid type", NULL);
	refused(NULL, r1 + 51, 1, "reserved byte is 1", NULL);
	refused(NULL, 0 + 1, 'X', "does not start with the verbs magic", "bad-magic");
	refused(NULL, 5, 2, "endpoint version 2", NULL);
	refused(NULL, 7, 3, "3 queue pairs need", NULL);
	refused(NULL, 7, 0, "lists 0 queue pairs", NULL);
	refused(NULL, 9, 53, "record size 53", NULL);
	refused(NULL, 11, 1, "reserved header field", NULL);
}

static void lengths_refused(void **state)
{
	struct verbs_ep_qp q = roce_qp(0);
	uint8_t buf[128];
	struct verbs_ep ep;
	char err[200];
	size_t n = verbs_ep_encode(&q, 1, buf, sizeof(buf));
	(void)state;

	for (size_t cut = 0; cut < n; cut++)
		assert_int_equal(verbs_ep_decode(buf, cut, &ep, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 queue pairs need 64"));
	assert_int_equal(verbs_ep_decode(buf, 5, &ep, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "shorter than its 12-byte header"));
	buf[n] = 0;
	assert_int_equal(verbs_ep_decode(buf, n + 1, &ep, err, sizeof(err)), -1);
	save("trailing-byte", buf, n + 1);
	/* more QPs than the limit, however long the input */
	buf[6] = 0x04;
	buf[7] = 0x01;
	assert_int_equal(verbs_ep_decode(buf, n, &ep, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "lists 1025 queue pairs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(fields_refused),
		cmocka_unit_test(lengths_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
