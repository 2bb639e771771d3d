/* The one table of NIC/RDMA driver faults matched in the kernel's log.
 * Each row: the fixed text of the kernel's own format string (file and
 * message cited), matched as substrings of the printed message; the
 * device comes from the line's PCI address or its DEVICE= field.
 * First match wins: keep the more specific rows first. */
#include "sysfs/kmsg_parse.h"

const struct kmsg_pattern kmsg_patterns[] = {
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
};

const size_t kmsg_npatterns = sizeof(kmsg_patterns) / sizeof(kmsg_patterns[0]);
