#include "driver_link.h"

#include <string.h>

static const struct drv_link rows[] = {
	/* drivers/infiniband/hw/efa/efa_verbs.c, efa_query_port (every
	 * version from v5.2 to v6.x read): state IB_PORT_ACTIVE, phys_state
	 * LinkUp, active_speed EDR and width 4X are set unconditionally, and
	 * get_link_layer answers IB_LINK_LAYER_UNSPECIFIED (sysfs link_layer
	 * "Unknown").  The link is then its interface's where a netdev sits on
	 * its PCI function; on EC2 the ENA of an EFA interface is usually a
	 * PCI function of its own that nothing in sysfs ties to the EFA (lspci
	 * shows ENA and EFA at separate device numbers), and then the link is
	 * not known: the device's own counters (retrans_timeout_events,
	 * unresponsive_remote_events) are what is left to judge it by. */
	{ "efa", true, true, "SRD, Amazon's own transport (neither InfiniBand nor RoCE)",
	  "the efa driver reports every port ACTIVE/LinkUp at EDR 4X whatever the link does "
	  "(drivers/infiniband/hw/efa/efa_verbs.c, efa_query_port)",
	  /* down_fix */
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
