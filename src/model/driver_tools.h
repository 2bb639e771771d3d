/* Which tools a fix may name for a NIC, by its driver (issue #45: "never
 * assume one vendor"; a fix that sends the user to a tool the card does
 * not answer is a bug).  mlx5 keeps the Mellanox tools (mlnx_qos, mlxlink,
 * mlxfwmanager/flint/mlxfwreset), which read more than the kernel shows;
 * every other driver gets the generic Linux interface its kernel driver
 * implements (iproute2's dcb for DCB netlink, ethtool for the link and
 * module, devlink for firmware) or, where the kernel's has none, the way
 * its vendor or cloud documents.  Pure data; each row cites its source.
 *
 * The command shapes below are string literals so that the checks splice
 * them into their own printf formats and the compiler still checks every
 * argument: each takes the named arguments in order. */
#ifndef RD_MODEL_DRIVER_TOOLS_H
#define RD_MODEL_DRIVER_TOOLS_H

#include <stdbool.h>

/* iproute2's dcb, dcb-pfc(8), dcb-app(8), dcb-apptrust(8) (dcb/dcb_pfc.c:
 * "dcb pfc set dev STRING [ prio-pfc PFC-MAP ]", PFC-MAPPING := { all | TC
 * }:{ on | off }, applied in order, so "all:off 3:on" leaves exactly 3). */
#define DRV_DCB_PFC_SHOW "`dcb pfc show dev %s`"			 /* netdev */
#define DRV_DCB_APP_SHOW "`dcb app show dev %s`"			 /* netdev */
#define DRV_DCB_PFC_ON "`dcb pfc set dev %s prio-pfc %d:on`"		 /* netdev, prio */
#define DRV_DCB_PFC_ONLY "`dcb pfc set dev %s prio-pfc all:off %d:on`" /* netdev, prio */
#define DRV_DCB_DSCP "`dcb app replace dev %s dscp-prio %d:%d`"	 /* netdev, dscp, prio */
#define DRV_DCB_TRUST "`dcb apptrust set dev %s order %s`"		 /* netdev, selector */
/* ethtool(8): the link (speed, lanes, FEC), the module's EEPROM and
 * diagnostics (-m), the FEC mode with its corrected/uncorrected counts
 * (-I --show-fec, the FEC statistics of ethtool 5.13+). */
#define DRV_ETHTOOL_LINK "`ethtool %s`"				 /* netdev */
#define DRV_ETHTOOL_MODULE "`ethtool -m %s`"			 /* netdev */
#define DRV_ETHTOOL_FEC "`ethtool -I --show-fec %s`"		 /* netdev */
/* devlink-dev(8): "devlink dev info" lists the running and stored
 * firmware versions, "devlink dev flash DEV file PATH" writes an image
 * through the driver's flash_update op. */
#define DRV_DEVLINK_INFO "`devlink dev info pci/%s`"		 /* PCI address */
#define DRV_DEVLINK_FLASH "`devlink dev flash pci/%s file <image>`"	 /* PCI address */

/* How the card's firmware is read and written. */
enum drv_fw {
	DRV_FW_MLX,	/* mlxfwmanager, flint, mlxfwreset (NVIDIA MFT) */
	DRV_FW_DEVLINK, /* the driver implements devlink's flash_update */
	DRV_FW_VENDOR,	/* devlink info only: the vendor's package updates it (fw_how) */
	DRV_FW_NONE,	/* no firmware the host updates (cloud or software; fw_how) */
};

struct drv_tools {
	const char *driver;	/* nic.driver (the PCI function's); NULL: the fallback */
	/* the Mellanox tools answer this card: mlnx_qos, mlxlink, mlxconfig */
	bool mlx;
	enum drv_fw fw;
	/* where fw is DRV_FW_VENDOR or DRV_FW_NONE: what updates it, as the
	 * vendor or the cloud documents (NULL otherwise) */
	const char *fw_how;
};

/* The row of nic.driver DRIVER; never NULL: a driver not in the table (or
 * NULL) gets the generic Linux row (dcb, ethtool, devlink). */
const struct drv_tools *drv_tools_of(const char *driver);

struct nic;
/* The row of NIC's driver; where the snapshot did not record the driver,
 * or it is none of the table's, a device named mlx* or a ConnectX or
 * BlueField model is mlx5's (the name and model are the card's own), and
 * anything else generic. */
const struct drv_tools *drv_tools_of_nic(const struct nic *n);

#endif
