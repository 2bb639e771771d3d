/* Decode PCI config space files as rdmadoctor does (pci_config_exp_dev)
 * and print one line per file, for pcie_settings_lspci.py to hold
 * against `lspci -vv` on the same bytes:
 *
 *   FILE express=1 mps=256 mps_cap=512 mrrs=512 rlxdord=1 exttag=0
 *        exttag_cap=1 ats=1 ats_enable=0 ats_stu=0
 *
 * -1 is unknown.  Usage: pcie_settings_dump FILE... */
#include <errno.h>
#include <stdio.h>

#include "sysfs/pci_config.h"

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		static uint8_t cfg[PCI_CFG_SPACE_EXP_SIZE];
		struct pcie_settings s;
		FILE *f = fopen(argv[i], "rb");
		size_t len;

		if (!f) {
			perror(argv[i]);
			rc = 1;
			continue;
		}
		len = fread(cfg, 1, sizeof(cfg), f);
		fclose(f);
		(void)pci_config_exp_dev(cfg, len, &s);
		printf("%s express=%d mps=%d mps_cap=%d mrrs=%d rlxdord=%d exttag=%d "
		       "exttag_cap=%d ats=%d ats_enable=%d ats_stu=%d\n",
		       argv[i], s.express, s.mps, s.mps_cap, s.mrrs, s.relaxed_ordering,
		       s.ext_tag, s.ext_tag_cap, s.ats, s.ats_enable, s.ats_stu);
	}
	return rc;
}
