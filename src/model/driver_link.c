#include "driver_link.h"

#include <string.h>

static const struct drv_link rows[] = {
	/* drivers/infiniband/hw/efa/efa_verbs.c, efa_query_port (every
	 * version from v5.2 to v6.x read): state IB_PORT_ACTIVE, phys_state
	 * LinkUp, active_speed EDR and width 4X are set unconditionally, and
	 * get_link_layer answers IB_LINK_LAYER_UNSPECIFIED (sysfs link_layer
	 * "Unknown").  The device's health is its interface's (the ENA netdev
	 * of an EFA interface) and its own counters. */
	{ "efa", true, true,
	  "the efa driver reports every port ACTIVE/LinkUp at EDR 4X whatever the link does "
	  "(drivers/infiniband/hw/efa/efa_verbs.c, efa_query_port)",
	  "an EFA interface that is down is the instance's network interface: `ip link show` "
	  "and `dmesg | grep -i efa` on the host; check in EC2 that the EFA network interface "
	  "is attached (`aws ec2 describe-network-interfaces`); if it is and stays down, "
	  "stop and start the instance to move it to other hardware" },
};

const struct drv_link *drv_link_of(const char *driver)
{
	if (!driver)
		return NULL;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].driver, driver) == 0)
			return &rows[i];
	return NULL;
}
