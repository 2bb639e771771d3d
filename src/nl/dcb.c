/* DCB netlink: the IEEE view of a netdev's PFC, APP table and ETS
 * (net/dcb/dcbnl.c dcbnl_ieee_fill).
 *
 * The parser walks the bytes by hand, checking every length against the
 * bytes it was given: a snapshot file is as untrusted as any other.  The
 * DCB_ATTR_IEEE nest is created without NLA_F_NESTED, so types are masked
 * with NLA_TYPE_MASK and nests are recognised by their type; payloads are
 * taken at nla_len (the 59-byte ieee_ets is not a multiple of 4). */
#include "dcb.h"
#include "attr.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int parse_app_table(const uint8_t *p, size_t len, struct dcb_info *out)
{
	const uint8_t *end = p + len, *pl;
	uint16_t type;
	size_t plen;
	int rc;

	out->has_app_table = 1;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		struct dcb_app app;

		/* DCB_ATTR_IEEE_APP (IEEE selectors), DCB_ATTR_DCB_APP (PCP
		 * and other non-IEEE selectors, 6.3+) */
		if (type != DCB_ATTR_IEEE_APP && type != 2)
			continue;
		if (plen < sizeof(app))
			return -EINVAL;
		memcpy(&app, pl, sizeof(app));
		out->n_app++;
		if (type != DCB_ATTR_IEEE_APP || app.selector != IEEE_8021QAZ_APP_SEL_DSCP)
			continue;
		out->trust_dscp = 1;
		if (app.protocol < 64 && app.priority < 8 && out->dscp_to_prio[app.protocol] < 0)
			out->dscp_to_prio[app.protocol] = app.priority;
	}
	return rc;
}

static int parse_ieee(const uint8_t *p, size_t len, struct dcb_info *out)
{
	const uint8_t *end = p + len, *pl;
	uint16_t type;
	size_t plen;
	int rc;

	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		switch (type) {
		case DCB_ATTR_IEEE_ETS: {
			struct ieee_ets ets;

			if (plen < sizeof(ets))
				return -EINVAL;
			memcpy(&ets, pl, sizeof(ets));
			out->has_ets = 1;
			memcpy(out->prio_tc, ets.prio_tc, 8);
			memcpy(out->tc_tsa, ets.tc_tsa, 8);
			break;
		}
		case DCB_ATTR_IEEE_PFC: {
			struct ieee_pfc pfc;

			if (plen < sizeof(pfc))
				return -EINVAL;
			memcpy(&pfc, pl, sizeof(pfc));
			out->has_pfc = 1;
			out->pfc_cap = pfc.pfc_cap;
			out->pfc_en = pfc.pfc_en;
			for (int i = 0; i < 8; i++) {
				out->requests[i] = pfc.requests[i];
				out->indications[i] = pfc.indications[i];
			}
			break;
		}
		case DCB_ATTR_IEEE_APP_TABLE:
			if ((rc = parse_app_table(pl, plen, out)) < 0)
				return rc;
			break;
		default:	/* peer tables, maxrate, buffer, rewrite table */
			break;
		}
	}
	return rc;
}

static void info_init(struct dcb_info *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 64; i++)
		out->dscp_to_prio[i] = -1;
	out->dcbx = -1;
}

int dcb_parse_ieee(const void *msg, size_t len, struct dcb_info *out)
{
	const uint8_t *base = msg, *p, *end, *pl;
	struct nlmsghdr h;
	struct dcbmsg dm;
	bool has_ieee = false;
	uint16_t type;
	size_t plen;
	int rc;

	info_init(out);
	rc = nl_msg_header(msg, len, &h);
	if (rc < 0)
		return rc;
	if (h.nlmsg_type != RTM_GETDCB || h.nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dm)))
		return -EINVAL;
	memcpy(&dm, base + NLMSG_HDRLEN, sizeof(dm));
	if (dm.cmd != DCB_CMD_IEEE_GET)
		return -EINVAL;
	p = base + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dm));
	end = base + h.nlmsg_len;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		if (type == DCB_ATTR_IEEE) {
			has_ieee = true;
			if ((rc = parse_ieee(pl, plen, out)) < 0)
				break;
		} else if (type == DCB_ATTR_DCBX) {
			if (plen < 1) {
				rc = -EINVAL;
				break;
			}
			out->dcbx = pl[0];
		}
	}
	if (rc == 0 && !has_ieee)
		rc = -EINVAL;
	if (rc < 0) {
		info_init(out);
		return rc;
	}
	return 0;
}

int dcb_build_request(void *buf, size_t cap, const char *ifname, uint32_t seq)
{
	size_t n = ifname ? strnlen(ifname, IFNAMSIZ) : 0;
	size_t need = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct dcbmsg)) + NLA_ALIGN(NLA_HDRLEN + n + 1);
	struct nlmsghdr *nlh;
	struct dcbmsg *dm;

	if (n == 0 || n >= IFNAMSIZ)
		return -EINVAL;
	if (!buf || cap < need)
		return -ENOSPC;
	memset(buf, 0, need);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	/* NLA_NUL_STRING policy: the NUL goes with it */
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	return (int)nlh->nlmsg_len;
}

int dcb_query(const char *ifname, void *buf, size_t cap, size_t *len)
{
	struct timeval tv = { .tv_sec = 1 };
	uint8_t req[64];
	struct mnl_socket *nl;
	uint32_t seq = (uint32_t)time(NULL), portid;
	int n, rc = 0;

	*len = 0;
	n = dcb_build_request(req, sizeof(req), ifname, seq);
	if (n < 0)
		return n;
	nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl)
		return -errno;
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, req, (size_t)n) < 0) {
		rc = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	/* skip anything that is not the answer to this request */
	for (int tries = 0; tries < 16; tries++) {
		ssize_t got = mnl_socket_recvfrom(nl, buf, cap);
		struct nlmsghdr h;

		if (got < 0) {
			rc = errno == EWOULDBLOCK ? -EAGAIN : -errno;
			goto out;
		}
		if ((size_t)got < sizeof(h))
			continue;
		memcpy(&h, buf, sizeof(h));
		if (h.nlmsg_seq != seq || (h.nlmsg_pid != portid && h.nlmsg_pid != 0))
			continue;
		*len = (size_t)got;
		goto out;
	}
	rc = -EPROTO;
out:
	mnl_socket_close(nl);
	return rc;
}
