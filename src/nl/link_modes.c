/* ethtool netlink LINKMODES_GET and FEC_GET (net/ethtool/linkmodes.c,
 * fec.c, bitset.c).  Every length is checked before it is used: a snapshot
 * file is as untrusted as the kernel's socket. */
#include "link_modes.h"
#include "attr.h"
#include "fec_stats.h"
#include "../model/link_modes.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <string.h>

int ethnl_build_get(void *buf, size_t cap, uint16_t family, uint8_t cmd, const char *ifname,
		    uint32_t flags, uint32_t seq)
{
	size_t n = ifname ? strnlen(ifname, IFNAMSIZ) : 0;
	size_t need = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct genlmsghdr)) + NLA_HDRLEN +
		NLA_ALIGN(NLA_HDRLEN + n + 1) + NLA_ALIGN(NLA_HDRLEN + 4);
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *nest;

	if (n == 0 || n >= IFNAMSIZ)
		return -EINVAL;
	if (!buf || cap < need)
		return -ENOSPC;
	memset(buf, 0, need);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = ETHTOOL_GENL_VERSION;
	/* the request header is attribute 1 of every ethtool message */
	nest = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, nest);
	return (int)nlh->nlmsg_len;
}

static bool get_u32(const uint8_t *p, size_t n, uint32_t *v)
{
	if (n != 4)
		return false;
	memcpy(v, p, 4);
	return true;
}

static void set_bit(uint32_t *set, size_t words, uint32_t bit)
{
	if (set && bit / 32 < words)
		set[bit / 32] |= 1u << (bit % 32);
}

/* A u32 array of exactly the words `size` bits take, into out. */
static int compact_words(const uint8_t *p, size_t n, uint32_t size, uint32_t *out, size_t words)
{
	size_t want = ((size_t)size + 31) / 32;

	if (n != want * 4)
		return -EINVAL;
	for (size_t i = 0; i < want && i < words; i++)
		memcpy(&out[i], p + 4 * i, 4);
	/* bits past size are not part of the set */
	if (size % 32 && (size - 1) / 32 < words)
		out[(size - 1) / 32] &= (1u << (size % 32)) - 1;
	return 0;
}

/* One ETHTOOL_A_BITSET_BITS_BIT: its index (< size when size is known) and
 * whether its VALUE flag is there. */
static int verbose_bit(const uint8_t *p, size_t n, uint32_t size, bool have_size,
		       uint32_t *index, bool *value)
{
	const uint8_t *end = p + n, *pl;
	uint16_t type;
	size_t plen;
	bool have_index = false;
	int rc;

	*value = false;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		if (type == ETHTOOL_A_BITSET_BIT_INDEX) {
			if (have_index || !get_u32(pl, plen, index))
				return -EINVAL;
			have_index = true;
		} else if (type == ETHTOOL_A_BITSET_BIT_VALUE) {
			if (plen != 0)
				return -EINVAL;
			*value = true;
		} else if (type == ETHTOOL_A_BITSET_BIT_NAME) {
			/* a NUL-terminated string; the index is what counts */
			if (plen == 0 || !memchr(pl, '\0', plen))
				return -EINVAL;
		}
	}
	if (rc < 0 || !have_index || *index >= ETHNL_BITSET_MAX ||
	    (have_size && *index >= size))
		return -EINVAL;
	return 0;
}

int ethnl_parse_bitset(const uint8_t *p, size_t n, uint32_t *value, uint32_t *mask,
		       size_t words, bool *nomask)
{
	const uint8_t *end = p + n, *pl, *vp = NULL, *mp = NULL, *bp = NULL;
	size_t vlen = 0, mlen = 0, blen = 0, plen;
	uint32_t size = 0;
	bool have_size = false, no_mask = false;
	uint16_t type;
	int rc;

	if (!p || !value)
		return -EINVAL;
	memset(value, 0, words * 4);
	if (mask)
		memset(mask, 0, words * 4);
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		switch (type) {
		case ETHTOOL_A_BITSET_NOMASK:
			if (plen != 0)
				return -EINVAL;
			no_mask = true;
			break;
		case ETHTOOL_A_BITSET_SIZE:
			if (have_size || !get_u32(pl, plen, &size))
				return -EINVAL;
			have_size = true;
			break;
		case ETHTOOL_A_BITSET_BITS:
			if (bp)
				return -EINVAL;
			bp = pl;
			blen = plen;
			break;
		case ETHTOOL_A_BITSET_VALUE:
			if (vp)
				return -EINVAL;
			vp = pl;
			vlen = plen;
			break;
		case ETHTOOL_A_BITSET_MASK:
			if (mp)
				return -EINVAL;
			mp = pl;
			mlen = plen;
			break;
		default:
			break;
		}
	}
	if (rc < 0 || (have_size && size > ETHNL_BITSET_MAX))
		return -EINVAL;
	if (nomask)
		*nomask = no_mask;
	if (vp) {
		/* compact: the size says how long both arrays are */
		if (!have_size || bp || (no_mask && mp) || (!no_mask && !mp))
			goto bad;
		if (compact_words(vp, vlen, size, value, words) < 0 ||
		    (mp && compact_words(mp, mlen, size, mask ? mask : value, mask ? words : 0) < 0))
			goto bad;
		/* the kernel's value is always within its mask */
		return 0;
	}
	if (mp)
		goto bad;
	if (bp) {
		const uint8_t *q = bp, *qend = bp + blen, *bl;
		size_t bln;

		while ((rc = nl_next_attr(&q, qend, &type, &bl, &bln)) > 0) {
			uint32_t index = 0;	/* set by verbose_bit; gcc -O2 cannot see it */
			bool v;

			if (type != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			if (verbose_bit(bl, bln, size, have_size, &index, &v) < 0)
				goto bad;
			/* a value-only list names the bits that are set */
			if (no_mask || v)
				set_bit(value, words, index);
			if (!no_mask)
				set_bit(mask, words, index);
		}
		if (rc < 0)
			goto bad;
	}
	return 0;
bad:
	memset(value, 0, words * 4);
	if (mask)
		memset(mask, 0, words * 4);
	return -EINVAL;
}

/* Each reply attribute at most once. */
static bool once(uint32_t *seen, uint16_t type)
{
	if (type >= 32)
		return true;
	if (*seen & (1u << type))
		return false;
	*seen |= 1u << type;
	return true;
}

int ethnl_parse_linkmodes(const void *msg, size_t len, uint16_t family, struct link_info *l)
{
	struct link_info t;
	const uint8_t *p, *end, *pl;
	uint32_t seen = 0, v;
	uint16_t type;
	size_t plen;
	int rc;

	if (!l)
		return -EINVAL;
	rc = nl_genl_body(msg, len, family, ETHTOOL_MSG_LINKMODES_GET_REPLY, &p, &end);
	if (rc < 0)
		return rc;
	t = *l;
	t.linkmodes = 1;
	t.autoneg = t.duplex = -1;
	t.speed_mbps = t.lanes = NA;
	t.has_modes = t.has_peer = false;
	memset(t.supported, 0, sizeof(t.supported));
	memset(t.advertised, 0, sizeof(t.advertised));
	memset(t.peer, 0, sizeof(t.peer));
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		bool nomask;

		if (!once(&seen, type))
			return -EINVAL;
		switch (type) {
		case ETHTOOL_A_LINKMODES_AUTONEG:
			if (plen != 1 || pl[0] > 1)
				return -EINVAL;
			t.autoneg = pl[0];
			break;
		case ETHTOOL_A_LINKMODES_OURS:
			if (ethnl_parse_bitset(pl, plen, t.advertised, t.supported, LINK_MODE_WORDS,
					       &nomask) < 0)
				return -EINVAL;
			t.has_modes = true;
			break;
		case ETHTOOL_A_LINKMODES_PEER:
			if (ethnl_parse_bitset(pl, plen, t.peer, NULL, LINK_MODE_WORDS, &nomask) < 0)
				return -EINVAL;
			t.has_peer = true;
			break;
		case ETHTOOL_A_LINKMODES_SPEED:
			if (!get_u32(pl, plen, &v))
				return -EINVAL;
			/* SPEED_UNKNOWN (-1) and 0: not a speed */
			t.speed_mbps = v == 0 || v == UINT32_MAX ? NA : (int64_t)v;
			break;
		case ETHTOOL_A_LINKMODES_DUPLEX:
			if (plen != 1)
				return -EINVAL;
			t.duplex = pl[0] == DUPLEX_FULL ? 1 : pl[0] == DUPLEX_HALF ? 0 : -1;
			break;
		case ETHTOOL_A_LINKMODES_LANES:
			if (!get_u32(pl, plen, &v))
				return -EINVAL;
			t.lanes = v == 0 || v > 64 ? NA : (int64_t)v;
			break;
		default:
			break;
		}
	}
	if (rc < 0)
		return -EINVAL;
	*l = t;
	return 0;
}

int ethnl_parse_fec(const void *msg, size_t len, uint16_t family, struct link_info *l)
{
	uint32_t modes[LINK_MODE_WORDS] = { 0 }, seen = 0, v;
	const uint8_t *p, *end, *pl;
	int fec_auto = -1, active = -1;
	struct fec_stats stats;
	uint16_t type;
	size_t plen;
	int rc;

	if (!l)
		return -EINVAL;
	rc = nl_genl_body(msg, len, family, ETHTOOL_MSG_FEC_GET_REPLY, &p, &end);
	if (rc < 0)
		return rc;
	/* no nest: the request lacked ETHTOOL_FLAG_STATS */
	fec_stats_init(&stats);
	stats.have = 0;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		if (!once(&seen, type))
			return -EINVAL;
		switch (type) {
		case ETHTOOL_A_FEC_MODES:
			if (ethnl_parse_bitset(pl, plen, modes, NULL, LINK_MODE_WORDS, NULL) < 0)
				return -EINVAL;
			break;
		case ETHTOOL_A_FEC_AUTO:
			if (plen != 1 || pl[0] > 1)
				return -EINVAL;
			fec_auto = pl[0];
			break;
		case ETHTOOL_A_FEC_ACTIVE:
			if (!get_u32(pl, plen, &v) || !link_fec_name((int)v))
				return -EINVAL;
			active = (int)v;
			break;
		case ETHTOOL_A_FEC_STATS:
			if (ethnl_parse_fec_stats(pl, plen, &stats) < 0)
				return -EINVAL;
			break;
		default:
			break;
		}
	}
	if (rc < 0)
		return -EINVAL;
	l->fec = 1;
	l->fec_auto = fec_auto;
	l->fec_active = active;
	memcpy(l->fec_configured, modes, sizeof(modes));
	l->fec_stats = stats;
	return 0;
}
