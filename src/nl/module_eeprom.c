/* ethtool netlink MODULE_EEPROM_GET (Documentation/networking/ethtool-netlink.rst,
 * net/ethtool/eeprom.c).  The parsers walk the bytes by hand, checking
 * every length: a snapshot file is as untrusted as any other. */
#include "module_eeprom.h"
#include "attr.h"
#include "link_modes.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* SFF-8024 identifiers (SFF-8024 table 4-1) */
static int spec_of(uint8_t id)
{
	switch (id) {
	case 0x03:
		return 8472;
	case 0x0c: case 0x0d: case 0x11:
		return 8636;
	case 0x18: case 0x19: case 0x1b: case 0x1e: case 0x1f: case 0x20:
		return 1;	/* CMIS */
	default:
		return 0;
	}
}

static size_t plan_add(struct module_eeprom_req *req, size_t n, size_t max, uint8_t i2c,
		       uint8_t page, uint8_t bank, uint8_t offset)
{
	if (n >= max)
		return n;
	req[n] = (struct module_eeprom_req){ .i2c = i2c, .page = page, .bank = bank,
					     .offset = offset, .len = 128 };
	return n + 1;
}

size_t module_eeprom_plan(const uint8_t *lower, size_t len, struct module_eeprom_req *req,
			  size_t max)
{
	size_t n = 0;

	if (!lower || len < 3 || !req)
		return 0;
	switch (spec_of(lower[0])) {
	case 8636:
		n = plan_add(req, n, max, 0x50, 0, 0, 128);
		/* page 03h (thresholds) unless flat memory: byte 2 bit 2 */
		if (!(lower[2] & 0x04))
			n = plan_add(req, n, max, 0x50, 3, 0, 128);
		break;
	case 1:
		n = plan_add(req, n, max, 0x50, 0, 0, 128);
		if (!(lower[2] & 0x80)) {	/* paged memory */
			n = plan_add(req, n, max, 0x50, 0x01, 0, 128);
			n = plan_add(req, n, max, 0x50, 0x02, 0, 128);
			n = plan_add(req, n, max, 0x50, 0x11, 0, 128);
		}
		break;
	case 8472:
		n = plan_add(req, n, max, 0x50, 0, 0, 128);
		n = plan_add(req, n, max, 0x51, 0, 0, 0);
		n = plan_add(req, n, max, 0x51, 0, 0, 128);
		break;
	default:
		break;
	}
	return n;
}

static bool req_ok(const struct module_eeprom_req *r)
{
	size_t end = (size_t)r->offset + r->len;

	if (r->len == 0 || r->len > MODULE_EEPROM_READ_MAX || end > 256)
		return false;
	if (r->offset < 128 && end > 128)
		return false;
	return r->page == 0 || r->offset >= 128;
}

int module_eeprom_build_request(void *buf, size_t cap, uint16_t family, const char *ifname,
				const struct module_eeprom_req *req, uint32_t seq)
{
	size_t n = ifname ? strnlen(ifname, IFNAMSIZ) : 0;
	size_t need = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct genlmsghdr)) + NLA_HDRLEN +
		NLA_ALIGN(NLA_HDRLEN + n + 1) + 2 * NLA_ALIGN(NLA_HDRLEN + 4) +
		3 * NLA_ALIGN(NLA_HDRLEN + 1);
	struct nlmsghdr *nlh = buf;
	int rc;

	if (n == 0 || n >= IFNAMSIZ || !req || !req_ok(req))
		return -EINVAL;
	if (!buf || cap < need)
		return -ENOSPC;
	/* the ethtool request header, then the page to read */
	rc = ethnl_build_get(buf, cap, family, ETHTOOL_MSG_MODULE_EEPROM_GET, ifname, 0, seq);
	if (rc < 0)
		return rc;
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_OFFSET, req->offset);
	mnl_attr_put_u32(nlh, ETHTOOL_A_MODULE_EEPROM_LENGTH, req->len);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_PAGE, req->page);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_BANK, req->bank);
	mnl_attr_put_u8(nlh, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, req->i2c);
	return (int)nlh->nlmsg_len;
}

int module_eeprom_parse_reply(const void *msg, size_t len, uint16_t family, uint8_t *data,
			      size_t cap, size_t *dlen)
{
	const uint8_t *p, *end, *pl;
	uint16_t type;
	size_t plen;
	bool found = false;
	int rc;

	if (dlen)
		*dlen = 0;
	if (!dlen || (!data && cap))
		return -EINVAL;
	rc = nl_genl_body(msg, len, family, ETHTOOL_MSG_MODULE_EEPROM_GET_REPLY, &p, &end);
	if (rc < 0)
		return rc;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		if (type != ETHTOOL_A_MODULE_EEPROM_DATA)
			continue;
		/* a second DATA attribute is malformed: forget the first */
		if (found || plen == 0) {
			*dlen = 0;
			return -EINVAL;
		}
		if (plen > cap)
			return -EMSGSIZE;
		memcpy(data, pl, plen);
		*dlen = plen;
		found = true;
	}
	if (rc < 0 || !found) {
		*dlen = 0;
		return -EINVAL;
	}
	return 0;
}

int module_eeprom_parse_family(const void *msg, size_t len, uint16_t *id)
{
	const uint8_t *p, *end, *pl;
	uint16_t type;
	size_t plen;
	int rc;

	if (!id)
		return -EINVAL;
	*id = 0;
	rc = nl_genl_body(msg, len, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, &p, &end);
	if (rc < 0)
		return rc;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		if (type != CTRL_ATTR_FAMILY_ID)
			continue;
		if (plen < 2)
			return -EINVAL;
		memcpy(id, pl, 2);
		return *id ? 0 : -EINVAL;
	}
	return -EINVAL;
}

struct module_eeprom_sock {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t seq, portid;
	uint8_t buf[MODULE_EEPROM_REPLY_MAX];
};

/* Send n bytes and receive the answer to seq into s->buf. */
static int transact(struct module_eeprom_sock *s, const void *req, size_t n, uint32_t seq,
		    size_t *got_len)
{
	if (mnl_socket_sendto(s->nl, req, n) < 0)
		return -errno;
	for (int tries = 0; tries < 16; tries++) {
		ssize_t got = mnl_socket_recvfrom(s->nl, s->buf, sizeof(s->buf));
		struct nlmsghdr h;

		if (got < 0)
			return errno == EWOULDBLOCK ? -EAGAIN : -errno;
		if ((size_t)got < sizeof(h))
			continue;
		memcpy(&h, s->buf, sizeof(h));
		if (h.nlmsg_seq != seq || (h.nlmsg_pid != s->portid && h.nlmsg_pid != 0))
			continue;
		*got_len = (size_t)got;
		return 0;
	}
	return -EPROTO;
}

int module_eeprom_open(struct module_eeprom_sock **out)
{
	struct timeval tv = { .tv_sec = 1 };
	struct module_eeprom_sock *s;
	uint8_t req[64];
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	size_t got = 0;
	int rc;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!s->nl) {
		rc = -errno;
		free(s);
		return rc;
	}
	if (setsockopt(mnl_socket_get_fd(s->nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		goto fail;
	}
	s->portid = mnl_socket_get_portid(s->nl);
	s->seq = (uint32_t)time(NULL);
	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = ++s->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	rc = transact(s, req, nlh->nlmsg_len, s->seq, &got);
	if (rc == 0)
		rc = module_eeprom_parse_family(s->buf, got, &s->family);
	if (rc < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	mnl_socket_close(s->nl);
	free(s);
	return rc;
}

void module_eeprom_close(struct module_eeprom_sock *s)
{
	if (!s)
		return;
	mnl_socket_close(s->nl);
	free(s);
}

int module_eeprom_lazy_get(struct module_eeprom_lazy *l, struct module_eeprom_sock **s)
{
	if (!l->tried) {
		l->rc = module_eeprom_open(&l->s);
		l->tried = true;
	}
	*s = l->s;
	return l->rc;
}

void module_eeprom_lazy_close(struct module_eeprom_lazy *l)
{
	module_eeprom_close(l->s);
	l->s = NULL;
	l->tried = false;
}

int module_eeprom_read(struct module_eeprom_sock *s, const char *ifname,
		       const struct module_eeprom_req *req, uint8_t *buf, size_t cap, size_t *got)
{
	uint8_t msg[128];
	size_t rlen = 0;
	int n, rc;

	*got = 0;
	if (!s)
		return -EINVAL;
	n = module_eeprom_build_request(msg, sizeof(msg), s->family, ifname, req, ++s->seq);
	if (n < 0)
		return n;
	rc = transact(s, msg, (size_t)n, s->seq, &rlen);
	if (rc < 0)
		return rc;
	return module_eeprom_parse_reply(s->buf, rlen, s->family, buf, cap, got);
}

int module_eeprom_get_raw(struct module_eeprom_sock *s, uint8_t cmd, const char *ifname,
			  uint32_t flags, uint8_t *buf, size_t cap, size_t *got)
{
	uint8_t msg[128];
	size_t rlen = 0;
	int n, rc;

	*got = 0;
	if (!s)
		return -EINVAL;
	n = ethnl_build_get(msg, sizeof(msg), s->family, cmd, ifname, flags, ++s->seq);
	if (n < 0)
		return n;
	rc = transact(s, msg, (size_t)n, s->seq, &rlen);
	if (rc < 0)
		return rc;
	if (rlen > cap)
		return -EMSGSIZE;
	memcpy(buf, s->buf, rlen);
	*got = rlen;
	return 0;
}

int module_eeprom_unavailable(int err)
{
	if (err < 0)
		err = -err;
	return err == EPERM || err == EACCES || err == EOPNOTSUPP || err == ENODEV ||
		err == ENOENT || err == EIO || err == ENXIO || err == EINVAL;
}
