#include "port_state.h"
#include "inventory.h"

enum port_link port_link(const struct port *p)
{
	if ((!IS_NA(p->state) && p->state != PORT_STATE_ACTIVE) ||
	    (!IS_NA(p->phys_state) && p->phys_state != PORT_PHYS_LINKUP))
		return PORT_LINK_DOWN;
	return p->state == PORT_STATE_ACTIVE ? PORT_LINK_UP : PORT_LINK_UNKNOWN;
}

bool port_is_up(const struct port *p)
{
	return port_link(p) == PORT_LINK_UP;
}
