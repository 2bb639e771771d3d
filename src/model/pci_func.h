/* A PCI function: its ids, driver, NUMA node, PCIe link and device
 * settings, and the bridges above it (the NIC, GPU and NPU parts of the
 * model all hold them). */
#ifndef RD_MODEL_PCI_FUNC_H
#define RD_MODEL_PCI_FUNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pci_link {
	double speed_gts, max_speed_gts;	/* NAN when not available */
	int64_t width, max_width;
};

/* A function's PCI Express device settings from its config space, as
 * `lspci -vv` prints them (src/sysfs/pci_config.c): sizes in bytes
 * (128 << the field), flags 1 on / 0 off; -1 unknown (config space past
 * the first 64 bytes needs root).  All zero (as calloc leaves it) reads as
 * a function without the PCI Express capability: nothing to show. */
struct pcie_settings {
	int express;		/* 1 PCI Express capability, 0 none, -1 unknown */
	int mps_cap;		/* DevCap: MaxPayload supported */
	int ext_tag_cap;	/* DevCap: ExtTag (8-bit tags supported) */
	int mps, mrrs;		/* DevCtl: MaxPayload, MaxReadReq */
	int relaxed_ordering;	/* DevCtl: RlxdOrd */
	int ext_tag;		/* DevCtl: ExtTag */
	int ats;		/* ATS extended capability present */
	int ats_enable;		/* ATSCtl: Enable */
	int ats_stu;		/* ATSCtl: Smallest Translation Unit (the field) */
};

/* Everything unknown. */
void pcie_settings_unknown(struct pcie_settings *s);

struct pci_func {
	char *bdf;		/* "0000:1b:00.0" */
	char *sysfs_path;	/* canonical root-relative directory */
	int64_t vendor, device, subsystem_vendor, subsystem_device, class_code;
	int64_t numa_node;
	/* local_cpulist ("0-55,112-167"), endpoints only; NULL unknown */
	char *local_cpulist;
	char *driver;		/* basename of the driver symlink */
	struct pci_link link;
	/* ACS control register (PCI_EXT_CAP_ID_ACS, cap+6) of a bridge: NA when
	 * config space past 64 bytes is unreadable (not root) or has no ACS */
	int64_t acs_ctrl;
	bool config_full;	/* config space past the first 64 bytes was readable */
	/* a bridge's extended capabilities were read to their end, so acs_ctrl
	 * NA means no ACS capability; false when config space stops before
	 * them (not root: 64 bytes; no extended config access: 256) */
	bool acs_known;
	struct pcie_settings pcie;	/* MPS, MRRS, relaxed ordering, ext tag, ATS */
	/* bridges from the root port (index 0) down to the one just above */
	struct pci_func *upstream;
	size_t n_upstream;
};

/* Frees what f holds (not f), the bridges above it included. */
void pci_func_free(struct pci_func *f);

#endif
