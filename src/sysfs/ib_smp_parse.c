/* Directed-route SMP replies to a neighbour (ib_smp_parse.h).
 *
 * Offsets are those of the InfiniBand Architecture Specification vol 1:
 * the MAD common header (§13.4.3, "MAD base format"), the directed route
 * SMP (§14.2.1.2, "Directed route SMP format") and the NodeInfo and
 * NodeDescription attributes (§14.2.5.3, §14.2.5.2).  They agree with
 * libibmad's field table (rdma-core libibmad/fields.c: IB_NODE_TYPE_F at
 * bit 16, IB_NODE_GUID_F at bit 96, IB_NODE_LOCAL_PORT_F at bit 288 of the
 * SMP data; IB_DRSMP_HOPCNT_F, IB_DRSMP_HOPPTR_F in byte 7 / 6). */
#include "ib_smp_parse.h"
#include "../model/neighbor.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MAD header (§13.4.3) */
#define MAD_BASE_VERSION 0	/* 1 */
#define MAD_MGMT_CLASS 1
#define MAD_CLASS_VERSION 2	/* 1 */
#define MAD_METHOD 3		/* 0x01 Get, 0x81 GetResp */
#define MAD_STATUS 4		/* 16 bits; DR SMP: bit 15 is D (direction) */
#define MAD_HOP_PTR 6		/* DR SMP */
#define MAD_HOP_COUNT 7		/* DR SMP */
#define MAD_TID 8		/* 64 bits */
#define MAD_ATTR_ID 16		/* 16 bits */
#define MAD_ATTR_MOD 20		/* 32 bits */
#define SMP_DR_SLID 32		/* 16 bits, permissive 0xffff */
#define SMP_DR_DLID 34
#define SMP_DATA 64		/* 64 bytes */
#define SMP_INITIAL_PATH 128	/* 64 bytes */
#define SMP_RETURN_PATH 192

#define METHOD_GET 0x01
#define METHOD_GET_RESP 0x81

/* NodeInfo (§14.2.5.3, table "NodeInfo"), offsets in the SMP data */
#define NI_NODE_TYPE 2		/* 1 CA, 2 switch, 3 router */
#define NI_NUM_PORTS 3
#define NI_NODE_GUID 12		/* 64 bits */
#define NI_LOCAL_PORT 36	/* the port the SMP came in on */

#define NODE_DESC_LEN 64	/* §14.2.5.2: UTF-8, NUL padded */

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void ib_smp_build_get(uint8_t mad[IB_MAD_SIZE], uint16_t attr, uint8_t port, uint64_t tid)
{
	memset(mad, 0, IB_MAD_SIZE);
	mad[MAD_BASE_VERSION] = 1;
	mad[MAD_MGMT_CLASS] = IB_SMI_DIRECT_CLASS;
	mad[MAD_CLASS_VERSION] = 1;
	mad[MAD_METHOD] = METHOD_GET;
	mad[MAD_HOP_PTR] = 0;
	mad[MAD_HOP_COUNT] = 1;
	for (int i = 0; i < 8; i++)
		mad[MAD_TID + i] = (uint8_t)(tid >> (56 - 8 * i));
	put_be16(mad + MAD_ATTR_ID, attr);
	put_be16(mad + SMP_DR_SLID, 0xffff);
	put_be16(mad + SMP_DR_DLID, 0xffff);
	/* initial path: entry 0 unused, entry 1 the port out of this node */
	mad[SMP_INITIAL_PATH + 1] = port;
}

static const char *attr_name(unsigned attr)
{
	return attr == IB_ATTR_NODE_INFO ? "NodeInfo" : "NodeDescription";
}

/* One reply: a GetResp of the SMI directed route class for attr, status 0. */
static int check_reply(const uint8_t *m, unsigned attr, char **why)
{
	unsigned status = be16(m + MAD_STATUS) & 0x7fff;	/* without the D bit */
	int n;

	if (m[MAD_BASE_VERSION] != 1 || m[MAD_MGMT_CLASS] != IB_SMI_DIRECT_CLASS ||
	    m[MAD_CLASS_VERSION] != 1)
		n = asprintf(why, "the %s reply is not a directed-route SMP (class 0x%02x, "
			     "version %u)", attr_name(attr), m[MAD_MGMT_CLASS], m[MAD_BASE_VERSION]);
	else if (m[MAD_METHOD] != METHOD_GET_RESP || be16(m + MAD_ATTR_ID) != attr)
		n = asprintf(why, "the %s reply is not a GetResp(%s) (method 0x%02x, "
			     "attribute 0x%04x)", attr_name(attr), attr_name(attr), m[MAD_METHOD],
			     be16(m + MAD_ATTR_ID));
	else if (status)
		n = asprintf(why, "the node at the other end of the cable answered %s with "
			     "MAD status 0x%04x", attr_name(attr), status);
	else
		return 0;
	if (n < 0) {
		*why = NULL;
		return -ENOMEM;
	}
	return -EINVAL;
}

/* The NodeDescription as text: up to the first NUL, control bytes and
 * DEL as '?', trailing blanks dropped; NULL (and 0) when empty. */
static int desc_text(const uint8_t *d, char **out)
{
	size_t n = 0;

	*out = NULL;
	while (n < NODE_DESC_LEN && d[n])
		n++;
	while (n && (d[n - 1] == ' ' || d[n - 1] == '\t'))
		n--;
	if (!n)
		return 0;
	if (!(*out = malloc(n + 1)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		(*out)[i] = d[i] < 0x20 || d[i] == 0x7f ? '?' : (char)d[i];
	(*out)[n] = '\0';
	return 0;
}

int ib_smp_parse(const void *buf, size_t len, struct neighbor **out, char **why)
{
	const uint8_t *ni = buf, *nd = ni + IB_MAD_SIZE, *data;
	struct neighbor *nb;
	char port[4], guid[19];	/* "255", "0x" and 16 hex digits */
	int rc;

	*out = NULL;
	*why = NULL;
	if (len != IB_SMP_ANSWER_SIZE) {
		if (asprintf(why, "%zu bytes where two 256-byte SMP replies belong", len) < 0)
			return *why = NULL, -ENOMEM;
		return -EINVAL;
	}
	if ((rc = check_reply(ni, IB_ATTR_NODE_INFO, why)) ||
	    (rc = check_reply(nd, IB_ATTR_NODE_DESC, why)))
		return rc;
	data = ni + SMP_DATA;
	if (data[NI_NODE_TYPE] < 1 || data[NI_NODE_TYPE] > 3 || data[NI_LOCAL_PORT] == 0 ||
	    (data[NI_NODE_TYPE] != 2 && data[NI_LOCAL_PORT] > data[NI_NUM_PORTS])) {
		/* a switch's LocalPortNum is the port the SMP came in on (1..n);
		 * a CA's or router's is one of its own ports */
		if (asprintf(why, "NodeInfo makes no sense: node type %u, port %u of %u",
			     data[NI_NODE_TYPE], data[NI_LOCAL_PORT], data[NI_NUM_PORTS]) < 0)
			return *why = NULL, -ENOMEM;
		return -EINVAL;
	}
	if (!(nb = calloc(1, sizeof(*nb))))
		return -ENOMEM;
	nb->source = NEIGHBOR_SOURCE_SMP;
	snprintf(port, sizeof(port), "%u", data[NI_LOCAL_PORT]);
	snprintf(guid, sizeof(guid), "0x%016" PRIx64, be64(data + NI_NODE_GUID));
	if (desc_text(nd + SMP_DATA, &nb->system) < 0 || !(nb->port = strdup(port)) ||
	    !(nb->chassis_id = strdup(guid))) {
		neighbor_free(nb);
		return -ENOMEM;
	}
	*out = nb;
	return 0;
}
