/* The verbs transport's endpoint bytes: what one side tells the other about
 * its queue pairs so that both can move them to RTR/RTS and address each
 * other's buffers.  The control protocol carries these bytes opaquely; they
 * come from the network, so verbs_ep_decode checks every field.
 *
 * Layout, all integers in network byte order (big-endian):
 *   header, 12 bytes:
 *     0  magic "RDVB"
 *     4  u16 version (VERBS_EP_VERSION)
 *     6  u16 number of QP records (1..VERBS_EP_MAX_QPS)
 *     8  u16 record size (VERBS_EP_QP_SIZE; a later version may grow it)
 *    10  u16 reserved, 0
 *   one record per QP, VERBS_EP_QP_SIZE bytes:
 *     0  u32 QPN (24 bits)        4  u32 PSN (24 bits)
 *     8  u32 rkey                12  u64 buffer address
 *    20  u64 buffer length       28  u16 LID (IB: non-zero)
 *    30  u16 active MTU in bytes (256..4096, a power of two)
 *    32  16 bytes GID (RoCE: non-zero)
 *    48  u8 link layer (1 InfiniBand, 2 Ethernet)
 *    49  u8 GID type (0 none/IB, 1 RoCE v1, 2 RoCE v2)
 *    50  u8 RDMA reads this side accepts in flight (responder resources, >= 1)
 *    51  u8 reserved, 0
 * Every record of one endpoint describes the same port: LID, GID, MTU, link
 * layer and GID type must agree across records. */
#ifndef RD_BW_VERBS_ENDPOINT_H
#define RD_BW_VERBS_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>

#define VERBS_EP_MAGIC "RDVB"
#define VERBS_EP_VERSION 1
#define VERBS_EP_HDR_SIZE 12
#define VERBS_EP_QP_SIZE 52
#define VERBS_EP_MAX_QPS 1024	/* 12 + 1024 * 52 fits BW_ENDPOINT_MAX */

enum verbs_ep_link { VERBS_EP_LINK_IB = 1, VERBS_EP_LINK_ETH = 2 };
enum verbs_ep_gid_type { VERBS_EP_GID_NONE = 0, VERBS_EP_GID_ROCE_V1 = 1, VERBS_EP_GID_ROCE_V2 = 2 };

struct verbs_ep_qp {
	uint32_t qpn, psn, rkey;
	uint64_t addr, len;
	uint16_t lid, mtu;
	uint8_t gid[16];
	uint8_t link, gid_type, rd_atomic;
};

struct verbs_ep {
	uint16_t n;
	struct verbs_ep_qp *qp;	/* malloc'd by decode; verbs_ep_free */
};

/* Bytes needed for n records. */
size_t verbs_ep_size(size_t n);
/* Write n records into buf (at least verbs_ep_size(n) bytes); returns the
 * length, or 0 when n is out of range. */
size_t verbs_ep_encode(const struct verbs_ep_qp *qp, size_t n, uint8_t *buf, size_t cap);
/* Parse and check untrusted bytes.  0, or -1 with a lower-case reason in err
 * (nothing allocated then). */
int verbs_ep_decode(const uint8_t *buf, size_t len, struct verbs_ep *out, char *err, size_t errlen);
void verbs_ep_free(struct verbs_ep *ep);

#endif
