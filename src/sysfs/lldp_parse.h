/* The neighbours lldpd heard, from `lldpcli -f json show neighbors`.
 *
 * A pure function over the bytes (live stdout or a snapshot's
 * .rdmadoctor/lldp/neighbors) into a table: local interface name -> the
 * switch and switch port at the other end (model/neighbor.h).  The shapes
 * it takes, all seen in published output of lldpd 0.9 to 1.0.16
 * (tests/fixtures/lldp/README.md):
 *   - "interface" an object (one interface) or an array of one-key objects
 *     (several, and the same name twice when one port hears two
 *     neighbours); `{"lldp": {}}` when none;
 *   - the chassis keyed by the system name, or given directly (`{"id":
 *     ..}`) when the neighbour sent no system name;
 *   - every value a string, `{"value": s}` or a list of those (the json0
 *     format, and the "json" of lldpd versions before the compact one);
 *   - the port: its id where the id is an interface name or locally
 *     assigned, else its description, else the id's value as sent.
 *
 * A port that hears more than one neighbour has no one neighbour: its
 * entry has neighbor NULL and why naming them all. */
#ifndef RD_SYSFS_LLDP_PARSE_H
#define RD_SYSFS_LLDP_PARSE_H

#include <stddef.h>

struct neighbor;

struct lldp_entry {
	char *ifname;			/* the local interface ("ens1np0") */
	struct neighbor *neighbor;	/* NULL: not one neighbour (why says) */
	char *why;			/* NULL when neighbor is set */
	size_t heard;			/* how many neighbours lldpd listed on it */
};

struct lldp_table {
	struct lldp_entry *v;
	size_t n;
};

/* 0 with *t filled (n 0 when lldpd heard nothing); -EINVAL when the text
 * is not lldpcli's JSON (then *t is empty and *err, malloc'd, says what
 * was wrong; the caller frees it); -ENOMEM. */
int lldp_parse(const char *text, size_t len, struct lldp_table *t, char **err);

void lldp_table_free(struct lldp_table *t);

/* The entry of one local interface, or NULL when lldpd heard nothing there. */
const struct lldp_entry *lldp_table_find(const struct lldp_table *t, const char *ifname);

#endif
