/* The neighbour of an InfiniBand port from two directed-route SMP replies
 * (src/sysfs/ib_smp.h sends them): a pure function of the bytes, so the
 * live answer and a snapshot's stored copy are read by the same code and
 * a fuzz target can drive it.
 *
 * The bytes are the two 256-byte MADs as received, one after the other:
 * the GetResp(NodeInfo) and the GetResp(NodeDescription) of the node one
 * hop down the port's cable (directed route path [0, port]). */
#ifndef RD_SYSFS_IB_SMP_PARSE_H
#define RD_SYSFS_IB_SMP_PARSE_H

#include <stddef.h>
#include <stdint.h>

struct neighbor;

#define IB_MAD_SIZE 256
#define IB_SMP_ANSWER_SIZE (2 * IB_MAD_SIZE)

/* IBA vol 1 §14.2.5 (SMP attributes): attribute IDs */
#define IB_ATTR_NODE_DESC 0x0010
#define IB_ATTR_NODE_INFO 0x0011
#define IB_SMI_DIRECT_CLASS 0x81	/* §13.4.4: subnet management, directed route */

/* 0 and *out (source "smp"): system = the remote NodeDescription (NULL when
 * empty), port = its LocalPortNum as decimal text, chassis_id = its NodeGUID
 * as 0x%016x.  -EINVAL and *why (malloc'd, in words) when the bytes are not
 * two well-formed replies or the remote answered with an error status;
 * -ENOMEM.  Exactly one of *out / *why is set on 0 / -EINVAL. */
int ib_smp_parse(const void *buf, size_t len, struct neighbor **out, char **why);

/* Builds the 256-byte Get request for attr along path [0, port]
 * (hop count 1), with transaction id tid; for ib_smp.c and the tests. */
void ib_smp_build_get(uint8_t mad[IB_MAD_SIZE], uint16_t attr, uint8_t port, uint64_t tid);

#endif
