/* FEC statistics out of a FEC_GET reply.  Every length is checked before
 * it is used: a snapshot file is as untrusted as the kernel's socket. */
#include "fec_stats.h"
#include "attr.h"

#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <string.h>

/* Added in 6.18 with the histogram; older uapi headers lack them. */
enum {
	FEC_STAT_HIST = ETHTOOL_A_FEC_STAT_CORR_BITS + 1,
};
enum {
	FEC_HIST_BIN_LOW = 2,
	FEC_HIST_BIN_HIGH = 3,
	FEC_HIST_BIN_VAL = 4,
	FEC_HIST_BIN_VAL_PER_LANE = 5,
};

/* n u64s (native order, as nla_put_64bit writes them), at most max. */
static int u64s(const uint8_t *p, size_t n, uint64_t *out, size_t max, size_t *count)
{
	if (n % 8 || n / 8 > max)
		return -EINVAL;
	for (size_t i = 0; i < n / 8; i++)
		memcpy(&out[i], p + 8 * i, 8);
	*count = n / 8;
	return 0;
}

static int counter(const uint8_t *p, size_t n, struct fec_count *c)
{
	/* a group the driver did not fill is left out, so an empty one is
	 * not the kernel's */
	if (c->n || n == 0)
		return -EINVAL;
	return u64s(p, n, c->v, 1 + FEC_LANES_MAX, &c->n);
}

static int bin(const uint8_t *p, size_t n, struct fec_hist_bin *b)
{
	const uint8_t *end = p + n, *pl;
	bool low = false, high = false, val = false, lanes = false;
	uint16_t type;
	size_t plen;
	uint32_t v32;
	int rc;

	memset(b, 0, sizeof(*b));
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		switch (type) {
		case FEC_HIST_BIN_LOW:
		case FEC_HIST_BIN_HIGH:
			if (plen != 4 || (type == FEC_HIST_BIN_LOW ? low : high))
				return -EINVAL;
			memcpy(&v32, pl, 4);
			if (type == FEC_HIST_BIN_LOW) {
				b->low = v32;
				low = true;
			} else {
				b->high = v32;
				high = true;
			}
			break;
		case FEC_HIST_BIN_VAL:
			/* NLA_UINT: 4 bytes while the value fits, else 8 */
			if (val || (plen != 4 && plen != 8))
				return -EINVAL;
			if (plen == 4) {
				memcpy(&v32, pl, 4);
				b->val = v32;
			} else {
				memcpy(&b->val, pl, 8);
			}
			val = true;
			break;
		case FEC_HIST_BIN_VAL_PER_LANE:
			if (lanes || plen == 0 || u64s(pl, plen, b->lane, FEC_LANES_MAX,
						       &b->n_lanes) < 0)
				return -EINVAL;
			lanes = true;
			break;
		default:
			break;	/* the pad, or a newer kernel's */
		}
	}
	if (rc < 0 || !low || !high || !val || b->low > b->high)
		return -EINVAL;
	return 0;
}

int ethnl_parse_fec_stats(const uint8_t *p, size_t n, struct fec_stats *s)
{
	const uint8_t *end, *pl;
	struct fec_stats t;
	uint16_t type;
	size_t plen;
	int rc;

	if (!p || !s)
		return -EINVAL;
	end = p + n;	/* not before: NULL + 0 is undefined */
	fec_stats_init(&t);
	t.have = 1;
	while ((rc = nl_next_attr(&p, end, &type, &pl, &plen)) > 0) {
		switch (type) {
		case ETHTOOL_A_FEC_STAT_CORRECTED:
			rc = counter(pl, plen, &t.c[FEC_CORRECTED]);
			break;
		case ETHTOOL_A_FEC_STAT_UNCORR:
			rc = counter(pl, plen, &t.c[FEC_UNCORR]);
			break;
		case ETHTOOL_A_FEC_STAT_CORR_BITS:
			rc = counter(pl, plen, &t.c[FEC_CORR_BITS]);
			break;
		case FEC_STAT_HIST:
			rc = t.n_hist < FEC_HIST_MAX ? bin(pl, plen, &t.hist[t.n_hist++]) : -EINVAL;
			break;
		default:
			rc = 0;	/* ETHTOOL_A_FEC_STAT_PAD, or a newer kernel's */
			break;
		}
		if (rc < 0)
			return -EINVAL;
	}
	if (rc < 0)
		return -EINVAL;
	*s = t;
	return 0;
}
