/* Where each RDMA driver's port state and rate come from, for the drivers
 * whose ports/N/state, phys_state and rate are not the link's: the port
 * state such a driver reports is no evidence of a link, so the readers
 * take the link from the network interface on the device's PCI function
 * where there is one, and leave it unknown ("not checked", with this
 * table's reason) where there is none.  Every driver not listed here
 * derives its port state from the link (mlx5 from the firmware's port
 * state; bnxt_re, irdma, hns, erdma and rxe from their netdev's carrier),
 * and is read as it reports.  Pure data; rows cite the source read. */
#ifndef RD_MODEL_DRIVER_LINK_H
#define RD_MODEL_DRIVER_LINK_H

#include <stdbool.h>

struct drv_link {
	const char *driver;	/* nic.driver (the PCI function's driver) */
	/* state and phys_state are constants of the driver, not the link */
	bool state_fixed;
	/* rate is a constant of the driver, not the link's speed */
	bool rate_fixed;
	/* link_layer reads "Unknown" because the device has neither: its own
	 * transport, not an unread value (NULL: IB or Ethernet, as read) */
	const char *own_transport;
	/* why, with the source it was read from, for the notes and the
	 * "not checked" reason */
	const char *why;
	/* what to do when the interface it is read from is down: the
	 * generic advice (reseat the cable) does not apply to a virtual NIC */
	const char *down_fix;
};

/* The row of nic.driver DRIVER, or NULL when its port state follows the
 * link (or DRIVER is NULL). */
const struct drv_link *drv_link_of(const char *driver);

#endif
