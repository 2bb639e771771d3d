/* The control protocol's codec: encoders and validating decoders, pure
 * functions of bytes (no socket here: proto_io.c sends and receives the
 * frames).  Every byte decoded here comes from the network. */
#include "proto.h"
#include "../model/growbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output buffer ---- */

static void put(struct bw_buf *b, const void *v, size_t n)
{
	if (b->failed)
		return;
	{
		uint8_t *np = growbuf_reserve(b->p, &b->cap, b->len + n, 1);

		if (!np) {
			b->failed = true;
			return;
		}
		b->p = np;
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void put_u8(struct bw_buf *b, uint8_t v)
{
	put(b, &v, 1);
}

void bw_put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

uint64_t bw_get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_u16(struct bw_buf *b, uint16_t v)
{
	uint8_t x[2];

	bw_put_be(x, v, 2);
	put(b, x, 2);
}

static void put_u32(struct bw_buf *b, uint32_t v)
{
	uint8_t x[4];

	bw_put_be(x, v, 4);
	put(b, x, 4);
}

static void put_u64(struct bw_buf *b, uint64_t v)
{
	uint8_t x[8];

	bw_put_be(x, v, 8);
	put(b, x, 8);
}

/* doubles travel as their IEEE-754 bits */
static void put_f64(struct bw_buf *b, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_u64(b, v);
}

static void put_str(struct bw_buf *b, const char *s, size_t max)
{
	size_t n = strnlen(s ? s : "", max);

	put_u16(b, (uint16_t)n);
	put(b, s ? s : "", n);
}

void bw_buf_free(struct bw_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* ---- input reader: a failed read sets bad and yields zeros ---- */

struct rd {
	const uint8_t *p;
	size_t n, off;
	bool bad;
};

static const uint8_t *take(struct rd *r, size_t n)
{
	const uint8_t *v;

	if (r->bad || n > r->n - r->off) {
		r->bad = true;
		return NULL;
	}
	v = r->p + r->off;
	r->off += n;
	return v;
}

static uint8_t get_u8(struct rd *r)
{
	const uint8_t *v = take(r, 1);

	return v ? v[0] : 0;
}

static uint16_t get_u16(struct rd *r)
{
	const uint8_t *v = take(r, 2);

	return v ? (uint16_t)bw_get_be(v, 2) : 0;
}

static uint32_t get_u32(struct rd *r)
{
	const uint8_t *v = take(r, 4);

	return v ? (uint32_t)bw_get_be(v, 4) : 0;
}

static uint64_t get_u64(struct rd *r)
{
	const uint8_t *v = take(r, 8);

	return v ? bw_get_be(v, 8) : 0;
}

static double get_f64(struct rd *r)
{
	uint64_t v = get_u64(r);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

/* A string of at most max bytes, printable ASCII only (it is shown to
 * people and written into JSON). */
static bool get_str(struct rd *r, char *out, size_t outsz, size_t max)
{
	uint16_t n = get_u16(r);
	const uint8_t *v;

	out[0] = 0;
	if (r->bad || n > max || n >= outsz) {
		r->bad = true;
		return false;
	}
	v = take(r, n);
	if (!v)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0x20 || v[i] > 0x7e) {
			r->bad = true;
			return false;
		}
		out[i] = (char)v[i];
	}
	out[n] = 0;
	return true;
}

static bool finite_nonneg(double d)
{
	return isfinite(d) && d >= 0;
}

/* ---- header ---- */

void bw_hdr_encode(uint8_t *h, uint16_t type, uint32_t len)
{
	bw_put_be(h, BW_PROTO_MAGIC, 4);
	bw_put_be(h + 4, BW_PROTO_VERSION, 2);
	bw_put_be(h + 6, type, 2);
	bw_put_be(h + 8, len, 4);
}

int bw_hdr_parse(const uint8_t *h, uint16_t *type, uint32_t *len, struct bw_err *e)
{
	struct rd r = { h, BW_HDR_LEN, 0, false };
	uint32_t magic = get_u32(&r);
	uint16_t version = get_u16(&r);

	*type = get_u16(&r);
	*len = get_u32(&r);
	if (magic != BW_PROTO_MAGIC) {
		bw_errf(e, "the peer does not speak the rdmadoctor bw protocol (magic 0x%08x); "
			"is it an rdmadoctor bw server on this port?", magic);
		return -1;
	}
	if (version != BW_PROTO_VERSION) {
		bw_errf(e, "the peer speaks bw protocol version %u, this build speaks %u: "
			"run the same rdmadoctor version on both hosts", version, BW_PROTO_VERSION);
		return -1;
	}
	if (*type < BW_MSG_HELLO || *type > BW_MSG_AUTH) {
		bw_errf(e, "unknown bw message type %u", *type);
		return -1;
	}
	if (*len > BW_PAYLOAD_MAX) {
		bw_errf(e, "bw message of %u bytes is over the limit of %u", *len,
			BW_PAYLOAD_MAX);
		return -1;
	}
	return 0;
}

/* ---- HELLO ---- */

int bw_hello_encode(const struct bw_hello *h, struct bw_buf *b)
{
	const struct bw_params *p = &h->p;

	put_u8(b, (uint8_t)p->mode);
	put_u8(b, (uint8_t)p->transport);
	put_u8(b, (uint8_t)p->op);
	put_u8(b, p->bidir ? 1 : 0);
	put_u64(b, p->size);
	put_u32(b, p->qps);
	put_u32(b, p->tx_depth);
	put_u32(b, p->post_list);
	put_u32(b, p->cq_mod);
	put_u32(b, p->inline_size);
	put_u32(b, p->duration_ms);
	put_u32(b, p->warmup_ms);
	put_u64(b, p->iters);
	put_u32(b, p->interval_ms);
	put_u32(b, h->n_rails);
	put_str(b, h->host, BW_HOST_MAX);
	/* version 3: a flag, then the floor as its IEEE-754 bits */
	if (isfinite(h->expect_gbps) && h->expect_gbps > 0) {
		uint64_t bits;

		memcpy(&bits, &h->expect_gbps, sizeof(bits));
		put_u8(b, 1);
		put_u64(b, bits);
	} else {
		put_u8(b, 0);
		put_u64(b, 0);
	}
	return b->failed ? -1 : 0;
}

int bw_hello_decode(const uint8_t *p, size_t n, struct bw_hello *h, struct bw_err *e)
{
	struct rd r = { p, n, 0, false };
	uint8_t mode, transport, op, bidir, has_floor;
	uint64_t floor_bits;

	memset(h, 0, sizeof(*h));
	mode = get_u8(&r);
	transport = get_u8(&r);
	op = get_u8(&r);
	bidir = get_u8(&r);
	h->p.size = get_u64(&r);
	h->p.qps = get_u32(&r);
	h->p.tx_depth = get_u32(&r);
	h->p.post_list = get_u32(&r);
	h->p.cq_mod = get_u32(&r);
	h->p.inline_size = get_u32(&r);
	h->p.duration_ms = get_u32(&r);
	h->p.warmup_ms = get_u32(&r);
	h->p.iters = get_u64(&r);
	h->p.interval_ms = get_u32(&r);
	h->n_rails = get_u32(&r);
	get_str(&r, h->host, sizeof(h->host), BW_HOST_MAX);
	has_floor = get_u8(&r);
	floor_bits = get_u64(&r);
	if (r.bad || r.off != n) {
		bw_errf(e, "malformed HELLO (%zu bytes)", n);
		return -1;
	}
	h->expect_gbps = NAN;
	if (has_floor == 1)
		memcpy(&h->expect_gbps, &floor_bits, sizeof(h->expect_gbps));
	if (has_floor > 1 || (has_floor == 0 && floor_bits) ||
	    (has_floor == 1 && !(h->expect_gbps > 0 && h->expect_gbps <= BW_EXPECT_GBPS_MAX))) {
		bw_errf(e, "HELLO with a malformed --expect-gbps");
		return -1;
	}
	if (mode > BW_MODE_LAT || transport > BW_TRANSPORT_VERBS || op > BW_OP_SEND ||
	    bidir > 1) {
		bw_errf(e, "HELLO with an unknown mode, transport or operation");
		return -1;
	}
	h->p.mode = (enum bw_mode)mode;
	h->p.transport = (enum bw_transport)transport;
	h->p.op = (enum bw_op)op;
	h->p.bidir = bidir;
	return 0;
}

/* ---- OK / ERROR text ---- */

int bw_text_encode(const char *s, size_t max, struct bw_buf *b)
{
	put_str(b, s, max);
	return b->failed ? -1 : 0;
}

int bw_text_decode(const uint8_t *p, size_t n, size_t max, char *out, size_t outsz,
		   struct bw_err *e)
{
	struct rd r = { p, n, 0, false };

	get_str(&r, out, outsz, max);
	if (r.bad || r.off != n) {
		out[0] = 0;
		bw_errf(e, "malformed text message (%zu bytes)", n);
		return -1;
	}
	return 0;
}

/* ---- ENDPOINT ---- */

int bw_endpoint_encode(uint32_t rail, const uint8_t *ep, size_t len, struct bw_buf *b)
{
	if (len > BW_ENDPOINT_MAX)
		return -1;
	put_u32(b, rail);
	put_u32(b, (uint32_t)len);
	put(b, ep, len);
	return b->failed ? -1 : 0;
}

int bw_endpoint_decode(const uint8_t *p, size_t n, uint32_t *rail, const uint8_t **ep,
		       size_t *len, struct bw_err *e)
{
	struct rd r = { p, n, 0, false };
	uint32_t l;

	*rail = get_u32(&r);
	l = get_u32(&r);
	if (r.bad || l > BW_ENDPOINT_MAX || l != n - r.off || *rail >= BW_RAILS_MAX) {
		bw_errf(e, "malformed ENDPOINT (%zu bytes)", n);
		return -1;
	}
	*ep = p + r.off;
	*len = l;
	return 0;
}

/* ---- RESULT ---- */

static int cmp_f64(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double interval_rate(const struct bw_interval *v)
{
	return v->seconds > 0 ? (double)v->bytes / v->seconds : 0;
}

int bw_result_encode(uint32_t rail, const struct bw_result *res, struct bw_buf *b)
{
	size_t ni = res->n_intervals, nl = res->n_lat;
	size_t si = ni > BW_INTERVALS_MAX ? (ni + BW_INTERVALS_MAX - 1) / BW_INTERVALS_MAX : 1;
	size_t imin = 0, imax = 0;

	put_u32(b, rail);
	put_f64(b, res->seconds);
	put_u64(b, res->bytes);
	put_u64(b, res->msgs);
	put_f64(b, res->cpu_user_s);
	put_f64(b, res->cpu_sys_s);
	put_u32(b, res->mtu);
	put_u32(b, (uint32_t)res->gid_index);
	put_u32(b, (uint32_t)res->numa_node);
	put_str(b, res->device, sizeof(res->device) - 1);
	put_str(b, res->gid, sizeof(res->gid) - 1);
	/* intervals over the bound: every si-th in time order, except that the
	 * slowest and the fastest take their group's place (the report's
	 * minimum and maximum must survive) */
	for (size_t i = 1; i < ni; i++) {
		if (interval_rate(&res->intervals[i]) < interval_rate(&res->intervals[imin]))
			imin = i;
		if (interval_rate(&res->intervals[i]) > interval_rate(&res->intervals[imax]))
			imax = i;
	}
	put_u32(b, (uint32_t)((ni + si - 1) / si));
	for (size_t i = 0; i < ni; i += si) {
		size_t k = i;

		if (si > 1 && imin / si == i / si)
			k = imin;
		else if (si > 1 && imax / si == i / si)
			k = imax;
		put_f64(b, res->intervals[k].seconds);
		put_u64(b, res->intervals[k].bytes);
		put_u64(b, res->intervals[k].msgs);
	}
	if (nl <= BW_LAT_SAMPLES_MAX) {
		put_u32(b, (uint32_t)nl);
		for (size_t i = 0; i < nl; i++)
			put_f64(b, res->lat_usec[i]);
		return b->failed ? -1 : 0;
	}
	/* latency samples over the bound: evenly spaced ranks of the sorted
	 * samples, the first (min) and the last (max) included, so that the
	 * percentiles keep their meaning and the tail is not dropped */
	double *sorted = malloc(nl * sizeof(*sorted));

	if (!sorted)
		return -1;
	memcpy(sorted, res->lat_usec, nl * sizeof(*sorted));
	qsort(sorted, nl, sizeof(*sorted), cmp_f64);
	put_u32(b, BW_LAT_SAMPLES_MAX);
	for (size_t j = 0; j < BW_LAT_SAMPLES_MAX; j++)
		put_f64(b, sorted[(size_t)((double)j * (double)(nl - 1) /
					   (BW_LAT_SAMPLES_MAX - 1) + 0.5)]);
	free(sorted);
	return b->failed ? -1 : 0;
}

int bw_result_decode(const uint8_t *p, size_t n, uint32_t *rail, struct bw_result *res,
		     struct bw_err *e)
{
	struct rd r = { p, n, 0, false };
	uint32_t ni, nl;

	memset(res, 0, sizeof(*res));
	*rail = get_u32(&r);
	res->seconds = get_f64(&r);
	res->bytes = get_u64(&r);
	res->msgs = get_u64(&r);
	res->cpu_user_s = get_f64(&r);
	res->cpu_sys_s = get_f64(&r);
	res->mtu = get_u32(&r);
	res->gid_index = (int32_t)get_u32(&r);
	res->numa_node = (int32_t)get_u32(&r);
	get_str(&r, res->device, sizeof(res->device), sizeof(res->device) - 1);
	get_str(&r, res->gid, sizeof(res->gid), sizeof(res->gid) - 1);
	ni = get_u32(&r);
	if (r.bad || *rail >= BW_RAILS_MAX || ni > BW_INTERVALS_MAX ||
	    (size_t)ni * 24 > n - r.off || !finite_nonneg(res->seconds) ||
	    !finite_nonneg(res->cpu_user_s) || !finite_nonneg(res->cpu_sys_s) ||
	    res->gid_index < -1 || res->numa_node < -1 || res->mtu > 65536)
		goto bad;
	if (ni) {
		res->intervals = calloc(ni, sizeof(*res->intervals));
		if (!res->intervals)
			goto nomem;
	}
	for (uint32_t i = 0; i < ni; i++) {
		struct bw_interval *iv = &res->intervals[i];

		iv->seconds = get_f64(&r);
		iv->bytes = get_u64(&r);
		iv->msgs = get_u64(&r);
		if (!finite_nonneg(iv->seconds))
			goto bad;
	}
	res->n_intervals = ni;
	nl = get_u32(&r);
	if (r.bad || nl > BW_LAT_SAMPLES_MAX || (size_t)nl * 8 != n - r.off)
		goto bad;
	if (nl) {
		res->lat_usec = malloc((size_t)nl * sizeof(double));
		if (!res->lat_usec)
			goto nomem;
	}
	for (uint32_t i = 0; i < nl; i++) {
		res->lat_usec[i] = get_f64(&r);
		if (!finite_nonneg(res->lat_usec[i]))
			goto bad;
	}
	res->n_lat = nl;
	if (r.bad || r.off != n)
		goto bad;
	return 0;
bad:
	bw_result_free(res);
	bw_errf(e, "malformed RESULT (%zu bytes)", n);
	return -1;
nomem:
	bw_result_free(res);
	bw_errf(e, "out of memory reading a RESULT");
	return -1;
}

int bw_frame_check(const uint8_t *p, size_t n, struct bw_err *e)
{
	uint16_t type;
	uint32_t len;
	const uint8_t *pl = p + BW_HDR_LEN;
	int rc = 0;

	if (n < BW_HDR_LEN) {
		bw_errf(e, "truncated header");
		return -1;
	}
	if (bw_hdr_parse(p, &type, &len, e) < 0)
		return -1;
	if (len != n - BW_HDR_LEN) {
		bw_errf(e, "length %u does not match the %zu bytes that follow", len,
			n - BW_HDR_LEN);
		return -1;
	}
	switch (type) {
	case BW_MSG_HELLO: {
		struct bw_hello h;

		rc = bw_hello_decode(pl, len, &h, e);
		break;
	}
	case BW_MSG_OK:
	case BW_MSG_ERROR: {
		char text[BW_ERROR_MAX + 1];

		rc = bw_text_decode(pl, len, BW_ERROR_MAX, text, sizeof(text), e);
		break;
	}
	case BW_MSG_AUTH: {
		char token[BW_TOKEN_MAX + 1];

		rc = bw_text_decode(pl, len, BW_TOKEN_MAX, token, sizeof(token), e);
		break;
	}
	case BW_MSG_ENDPOINT: {
		uint32_t rail;
		const uint8_t *ep;
		size_t el;

		rc = bw_endpoint_decode(pl, len, &rail, &ep, &el, e);
		break;
	}
	case BW_MSG_RESULT: {
		struct bw_result res;
		uint32_t rail;

		rc = bw_result_decode(pl, len, &rail, &res, e);
		bw_result_free(&res);
		break;
	}
	default:	/* GO, BYE: no payload */
		if (len) {
			bw_errf(e, "message type %u carries no payload, got %u bytes", type, len);
			rc = -1;
		}
	}
	return rc;
}
