/* The model: plain structs describing one machine's RDMA network.
 *
 * Readers (src/sysfs, src/verbs) fill it; consumers (src/check, src/print,
 * src/metrics, src/store) only read it.  A value that could not be read
 * is "not available": NULL for strings, NA for integers, NAN for rates.
 * Never a made-up default.
 *
 * Errors: the model's functions (in src/model) compute from what is
 * there and cannot fail but for memory: they return 0 or -ENOMEM, and
 * never print.
 */
#ifndef RD_MODEL_INVENTORY_H
#define RD_MODEL_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counter_set.h"
#include "fec_stats.h"
#include "na.h"
#include "nvlink.h"
#include "pci_func.h"

struct gid {
	int index;
	uint8_t raw[16];
	char *text;	/* as the kernel wrote it */
	char *type;	/* "IB/RoCE v1", "RoCE v2"; NULL when unreadable */
	char *netdev;
	char ipv4[16];	/* "" when not IPv4-mapped */
};

struct module_info;	/* module_info.h */
struct neighbor;	/* model/neighbor.h */

/* Link modes: bitmaps of ethtool link-mode bit indices
 * (ETHTOOL_LINK_MODE_*_BIT, linux/ethtool.h), as many as we keep. */
#define LINK_MODE_BITS 256u
#define LINK_MODE_WORDS (LINK_MODE_BITS / 32u)

/* What ethtool netlink says of a netdev's link (src/nl/link_modes.c):
 * LINKMODES_GET (`ethtool IF`) and FEC_GET (`ethtool --show-fec IF`). */
struct link_info {
	int linkmodes;		/* 1 answered, 0 not supported, -1 unknown */
	int autoneg;		/* 1 on, 0 off, -1 unknown */
	int64_t speed_mbps;	/* NA unknown (also the kernel's SPEED_UNKNOWN) */
	int duplex;		/* 1 full, 0 half, -1 unknown */
	int64_t lanes;		/* NA unknown */
	uint32_t supported[LINK_MODE_WORDS], advertised[LINK_MODE_WORDS];
	uint32_t peer[LINK_MODE_WORDS];	/* the link partner's advertised modes */
	bool has_modes, has_peer;
	int fec;		/* 1 answered, 0 not supported, -1 unknown */
	int fec_auto;		/* 1 the driver picks the FEC, 0 not, -1 unknown */
	/* active FEC as a link-mode bit: 49 None, 50 RS, 51 BASER, 74 LLRS; -1 */
	int fec_active;
	uint32_t fec_configured[LINK_MODE_WORDS];	/* the FEC mode bits configured */
	/* FEC_GET's statistics (asked with ETHTOOL_FLAG_STATS) */
	struct fec_stats fec_stats;
};

/* Everything unknown. */
void link_info_init(struct link_info *l);
static inline bool link_mode_has(const uint32_t *set, unsigned bit)
{
	return bit < LINK_MODE_BITS && (set[bit / 32] >> (bit % 32)) & 1u;
}

struct port {
	int num;
	char *link_layer;	/* "InfiniBand", "Ethernet" */
	int64_t state;
	char *state_name;
	int64_t phys_state;
	char *phys_state_name;
	/* why state or phys_state is NA, in words ("no file 'state'",
	 * "malformed 'state': ..."); NULL when both were read */
	char *state_why;
	double rate_gbps;
	int64_t lanes;
	char *rate_speed;	/* "NDR"... */
	int64_t lid, sm_lid;
	int64_t active_mtu, max_mtu;	/* bytes, from verbs */
	char *netdev;
	int64_t netdev_mtu, netdev_speed_mbps, carrier_changes;
	char *netdev_operstate;
	char *bond_slaves;	/* RoCE LAG: the bond's slaves, space separated */
	struct gid *gids;
	size_t n_gids;
	struct counter_set counters;	/* IB PMA, data in bytes */
	struct counter_set hw_counters;
	/* `ethtool -S` of the netdev (sysfs/ethtool.c); v NULL: not known
	 * (no netdev, no statistics, not in the snapshot). */
	struct counter_set eth_stats;
	/* /sys/class/net/<netdev>/statistics/: read by `watch` only (v NULL
	 * otherwise), for the byte counters of the kernel's own traffic. */
	struct counter_set net_stats;
	/* RoCE QoS (NULL: not known).  ECN from MLNX_OFED's
	 * /sys/class/net/<if>/ecn/roce_{np,rp}/enable/<prio>; trust, PFC and
	 * the DSCP map from DCB netlink (sysfs/qos.c). */
	struct qos *qos;
	/* The transceiver from its EEPROM over ethtool netlink (sysfs/module.c,
	 * eeprom/module.h); NULL: not read. */
	struct module_info *module;
	/* Link modes and FEC over ethtool netlink (sysfs/link.c); NULL: not
	 * read (no netdev, not in the snapshot). */
	struct link_info *link;
	/* RoCE LAG (bond_slaves set): each slave's own view, asked of the
	 * physical function since the bond has no DCB and no transceiver
	 * (sysfs/lag.c).  qos above is then the slaves' merged view. */
	struct lag_slave *slaves;
	size_t n_slaves;
	/* A window of samples (watch, check --window; model/window.h): the
	 * values at its start, the counters above being those at its end.
	 * NULL: one sample, no window. */
	struct port_start *start;
	/* The agent's long window (state/latch_base.h): the values at the
	 * boot's first reading, inventory.window_boot_s before this one;
	 * NULL: none (no memory, or the first reading of a boot). */
	struct port_start *start_boot;
	/* Who the port is cabled to (model/neighbor.h; read by collect/lldp.c):
	 * NULL not known, and then neighbor_why says why in words ("lldpd is
	 * not running", "lldpd heard no LLDP on ens1np0"); NULL both when
	 * nothing was asked (a reader that did not run) */
	struct neighbor *neighbor;
	char *neighbor_why;
};

struct lag_slave {
	char *netdev;
	struct qos *qos;		/* ECN and DCB of this PF; NULL unknown */
	struct module_info *module;	/* its transceiver; NULL not read */
	struct link_info *link;		/* its link modes and FEC; NULL */
};

struct qos {
	char *trust;		/* "dscp", "pcp", NULL unknown */
	int pfc_enabled[8];	/* 1, 0, -1 unknown */
	int ecn_np[8], ecn_rp[8];	/* 1, 0, -1 unknown / file absent */
	/* From DCB netlink (src/nl/dcb.c); qos_init sets all unknown. */
	int dcb_supported;	/* 1 answered, 0 no DCB on the netdev, -1 unknown */
	int dscp_to_prio[64];	/* priority of each DSCP when trust is dscp; -1 */
	int64_t pause_tx[8], pause_rx[8];	/* PFC pause frames per priority; NA */
	int prio_tc[8];		/* ETS traffic class of each priority; -1 */
	int dcbx;		/* DCB_ATTR_DCBX flags (0x1 host/OS managed); -1 */
};

/* Everything unknown (-1, NA, NULL). */
void qos_init(struct qos *q);
void qos_free(struct qos *q);
/* A deep copy; NULL when out of memory. */
struct qos *qos_dup(const struct qos *q);

struct nic {
	char *name;		/* RDMA device name: mlx5_0, rocep65s0f0, rxe0 */
	char *driver;		/* mlx5_core, bnxt_en, rdma_rxe */
	char *model;		/* "ConnectX-7" */
	char *hca_type, *fw_ver, *board_id, *node_guid, *node_desc;
	char *sys_image_guid;	/* the adapter's, shared by its functions */
	char *netdev_parent;	/* software devices: the netdev they sit on */
	bool has_pci;
	struct pci_func pci;
	char *uverbs;		/* "uverbs0": its /sys/class/infiniband_verbs entry */
	/* /dev/infiniband/<uverbs>: "ok", "missing", "no access"; NULL unknown */
	char *uverbs_dev;
	struct port *ports;
	size_t n_ports;
	/* "rail" or "storage" under the machine's profile and site file, set by
	 * the command layer for the views (static); NULL: not judged */
	const char *role;
	/* matched by the site file's exclude = (model/exclude.h): nothing was
	 * read beyond the name and the PCI address; the pattern and its line
	 * (0: not excluded) */
	bool excluded;
	char *exclude_pattern;
	int exclude_line;
};

enum gpu_kind { GPU_DATACENTER, GPU_WORKSTATION, GPU_GEFORCE, GPU_UNKNOWN };

/* Whose GPU: what GPUDirect needs (peer memory or DMA-BUF from NVIDIA's
 * driver, DMA-BUF or the amdkfd memory peer from AMD's) and which library
 * a job runs (NCCL or RCCL) follow from it.  From pci.vendor (pci_ids.h:
 * gpu_vendor_of). */
enum gpu_vendor { GPU_VENDOR_NVIDIA, GPU_VENDOR_AMD };

struct gpu {
	struct pci_func pci;
	const char *model;	/* static table string, NULL if unknown */
	enum gpu_kind kind;
	enum gpu_vendor vendor;
	/* NVIDIA's: the NVLink fabric through NVML (nvml/fabric.c) */
	struct gpu_fabric fabric;
};

enum path_type { PATH_X, PATH_PIX, PATH_PXB, PATH_PHB, PATH_NODE, PATH_SYS };

struct affinity {
	size_t gpu, nic;	/* indices into inventory arrays */
	enum path_type path;
};

struct module_state {
	const char *name;	/* static */
	bool loaded;		/* in /proc/modules or /sys/module/<m>/initstate live */
	char *initstate;	/* "live", "coming", ... NULL when absent */
	char *version;
};

enum { MOD_NVIDIA_PEERMEM, MOD_NV_PEER_MEM, MOD_IB_UVERBS, MOD_IB_CORE,
       MOD_MLX5_CORE, MOD_MLX5_IB, MOD_RDMA_RXE, MOD_NVIDIA, MOD_COUNT };

/* What AMD Instinct GPUs need for GPUDirect RDMA (check/gpudirect.c), read
 * only where the inventory holds an AMD GPU (sysfs/host_amd.c), so nothing
 * more is read, or recorded by snapshot, on any other machine. */
struct amd_gdr {
	bool read;			/* false: no AMD GPU, nothing read */
	struct module_state amdgpu;	/* exports GPU memory as DMA-BUF */
	/* ROCm's PeerDirect: amdkfd registered with an OFED-style
	 * ib_peer_mem as a memory peer, the path of its version file (one
	 * of the three RCCL's net_ib looks at), NULL when none exists */
	char *memory_peer;
};

struct host {
	char *hostname, *kernel, *dmi_product;
	int64_t memlock_bytes;	/* NA when unknown or unlimited */
	int memlock_unlimited;	/* 1, 0, or -1 unknown */
	/* IOMMU */
	int iommu_present;	/* /sys/class/iommu has entries; -1 unknown */
	char *iommu_domain;	/* default domain type: identity, DMA, DMA-FQ */
	char *iommu_cmdline;	/* iommu-related /proc/cmdline tokens */
	struct module_state modules[MOD_COUNT];
	/* /proc/modules or /sys/module was there: without either, whether a
	 * module is loaded is unknown, not "no" */
	bool modules_known;
	char *stack;		/* "inbox" or "ofed" */
	char *ofed_version;
	char *nvidia_driver;
	/* /proc/driver/nvidia/version: 1 open kernel modules, 0 proprietary,
	 * -1 unknown */
	int nvidia_open;
	bool peermem_memory_peers;	/* OFED <= 23.10 nv_mem client dir */
	struct amd_gdr amd;
	/* /dev/infiniband nodes, accounts, the jobs' memlock (model/access.h);
	 * NULL: not read */
	struct dev_access *access;
	/* libibverbs, its providers and the kernel's verbs ABI
	 * (model/verbs_user.h); NULL: not read */
	struct verbs_user *verbs_user;
	/* the RDMA modules loaded against their files and the next kernel
	 * (model/drv_stack.h); NULL: not read */
	struct drv_stack *drv_stack;
	/* the kernel log's NIC/RDMA faults (model/kmsg_log.h); NULL: not
	 * read (a replay of a tree that holds no kernel log) */
	struct kmsg_log *kmsg;
};

#include "access.h"
#include "verbs_user.h"
#include "drv_stack.h"
#include "kmsg_log.h"
#include "npu.h"	/* Ascend NPUs and their RoCE ports */

struct inventory {
	struct host host;
	struct gpu *gpus;
	size_t n_gpus;
	struct nic *nics;
	size_t n_nics;
	struct affinity *affinity;
	size_t n_affinity;
	/* seconds between the start and end samples of a window; 0: none */
	double window_s;
	/* the window is the agent's memory's (state/latch_base.h): from its
	 * last reading to this one, as long as the time between readings
	 * happens to be.  link.ber says nothing of a ratio such a window is
	 * too short for, rather than "not checked" at every reading */
	bool window_latched;
	/* seconds from the boot's first reading of the agent to this one (the
	 * ports' start_boot); 0: none */
	double window_boot_s;
	struct npu_inventory npu;
};

void inventory_free(struct inventory *inv);
/* An RDMA device or an Ascend NPU to speak of (the hint "no RDMA devices
 * here" is for a machine with neither). */
bool inventory_has_network(const struct inventory *inv);
void nic_free(struct nic *n);

const char *path_type_name(enum path_type p);
/* "NVIDIA", "AMD" */
const char *gpu_vendor_name(enum gpu_vendor v);

#endif
