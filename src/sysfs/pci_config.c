#include "pci_config.h"

#include <errno.h>

#define EXT_CAP_START 0x100
#define EXT_CAP_MAX_HOPS 64

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int pci_config_ext_cap(const uint8_t *cfg, size_t len, uint16_t id)
{
	size_t pos = EXT_CAP_START;

	if (len > PCI_CFG_SPACE_EXP_SIZE)
		len = PCI_CFG_SPACE_EXP_SIZE;
	for (int hop = 0; hop < EXT_CAP_MAX_HOPS; hop++) {
		uint32_t header;

		if (pos + 4 > len)
			return -ENODATA;
		header = le32(cfg + pos);
		/* 0: no extended capabilities; all ones: the device is gone */
		if (header == 0 || header == 0xffffffffu)
			return -ENOENT;
		if ((header & 0xffff) == id)
			return (int)pos;
		pos = (header >> 20) & 0xffc;
		if (pos < EXT_CAP_START)
			return -ENOENT;
	}
	return -ENOENT;	/* a loop in the next pointers */
}

int pci_config_acs_ctrl(const uint8_t *cfg, size_t len, uint16_t *ctrl)
{
	int pos = pci_config_ext_cap(cfg, len, PCI_EXT_CAP_ID_ACS);

	if (pos < 0)
		return pos;
	if ((size_t)pos + 8 > len || (size_t)pos + 8 > PCI_CFG_SPACE_EXP_SIZE)
		return -ENODATA;
	*ctrl = (uint16_t)(cfg[pos + 6] | cfg[pos + 7] << 8);
	return 0;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_HEADER_TYPE 0x0e
#define PCI_CAPABILITY_LIST 0x34
#define PCI_CB_CAPABILITY_LIST 0x14	/* CardBus bridges (header type 2) */
#define PCI_HEADER_SIZE 64	/* what lspci always reads */

int pci_config_exp_cap(const uint8_t *cfg, size_t len)
{
	uint8_t seen[PCI_CFG_SPACE_SIZE] = { 0 };
	size_t pos, start;

	if (len < PCI_HEADER_SIZE)
		return -ENODATA;
	switch (cfg[PCI_HEADER_TYPE] & 0x7f) {
	case 0:		/* an endpoint */
	case 1:		/* a bridge */
		start = PCI_CAPABILITY_LIST;
		break;
	case 2:
		start = PCI_CB_CAPABILITY_LIST;
		break;
	default:	/* lspci: "Unknown header type", no capabilities shown */
		return -ENOENT;
	}
	if (!(le16(cfg + PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return -ENOENT;
	for (pos = cfg[start] & ~3u; pos; pos = cfg[pos + 1] & ~3u) {
		if (pos + 4 > len)
			return -ENODATA;	/* lspci: <access denied> */
		if (seen[pos]++)
			return -ENOENT;		/* <chain looped> */
		if (cfg[pos] == 0xff)
			return -ENOENT;		/* <chain broken> */
		if (cfg[pos] == PCI_CAP_ID_EXP)
			return (int)pos;
	}
	return -ENOENT;
}

/* lspci's show_ext_caps walk: from 0x100, next = bits 31:20 with the low
 * two bits dropped, until a zero header or pointer, a pointer seen before,
 * or the end of what was read (-ENODATA). */
static int ext_cap_lspci(const uint8_t *cfg, size_t len, uint16_t id)
{
	uint8_t seen[PCI_CFG_SPACE_EXP_SIZE] = { 0 };
	size_t pos = EXT_CAP_START;

	do {
		uint32_t header;

		if (pos + 4 > len)
			return -ENODATA;
		header = le32(cfg + pos);
		if (!header)
			return -ENOENT;
		if (seen[pos]++)
			return -ENOENT;
		if ((header & 0xffff) == id)
			return (int)pos;
		pos = (header >> 20) & ~3u;
	} while (pos);
	return -ENOENT;
}

/* PCI Express capability registers (pci_regs.h) */
#define PCI_EXP_FLAGS 2
#define PCI_EXP_FLAGS_SLOT 0x0100
#define PCI_EXP_TYPE_ROOT_PORT 4
#define PCI_EXP_TYPE_DOWNSTREAM 6
#define PCI_EXP_TYPE_PCIE_BRIDGE 8
#define PCI_EXP_DEVCAP 4
#define PCI_EXP_DEVCAP_PAYLOAD 0x07
#define PCI_EXP_DEVCAP_EXT_TAG 0x20
#define PCI_EXP_DEVCTL 8
#define PCI_EXP_DEVCTL_RELAXED 0x0010
#define PCI_EXP_DEVCTL_PAYLOAD 0x00e0
#define PCI_EXP_DEVCTL_EXT_TAG 0x0100
#define PCI_EXP_DEVCTL_READRQ 0x7000
#define PCI_ATS_CTRL 6
#define PCI_ATS_CTRL_ENABLE 0x8000
#define PCI_ATS_CTRL_STU 0x1f

int pci_config_exp_dev(const uint8_t *cfg, size_t len, struct pcie_settings *d)
{
	int pos = pci_config_exp_cap(cfg, len), type;
	size_t need = 16;
	uint32_t cap;
	uint16_t flags, ctl;

	pcie_settings_unknown(d);
	if (len > PCI_CFG_SPACE_EXP_SIZE)
		len = PCI_CFG_SPACE_EXP_SIZE;
	if (pos == -ENOENT) {
		/* conventional PCI: no PCIe settings, no extended space */
		d->express = 0;
		d->ats = 0;
	}
	if (pos < 0)
		return pos;
	d->express = 1;
	/* lspci's cap_express: the sizes it fetches before decoding DevCap */
	flags = le16(cfg + pos + PCI_EXP_FLAGS);
	type = (flags >> 4) & 0xf;
	if ((type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_DOWNSTREAM ||
	     type == PCI_EXP_TYPE_PCIE_BRIDGE) && (flags & PCI_EXP_FLAGS_SLOT))
		need = 24;
	if (type == PCI_EXP_TYPE_ROOT_PORT)
		need = 32;
	if ((size_t)pos + PCI_EXP_DEVCAP + need > len)
		return -ENODATA;
	cap = le32(cfg + pos + PCI_EXP_DEVCAP);
	ctl = le16(cfg + pos + PCI_EXP_DEVCTL);
	d->mps_cap = 128 << (cap & PCI_EXP_DEVCAP_PAYLOAD);
	d->ext_tag_cap = !!(cap & PCI_EXP_DEVCAP_EXT_TAG);
	d->mps = 128 << ((ctl & PCI_EXP_DEVCTL_PAYLOAD) >> 5);
	d->mrrs = 128 << ((ctl & PCI_EXP_DEVCTL_READRQ) >> 12);
	d->relaxed_ordering = !!(ctl & PCI_EXP_DEVCTL_RELAXED);
	d->ext_tag = !!(ctl & PCI_EXP_DEVCTL_EXT_TAG);
	pos = ext_cap_lspci(cfg, len, PCI_EXT_CAP_ID_ATS);
	if (pos == -ENOENT)
		d->ats = 0;
	else if (pos >= 0 && (size_t)pos + 8 <= len) {
		/* lspci fetches the capability and control words (cap+4, 4) */
		ctl = le16(cfg + pos + PCI_ATS_CTRL);
		d->ats = 1;
		d->ats_enable = !!(ctl & PCI_ATS_CTRL_ENABLE);
		d->ats_stu = ctl & PCI_ATS_CTRL_STU;
	}
	return 0;
}
