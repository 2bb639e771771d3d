#include "driver_tools.h"

#include "inventory.h"

#include <string.h>

static const struct drv_tools rows[] = {
	/* ConnectX/BlueField: NVIDIA's MFT (mlxlink, mlxconfig, flint,
	 * mlxfwmanager, mlxfwreset) and MLNX_OFED's mlnx_qos read the port,
	 * module and firmware beyond what the kernel exposes; mlx4 is the
	 * same family (ConnectX-3). */
	{ "mlx5_core", true, DRV_FW_MLX, NULL },
	{ "mlx4_core", true, DRV_FW_MLX, NULL },
	/* Broadcom NetXtreme-E (Thor, Thor2; bnxt_re on top):
	 * drivers/net/ethernet/broadcom/bnxt/bnxt_devlink.c implements
	 * bnxt_dl_flash_update and bnxt_dl_info_get, and bnxt_dcb.c the
	 * dcbnl ieee ops (PFC, ETS, APP), so dcb and devlink answer it. */
	{ "bnxt_en", false, DRV_FW_DEVLINK, NULL },
	/* Intel E810 (irdma on top): drivers/net/ethernet/intel/ice/
	 * ice_devlink.c, .flash_update = ice_devlink_flash_update;
	 * Documentation/networking/devlink/ice.rst ("Flash Update"). */
	{ "ice", false, DRV_FW_DEVLINK, NULL },
	/* AMD Pensando (Pollara; ionic RDMA on top): drivers/net/ethernet/
	 * pensando/ionic/ionic_devlink.c, ionic_dl_flash_update;
	 * Documentation/networking/devlink/ionic.rst lists its info versions. */
	{ "ionic", false, DRV_FW_DEVLINK, NULL },
	/* HiSilicon hns3: Documentation/networking/devlink/hns3.rst names
	 * reload and info versions only; hclge_devlink.c has no flash_update. */
	{ "hns3", false, DRV_FW_VENDOR,
	  "the board vendor's firmware package (the hns3 driver has no devlink flash)" },
	/* AWS EFA: the device is the Nitro card's, below the instance; no
	 * host tool updates it (drivers/infiniband/hw/efa has no devlink). */
	{ "efa", false, DRV_FW_NONE,
	  "AWS's Nitro hardware, updated by AWS: stop and start the instance to move it to "
	  "other hardware" },
	/* Alibaba eRDMA: a virtual device of the cloud's (drivers/infiniband/
	 * hw/erdma, no devlink); its firmware is the provider's. */
	{ "erdma", false, DRV_FW_NONE,
	  "Alibaba Cloud's, updated by the provider: migrate or restart the instance" },
	/* Soft-RoCE (drivers/infiniband/sw/rxe): no hardware of its own; the
	 * firmware is its network interface's. */
	{ "rdma_rxe", false, DRV_FW_NONE,
	  "none of its own (software RoCE): update the firmware of the network interface it "
	  "runs on" },
};

/* Any other driver: the generic Linux interfaces; whether devlink can
 * flash it is the driver's to say, so the vendor's tool is named too. */
static const struct drv_tools generic = {
	NULL, false, DRV_FW_VENDOR,
	"the vendor's firmware tool, or `devlink dev flash` where the driver supports it"
};

const struct drv_tools *drv_tools_of(const char *driver)
{
	if (driver)
		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			if (strcmp(rows[i].driver, driver) == 0)
				return &rows[i];
	return &generic;
}

const struct drv_tools *drv_tools_of_nic(const struct nic *n)
{
	const struct drv_tools *t = drv_tools_of(n->driver);

	if (t->driver)
		return t;
	/* no driver recorded, or one not in the table (vfio-pci, a renamed
	 * out-of-tree build): the card's own name or model still tells */
	if ((n->name && strncmp(n->name, "mlx", 3) == 0) ||
	    (n->model && (strncmp(n->model, "ConnectX", 8) == 0 ||
			  strncmp(n->model, "BlueField", 9) == 0)))
		return drv_tools_of("mlx5_core");
	return t;
}
