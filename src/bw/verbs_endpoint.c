/* Encoding and checking of the verbs endpoint bytes (layout in the header).
 * Explicit byte order, never a C struct on the wire. */
#include "verbs_endpoint.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

size_t verbs_ep_size(size_t n)
{
	return VERBS_EP_HDR_SIZE + n * VERBS_EP_QP_SIZE;
}

size_t verbs_ep_encode(const struct verbs_ep_qp *qp, size_t n, uint8_t *buf, size_t cap)
{
	if (n == 0 || n > VERBS_EP_MAX_QPS || cap < verbs_ep_size(n))
		return 0;
	memcpy(buf, VERBS_EP_MAGIC, 4);
	put16(buf + 4, VERBS_EP_VERSION);
	put16(buf + 6, (uint16_t)n);
	put16(buf + 8, VERBS_EP_QP_SIZE);
	put16(buf + 10, 0);
	for (size_t i = 0; i < n; i++) {
		uint8_t *r = buf + verbs_ep_size(i);

		put32(r + 0, qp[i].qpn);
		put32(r + 4, qp[i].psn);
		put32(r + 8, qp[i].rkey);
		put64(r + 12, qp[i].addr);
		put64(r + 20, qp[i].len);
		put16(r + 28, qp[i].lid);
		put16(r + 30, qp[i].mtu);
		memcpy(r + 32, qp[i].gid, 16);
		r[48] = qp[i].link;
		r[49] = qp[i].gid_type;
		r[50] = qp[i].rd_atomic;
		r[51] = 0;
	}
	return verbs_ep_size(n);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool zero16(const uint8_t *g)
{
	static const uint8_t z[16];

	return memcmp(g, z, 16) == 0;
}

/* One record on its own: ranges that make sense for any device. */
static int check_qp(const struct verbs_ep_qp *q, size_t i, const uint8_t *raw, char *err, size_t errlen)
{
	if (q->qpn == 0 || q->qpn > 0xffffff)
		return fail(err, errlen, "qp %zu: queue pair number %u is not a valid 24-bit qpn", i, q->qpn);
	if (q->psn > 0xffffff)
		return fail(err, errlen, "qp %zu: packet sequence number %u exceeds 24 bits", i, q->psn);
	if (q->len == 0)
		return fail(err, errlen, "qp %zu: the peer's buffer is empty", i);
	if (q->addr > UINT64_MAX - q->len)
		return fail(err, errlen, "qp %zu: buffer address + length wraps around", i);
	if (q->mtu < 256 || q->mtu > 4096 || (q->mtu & (q->mtu - 1)))
		return fail(err, errlen, "qp %zu: mtu %u is not one of 256, 512, 1024, 2048, 4096", i, q->mtu);
	if (q->link != VERBS_EP_LINK_IB && q->link != VERBS_EP_LINK_ETH)
		return fail(err, errlen, "qp %zu: unknown link layer %u", i, q->link);
	if (q->link == VERBS_EP_LINK_IB) {
		if (q->lid == 0 || q->lid >= 0xc000)
			return fail(err, errlen, "qp %zu: infiniband lid 0x%x is not a unicast lid (is the port active and the subnet manager running?)", i, q->lid);
		if (q->gid_type != VERBS_EP_GID_NONE)
			return fail(err, errlen, "qp %zu: infiniband endpoint with a roce gid type", i);
	} else {
		if (q->gid_type != VERBS_EP_GID_ROCE_V1 && q->gid_type != VERBS_EP_GID_ROCE_V2)
			return fail(err, errlen, "qp %zu: ethernet endpoint without a roce gid type (%u)", i, q->gid_type);
		if (zero16(q->gid))
			return fail(err, errlen, "qp %zu: ethernet endpoint with an empty gid", i);
	}
	if (q->rd_atomic == 0)
		return fail(err, errlen, "qp %zu: the peer accepts no rdma reads in flight", i);
	if (raw[51] != 0)
		return fail(err, errlen, "qp %zu: reserved byte is %u, not 0", i, raw[51]);
	return 0;
}

int verbs_ep_decode(const uint8_t *buf, size_t len, struct verbs_ep *out, char *err, size_t errlen)
{
	uint16_t ver, n, rsz;

	memset(out, 0, sizeof(*out));
	if (len < VERBS_EP_HDR_SIZE)
		return fail(err, errlen, "endpoint is %zu bytes, shorter than its %d-byte header", len, VERBS_EP_HDR_SIZE);
	if (memcmp(buf, VERBS_EP_MAGIC, 4) != 0)
		return fail(err, errlen, "endpoint does not start with the verbs magic (is the peer using the tcp transport?)");
	ver = get16(buf + 4);
	if (ver != VERBS_EP_VERSION)
		return fail(err, errlen, "endpoint version %u, this build speaks %d (use the same rdmadoctor version on both sides)", ver, VERBS_EP_VERSION);
	n = get16(buf + 6);
	rsz = get16(buf + 8);
	if (n == 0 || n > VERBS_EP_MAX_QPS)
		return fail(err, errlen, "endpoint lists %u queue pairs (1..%d allowed)", n, VERBS_EP_MAX_QPS);
	if (rsz != VERBS_EP_QP_SIZE)
		return fail(err, errlen, "endpoint record size %u, expected %d", rsz, VERBS_EP_QP_SIZE);
	if (get16(buf + 10) != 0)
		return fail(err, errlen, "endpoint reserved header field is not 0");
	if (len != verbs_ep_size(n))
		return fail(err, errlen, "endpoint is %zu bytes, %u queue pairs need %zu", len, n, verbs_ep_size(n));
	out->qp = calloc(n, sizeof(*out->qp));
	if (!out->qp)
		return fail(err, errlen, "out of memory for %u endpoint records", n);
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *r = buf + verbs_ep_size(i);
		struct verbs_ep_qp *q = &out->qp[i];

		q->qpn = get32(r + 0);
		q->psn = get32(r + 4);
		q->rkey = get32(r + 8);
		q->addr = get64(r + 12);
		q->len = get64(r + 20);
		q->lid = get16(r + 28);
		q->mtu = get16(r + 30);
		memcpy(q->gid, r + 32, 16);
		q->link = r[48];
		q->gid_type = r[49];
		q->rd_atomic = r[50];
		if (check_qp(q, i, r, err, errlen) != 0)
			goto bad;
		if (i > 0 && (q->lid != out->qp[0].lid || q->mtu != out->qp[0].mtu ||
			      q->link != out->qp[0].link || q->gid_type != out->qp[0].gid_type ||
			      memcmp(q->gid, out->qp[0].gid, 16) != 0)) {
			fail(err, errlen, "qp %zu: describes a different port than qp 0 (lid, gid, mtu or link differ)", i);
			goto bad;
		}
	}
	return 0;
bad:
	verbs_ep_free(out);
	return -1;
}

void verbs_ep_free(struct verbs_ep *ep)
{
	free(ep->qp);
	ep->qp = NULL;
	ep->n = 0;
}
