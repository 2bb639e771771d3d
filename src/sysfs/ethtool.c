#include "ethtool.h"
#include "tape.h"
#include "../nl/ethtool_stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A netdev name that can be a directory name under .rdmadoctor/ethtool/. */
static bool plain_ifname(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 16 && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

static int read_live(struct root *r, const char *ifname, const char *spath, const char *vpath,
		     struct counter_set *out)
{
	uint8_t *s = NULL, *v = NULL;
	size_t slen, vlen;
	uint32_t count;
	int rc = ethtool_stats_query(ifname, &s, &slen, &v, &vlen, &count);

	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		/* veth without stats, a bond, a VF: not an error */
		root_note(r, spath, "ethtool statistics of %s: %s", ifname,
			  rc == -EOPNOTSUPP ? "none (the netdev has no ETH_SS_STATS)" :
			  strerror(-rc));
		return 1;
	}
	if (r->tape && (tape_file(r->tape, spath, (const char *)s, slen) < 0 ||
			tape_file(r->tape, vpath, (const char *)v, vlen) < 0))
		rc = -ENOMEM;
	if (rc == 0)
		rc = ethtool_stats_parse(s, slen, v, vlen, count, out);
	free(s);
	free(v);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		root_note(r, spath, "ethtool statistics of %s unusable: %s", ifname, strerror(-rc));
		return 1;
	}
	return 0;
}

static int read_replay(struct root *r, const char *spath, const char *vpath,
		       struct counter_set *out)
{
	uint8_t *s = malloc(ETHTOOL_STATS_STRINGS_MAX + 1), *v = malloc(ETHTOOL_STATS_STATS_MAX + 1);
	size_t slen = 0, vlen = 0;
	int64_t count;
	int rc = -ENOMEM;

	if (!s || !v)
		goto out;
	/* one byte more than the largest: a longer file is refused */
	if (root_read_bin(r, spath, s, ETHTOOL_STATS_STRINGS_MAX + 1, &slen) < 0 ||
	    root_read_bin(r, vpath, v, ETHTOOL_STATS_STATS_MAX + 1, &vlen) < 0) {
		rc = 1;	/* not captured: unknown */
		goto out;
	}
	count = ethtool_stats_count_of(s, slen);
	rc = count < 0 ? -EINVAL : count > ETHTOOL_STATS_MAX ? -E2BIG :
	     ethtool_stats_parse(s, slen, v, vlen, (uint32_t)count, out);
	if (rc < 0 && rc != -ENOMEM) {
		root_note(r, spath, "ethtool statistics unusable: %s", strerror(-rc));
		rc = 1;
	}
out:
	free(s);
	free(v);
	return rc;
}

int ethtool_read_stats(struct root *r, const char *ifname, struct counter_set *out)
{
	char spath[64], vpath[64];

	if (!ifname || !plain_ifname(ifname)) {
		root_note(r, ifname ? ifname : "", "netdev name unusable for ethtool: not queried");
		return 1;
	}
	snprintf(spath, sizeof(spath), "%s/%s/strings", ETHTOOL_SNAPSHOT_DIR, ifname);
	snprintf(vpath, sizeof(vpath), "%s/%s/stats", ETHTOOL_SNAPSHOT_DIR, ifname);
	return r->live ? read_live(r, ifname, spath, vpath, out) :
			 read_replay(r, spath, vpath, out);
}

int ethtool_read_port_stats(struct root *r, struct port *p)
{
	int rc;

	if (!p->netdev)
		return 0;
	rc = ethtool_read_stats(r, p->netdev, &p->eth_stats);
	return rc < 0 ? rc : 0;
}
