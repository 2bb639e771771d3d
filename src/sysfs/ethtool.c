#include "ethtool.h"
#include "fetch.h"
#include "../nl/ethtool_stats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Both payloads come from one query: the first fetch (strings) asks,
 * the second (stats) hands over what it kept. */
struct asker {
	const char *ifname;
	uint8_t *stats;
	size_t stats_len;
};

static int fetch_strings(void *arg, void **data, size_t *len)
{
	struct asker *a = arg;
	uint8_t *s = NULL;
	uint32_t count;
	int rc = ethtool_stats_query(a->ifname, &s, len, &a->stats, &a->stats_len, &count);

	if (rc < 0)
		return rc;
	*data = s;
	return 0;
}

static int fetch_stats(void *arg, void **data, size_t *len)
{
	struct asker *a = arg;

	if (!a->stats)
		return -EIO;
	*data = a->stats;
	*len = a->stats_len;
	a->stats = NULL;
	return 0;
}

/* 0 with out set, 1 when not available (noted), -ENOMEM. */
static int read_stats(struct root *r, const char *ifname, const char *skey, const char *vkey,
		      struct counter_set *out)
{
	struct asker a = { .ifname = ifname };
	void *s = NULL, *v = NULL;
	size_t slen = 0, vlen = 0;
	int64_t count;
	int rc = root_fetch(r, ETHTOOL_FETCH_KIND, skey, ETHTOOL_STATS_STRINGS_MAX, fetch_strings,
			    &a, &s, &slen);

	if (rc == 0)
		rc = root_fetch(r, ETHTOOL_FETCH_KIND, vkey, ETHTOOL_STATS_STATS_MAX, fetch_stats,
				&a, &v, &vlen);
	free(a.stats);
	if (rc == -ENOMEM)
		goto out;
	if (rc < 0) {
		/* veth without stats, a bond, a VF, nothing captured: not an error */
		if (fetch_failure_noted(r, rc))
			root_note(r, ifname, "ethtool statistics of %s: %s", ifname,
				  rc == -EOPNOTSUPP ? "none (the netdev has no ETH_SS_STATS)" :
				  strerror(-rc));
		rc = 1;
		goto out;
	}
	count = ethtool_stats_count_of(s, slen);
	rc = count < 0 ? -EINVAL : count > ETHTOOL_STATS_MAX ? -E2BIG :
	     ethtool_stats_parse(s, slen, v, vlen, (uint32_t)count, out);
	if (rc < 0 && rc != -ENOMEM) {
		root_note(r, ifname, "ethtool statistics of %s unusable: %s", ifname,
			  strerror(-rc));
		rc = 1;
	}
out:
	free(s);
	free(v);
	return rc;
}

int ethtool_read_stats(struct root *r, const char *ifname, struct counter_set *out)
{
	char *skey = NULL, *vkey = NULL;
	int rc = -ENOMEM;

	if (!ifname || !fetch_name_ok(ifname)) {
		root_note(r, ifname ? ifname : "", "netdev name unusable for ethtool: not queried");
		return 1;
	}
	if (asprintf(&skey, "%s/strings", ifname) >= 0 && asprintf(&vkey, "%s/stats", ifname) >= 0)
		rc = read_stats(r, ifname, skey, vkey, out);
	free(skey);
	free(vkey);
	return rc;
}

int ethtool_read_port_stats(struct root *r, struct port *p)
{
	int rc;

	if (!p->netdev)
		return 0;
	rc = ethtool_read_stats(r, p->netdev, &p->eth_stats);
	return rc < 0 ? rc : 0;
}
