/* PCI configuration space bytes, as the sysfs `config` file hands them out
 * (PCIe base specification, ACS extended capability).  Pure functions over a buffer: unit
 * tests and the fuzz target feed them any bytes. */
#ifndef RD_SYSFS_PCI_CONFIG_H
#define RD_SYSFS_PCI_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define PCI_CFG_SPACE_SIZE 256		/* conventional space */
#define PCI_CFG_SPACE_EXP_SIZE 4096	/* with PCIe extended capabilities */
#define PCI_CFG_UNPRIVILEGED 64		/* what a read without CAP_SYS_ADMIN gets */

#define PCI_EXT_CAP_ID_ACS 0x000d
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

#endif
