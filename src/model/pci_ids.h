/* What a PCI vendor:device pair is, from the vendors' PCI id lists (pci.ids)
 * and the kernel's driver tables (the drivers' pci_device_id arrays). */
#ifndef RD_MODEL_PCI_IDS_H
#define RD_MODEL_PCI_IDS_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory.h"

#define PCI_VENDOR_MELLANOX 0x15b3
#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_VENDOR_BROADCOM_PLX 0x1000

/* "ConnectX-7", "BlueField-3", "Broadcom BCM57508"...; NULL if unknown. */
const char *nic_model_name(uint64_t vendor, uint64_t device);

/* NVIDIA GPU: vendor 10de, base class 03 (not NVSwitch, not HDMI audio). */
bool pci_is_gpu(uint64_t vendor, uint64_t class_code);
const char *gpu_model_name(uint64_t device, enum gpu_kind *kind);

/* Broadcom PEX switches that enumerate as two bridge levels (NCCL flattens
 * them so that devices on one physical switch are PIX, not PXB). */
bool pci_is_bcm_two_level_switch(uint64_t vendor, uint64_t device);

#endif
