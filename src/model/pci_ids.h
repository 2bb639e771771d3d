/* What a PCI vendor:device pair is, from the vendors' PCI id lists (pci.ids)
 * and the kernel's driver tables (the drivers' pci_device_id arrays). */
#ifndef RD_MODEL_PCI_IDS_H
#define RD_MODEL_PCI_IDS_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory.h"

#define PCI_VENDOR_MELLANOX 0x15b3
#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_VENDOR_AMD 0x1002	/* ATI/AMD graphics; AMD's CPUs are 0x1022 */
#define PCI_VENDOR_BROADCOM_PLX 0x1000

/* "ConnectX-7", "BlueField-3", "Broadcom BCM57508"...; NULL if unknown. */
const char *nic_model_name(uint64_t vendor, uint64_t device);

/* A GPU to judge: NVIDIA (vendor 10de) of base class 03, not an NVSwitch
 * (class 0680) nor HDMI audio (0403); AMD Instinct (vendor 1002) of class
 * 12 (processing accelerator: MI300 on) or an Instinct device ID of class
 * 03 (MI200 enumerates as a display controller).  A Radeon, an AMD HDMI
 * audio function or a BMC's VGA (ASPEED 1a03, Matrox 102b) is none. */
bool pci_is_gpu(uint64_t vendor, uint64_t class_code, uint64_t device);
/* The model and kind of vendor:device; NULL and GPU_UNKNOWN if unknown. */
const char *gpu_model_name(uint64_t vendor, uint64_t device, enum gpu_kind *kind);
/* A vendor pci_is_gpu may take (10de, 1002)? */
bool gpu_vendor_known(uint64_t vendor);
enum gpu_vendor gpu_vendor_of(uint64_t vendor);

/* Broadcom PEX switches that enumerate as two bridge levels (NCCL flattens
 * them so that devices on one physical switch are PIX, not PXB). */
bool pci_is_bcm_two_level_switch(uint64_t vendor, uint64_t device);

#endif
