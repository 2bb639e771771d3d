#include "attr.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>

int nl_next_attr(const uint8_t **pos, const uint8_t *end, uint16_t *type,
		 const uint8_t **payload, size_t *plen)
{
	size_t left = (size_t)(end - *pos), alen, step;
	struct nlattr a;

	if (left == 0)
		return 0;
	if (left < sizeof(a))
		return -EINVAL;
	memcpy(&a, *pos, sizeof(a));
	alen = a.nla_len;
	if (alen < sizeof(a) || alen > left)
		return -EINVAL;
	*type = a.nla_type & NLA_TYPE_MASK;
	*payload = *pos + NLA_HDRLEN;
	*plen = alen - NLA_HDRLEN;
	step = NLA_ALIGN(alen);
	*pos += step < left ? step : left;
	return 1;
}

int nl_msg_header(const void *msg, size_t len, struct nlmsghdr *h)
{
	const uint8_t *base = msg;

	if (!msg || len < NLMSG_HDRLEN)
		return -EINVAL;
	memcpy(h, base, sizeof(*h));
	if (h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > len)
		return -EINVAL;
	if (h->nlmsg_type == NLMSG_ERROR) {
		int err;

		if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(err))
			return -EINVAL;
		memcpy(&err, base + NLMSG_HDRLEN, sizeof(err));
		return err < 0 && err > -4096 ? err : -EINVAL;
	}
	return 0;
}

int nl_genl_body(const void *msg, size_t len, uint16_t type, uint8_t cmd, const uint8_t **p,
		 const uint8_t **end)
{
	const uint8_t *base = msg;
	struct nlmsghdr h;
	struct genlmsghdr g;
	int rc = nl_msg_header(msg, len, &h);

	if (rc < 0)
		return rc;
	if (type ? h.nlmsg_type != type : h.nlmsg_type < NLMSG_MIN_TYPE)
		return -EINVAL;
	if (h.nlmsg_len < NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(g)))
		return -EINVAL;
	memcpy(&g, base + NLMSG_HDRLEN, sizeof(g));
	if (g.cmd != cmd)
		return -EINVAL;
	*p = base + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(g));
	*end = base + h.nlmsg_len;
	return 0;
}
