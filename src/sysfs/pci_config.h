/* PCI configuration space bytes, as the sysfs `config` file hands them out
 * (PCIe base specification: the PCI Express capability's Device Capabilities
 * and Device Control, the ACS and ATS extended capabilities).  Pure functions over a buffer: unit
 * tests and the fuzz target feed them any bytes. */
#ifndef RD_SYSFS_PCI_CONFIG_H
#define RD_SYSFS_PCI_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "../model/inventory.h"

#define PCI_CFG_SPACE_SIZE 256		/* conventional space */
#define PCI_CFG_SPACE_EXP_SIZE 4096	/* with PCIe extended capabilities */
#define PCI_CFG_UNPRIVILEGED 64		/* what a read without CAP_SYS_ADMIN gets */

#define PCI_CAP_ID_EXP 0x10		/* PCI Express capability */
#define PCI_EXT_CAP_ID_ACS 0x000d
#define PCI_EXT_CAP_ID_ATS 0x000f
/* ACS control bits (cap+6) */
#define PCI_ACS_SV 0x0001	/* source validation */
#define PCI_ACS_TB 0x0002	/* translation blocking */
#define PCI_ACS_RR 0x0004	/* P2P request redirect */
#define PCI_ACS_CR 0x0008	/* P2P completion redirect */
#define PCI_ACS_UF 0x0010	/* upstream forwarding */

/* Offset of extended capability id in the chain that starts at 0x100, or
 * -ENOENT when the chain ends without it, -ENODATA when the buffer ends
 * before the chain does (64 bytes without root, 256 for conventional PCI).
 * The walk follows the kernel's pci_find_next_ext_capability: next pointers
 * are dword aligned (bits 31:20 of the header, low two bits dropped), a
 * pointer below 0x100 or a zero header ends the chain, and a loop stops
 * after 64 hops. */
int pci_config_ext_cap(const uint8_t *cfg, size_t len, uint16_t id);

/* The ACS control register (u16 at ACS cap + 6): 0, -ENOENT, -ENODATA. */
int pci_config_acs_ctrl(const uint8_t *cfg, size_t len, uint16_t *ctrl);

/* Offset of the PCI Express capability in the list that starts at 0x34
 * (0x14 for a CardBus bridge; none for another header type), as lspci's
 * show_caps walks it: only when the status register has the
 * capability list bit (0x10 at 0x06); pointers with the low two bits
 * dropped; 0 ends the list, an id of 0xff breaks it, a pointer seen before
 * is a loop.  -ENOENT when the list has none, -ENODATA when the buffer
 * ends before the list does (64 bytes without root). */
int pci_config_exp_cap(const uint8_t *cfg, size_t len);

/* struct pcie_settings (model/inventory.h): the PCI Express device
 * settings, decoded as `lspci -vv` prints them (pciutils ls-caps.c
 * cap_express_dev, ls-ecaps.c cap_ats). */
/* Fills *d from len bytes (everything unknown first).  lspci decodes
 * DevCap and DevCtl only when the 16 bytes after the capability header
 * (24 with a slot, 32 for a root port) are there, and shows extended
 * capabilities only for a PCI Express (or PCI-X) function: so does this.
 * ATS follows the extended chain as pci_config_ext_cap does; a function
 * without the PCI Express capability has none (ats 0).  Returns 0 when the
 * PCI Express part was decoded, -ENOENT without that capability,
 * -ENODATA when the bytes end before it. */
int pci_config_exp_dev(const uint8_t *cfg, size_t len, struct pcie_settings *d);

#endif
