#include "link.h"
#include "tape.h"
#include "../nl/link_modes.h"
#include "../nl/module_eeprom.h"

#include <errno.h>
#include <linux/ethtool_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A netdev name that can be a directory name under the snapshot. */
static bool plain_ifname(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 16 && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

struct reply {
	uint8_t b[ETHNL_REPLY_MAX + 1];
	size_t len;
	bool have;
};

/* Live: both replies (onto the tape when snapshotting).  0, or a negative
 * errno when the ethtool family could not be reached (noted). */
static int ask(struct root *r, const char *ifname, const char *lpath, const char *fpath,
	       struct reply *lm, struct reply *fec)
{
	struct module_eeprom_sock *s = NULL;
	const uint32_t flags = ETHTOOL_FLAG_COMPACT_BITSETS;
	int rc = module_eeprom_open(&s);

	if (rc < 0) {
		root_note(r, lpath, "ethtool netlink unavailable (%s): link modes and FEC of %s "
			  "not read", strerror(-rc), ifname);
		return rc == -ENOMEM ? rc : 0;
	}
	rc = module_eeprom_get_raw(s, ETHTOOL_MSG_LINKMODES_GET, ifname, flags, lm->b,
				   ETHNL_REPLY_MAX, &lm->len);
	if (rc < 0)
		root_note(r, lpath, "link modes of %s not read: %s", ifname, strerror(-rc));
	lm->have = rc == 0;
	rc = module_eeprom_get_raw(s, ETHTOOL_MSG_FEC_GET, ifname, flags, fec->b,
				   ETHNL_REPLY_MAX, &fec->len);
	if (rc < 0)
		root_note(r, fpath, "FEC of %s not read: %s", ifname, strerror(-rc));
	fec->have = rc == 0;
	module_eeprom_close(s);
	if (r->tape && ((lm->have && tape_file(r->tape, lpath, (const char *)lm->b, lm->len) < 0) ||
			(fec->have && tape_file(r->tape, fpath, (const char *)fec->b, fec->len) < 0)))
		return -ENOMEM;
	return 0;
}

/* Replay: a file one byte longer than a reply can be is refused. */
static int load(struct root *r, const char *path, struct reply *rep)
{
	int rc = root_read_bin(r, path, rep->b, sizeof(rep->b), &rep->len);

	if (rc == -ENOMEM)
		return rc;
	rep->have = rc == 0 && rep->len > 0;
	if (rc == 0 && rep->len > ETHNL_REPLY_MAX) {
		root_note(r, path, "longer than any ethtool reply: ignored");
		rep->have = false;
	}
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
	char lpath[80], fpath[80];
	struct reply *rep;
	struct link_info *l;
	int rc;

	*out = NULL;
	if (!ifname || !plain_ifname(ifname)) {
		root_note(r, ifname ? ifname : "", "netdev name unusable for ethtool netlink: "
			  "not queried");
		return 0;
	}
	snprintf(lpath, sizeof(lpath), "%s/%s/linkmodes", LINK_SNAPSHOT_DIR, ifname);
	snprintf(fpath, sizeof(fpath), "%s/%s/fec", LINK_SNAPSHOT_DIR, ifname);
	rep = calloc(2, sizeof(*rep));
	if (!rep)
		return -ENOMEM;
	if (r->live)
		rc = ask(r, ifname, lpath, fpath, &rep[0], &rep[1]);
	else if ((rc = load(r, lpath, &rep[0])) == 0)
		rc = load(r, fpath, &rep[1]);
	if (rc < 0 || (!rep[0].have && !rep[1].have))
		goto out;
	l = malloc(sizeof(*l));
	if (!l) {
		rc = -ENOMEM;
		goto out;
	}
	link_info_init(l);
	apply(r, lpath, "link modes", &rep[0], ethnl_parse_linkmodes, l, &l->linkmodes);
	apply(r, fpath, "FEC", &rep[1], ethnl_parse_fec, l, &l->fec);
	*out = l;
out:
	free(rep);
	return rc == -ENOMEM ? rc : 0;
}

int link_read_port(struct root *r, struct port *p)
{
	if (!p->netdev || p->link || !p->link_layer || strcmp(p->link_layer, "Ethernet") != 0)
		return 0;
	return link_read(r, p->netdev, &p->link);
}
