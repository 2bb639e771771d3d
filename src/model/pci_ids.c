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

bool pci_is_gpu(uint64_t vendor, uint64_t class_code)
{
	return vendor == PCI_VENDOR_NVIDIA && (class_code >> 16) == 0x03;
}

static const struct {
	uint16_t device;
	enum gpu_kind kind;
	const char *name;
} gpus[] = {
	{ 0x1db1, GPU_DATACENTER, "Tesla V100 SXM2 16GB" },
	{ 0x1db4, GPU_DATACENTER, "Tesla V100 PCIe 16GB" },
	{ 0x1db5, GPU_DATACENTER, "Tesla V100 SXM2 32GB" },
	{ 0x1db6, GPU_DATACENTER, "Tesla V100 PCIe 32GB" },
	{ 0x20b0, GPU_DATACENTER, "A100 SXM4 40GB" },
	{ 0x20b2, GPU_DATACENTER, "A100 SXM4 80GB" },
	{ 0x20b5, GPU_DATACENTER, "A100 PCIe 80GB" },
	{ 0x20f1, GPU_DATACENTER, "A100 PCIe 40GB" },
	{ 0x20f3, GPU_DATACENTER, "A800 SXM4 80GB" },
	{ 0x20f5, GPU_DATACENTER, "A800 PCIe 80GB" },
	{ 0x2324, GPU_DATACENTER, "H800" },
	{ 0x2329, GPU_DATACENTER, "H20" },
	{ 0x2330, GPU_DATACENTER, "H100 SXM5 80GB" },
	{ 0x2331, GPU_DATACENTER, "H100 PCIe" },
	{ 0x2335, GPU_DATACENTER, "H200 SXM 141GB" },
	{ 0x2901, GPU_DATACENTER, "B200" },
	{ 0x26b5, GPU_DATACENTER, "L40" },
	{ 0x26b9, GPU_DATACENTER, "L40S" },
	{ 0x27b8, GPU_DATACENTER, "L4" },
	{ 0x2230, GPU_WORKSTATION, "RTX A6000" },
	{ 0x26b1, GPU_WORKSTATION, "RTX 6000 Ada" },
	{ 0x2204, GPU_GEFORCE, "GeForce RTX 3090" },
	{ 0x2203, GPU_GEFORCE, "GeForce RTX 3090 Ti" },
	{ 0x2684, GPU_GEFORCE, "GeForce RTX 4090" },
	{ 0x2704, GPU_GEFORCE, "GeForce RTX 4080" },
	{ 0x2b85, GPU_GEFORCE, "GeForce RTX 5090" },
};

const char *gpu_model_name(uint64_t device, enum gpu_kind *kind)
{
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		if (gpus[i].device == device) {
			*kind = gpus[i].kind;
			return gpus[i].name;
		}
	}
	*kind = GPU_UNKNOWN;
	return NULL;
}

bool pci_is_bcm_two_level_switch(uint64_t vendor, uint64_t device)
{
	return vendor == PCI_VENDOR_BROADCOM_PLX &&
	       (device == 0xc010 || device == 0xc030);
}
