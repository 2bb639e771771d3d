/* DCB netlink (RTM_GETDCB, DCB_CMD_IEEE_GET): PFC, trust and the DSCP map
 * of a netdev (net/dcb/dcbnl.c).
 *
 * dcb_query asks the kernel and returns the raw reply bytes, so that
 * `snapshot` can keep them; dcb_parse_ieee reads those bytes, live or from
 * a snapshot, and is the only code that interprets them. */
#ifndef RD_NL_DCB_H
#define RD_NL_DCB_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's reply fits one page (NLMSG_GOODSIZE); leave room. */
#define DCB_REPLY_MAX 16384u

struct dcb_info {
	/* IEEE_PFC */
	int has_pfc;
	uint8_t pfc_cap;	/* traffic classes that can do PFC */
	uint8_t pfc_en;		/* bit p: PFC on priority p */
	uint64_t requests[8];	/* per priority: pause frames sent (TX) */
	uint64_t indications[8];	/* per priority: pause frames received (RX) */
	/* IEEE_ETS */
	int has_ets;
	uint8_t prio_tc[8];
	uint8_t tc_tsa[8];	/* 0 strict, 1 CBS, 2 ETS, 255 vendor */
	/* IEEE_APP_TABLE */
	int has_app_table;
	size_t n_app;		/* APP entries of every selector */
	int trust_dscp;		/* 1: some DSCP (selector 5) entry; 0: none */
	int dscp_to_prio[64];	/* -1: no entry for that DSCP */
	/* DCB_ATTR_DCBX, -1 when absent */
	int dcbx;
};

/* Parse one RTM_GETDCB reply (nlmsghdr + dcbmsg + attributes).  0 on
 * success; -EOPNOTSUPP (or another negative errno) when the reply is the
 * kernel's NLMSG_ERROR with that error (-EOPNOTSUPP: the netdev has no DCB,
 * as on veth, virtio and VFs); -EINVAL for anything malformed. */
int dcb_parse_ieee(const void *msg, size_t len, struct dcb_info *out);

/* Build the DCB_CMD_IEEE_GET request for ifname into buf; returns its
 * length, or -EINVAL (name empty or too long) / -ENOSPC. */
int dcb_build_request(void *buf, size_t cap, const char *ifname, uint32_t seq);

/* Ask the kernel (NETLINK_ROUTE, 1 s receive timeout).  0 when it
 * answered: the reply, an error reply included, is in buf (*len bytes).
 * Negative errno when no answer came (-EAGAIN: timed out). */
int dcb_query(const char *ifname, void *buf, size_t cap, size_t *len);

#endif
