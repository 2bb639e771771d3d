#include "pci_ids.h"

#include <stddef.h>

struct id_name {
	uint16_t vendor, device;
	const char *name;
};

static const struct id_name nics[] = {
	{ 0x15b3, 0x1003, "ConnectX-3" },
	{ 0x15b3, 0x1007, "ConnectX-3 Pro" },
	{ 0x15b3, 0x1011, "Connect-IB" },
	{ 0x15b3, 0x1012, "Connect-IB VF" },
	{ 0x15b3, 0x1013, "ConnectX-4" },
	{ 0x15b3, 0x1014, "ConnectX-4 VF" },
	{ 0x15b3, 0x1015, "ConnectX-4 Lx" },
	{ 0x15b3, 0x1016, "ConnectX-4 Lx VF" },
	{ 0x15b3, 0x1017, "ConnectX-5" },
	{ 0x15b3, 0x1018, "ConnectX-5 VF" },
	{ 0x15b3, 0x1019, "ConnectX-5 Ex" },
	{ 0x15b3, 0x101a, "ConnectX-5 Ex VF" },
	{ 0x15b3, 0x101b, "ConnectX-6" },
	{ 0x15b3, 0x101c, "ConnectX-6 VF" },
	{ 0x15b3, 0x101d, "ConnectX-6 Dx" },
	{ 0x15b3, 0x101e, "ConnectX VF" },
	{ 0x15b3, 0x101f, "ConnectX-6 Lx" },
	{ 0x15b3, 0x1021, "ConnectX-7" },
	{ 0x15b3, 0x1023, "ConnectX-8" },
	{ 0x15b3, 0x1025, "ConnectX-9" },
	{ 0x15b3, 0x1027, "ConnectX-10" },
	{ 0x15b3, 0xa2d2, "BlueField" },
	{ 0x15b3, 0xa2d3, "BlueField VF" },
	{ 0x15b3, 0xa2d6, "BlueField-2" },
	{ 0x15b3, 0xa2dc, "BlueField-3" },
	{ 0x15b3, 0xa2df, "BlueField-4" },
	{ 0x14e4, 0x1750, "Broadcom BCM57508" },
	{ 0x14e4, 0x1751, "Broadcom BCM57504" },
	{ 0x14e4, 0x1752, "Broadcom BCM57502" },
	{ 0x14e4, 0x1760, "Broadcom BCM57608" },
	{ 0x14e4, 0x1761, "Broadcom BCM57604" },
	{ 0x14e4, 0x1762, "Broadcom BCM57602" },
	{ 0x14e4, 0x1763, "Broadcom BCM57601" },
	{ 0x8086, 0x1591, "Intel E810-C backplane" },
	{ 0x8086, 0x1592, "Intel E810-C QSFP" },
	{ 0x8086, 0x1593, "Intel E810-C SFP" },
	{ 0x8086, 0x1599, "Intel E810-XXV backplane" },
	{ 0x8086, 0x159a, "Intel E810-XXV QSFP" },
	{ 0x8086, 0x159b, "Intel E810-XXV SFP" },
	{ 0x19e5, 0xa222, "Huawei HNS3 25GE RDMA" },
	{ 0x19e5, 0xa224, "Huawei HNS3 50GE RDMA" },
	{ 0x19e5, 0xa226, "Huawei HNS3 100GE RDMA" },
	{ 0x19e5, 0xa228, "Huawei HNS3 200GE RDMA" },
	{ 0x19e5, 0xa22f, "Huawei HNS3 RDMA VF" },
	{ 0x19e5, 0x1822, "Huawei Hi1822" },
	{ 0x19e5, 0x0200, "Huawei Hi1822 2x100GE" },
	{ 0x19e5, 0x0205, "Huawei Hi1822 2x100GE mezz" },
	{ 0x19e5, 0x0210, "Huawei Hi1822 4x25GE mezz" },
	{ 0x19e5, 0x0222, "Huawei hinic3" },
};

const char *nic_model_name(uint64_t vendor, uint64_t device)
{
	for (size_t i = 0; i < sizeof(nics) / sizeof(nics[0]); i++)
		if (nics[i].vendor == vendor && nics[i].device == device)
			return nics[i].name;
	return NULL;
}

static const struct {
	uint16_t vendor, device;
	enum gpu_kind kind;
	const char *name;
} gpus[] = {
	{ 0x10de, 0x1db1, GPU_DATACENTER, "Tesla V100 SXM2 16GB" },
	{ 0x10de, 0x1db4, GPU_DATACENTER, "Tesla V100 PCIe 16GB" },
	{ 0x10de, 0x1db5, GPU_DATACENTER, "Tesla V100 SXM2 32GB" },
	{ 0x10de, 0x1db6, GPU_DATACENTER, "Tesla V100 PCIe 32GB" },
	{ 0x10de, 0x20b0, GPU_DATACENTER, "A100 SXM4 40GB" },
	{ 0x10de, 0x20b2, GPU_DATACENTER, "A100 SXM4 80GB" },
	{ 0x10de, 0x20b5, GPU_DATACENTER, "A100 PCIe 80GB" },
	{ 0x10de, 0x20f1, GPU_DATACENTER, "A100 PCIe 40GB" },
	{ 0x10de, 0x20f3, GPU_DATACENTER, "A800 SXM4 80GB" },
	{ 0x10de, 0x20f5, GPU_DATACENTER, "A800 PCIe 80GB" },
	{ 0x10de, 0x2324, GPU_DATACENTER, "H800" },
	{ 0x10de, 0x2329, GPU_DATACENTER, "H20" },
	{ 0x10de, 0x2330, GPU_DATACENTER, "H100 SXM5 80GB" },
	{ 0x10de, 0x2331, GPU_DATACENTER, "H100 PCIe" },
	{ 0x10de, 0x2335, GPU_DATACENTER, "H200 SXM 141GB" },
	{ 0x10de, 0x2901, GPU_DATACENTER, "B200" },
	{ 0x10de, 0x26b5, GPU_DATACENTER, "L40" },
	{ 0x10de, 0x26b9, GPU_DATACENTER, "L40S" },
	{ 0x10de, 0x27b8, GPU_DATACENTER, "L4" },
	{ 0x10de, 0x2230, GPU_WORKSTATION, "RTX A6000" },
	{ 0x10de, 0x26b1, GPU_WORKSTATION, "RTX 6000 Ada" },
	{ 0x10de, 0x2204, GPU_GEFORCE, "GeForce RTX 3090" },
	{ 0x10de, 0x2203, GPU_GEFORCE, "GeForce RTX 3090 Ti" },
	{ 0x10de, 0x2684, GPU_GEFORCE, "GeForce RTX 4090" },
	{ 0x10de, 0x2704, GPU_GEFORCE, "GeForce RTX 4080" },
	{ 0x10de, 0x2b85, GPU_GEFORCE, "GeForce RTX 5090" },
	/* AMD Instinct.  MI200 (Aldebaran, class 0380): the IDs the kernel's
	 * amdgpu driver binds as CHIP_ALDEBARAN (amdgpu_drv.c pciidlist,
	 * "drm/amdgpu: Add DID for aldebaran", 2021, 0x7410 added later),
	 * named as pci.ids (hwdata) names them: 7408 "Aldebaran/MI200
	 * [Instinct MI250X]", 740c "[Instinct MI250X/MI250]", 740f
	 * "[Instinct MI210]"; 7410 has no product name there we could read. */
	{ 0x1002, 0x7408, GPU_DATACENTER, "Instinct MI250X" },
	{ 0x1002, 0x740c, GPU_DATACENTER, "Instinct MI250X/MI250" },
	{ 0x1002, 0x740f, GPU_DATACENTER, "Instinct MI210" },
	{ 0x1002, 0x7410, GPU_DATACENTER, "Instinct MI200" },
	/* MI300 on (class 1200): amdgpu binds every 1002 function of the
	 * processing-accelerator class ("drm/amdgpu: add the accelerator pcie
	 * class", 2023: pciidlist's PCI_CLASS_ACCELERATOR_PROCESSING entry, so
	 * no per-ID list there).  Names from pci.ids (hwdata), "Aqua Vanjaram
	 * [Instinct ...]": 74a0 MI300A, 74a1 MI300X, 74a2 MI308X, 74a5 MI325X,
	 * 74a9 and 74bd MI300X HF, 74b5 MI300X VF, 74b9 MI325X VF. */
	{ 0x1002, 0x74a0, GPU_DATACENTER, "Instinct MI300A" },
	{ 0x1002, 0x74a1, GPU_DATACENTER, "Instinct MI300X" },
	{ 0x1002, 0x74a2, GPU_DATACENTER, "Instinct MI308X" },
	{ 0x1002, 0x74a5, GPU_DATACENTER, "Instinct MI325X" },
	{ 0x1002, 0x74a9, GPU_DATACENTER, "Instinct MI300X HF" },
	{ 0x1002, 0x74b5, GPU_DATACENTER, "Instinct MI300X VF" },
	{ 0x1002, 0x74b9, GPU_DATACENTER, "Instinct MI325X VF" },
	{ 0x1002, 0x74bd, GPU_DATACENTER, "Instinct MI300X HF" },
	/* MI355X: 1002:75a3, as a public incident report on 8 of them in a
	 * Dell PowerEdge XE9785L reads it ("8x AMD Instinct MI355X PFs
	 * (1002:75a3)"); MI350X's ID was not confirmed, and class 1200 makes
	 * it a GPU all the same, model unknown. */
	{ 0x1002, 0x75a3, GPU_DATACENTER, "Instinct MI355X" },
};

#define PCI_BASE_DISPLAY 0x03
#define PCI_BASE_ACCELERATOR 0x12	/* include/linux/pci_ids.h PCI_BASE_CLASS_ACCELERATOR */

const char *gpu_model_name(uint64_t vendor, uint64_t device, enum gpu_kind *kind)
{
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		if (gpus[i].vendor == vendor && gpus[i].device == device) {
			*kind = gpus[i].kind;
			return gpus[i].name;
		}
	}
	*kind = GPU_UNKNOWN;
	return NULL;
}

bool pci_is_gpu(uint64_t vendor, uint64_t class_code, uint64_t device)
{
	enum gpu_kind kind;

	if (vendor == PCI_VENDOR_NVIDIA)
		return (class_code >> 16) == PCI_BASE_DISPLAY;
	if (vendor != PCI_VENDOR_AMD)
		return false;
	/* only Instinct parts are 1002 accelerators; a Radeon is class 03
	 * with an ID not in the table */
	if ((class_code >> 16) == PCI_BASE_ACCELERATOR)
		return true;
	return (class_code >> 16) == PCI_BASE_DISPLAY && gpu_model_name(vendor, device, &kind);
}

bool gpu_vendor_known(uint64_t vendor)
{
	return vendor == PCI_VENDOR_NVIDIA || vendor == PCI_VENDOR_AMD;
}

enum gpu_vendor gpu_vendor_of(uint64_t vendor)
{
	return vendor == PCI_VENDOR_AMD ? GPU_VENDOR_AMD : GPU_VENDOR_NVIDIA;
}

bool pci_is_bcm_two_level_switch(uint64_t vendor, uint64_t device)
{
	return vendor == PCI_VENDOR_BROADCOM_PLX &&
	       (device == 0xc010 || device == 0xc030);
}
