/* The control protocol of bw/lat: framed messages over one TCP connection.
 *
 * Every message is a 12-byte header, then `length` bytes of payload:
 *   u32 magic "RDBW" | u16 version | u16 type | u32 length      (big-endian)
 * Payloads are encoded field by field in network byte order (no raw
 * structs), and every decoder checks every field and that the payload is
 * consumed exactly.  Flow: the client's first message is AUTH (its
 * shared secret, empty when it has none), checked before the server reads
 * anything else or allocates anything for the client; then per size of a
 * sweep (see engine.h):
 *   client HELLO -> server OK | ERROR;  ENDPOINT x rails, client first;
 *   GO both ways;  RESULT x rails, client first;  ... BYE.
 * ERROR may come instead of any message; its text is shown to the user.
 * A server that refuses a client (address, token, limits, busy, idle)
 * says why in an ERROR before it closes.  Version 2 added AUTH, version 3
 * the client's --expect-gbps in HELLO (the server judges by it too).
 * This header is the codec (bw/proto.c, pure); sending and receiving the
 * frames with deadlines is bw/proto_io.h. */
#ifndef RD_BW_PROTO_H
#define RD_BW_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define BW_PROTO_MAGIC 0x52444257u	/* "RDBW" */
#define BW_PROTO_VERSION 3
#define BW_HDR_LEN 12
#define BW_DEFAULT_PORT 18516	/* perftest uses 18515; both can run at once */

enum bw_msg_type {
	BW_MSG_HELLO = 1,
	BW_MSG_OK = 2,
	BW_MSG_ERROR = 3,
	BW_MSG_ENDPOINT = 4,
	BW_MSG_GO = 5,
	BW_MSG_RESULT = 6,
	BW_MSG_BYE = 7,
	BW_MSG_AUTH = 8,
};

/* Bounds on what crosses the wire. */
#define BW_HOST_MAX 255		/* host names */
#define BW_ERROR_MAX 1024	/* error text */
#define BW_TOKEN_MAX 256	/* the shared secret in AUTH */
/* a shorter secret is guessed: a server answers about 3,000 AUTHs a
 * second, and 12 characters of a random hex string are 48 bits */
#define BW_TOKEN_MIN 12
#define BW_RAILS_MAX 32		/* rails (NICs) in one test */
#define BW_INTERVALS_MAX 100000	/* per-interval samples in a RESULT */
#define BW_LAT_SAMPLES_MAX (1u << 20)	/* latency samples in a RESULT */
/* The largest payload: a RESULT at its bounds. */
#define BW_PAYLOAD_MAX (64u + 2 * 64 + BW_INTERVALS_MAX * 24u + BW_LAT_SAMPLES_MAX * 8u + 64u)

/* A growing output buffer; a failed allocation sets failed and drops the rest. */
struct bw_buf {
	uint8_t *p;
	size_t len, cap;
	bool failed;
};
void bw_buf_free(struct bw_buf *b);

/* HELLO: what the client asks for. */
struct bw_hello {
	struct bw_params p;
	uint32_t n_rails;
	char host[BW_HOST_MAX + 1];	/* the client's host name */
	/* the client's --expect-gbps (per rail), so that the server's verdict
	 * is the client's; NAN (or 0 from a memset): none asked */
	double expect_gbps;
};
/* The largest --expect-gbps a HELLO carries (bw --expect-gbps's own bound). */
#define BW_EXPECT_GBPS_MAX 1e6

/* The header; 0, or -1 with e set (wrong magic, version, type, length). */
int bw_hdr_parse(const uint8_t *hdr, uint16_t *type, uint32_t *len, struct bw_err *e);
void bw_hdr_encode(uint8_t *hdr, uint16_t type, uint32_t len);

int bw_hello_encode(const struct bw_hello *h, struct bw_buf *b);
int bw_hello_decode(const uint8_t *p, size_t n, struct bw_hello *h, struct bw_err *e);

/* OK carries the server's host name; ERROR a text (made printable on
 * decode); AUTH the token (at most BW_TOKEN_MAX, printable), as a text. */
int bw_text_encode(const char *s, size_t max, struct bw_buf *b);
int bw_text_decode(const uint8_t *p, size_t n, size_t max, char *out, size_t outsz,
		   struct bw_err *e);

/* ENDPOINT: the rail index and the transport's opaque bytes (<= BW_ENDPOINT_MAX). */
int bw_endpoint_encode(uint32_t rail, const uint8_t *ep, size_t len, struct bw_buf *b);
int bw_endpoint_decode(const uint8_t *p, size_t n, uint32_t *rail, const uint8_t **ep,
		       size_t *len, struct bw_err *e);

/* RESULT: one rail's bw_result.  Intervals and latency samples beyond the
 * bounds are thinned evenly on encode; decode allocates (bw_result_free). */
int bw_result_encode(uint32_t rail, const struct bw_result *r, struct bw_buf *b);
int bw_result_decode(const uint8_t *p, size_t n, uint32_t *rail, struct bw_result *r,
		     struct bw_err *e);

/* A whole frame in a buffer (header and payload), decoded by its type: the
 * fuzz target's entry.  0 or -1 with e set. */
int bw_frame_check(const uint8_t *p, size_t n, struct bw_err *e);

/* n bytes big-endian (the wire's byte order) */
void bw_put_be(uint8_t *p, uint64_t v, int n);
uint64_t bw_get_be(const uint8_t *p, int n);

#endif
