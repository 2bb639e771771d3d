/* The built-in machine profiles.  They are kept as profile files, parsed by
 * the same parser at first use, so that what ships is what a user could
 * have written (and `rdmadoctor profiles show NAME` prints the same keys).
 *
 * Figures come from the vendors' reference designs and user guides (DGX,
 * HGX and the OEM servers built on them; docs/profiles.md lists each
 * profile).  Conventions shared by all of them:
 *   - bw_floor_gbps is 90 % of the port rate: NVIDIA's ngc_multinode_perf
 *     fails a device below 90 % of ports/1/rate;
 *   - InfiniBand: mtu 4096, IB's largest, set by the SM;
 *   - RoCE: mtu 4200 is the smallest netdev MTU that still carries a 4096
 *     RDMA MTU (the kernel takes 96 bytes of headers off first:
 *     iboe_get_mtu); 9000 is usual, so 4200 is a floor, not a target.
 *     pfc_priority 3, trust dscp and ecn yes: the usual lossless RoCE setup
 *     (PFC on priority 3, trust DSCP, ECN on).
 *   - no built-in uses based_on: each one reads on its own. */
#include "profile.h"
#include "../model/nearest.h"

#include <string.h>

struct builtin_text {
	const char *name;
	const char *text;
};

static const struct builtin_text texts[] = {
	{ "generic",
	  "[profile]\n"
	  "name = generic\n"
	  "description = any machine: judges only what needs no expectation (down ports, "
	  "degraded PCIe, errors, RoCE v2 GIDs)\n"
	  "# no [rail] or [storage]: nothing here says what the machine should have\n" },

	{ "dgx-a100",
	  "[profile]\n"
	  "name = dgx-a100\n"
	  "description = NVIDIA DGX A100: 8 x A100, 8 x ConnectX-6 HDR 200G InfiniBand rails\n"
	  "# fixtures and field systems write 'DGXA100 920-23687-2530-000'\n"
	  "match_dmi = DGXA100\n"
	  "\n"
	  "[rail]\n"
	  "# machines 1, DGX A100 row (V): 8 single-port ConnectX-6 VPI, 200 Gb/s HDR, IB by default\n"
	  "count = 8\n"
	  "model = ConnectX-6\n"
	  "link_layer = InfiniBand\n"
	  "rate_gbps = 200\n"
	  "# machines 1 (V): Gen4 x16, behind 4 PCIe Gen4 switches\n"
	  "pcie_gen = 4\n"
	  "pcie_width = 16\n"
	  "mtu = 4096\n"
	  "gpudirect = yes\n"
	  "# machines 1 (V): 2 GPUs + 2 NICs per switch, 1:1; the switch is two bridge levels\n"
	  "# (PEX88096), so a GPU and its NIC are PXB on the raw tree\n"
	  "gpus_per_nic = 1\n"
	  "placement = PXB\n"
	  "bw_floor_gbps = 180\n"
	  "gpu_gbps = 200\n"
	  "\n"
	  "[storage]\n"
	  "# machines 1 (V/U): one dual-port ConnectX-6 VPI (10-200 Gb/s), a 2nd card on the\n"
	  "# 640 GB model: 2 or 4 functions, IB or Ethernet, so count and rate are not judged\n"
	  "model = ConnectX-6\n"
	  "pcie_gen = 4\n"
	  "pcie_width = 16\n" },

	{ "dgx-h100",
	  "[profile]\n"
	  "name = dgx-h100\n"
	  "description = NVIDIA DGX H100 / H200: 8 x ConnectX-7 NDR 400G InfiniBand rails, "
	  "1 per GPU\n"
	  "# the DGX H200 keeps the H100 network (machines 1, one row for both)\n"
	  "match_dmi = DGXH100, DGXH200\n"
	  "\n"
	  "[rail]\n"
	  "# machines 1, DGX H100 / H200 row (V, DGX H100 User Guide 1.2.3): 8 ConnectX-7\n"
	  "# single-port functions on 4 twin-port OSFP cages, NDR 400 Gb/s, IB by default\n"
	  "count = 8\n"
	  "model = ConnectX-7\n"
	  "link_layer = InfiniBand\n"
	  "rate_gbps = 400\n"
	  "# machines 1 (V, MLCommons dgx-h100.md): PCIe Gen5 x16 per GPU-NIC pair\n"
	  "pcie_gen = 5\n"
	  "pcie_width = 16\n"
	  "mtu = 4096\n"
	  "gpudirect = yes\n"
	  "# machines 1 note 1 and the port map (V): each NIC shares a switch with its GPU\n"
	  "gpus_per_nic = 1\n"
	  "placement = PIX\n"
	  "bw_floor_gbps = 360\n"
	  "gpu_gbps = 400\n"
	  "\n"
	  "[storage]\n"
	  "# machines 1 (V) and note 4: 2 dual-port ConnectX-7 (QSFP112, up to 400 Gb/s) for\n"
	  "# storage and in-band management = 4 functions; port 1 IB or Ethernet, port 2\n"
	  "# often bonded Ethernet, so link layer and rate are not judged\n"
	  "count = 4\n"
	  "model = ConnectX-7\n"
	  "pcie_gen = 5\n"
	  "pcie_width = 16\n" },

	{ "dgx-b200",
	  "[profile]\n"
	  "name = dgx-b200\n"
	  "description = NVIDIA DGX B200: 8 x ConnectX-7 400G InfiniBand rails, "
	  "BlueField-3 storage\n"
	  "match_dmi = DGXB200\n"
	  "\n"
	  "[rail]\n"
	  "# machines 1, DGX B200 row (V, DGX B200 User Guide): 8 ConnectX-7 single-port\n"
	  "# cards via 4 OSFP cages, 400 Gb/s, IB by default, Gen5 host\n"
	  "count = 8\n"
	  "model = ConnectX-7\n"
	  "link_layer = InfiniBand\n"
	  "rate_gbps = 400\n"
	  "pcie_gen = 5\n"
	  "pcie_width = 16\n"
	  "mtu = 4096\n"
	  "gpudirect = yes\n"
	  "# machines 1 (V): 1:1.  The PCIe tree is not documented there: PXB accepts any\n"
	  "# switch shared with the GPU (machines note 1)\n"
	  "gpus_per_nic = 1\n"
	  "placement = PXB\n"
	  "bw_floor_gbps = 360\n"
	  "gpu_gbps = 400\n"
	  "\n"
	  "[storage]\n"
	  "# machines 1 (V): 2 dual-port BlueField-3 (QSFP112, up to 400 Gb/s, NIC mode) for\n"
	  "# storage and in-band = 4 functions\n"
	  "count = 4\n"
	  "model = BlueField-3\n"
	  "pcie_gen = 5\n"
	  "pcie_width = 16\n" },

	{ "hgx-8x400g",
	  "[profile]\n"
	  "name = hgx-8x400g\n"
	  "description = OEM HGX H100 / H200 / H800 / H20 / B200: 8 GPUs with 8 x ConnectX-7 400G "
	  "rails "
	  "(IB or RoCE)\n"
	  "# machines 1, HGX H100/H200, 8x H800, 8x H20 and HGX H200 rows (V); OEM HGX\n"
	  "# chassis of the Hopper and Blackwell generation (the GPUs narrow them down)\n"
	  "match_dmi = SYS-821GE-TNHR, AS-8125GS-TNHR, G593, ESC N8, XE9680, XD670, "
	  "SR680a V3, SR675 V3, NF5688M7, R5500\n"
	  "match_gpu = H100, H200, H800, H20, B200\n"
	  "match_gpu_count = 8\n"
	  "match_nic = ConnectX-7\n"
	  "\n"
	  "[rail]\n"
	  "# machines 1 (V/U): typically 8 ConnectX-7 400G, IB NDR or 400GbE RoCE (buyer's\n"
	  "# choice, so the link layer and the RoCE-only keys are not judged)\n"
	  "count = 8\n"
	  "model = ConnectX-7\n"
	  "rate_gbps = 400\n"
	  "# machines 1 (V/U): Gen5 x16\n"
	  "pcie_gen = 5\n"
	  "pcie_width = 16\n"
	  "gpudirect = yes\n"
	  "# machines 1 (V, Supermicro smc_lspci.py): NIC slots behind the GPU-side PCIe\n"
	  "# switches, one NIC per GPU\n"
	  "gpus_per_nic = 1\n"
	  "placement = PXB\n"
	  "bw_floor_gbps = 360\n"
	  "gpu_gbps = 400\n"
	  "\n"
	  "[storage]\n"
	  "# machines 1 (U): typically 2 ConnectX-7 or BlueField-3; nothing is judged\n" },

	{ "mi300x-8x400g",
	  "[profile]\n"
	  "name = mi300x-8x400g\n"
	  "description = AMD Instinct MI300X / MI325X platform: 8 GPUs with 8 x 400G RoCE "
	  "rails (Broadcom Thor2, AMD Pollara or ConnectX-7)\n"
	  "# AMD's Instinct MI300X platform (amd.com, Instinct MI300 platform page): 8 OAM\n"
	  "# GPUs on one universal baseboard, each with a PCIe Gen5 x16 host link.  OEM\n"
	  "# chassis of it (the GPUs narrow them down, as for hgx-8x400g): Dell PowerEdge\n"
	  "# XE9680 (its spec sheet offers 8x MI300X), Supermicro AS-8125GS-TNMR2, ASUS\n"
	  "# ESC A8A-E12U (8x MI325X; ServeTheHome's review of it, page 2).  Other builds\n"
	  "# are found by their 8 GPUs alone.  DMI strings as the vendors name the models,\n"
	  "# not read off a machine here\n"
	  "match_dmi = XE9680, AS-8125GS-TNMR2, ESC A8A-E12U\n"
	  "match_gpu = Instinct MI300X, Instinct MI325X\n"
	  "match_gpu_count = 8\n"
	  "\n"
	  "[rail]\n"
	  "# ServeTheHome, ASUS ESC A8A-E12U review (servethehome.com, 8x MI325X, page 2):\n"
	  "# 'typically we see eight 400Gbps low-profile NICs, one for each GPU'.  Broadcom\n"
	  "# Thor2 (bnxt_re) and AMD Pensando Pollara (ionic) are Ethernet only, and the\n"
	  "# ConnectX-7 builds of these boards run RoCE: Ethernet, any model.  PFC, trust and\n"
	  "# ECN are the fabric's choice (Thor2's and Pollara's congestion control differ\n"
	  "# from ConnectX's): not judged\n"
	  "count = 8\n"
	  "link_layer = Ethernet\n"
	  "rate_gbps = 400\n"
	  "pcie_gen = 5\n"
	  "pcie_width = 16\n"
	  "mtu = 4200\n"
	  "gpudirect = yes\n"
	  "# one NIC per GPU; the PCIe tree differs by OEM, so PXB accepts any switch\n"
	  "# shared with the GPU (machines note 1)\n"
	  "gpus_per_nic = 1\n"
	  "placement = PXB\n"
	  "bw_floor_gbps = 360\n"
	  "gpu_gbps = 400\n"
	  "\n"
	  "[storage]\n"
	  "# storage and front-end NICs vary by build: nothing is judged\n" },

	{ "a800-8x100g-roce",
	  "[profile]\n"
	  "name = a800-8x100g-roce\n"
	  "description = 8 x A800 with 8 x ConnectX-6 Dx 100G RoCE rails (Chinese "
	  "public-cloud build)\n"
	  "# machines 1, 8x A800 row (V, ArthurChiao): 'public-cloud 8-GPU hosts are basically\n"
	  "# RoCEv2, e.g. CX6 8*100Gbps': the design of an 8x A800 board.  Before\n"
	  "# a100-8x200g, whose 200G rails the NICs may pick instead (never the other way)\n"
	  "match_dmi = NF5688M6, NF5488A5, SYS-420GP-TNAR, G492, XE9680, R5500\n"
	  "match_gpu = A800\n"
	  "match_gpu_count = 8\n"
	  "match_nic = ConnectX-6 Dx\n"
	  "\n"
	  "[rail]\n"
	  "# machines 2 (V): ConnectX-6 Dx is Ethernet only; 50/100/200G SKUs are Gen4 x16\n"
	  "count = 8\n"
	  "model = ConnectX-6 Dx\n"
	  "link_layer = Ethernet\n"
	  "rate_gbps = 100\n"
	  "pcie_gen = 4\n"
	  "pcie_width = 16\n"
	  "mtu = 4200\n"
	  "pfc_priority = 3\n"
	  "trust = dscp\n"
	  "ecn = yes\n"
	  "gpudirect = yes\n"
	  "# machines 1 (V): 1:1 in this build (rails bonded in pairs also exist: see the\n"
	  "# mlx5_bond_* note there; write your own profile for those)\n"
	  "gpus_per_nic = 1\n"
	  "placement = PXB\n"
	  "bw_floor_gbps = 90\n"
	  "# machines 1 (V, ArthurChiao): 'mainstream per-GPU bandwidth for domestic\n"
	  "# A100/A800 machines is 100 Gbps'\n"
	  "gpu_gbps = 100\n"
	  "\n"
	  "[storage]\n"
	  "# machines 1 (V): 2 storage NICs on the CPUs; model and speed vary: not judged\n" },

	{ "a100-8x200g",
	  "[profile]\n"
	  "name = a100-8x200g\n"
	  "description = OEM HGX A100 / A800: 8 GPUs with 8 x ConnectX-6 200G rails (IB or RoCE)\n"
	  "# machines 1, HGX A100 (Inspur NF5688M6, Supermicro) and 8x A800 rows (V): the\n"
	  "# IB or 200G build of an A800 board, and the design of an A100 one.  NF5488A5 in\n"
	  "# its MLPerf build has 4 rails (machines 6 item 4): nic.count says so\n"
	  "match_dmi = NF5688M6, NF5488A5, SYS-420GP-TNAR, G492, XE9680, R5500\n"
	  "match_gpu = A100, A800\n"
	  "match_gpu_count = 8\n"
	  "match_nic = ConnectX-6\n"
	  "\n"
	  "[rail]\n"
	  "# machines 1 (V, MLCommons Inspur): one 200 Gb/s NIC per GPU under the GPU's Gen4\n"
	  "# switch; IB or RoCE\n"
	  "count = 8\n"
	  "model = ConnectX-6\n"
	  "rate_gbps = 200\n"
	  "pcie_gen = 4\n"
	  "pcie_width = 16\n"
	  "gpudirect = yes\n"
	  "gpus_per_nic = 1\n"
	  "placement = PXB\n"
	  "bw_floor_gbps = 180\n"
	  "gpu_gbps = 200\n"
	  "\n"
	  "[storage]\n"
	  "# machines 1: not stated; nothing is judged\n" },

	{ "budget-2x100g-roce",
	  "[profile]\n"
	  "name = budget-2x100g-roce\n"
	  "description = 8 datacenter GPUs with only 2 x 100G RoCE rails on the CPUs (4 GPUs "
	  "per NIC)\n"
	  "# 8 datacenter GPUs (pci_ids.c names).  machines 6 item 4: 'a budget build, not\n"
	  "# a model property': under-provisioned against the 1:1 design, so never picked\n"
	  "# by itself (fewer_rails); name it to accept it\n"
	  "match_gpu = A100, A800, H100, H200, H800, H20, B200, L40, L40S, L4, Tesla V100\n"
	  "match_gpu_count = 8\n"
	  "fewer_rails = yes\n"
	  "\n"
	  "[rail]\n"
	  "# machines 1, 8x A800 row (V): 100 Gb/s RoCE per port is the mainstream figure;\n"
	  "# the budget build has 2 such ports for 8 GPUs (the Inspur NF5688M6 fixture has\n"
	  "# 2 ConnectX-6 Dx on CPU root ports).  Any model.\n"
	  "count = 2\n"
	  "link_layer = Ethernet\n"
	  "rate_gbps = 100\n"
	  "# machines 3e (D): 100G needs Gen4 x16 (or Gen3 x16 near its ceiling)\n"
	  "pcie_gen = 4\n"
	  "pcie_width = 16\n"
	  "mtu = 4200\n"
	  "pfc_priority = 3\n"
	  "trust = dscp\n"
	  "ecn = yes\n"
	  "# datacenter GPUs can do GPUDirect RDMA; NCCL uses it past PXB when told\n"
	  "# (NCCL_NET_GDR_LEVEL), so nvidia_peermem is still expected\n"
	  "gpudirect = yes\n"
	  "# 8 GPUs over 2 NICs; the NICs hang off the CPUs, so placement is not judged\n"
	  "gpus_per_nic = 4\n"
	  "bw_floor_gbps = 90\n"
	  "# gpu_gbps any: the GPU class's figure, so the shortfall still shows (a warning)\n" },

	{ "rtx-1x100g-roce",
	  "[profile]\n"
	  "name = rtx-1x100g-roce\n"
	  "description = GeForce RTX 4090 / 3090 box with one dual-port 100G RoCE card "
	  "(no GPUDirect)\n"
	  "# machines 1, DIY 8x RTX row (V): GeForce GPUs, usually 1-2 100G cards\n"
	  "match_gpu = GeForce\n"
	  "# one card for all GPUs: picked for GeForce GPUs, named for datacenter ones\n"
	  "fewer_rails = yes\n"
	  "\n"
	  "[rail]\n"
	  "# one dual-port card (typically ConnectX-6 Dx, machines 2: Ethernet only) = 2 RDMA\n"
	  "# devices; CX-5 and CX-6 cards appear too, so the model is not judged\n"
	  "count = 2\n"
	  "link_layer = Ethernet\n"
	  "rate_gbps = 100\n"
	  "# machines 2 (V): ConnectX-6 Dx 100G SKUs are Gen4 x16; desktop boards often give\n"
	  "# x8 (machines 1).  The width is the slot's, not a fault of the card: no error\n"
	  "# here; pcie.link_degraded warns of x8 of x16 and what it costs 2 x 100G\n"
	  "# (machines 3e)\n"
	  "pcie_gen = 4\n"
	  "pcie_width = any\n"
	  "mtu = 4200\n"
	  "pfc_priority = 3\n"
	  "trust = dscp\n"
	  "ecn = yes\n"
	  "# GeForce GPUs have no GPUDirect RDMA (check gdr.unsupported)\n"
	  "gpudirect = no\n"
	  "# machines 1 (V): 4:1 to 8:1; one card may serve all 8 GPUs.  Slots are wherever\n"
	  "# they fit, so placement is not judged\n"
	  "gpus_per_nic = 8\n"
	  "bw_floor_gbps = 90\n" },
	/* Huawei Ascend (docs/ascend.md): the rails are the NPUs' own RoCE
	 * ports, judged from [profile]'s npu_* keys; the host's NICs carry
	 * the service plane and no [rail] or [storage] judges them. */
	{ "atlas-800-9000",
	  "[profile]\n"
	  "name = atlas-800-9000\n"
	  "description = Huawei Atlas 800 training server model 9000 / 9010: 8 x Ascend 910, "
	  "8 x 100GE NPU RoCE ports\n"
	  "# DMI product names not confirmed from a machine (docs/ascend.md): the\n"
	  "# NPU model and count recognise it\n"
	  "match_dmi = Atlas 800 (Model 9000), Atlas 800 (Model 9010)\n"
	  "# 8 x Ascend 910, PCI 19e5:d801\n"
	  "match_npu = Ascend 910\n"
	  "match_npu_count = 8\n"
	  "# each NPU has one 100GE RoCE v2 port\n"
	  "npu_rate_gbps = 100\n"
	  "# HCCL's RDMA service level defaults to 4 and must equal the PFC\n"
	  "# priority (docs/ascend.md); a site that moved HCCL sets its own\n"
	  "npu_pfc_priority = 4\n"
	  "# Huawei's MindCluster Ascend Deployer guide: four subnets, NPU 0&4, 1&5, 2&6, 3&7\n"
	  "npu_subnets = pairs\n" },

	{ "atlas-800t-a2",
	  "[profile]\n"
	  "name = atlas-800t-a2\n"
	  "description = Huawei Atlas 800T A2: 8 x Ascend 910B, 8 x 200GE NPU RoCE ports\n"
	  "# A800T A2: Huawei's short name of the product, seen as a machine's DMI\n"
	  "# model (docs/ascend.md); Atlas 800T A2 is not confirmed as one\n"
	  "match_dmi = Atlas 800T A2, A800T A2\n"
	  "# 8 x Ascend 910B, PCI 19e5:d802\n"
	  "match_npu = Ascend 910B\n"
	  "match_npu_count = 8\n"
	  "# 200GE RoCE v2 per NPU\n"
	  "npu_rate_gbps = 200\n"
	  "# HCCL's default RDMA service level (docs/ascend.md)\n"
	  "npu_pfc_priority = 4\n"
	  "# Huawei's MindCluster Ascend Deployer guide: the 8 NPU ports in one subnet\n"
	  "npu_subnets = one\n" },

	{ "atlas-a3",
	  "[profile]\n"
	  "name = atlas-a3\n"
	  "description = Huawei Atlas A3 (Atlas 900 A3 SuperPoD, Atlas 800T A3): 8 x Ascend "
	  "910C of two dies, a RoCE port per die (16)\n"
	  "# no DMI name of an A3 has been seen (docs/ascend.md): the NPUs recognise it.\n"
	  "# 19e5:d803, and npu-smi lists each die as a chip of its own: Huawei's\n"
	  "# MindCluster guide, eight modules of two Ascend processors a node (16)\n"
	  "match_npu = Ascend 910C\n"
	  "match_npu_count = 16\n"
	  "# the port speed of an A3 die is not confirmed: not judged\n"
	  "npu_rate_gbps = any\n"
	  "# HCCL's default RDMA service level, the same on A3 (docs/ascend.md)\n"
	  "npu_pfc_priority = 4\n"
	  "# Huawei's MindCluster Ascend Deployer guide: the two dies of an NPU in\n"
	  "# different subnets\n"
	  "npu_subnets = dies\n" },
};

#define N_BUILTIN (sizeof(texts) / sizeof(texts[0]))

static struct profile loaded[N_BUILTIN];
/* 0 not loaded, 1 loading, 2 loaded.  Built-ins are parsed with no
 * based_on lookup: one that used based_on fails, and so does the unit
 * test. */
static int state;

static void unload(size_t upto)
{
	for (size_t i = 0; i < upto; i++)
		profile_free(&loaded[i]);
}

/* Parse every built-in once, at first use (the tool is single-threaded;
 * a threaded caller would have to call profile_builtin_at(0) first).  Only
 * memory can make this fail (the unit test parses each one), and then the
 * next call tries again. */
static bool load(void)
{
	struct profile_error err;
	char origin[80];

	if (state == 2)
		return true;
	if (state == 1)
		return false;
	state = 1;
	for (size_t i = 0; i < N_BUILTIN; i++) {
		snprintf(origin, sizeof(origin), "built-in %s", texts[i].name);
		if (profile_parse_bases(texts[i].text, strlen(texts[i].text), origin, NULL,
					&loaded[i], &err) < 0 || strcmp(loaded[i].name, texts[i].name) != 0) {
			unload(i + 1);
			state = 0;
			return false;
		}
	}
	state = 2;
	return true;
}

size_t profile_builtin_count(void)
{
	return N_BUILTIN;
}

const struct profile *profile_builtin_at(size_t i)
{
	if (i >= N_BUILTIN || !load())
		return NULL;
	return &loaded[i];
}

const char *profile_builtin_nearest(const char *name)
{
	const char *names[N_BUILTIN];

	if (!name || !load())
		return NULL;
	for (size_t i = 0; i < N_BUILTIN; i++)
		names[i] = loaded[i].name;
	return nearest_name(name, names, N_BUILTIN);
}

const struct profile *profile_builtin(const char *name)
{
	if (!name || !load())
		return NULL;
	for (size_t i = 0; i < N_BUILTIN; i++)
		if (strcmp(loaded[i].name, name) == 0)
			return &loaded[i];
	return NULL;
}
