#include "link.h"
#include "fetch.h"
#include "../nl/link_modes.h"
#include "../nl/module_eeprom.h"

#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One ethtool netlink socket for both GETs of a netdev, opened at the
 * first live fetch. */
struct asker {
	const char *ifname;
	uint8_t cmd;
	uint32_t flags;
	struct module_eeprom_lazy sock;
};

struct reply {
	void *b;
	size_t len;
	bool have;
};

static int fetch_reply(void *arg, void **data, size_t *len)
{
	struct asker *a = arg;
	struct module_eeprom_sock *s;
	uint8_t *buf;
	int rc = module_eeprom_lazy_get(&a->sock, &s);

	if (rc < 0)
		return rc;
	buf = malloc(ETHNL_REPLY_MAX);
	if (!buf)
		return -ENOMEM;
	rc = module_eeprom_get_raw(s, a->cmd, a->ifname, a->flags, buf, ETHNL_REPLY_MAX, len);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*data = buf;
	return 0;
}

/* One reply through root_fetch; what could not be had is noted.  0 or
 * -ENOMEM. */
static int get(struct root *r, struct asker *a, const char *key, const char *what,
	       struct reply *rep)
{
	int rc = root_fetch(r, LINK_FETCH_KIND, key, ETHNL_REPLY_MAX, fetch_reply, a, &rep->b,
			    &rep->len);

	if (rc == -ENOMEM)
		return rc;
	if (fetch_failure_noted(r, rc))
		root_note(r, a->ifname, "%s of %s not read: %s", what, a->ifname, strerror(-rc));
	rep->have = rc == 0 && rep->len > 0;
	return 0;
}

/* Parse one reply into l: a kernel's "not supported" is an answer too. */
static void apply(struct root *r, const char *path, const char *what, const struct reply *rep,
		  int (*parse)(const void *, size_t, uint16_t, struct link_info *),
		  struct link_info *l, int *field)
{
	int rc;

	if (!rep->have)
		return;
	/* the family id is the recording kernel's: any will do here */
	rc = parse(rep->b, rep->len, 0, l);
	if (rc == 0)
		return;
	if (rc == -EOPNOTSUPP) {
		*field = 0;
		return;
	}
	root_note(r, path, "%s reply unusable: %s", what, strerror(-rc));
}

int link_read(struct root *r, const char *ifname, struct link_info **out)
{
	struct asker a = { .ifname = ifname, .flags = ETHTOOL_FLAG_COMPACT_BITSETS };
	char *lkey = NULL, *fkey = NULL;
	struct reply rep[2] = { { 0 } };
	struct link_info *l;
	int rc = -ENOMEM;

	*out = NULL;
	if (!ifname || !fetch_name_ok(ifname)) {
		root_note(r, ifname ? ifname : "", "netdev name unusable for ethtool netlink: "
			  "not queried");
		return 0;
	}
	if (asprintf(&lkey, "%s/linkmodes", ifname) < 0 || asprintf(&fkey, "%s/fec", ifname) < 0)
		goto out;
	a.cmd = ETHTOOL_MSG_LINKMODES_GET;
	rc = get(r, &a, lkey, "link modes", &rep[0]);
	a.cmd = ETHTOOL_MSG_FEC_GET;
	/* every kernel with FEC_GET (5.14) takes the stats flag for it */
	a.flags |= ETHTOOL_FLAG_STATS;
	if (rc == 0)
		rc = get(r, &a, fkey, "FEC", &rep[1]);
	if (rc < 0 || (!rep[0].have && !rep[1].have))
		goto out;
	l = malloc(sizeof(*l));
	if (!l) {
		rc = -ENOMEM;
		goto out;
	}
	link_info_init(l);
	apply(r, ifname, "link modes", &rep[0], ethnl_parse_linkmodes, l, &l->linkmodes);
	apply(r, ifname, "FEC", &rep[1], ethnl_parse_fec, l, &l->fec);
	*out = l;
out:
	module_eeprom_lazy_close(&a.sock);
	free(rep[0].b);
	free(rep[1].b);
	free(lkey);
	free(fkey);
	return rc == -ENOMEM ? rc : 0;
}

int link_read_port(struct root *r, struct port *p)
{
	if (!p->netdev || p->link || !p->link_layer || strcmp(p->link_layer, "Ethernet") != 0)
		return 0;
	return link_read(r, p->netdev, &p->link);
}

int link_sample_fec(struct root *r, struct port *p)
{
	struct asker a = { .ifname = p->netdev, .cmd = ETHTOOL_MSG_FEC_GET,
			   .flags = ETHTOOL_FLAG_COMPACT_BITSETS | ETHTOOL_FLAG_STATS };
	struct reply rep = { 0 };
	struct link_info *l;
	char *key = NULL;
	int rc;

	if (!p->link || p->link->fec_stats.have != 1)
		return 0;
	if (asprintf(&key, "%s/fec", p->netdev) < 0)
		return -ENOMEM;
	/* unknown until this sample says otherwise: a reply that is gone or
	 * unusable leaves no end to the window */
	p->link->fec_stats.have = -1;
	rc = get(r, &a, key, "FEC", &rep);
	module_eeprom_lazy_close(&a.sock);
	free(key);
	if (rc < 0 || !rep.have)
		goto out;
	l = malloc(sizeof(*l));
	if (!l) {
		rc = -ENOMEM;
		goto out;
	}
	link_info_init(l);
	if (ethnl_parse_fec(rep.b, rep.len, 0, l) == 0)
		p->link->fec_stats = l->fec_stats;
	else
		root_note(r, p->netdev, "FEC reply unusable at the end of the window");
	free(l);
out:
	free(rep.b);
	return rc;
}
