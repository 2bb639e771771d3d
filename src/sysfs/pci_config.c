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
