#include "fixed_link.h"
#include "attr.h"
#include "net.h"
#include "../model/port_state.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void clear_state(struct port *p)
{
	p->state = p->phys_state = NA;
	free(p->state_name);
	free(p->phys_state_name);
	free(p->state_why);
	p->state_name = p->phys_state_name = p->state_why = NULL;
}

/* 1 up, 0 down, -1 not known: operstate (net/core/net-sysfs.c prints
 * the RFC 2863 names), and where a driver leaves it "unknown" the
 * carrier file (EINVAL while the interface is administratively down). */
static int interface_up(struct root *r, const char *netdev, char **operstate)
{
	char *dir;
	int64_t carrier;
	int up = -1;

	if (asprintf(&dir, "sys/class/net/%s", netdev) < 0)
		return -1;
	*operstate = attr_str(r, dir, "operstate");
	if (*operstate && strcmp(*operstate, "up") == 0) {
		up = 1;
	} else if (*operstate && strcmp(*operstate, "unknown") != 0) {
		up = 0;
	} else {
		carrier = attr_s64(r, dir, "carrier");
		up = IS_NA(carrier) ? -1 : carrier != 0;
	}
	free(dir);
	return up;
}

int fixed_link_read(struct root *r, const struct drv_link *dl, const char *pci_dir,
		    const char *portdir, struct port *p)
{
	char *operstate = NULL;
	int up, rc = 0;

	clear_state(p);
	if (dl->rate_fixed && !isnan(p->rate_gbps)) {
		root_note(r, portdir, "rate: %s; not the link's speed", dl->why);
		p->rate_gbps = NAN;
		p->lanes = NA;
		free(p->rate_speed);
		p->rate_speed = NULL;
	}
	if (!p->netdev && pci_dir)
		p->netdev = net_find_port_netdev(r, pci_dir, p->num, false);
	if (!p->netdev) {
		if (asprintf(&p->state_why, "%s, and no network interface on its PCI function "
			     "shows the link", dl->why) < 0)
			return -ENOMEM;
		return 0;
	}
	up = interface_up(r, p->netdev, &operstate);
	if (up < 0) {
		if (asprintf(&p->state_why, "%s, and its interface %s does not say whether its "
			     "link is up", dl->why, p->netdev) < 0)
			rc = -ENOMEM;
	} else {
		p->state = up ? PORT_STATE_ACTIVE : PORT_STATE_DOWN;
		p->phys_state = up ? PORT_PHYS_LINKUP : PORT_PHYS_DISABLED;
		if (asprintf(&p->state_name, "%s (its interface %s: %s)", up ? "ACTIVE" : "DOWN",
			     p->netdev, operstate ? operstate : up ? "carrier" : "no carrier") < 0)
			p->state_name = NULL;
		p->phys_state_name = strdup(up ? "LinkUp" : "Disabled");
		if (!p->state_name || !p->phys_state_name)
			rc = -ENOMEM;
	}
	free(operstate);
	return rc;
}
