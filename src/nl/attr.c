#include "attr.h"

#include <errno.h>
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
