/* ethtool statistics over SIOCETHTOOL (include/uapi/linux/ethtool.h):
 * GSSET_INFO for the count, GSTRINGS for the names, GSTATS for the values.
 *
 * The parser checks every length against the bytes it was given: a
 * snapshot file is as untrusted as any other. */
#include "ethtool_stats.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define GSTRINGS_HDR offsetof(struct ethtool_gstrings, data)
#define GSTATS_HDR offsetof(struct ethtool_stats, data)

_Static_assert(GSTRINGS_HDR == 12, "struct ethtool_gstrings header");
_Static_assert(GSTATS_HDR == 8, "struct ethtool_stats header");
_Static_assert(ETH_GSTRING_LEN == ETHTOOL_STATS_NAME_LEN, "ETH_GSTRING_LEN");

static void set_free(struct counter_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* A name: NUL within 32 bytes, non-empty, printable ASCII. */
static int name_ok(const uint8_t *p)
{
	size_t n = strnlen((const char *)p, ETHTOOL_STATS_NAME_LEN);

	if (n == 0 || n == ETHTOOL_STATS_NAME_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return 0;
	return 1;
}

int64_t ethtool_stats_count_of(const void *strings, size_t slen)
{
	struct ethtool_gstrings gs;

	if (!strings || slen < GSTRINGS_HDR)
		return -EINVAL;
	memcpy(&gs, strings, GSTRINGS_HDR);
	return gs.len;
}

int ethtool_stats_parse(const void *strings, size_t slen, const void *stats, size_t stlen,
			uint32_t count, struct counter_set *out)
{
	const uint8_t *sp = strings, *vp = stats;
	struct ethtool_gstrings gs;
	struct ethtool_stats st;

	out->v = NULL;
	out->n = 0;
	if (count > ETHTOOL_STATS_MAX)
		return -E2BIG;
	if (!strings || !stats || slen < GSTRINGS_HDR || stlen < GSTATS_HDR)
		return -EINVAL;
	memcpy(&gs, sp, GSTRINGS_HDR);
	memcpy(&st, vp, GSTATS_HDR);
	if (gs.cmd != ETHTOOL_GSTRINGS || gs.string_set != ETH_SS_STATS || gs.len != count ||
	    st.cmd != ETHTOOL_GSTATS || st.n_stats != count)
		return -EINVAL;
	if (slen != GSTRINGS_HDR + (size_t)count * ETHTOOL_STATS_NAME_LEN ||
	    stlen != GSTATS_HDR + (size_t)count * sizeof(uint64_t))
		return -EINVAL;
	for (uint32_t i = 0; i < count; i++)
		if (!name_ok(sp + GSTRINGS_HDR + (size_t)i * ETHTOOL_STATS_NAME_LEN))
			return -EINVAL;
	out->v = calloc(count ? count : 1, sizeof(*out->v));
	if (!out->v)
		return -ENOMEM;
	for (uint32_t i = 0; i < count; i++) {
		const char *name = (const char *)sp + GSTRINGS_HDR + (size_t)i * ETHTOOL_STATS_NAME_LEN;
		struct counter *c = &out->v[i];

		c->name = strndup(name, ETHTOOL_STATS_NAME_LEN);
		if (!c->name) {
			out->n = i;
			set_free(out);
			return -ENOMEM;
		}
		memcpy(&c->value, vp + GSTATS_HDR + (size_t)i * sizeof(uint64_t), sizeof(uint64_t));
		c->ok = true;
	}
	out->n = count;
	return 0;
}

static int eth_ioctl(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* ETHTOOL_GSSET_INFO for ETH_SS_STATS */
static int get_count(int fd, const char *ifname, uint32_t *count)
{
	union {
		struct ethtool_sset_info s;
		uint8_t b[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} u;
	int rc;

	memset(&u, 0, sizeof(u));
	u.s.cmd = ETHTOOL_GSSET_INFO;
	u.s.sset_mask = 1ULL << ETH_SS_STATS;
	rc = eth_ioctl(fd, ifname, &u);
	if (rc < 0)
		return rc;
	/* the kernel clears the bits of sets the driver does not have */
	if (!(u.s.sset_mask & (1ULL << ETH_SS_STATS)))
		return -EOPNOTSUPP;
	memcpy(count, u.b + offsetof(struct ethtool_sset_info, data), sizeof(*count));
	return *count > ETHTOOL_STATS_MAX ? -E2BIG : 0;
}

/* One try: 0, -EAGAIN when the count moved under us, or an error. */
static int try_once(int fd, const char *ifname, uint8_t *sbuf, uint8_t *vbuf, uint32_t *count)
{
	struct ethtool_gstrings gs = { .cmd = ETHTOOL_GSTRINGS, .string_set = ETH_SS_STATS };
	struct ethtool_stats st = { .cmd = ETHTOOL_GSTATS };
	int rc = get_count(fd, ifname, count);

	if (rc < 0)
		return rc;
	gs.len = *count;
	memcpy(sbuf, &gs, GSTRINGS_HDR);
	if ((rc = eth_ioctl(fd, ifname, sbuf)) < 0)
		return rc;
	memcpy(&gs, sbuf, GSTRINGS_HDR);
	/* 6.12: len 0 on a mismatch; older kernels write the current count */
	if (gs.len != *count)
		return -EAGAIN;
	st.n_stats = *count;
	memcpy(vbuf, &st, GSTATS_HDR);
	if ((rc = eth_ioctl(fd, ifname, vbuf)) < 0)
		return rc;
	memcpy(&st, vbuf, GSTATS_HDR);
	return st.n_stats != *count ? -EAGAIN : 0;
}

int ethtool_stats_query(const char *ifname, uint8_t **strings, size_t *slen, uint8_t **stats,
			size_t *stlen, uint32_t *count)
{
	size_t n = ifname ? strnlen(ifname, IFNAMSIZ) : 0;
	uint8_t *sbuf = NULL, *vbuf = NULL;
	int fd, rc = -EAGAIN;

	*strings = *stats = NULL;
	*slen = *stlen = 0;
	*count = 0;
	if (n == 0 || n >= IFNAMSIZ)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* Room for the largest answer: a kernel before 6.12 writes as many
	 * entries as the driver has now, whatever len we pass. */
	sbuf = calloc(1, ETHTOOL_STATS_STRINGS_MAX);
	vbuf = calloc(1, ETHTOOL_STATS_STATS_MAX);
	if (!sbuf || !vbuf) {
		rc = -ENOMEM;
		goto out;
	}
	for (int tries = 0; tries < 2 && rc == -EAGAIN; tries++)
		rc = try_once(fd, ifname, sbuf, vbuf, count);
	if (rc == 0) {
		*slen = GSTRINGS_HDR + (size_t)*count * ETHTOOL_STATS_NAME_LEN;
		*stlen = GSTATS_HDR + (size_t)*count * sizeof(uint64_t);
		/* keep only what was answered */
		*strings = malloc(*slen);
		*stats = malloc(*stlen);
		if (!*strings || !*stats) {
			free(*strings);
			free(*stats);
			*strings = *stats = NULL;
			*slen = *stlen = 0;
			*count = 0;
			rc = -ENOMEM;
			goto out;
		}
		memcpy(*strings, sbuf, *slen);
		memcpy(*stats, vbuf, *stlen);
	} else {
		*count = 0;
	}
out:
	free(sbuf);
	free(vbuf);
	close(fd);
	return rc;
}
