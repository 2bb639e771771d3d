/* The one table of NIC/RDMA driver faults matched in the kernel's log.
 * Each row: the fixed text of the kernel's own format string (file and
 * message cited), matched as substrings of the printed message; the
 * device comes from the line's PCI address or its DEVICE= field.
 * First match wins: keep the more specific rows first.  A row with a NULL
 * id is a line known to be no fault: it matches, and the line is quiet.
 * tests/check/kmsg_corpus.tsv holds real lines with their sources, each
 * judged by this table as labelled (tests/check/kmsg_corpus.py). */
#include "sysfs/kmsg_parse.h"

const struct kmsg_pattern kmsg_patterns[] = {
	/* The GPU events that take GPUDirect RDMA or NVLink down, as the
	 * NVIDIA driver prints them (its Xid line "NVRM: Xid (PCI:%04x:%02x:
	 * %02x): %d, ..." and the NVSwitch driver's "SXid (PCI:%s): %d, ...";
	 * the lines of tests/check/kmsg_corpus.tsv, each with its source).
	 * First: their texts name no NIC, and an Xid line may quote a NIC's
	 * words. */
	/* Xid 79 and the driver's own "NVRM: GPU at %s has fallen off the
	 * bus." (corpus: NVIDIA/NVSentinel#155, Bumblebee-Project/Bumblebee#554) */
	{"kmsg.gpu_lost", 1, {"NVRM: Xid (PCI:", "): 79, ", NULL}, "NVIDIA driver, Xid 79"},
	{"kmsg.gpu_lost", 1, {"NVRM: ", "fallen off the bus", NULL}, "NVIDIA driver, NVRM"},
	/* Xid 74 "NVLink: fatal error detected on link %d(...)" and the NVLink
	 * Xids 144-150 of NVLink 5 ("%s Nonfatal|Fatal XC%d i%d Link %d");
	 * corpus: NVIDIA/NVSentinel docs/designs/022-workflow-nvlink-err.md,
	 * leptonai/gpud#1160, #1174.  "Nonfatal" lowers it to a warning. */
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 74, ", NULL}, "NVIDIA driver, Xid 74"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 144, ", NULL}, "NVIDIA driver, Xid 144"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 145, ", NULL}, "NVIDIA driver, Xid 145"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 146, ", NULL}, "NVIDIA driver, Xid 146"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 147, ", NULL}, "NVIDIA driver, Xid 147"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 148, ", NULL}, "NVIDIA driver, Xid 148"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 149, ", NULL}, "NVIDIA driver, Xid 149"},
	{"kmsg.nvlink_error", 1, {"NVRM: Xid (PCI:", "): 150, ", NULL}, "NVIDIA driver, Xid 150"},
	/* nvidia-nvswitch: "nvidia-nvswitch%d: SXid (PCI:%s): %05d, ..." (corpus:
	 * leptonai/gpud#338); "Non-fatal" lowers it to a warning */
	{"kmsg.nvswitch_error", 1, {"nvidia-nvswitch", ": SXid (PCI:", NULL}, "NVSwitch driver, SXid"},
	/* Any other Xid (13, 45, 109: an application's fault or its clean-up)
	 * does not cut the network path: quiet, even when it quotes another
	 * Xid ("caused by previous Xid 149") or a NIC's words. */
	{NULL, 0, {"NVRM: Xid (PCI:", NULL}, "NVIDIA driver, other Xids"},
	/* drivers/net/ethernet/mellanox/mlx5/core/cmd.c, wait_func():
	 * "%s(0x%x) timeout. Will cause a leak of a command resource\n", and
	 * cb_timeout_handler(): "cmd[%d]: %s(0x%x) Async, timeout. Will cause
	 * a leak of a command resource\n" */
	{"kmsg.fw_timeout", 1, {"timeout. Will cause a leak of a command resource", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/cmd.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/health.c, poll_health():
	 * "device's health compromised - reached miss count\n" */
	{"kmsg.health", 1, {"health compromised", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/health.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/health.c, print_health_info()
	 * with hsynd_str(): "synd 0x%x: %s\n", "unrecoverable hardware error" */
	{"kmsg.health", 1, {"unrecoverable hardware error", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/health.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/health.c, print_health_info()
	 * (newer): "Health issue observed, %s, severity(%d) %s:\n" with
	 * hsynd_str(), and "PCI slot is unavailable\n" (fw_ver all ones);
	 * older: "synd 0x%x: %s\n" whatever the syndrome's string */
	{"kmsg.health", 1, {"Health issue observed, ", "severity(", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/health.c"},
	{"kmsg.health", 1, {"mlx5_core ", "PCI slot is unavailable", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/health.c"},
	{"kmsg.health", 1, {"mlx5_core ", " synd 0x", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/health.c"},
	/* A rail that never came up: drivers/base/dd.c, call_driver_probe():
	 * "%s: probe of %s failed with error %d\n" for mlx5_core, and
	 * drivers/net/ethernet/mellanox/mlx5/core/main.c, probe_one():
	 * "mlx5_load_one failed with error code %d\n" (older), "mlx5_init_one
	 * failed with error code %d\n" (newer); corpus: pocopico/rp-ext#129 */
	{"kmsg.nic_probe", 1, {"mlx5_core: probe of ", " failed with error ", NULL},
	 "drivers/base/dd.c"},
	{"kmsg.nic_probe", 1, {"mlx5_core ", "mlx5_load_one failed with error code", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/main.c"},
	{"kmsg.nic_probe", 1, {"mlx5_core ", "mlx5_init_one failed with error code", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/main.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/events.c, mlx5_pcie_event():
	 * "Detected insufficient power on the PCIe slot (%uW).\n" */
	{"kmsg.pcie_power", 1, {"insufficient power on the PCIe slot", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/events.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/events.c, port_module()
	 * (port.c, mlx5_port_module_event(), in older kernels):
	 * "Port module event[error]: module %u, %s, %s\n" with the
	 * mlx5_pme_error string "High Temperature" */
	{"kmsg.module_temp", 0, {"Port module event", "High Temperature", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/events.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/cmd.c, mlx5_cmd_check() /
	 * mlx5_cmd_out_err(): "%s(0x%x) op_mod(0x%x) failed, status %s(0x%x),
	 * syndrome (0x%x)\n" (newer: ", err(%d)") with mlx5_command_str()
	 * "ACCESS_REG" (opcode 0x805) */
	{"kmsg.access_reg", 0, {"ACCESS_REG(0x", ") failed, status", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/cmd.c"},
	/* net/sched/sch_generic.c, dev_watchdog(): WARN_ONCE "NETDEV WATCHDOG:
	 * %s (%s): transmit queue %u timed out\n" (older), "... timed out %u
	 * ms\n" (6.x), and netdev_crit "NETDEV WATCHDOG: CPU: %d: transmit
	 * queue %u timed out %u ms\n" (newer, the netdev's prefix names it) */
	{"kmsg.tx_timeout", 0, {"NETDEV WATCHDOG: ", "transmit queue ", " timed out"},
	 "net/sched/sch_generic.c"},
	/* the driver's own reporter: drivers/net/ethernet/mellanox/mlx5/core/
	 * en/reporter_tx.c, mlx5e_reporter_tx_timeout(): "TX timeout on queue:
	 * %d, SQ: 0x%x, CQ: 0x%x, SQ Cons: 0x%x SQ Prod: 0x%x, usecs since last
	 * trans: %u" (netdev_err); mlx4's en_netdev.c "TX timeout on queue: %d,
	 * QP: 0x%x, CQ: 0x%x, Cons: 0x%x, Prod: 0x%x" the same way */
	{"kmsg.tx_timeout", 0, {"TX timeout on queue: ", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/en/reporter_tx.c"},
	/* drivers/net/ethernet/mellanox/mlx5/core/en_main.c,
	 * mlx5e_update_carrier(): netdev_info(.., "Link up\n") / "Link down\n" */
	{"kmsg.link_flap", 0, {": Link down", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/en_main.c"},
	{"kmsg.link_flap", 0, {": Link up", NULL},
	 "drivers/net/ethernet/mellanox/mlx5/core/en_main.c"},
	/* drivers/pci/pcie/aer.c, aer_print_error():
	 * "PCIe Bus Error: severity=%s, type=%s, (%s)\n" (newer: "%s Bus
	 * Error" with bus_type "PCIe"); error when aer_error_severity_string
	 * is "Uncorrected (Fatal)" (older) or "Uncorrectable (Fatal)" (newer) */
	{"kmsg.aer", 0, {"PCIe Bus Error: severity=", NULL},
	 "drivers/pci/pcie/aer.c"},
	/* kernel/module/main.c, resolve_symbol_wait():
	 * "%s: Unknown symbol %s (err %d)\n" for nvidia_peermem (its
	 * ib_register_peer_memory_client is MLNX_OFED's, not upstream's) */
	{"kmsg.peermem", 0, {"nvidia_peermem: ", "Unknown symbol", NULL},
	 "kernel/module/main.c"},
	/* the older module of the same job, nv_peer_mem (Mellanox/nv_peer_memory;
	 * corpus: its issues #8, #39, #79, #84), and check_version():
	 * "%s: disagrees about version of symbol %s\n" for either */
	{"kmsg.peermem", 0, {"nv_peer_mem: ", "Unknown symbol", NULL},
	 "kernel/module/main.c"},
	{"kmsg.peermem", 0, {"nvidia_peermem: ", "disagrees about version of symbol", NULL},
	 "kernel/module/version.c"},
	{"kmsg.peermem", 0, {"nv_peer_mem: ", "disagrees about version of symbol", NULL},
	 "kernel/module/version.c"},
};

const size_t kmsg_npatterns = sizeof(kmsg_patterns) / sizeof(kmsg_patterns[0]);
