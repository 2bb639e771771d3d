/* The catalog of check ids (catalog.h).  Keep the rows in id order; the
 * texts are what `check --list` and docs/checks.md say, so they speak to
 * the engineer reading them, not to this code. */
#include "catalog.h"

#include <string.h>

static const struct check_entry rows[] = {
	{ "counters.errors", "warn (lifetime counts); error (grew within a window); "
	  "info (counters not readable: not checked)",
	  "non-zero error counters: the InfiniBand PMA ones (symbol_error, link_downed, "
	  "port_rcv_errors, ...), ICRC errors, and on Ethernet the PHY's `ethtool -S` "
	  "rx_crc_errors_phy, rx_symbol_err_phy, rx_pcs_symbol_err_phy, "
	  "link_down_events_phy (and their per-lane forms); in a one-shot check a "
	  "warning, since the time since they were cleared is unknown; with `check "
	  "--window` or `watch` an error when they grew (retries only: a warning)",
	  "find out whether they grow (`check --window 60`); if they do, reseat then "
	  "replace the cable and module, check its temperature and optical power, then "
	  "the switch port" },
	{ "counters.saturated", "warn",
	  "an InfiniBand PMA error counter stuck at its maximum (they saturate instead "
	  "of wrapping), so new errors no longer show",
	  "clear the counters (`perfquery -R`) and look again after a while" },
	{ "driver.mixed_stack", "warn",
	  "the loaded mlx5_core, mlx5_ib, ib_core and ib_uverbs come from two sources: some "
	  "from the kernel's own kernel/ tree (inbox), some from updates/ or extra/ "
	  "(MLNX_OFED, DOCA, DKMS), judged by the files modules.dep names for the running "
	  "kernel",
	  "reinstall MLNX_OFED / DOCA for the running kernel, or remove it to run the inbox "
	  "stack; then `depmod -a` and reload" },
	{ "driver.next_boot", "warn; info (the next kernel's modules.dep not readable: not "
	  "checked)",
	  "a module loaded now (of the five) is missing for the kernel that boots next (the "
	  "newest in /lib/modules and /boot/vmlinuz-*, when not the running one): not in its "
	  "modules.dep and no DKMS build under /var/lib/dkms/<package>/<version>/<kernel>/"
	  "<arch>/module/; or an out-of-tree module running now has only the inbox one there",
	  "`dkms autoinstall -k <next kernel>` before the reboot, or install MLNX_OFED / the "
	  "NVIDIA driver for that kernel" },
	{ "driver.peermem_mismatch", "error; info (a version not readable: not checked)",
	  "the loaded nvidia_peermem's version (/sys/module/nvidia_peermem/version, else its "
	  ".modinfo) differs from the loaded NVIDIA driver's (/sys/module/nvidia/version)",
	  "install nvidia_peermem of the same NVIDIA driver package and reload it" },
	{ "driver.stale_module", "warn; info (the file, modules.dep or the loaded module's "
	  "build id not readable: not checked)",
	  "a loaded mlx5_core, mlx5_ib, ib_core, ib_uverbs or nvidia_peermem is not the file "
	  "that modules.dep names for the running kernel: their GNU build ids differ "
	  "(/sys/module/M/notes/.note.gnu.build-id against the .ko's note), else their "
	  "srcversion or version; or no file is there at all",
	  "reload the RDMA stack when no job runs (`openibd restart`, or modprobe -r and "
	  "modprobe) or reboot" },
	{ "driver.userspace", "error (a rail's provider, or the kernel's uverbs ABI); warn "
	  "(elsewhere, the umad ABI); info (libibverbs or /etc/libibverbs.d not readable: "
	  "not checked)",
	  "the host's verbs userspace cannot drive its NICs as rdma-core defines it: the "
	  "kernel's uverbs ABI outside libibverbs' 3 to 6, a umad ABI below 5, or a NIC "
	  "whose provider (libmlx5 for mlx5_core) has no lib<name>-rdmav<N>.so built for "
	  "this libibverbs' private ABI N (IBVERBS_PRIVATE_N) or no /etc/libibverbs.d "
	  "driver file; an inbox kernel with its distribution's rdma-core is no fault, "
	  "and no libibverbs on the host is none either (containers bring their own)",
	  "install the providers of the same rdma-core as libibverbs "
	  "(ibverbs-providers), or reinstall the whole MLNX_OFED / DOCA stack, never a "
	  "mix; `ibv_devices` then lists the NICs" },
	{ "fw.mixed", "warn; info (a NIC's version not readable: not checked)",
	  "NICs of one model on one host run different firmware versions (the "
	  "version most run is named only when one leads; on a tie, each version "
	  "with its count)",
	  "update every NIC of the model to one version (`mlxfwmanager`); the fix "
	  "gives the `flint` burn and `mlxfwreset` of each card to update by its PCI "
	  "address" },
	{ "fw.version", "error (rail); warn; info (a PSID or version not readable: not checked)",
	  "a card's firmware is not what the site file's [firmware] allows for its PSID "
	  "(board_id): not in the list of `PSID = VERSION[, VERSION...]`, or older than "
	  "`PSID >= VERSION` (dotted numbers compared one by one); one finding per card, "
	  "naming its PCI functions. There is no built-in floor: lists and floors come "
	  "only from the site file, and a PSID it does not name is not judged",
	  "update the card with `mlxfwmanager -d PCI -u -i IMAGE` (an image for its PSID "
	  "at an allowed version), then `mlxfwreset -d PCI reset` or a cold reboot" },
	{ "gdr.missing", "error (the profile wants GPUDirect RDMA); warn",
	  "datacenter NVIDIA GPUs but neither nvidia_peermem (nor the older "
	  "nv_peer_mem) loaded nor a dma-buf capable stack (NVIDIA's open kernel "
	  "modules, kernel 5.12 or later, and a libibverbs with ibv_reg_dmabuf_mr: "
	  "its IBVERBS_1.12 set, rdma-core 34 or later)",
	  "load nvidia_peermem (rebuild it after a kernel update), or use NCCL and "
	  "drivers with dma-buf" },
	{ "gdr.unsupported", "info",
	  "GeForce GPUs: GPUDirect RDMA is not available on them",
	  "expect transfers to go through host memory" },
	{ "gid.index_mismatch", "warn",
	  "the RoCE v2 IPv4 GID sits at different indices on the rails (one "
	  "NCCL_IB_GID_INDEX cannot serve them all)",
	  "configure the rail netdevs alike (same address families in the same order)" },
	{ "gid.rocev2_missing", "error (rail); warn (storage); info (GID table not readable: not checked)",
	  "a RoCE port that is up has no RoCE v2 GID on an IPv4 address",
	  "give the netdev its IPv4 address (`ip addr add ADDR/PREFIX dev IF`)" },
	{ "hccl.sl_no_pfc", "error; info (the NPU port's PFC unknown: not checked)",
	  "`--env`: HCCL_RDMA_SL is a priority without PFC on an NPU port that is up (HCCL: the "
	  "SL must equal the NIC's PFC priority)",
	  "set the lossless priority (`rdmadoctor nccl` prints it), or turn PFC on for it on "
	  "the NPU (hccn_tool -pfc -s) and the switch" },
	{ "hccl.tc_no_pfc", "info (not checked: the NPUs' DSCP map is not read)",
	  "`--env`: HCCL_RDMA_TC is set; the priority its DSCP (TC / 4) lands on cannot be told",
	  "check the NPUs' DSCP map sends it to the PFC priority, or keep HCCL's default pair "
	  "(TC 132, SL 4)" },
	{ "kmsg.access_reg", "warn",
	  "the kernel log since boot has mlx5's \"ACCESS_REG(0x805) op_mod(0x..) failed, "
	  "status ...\" (drivers/net/ethernet/mellanox/mlx5/core/cmd.c, mlx5_cmd_out_err: "
	  "\"%s(0x%x) op_mod(0x%x) failed, status %s(0x%x), syndrome (0x%x)\"); one finding "
	  "per NIC with the count, the last line and its time",
	  "compare the NIC's firmware with the driver (`ethtool -i NETDEV`); update the "
	  "firmware to the release the driver expects" },
	{ "kmsg.aer", "error (severity Uncorrected/Uncorrectable (Fatal)); warn",
	  "the kernel log since boot has a PCIe AER error on a NIC or a bridge on its path "
	  "(drivers/pci/pcie/aer.c, aer_print_error: \"PCIe Bus Error: severity=%s, "
	  "type=%s, (%s)\"); lines about a device on no NIC's path are left to other tools",
	  "reseat the card and its riser; `lspci -vvv -s ADDR` for the AER status; a fatal "
	  "error needs the slot or card replaced" },
	{ "kmsg.fw_timeout", "error",
	  "the kernel log since boot has an mlx5 firmware command timeout "
	  "(drivers/net/ethernet/mellanox/mlx5/core/cmd.c, wait_func: \"%s(0x%x) timeout. "
	  "Will cause a leak of a command resource\", cb_timeout_handler: \"cmd[%d]: "
	  "%s(0x%x) Async, timeout. Will cause a leak of a command resource\")",
	  "collect `devlink health show` and the firmware dump, then `mlxfwreset -d ADDR "
	  "reset` or a cold reboot; update the firmware if it repeats" },
	{ "kmsg.gpu_lost", "error",
	  "the kernel log since boot has a GPU fallen off the bus (the NVIDIA driver's "
	  "\"NVRM: Xid (PCI:%04x:%02x:%02x): 79, GPU has fallen off the bus\" or \"NVRM: GPU at "
	  "%s has fallen off the bus.\"; real lines in tests/check/kmsg_corpus.tsv): GPUDirect "
	  "RDMA and NVLink through it are gone; one finding per GPU, its PCI address the subject",
	  "drain the node; reseat or replace the GPU, its riser and power cables, then reboot" },
	{ "kmsg.health", "error",
	  "the kernel log since boot has mlx5's health poller giving up on the device "
	  "(drivers/net/ethernet/mellanox/mlx5/core/health.c, poll_health: \"device's "
	  "health compromised - reached miss count\"; print_health_info with hsynd_str: "
	  "\"synd 0x%x: %s\", newer \"Health issue observed, %s, severity(%d) %s:\", "
	  "\"PCI slot is unavailable\")",
	  "`devlink health show` and `devlink health dump show`, then a reset (`mlxfwreset`) "
	  "or a cold reboot; replace the card if it returns" },
	{ "kmsg.link_flap", "warn",
	  "the kernel log since boot has a port's link going down "
	  "(drivers/net/ethernet/mellanox/mlx5/core/en_main.c, mlx5e_update_carrier: "
	  "netdev_info \"Link down\" / \"Link up\"); the first \"Link up\" of a boot alone "
	  "is no flap, a second one is (with or without a \"Link down\" between); the "
	  "finding counts both",
	  "check the cable and transceiver (`ethtool -m NETDEV`), the switch port's log "
	  "and the error counters; reseat or replace the cable" },
	{ "kmsg.module_temp", "warn",
	  "the kernel log since boot has a transceiver over temperature "
	  "(drivers/net/ethernet/mellanox/mlx5/core/events.c, port_module: \"Port module "
	  "event[error]: module %u, %s, %s\" with \"High Temperature\")",
	  "check the airflow and fans; `ethtool -m NETDEV` for the module's temperature and "
	  "thresholds; replace the module if it runs hot" },
	{ "kmsg.nic_probe", "error",
	  "the kernel log since boot has the NIC's driver failing at probe, so its rail never "
	  "came up (drivers/base/dd.c: \"mlx5_core: probe of %s failed with error %d\"; "
	  "mlx5/core/main.c: \"mlx5_load_one failed with error code %d\", newer "
	  "\"mlx5_init_one failed ...\"); the subject is the card's PCI address when no NIC "
	  "here has it",
	  "read the lines before it in `dmesg`; match the firmware to the driver, reload "
	  "mlx5_core or reboot; replace the card if it keeps failing" },
	{ "kmsg.nvlink_error", "error; warn (the driver says Nonfatal)",
	  "the kernel log since boot has an NVLink error on a GPU (the NVIDIA driver's Xid 74 "
	  "\"NVLink: fatal error detected on link %d(...)\", or Xids 144-150 of NVLink 5): "
	  "NCCL falls back to PCIe and the network or the job fails; one finding per GPU, its "
	  "PCI address the subject; other Xids (an application's fault) stay quiet",
	  "`nvidia-smi nvlink -s` / `-e`; reseat, run the field diagnostics, replace the part "
	  "if it repeats" },
	{ "kmsg.nvswitch_error", "error; warn (the driver says Non-fatal)",
	  "the kernel log since boot has an NVSwitch error (\"nvidia-nvswitch%d: SXid (PCI:%s): "
	  "%d, ...\"): NVLink traffic through the switch stalls; one finding per switch, its "
	  "PCI address the subject",
	  "look the SXid up in NVIDIA's Fabric Manager guide; reset the GPUs and switches (a "
	  "reboot); replace the baseboard if a fatal SXid repeats" },
	{ "kmsg.pcie_power", "error",
	  "the kernel log since boot has the card short of slot power "
	  "(drivers/net/ethernet/mellanox/mlx5/core/events.c, mlx5_pcie_event: \"Detected "
	  "insufficient power on the PCIe slot (%uW).\")",
	  "move the card to a slot that gives its full power, or fix the riser or auxiliary "
	  "power cable; check the server's slot power settings" },
	{ "kmsg.peermem", "warn",
	  "the kernel log since boot has the peer-memory module failing to load, under "
	  "either name, nvidia_peermem or the older nv_peer_mem (kernel/module/main.c, "
	  "resolve_symbol_wait: \"%s: Unknown symbol %s (err %d)\"; check_version: \"%s: "
	  "disagrees about version of symbol %s\")",
	  "rebuild nvidia_peermem against this kernel and RDMA stack (the NVIDIA driver's "
	  "DKMS, after MLNX_OFED if it is installed), then `modprobe nvidia_peermem`" },
	{ "kmsg.tx_timeout", "warn",
	  "the kernel log since boot has the network watchdog's stuck transmit queue "
	  "(net/sched/sch_generic.c, dev_watchdog: \"NETDEV WATCHDOG: %s (%s): transmit "
	  "queue %u timed out\", newer \"NETDEV WATCHDOG: CPU: %d: transmit queue %u timed "
	  "out %u ms\"), or the driver's own reporter's (mlx5/core/en/reporter_tx.c: \"TX "
	  "timeout on queue: %d, SQ: 0x%x, ...\"; mlx4 likewise)",
	  "look at the lines around it in `dmesg`; update the driver and firmware; a stuck "
	  "queue that repeats needs the NIC reset or replaced" },
	{ "kmsg.unreadable", "info (not checked)",
	  "/dev/kmsg could not be read (kernel.dmesg_restrict for a user without "
	  "CAP_SYSLOG, or a snapshot taken so), or a stored log is not empty and not one "
	  "of its records is in /dev/kmsg's form (a damaged snapshot): the kernel-log "
	  "faults were not checked; or the read stopped at its time bound (3 s) short of "
	  "the ring's end: the newer records were not looked at (the faults of those read "
	  "are reported). Live, /dev/kmsg is read once per run to the end of its ring, "
	  "the newest 4 MiB and 20000 matching records kept (older ones dropped and said), "
	  "and only the kernel's own records count (a line a program writes into /dev/kmsg "
	  "never does); a snapshot keeps the matching records (.rdmadoctor/kmsg/faults) "
	  "and how the read went (.rdmadoctor/kmsg/reading)",
	  "run rdmadoctor as root or give it CAP_SYSLOG; a read cut by the time bound: run "
	  "again, and see with `dmesg` what floods the log" },
	{ "latch.state", "warn (not checked)",
	  "`serve` or `check --state DIR`: the agent's memory (DIR/latched) could not be read "
	  "(malformed, cut short, refused) or written (a full disk, a read-only directory): "
	  "what it remembered of earlier readings is lost, or what this reading saw is not "
	  "kept; a bad file is moved aside to DIR/latched.bad and a fresh one begun",
	  "look at the file named; free the disk or fix the directory's permissions; "
	  "`rdmadoctor clear all --state DIR` begins a fresh memory" },
	{ "link.ber", "error (a limit passed); warn (pre-FEC near the FEC's limit); info (not "
	  "checked: the reason)",
	  "over a window (`check --window`, `watch`, or since the agent's last reading: "
	  "`check --state`, `serve`): an Ethernet link's uncorrectable FEC "
	  "blocks grew, or its post-FEC bit error ratio (at least t+1 bits per "
	  "uncorrectable block, over the bits its speed carried) passed ber_max, the 1e-12 "
	  "IEEE 802.3 Clause 91 sets after RS-FEC; its pre-FEC ratio (corrected bits over "
	  "bits carried) reached ber_near (0.5) of the limit its code is built for: "
	  "ber_pre_fec_kr4 5e-5 for RS(528,514) on 25G lanes (the PMD BER of IEEE 802.3 "
	  "Clause 95 100GBASE-SR4 and 112 25GBASE-SR), ber_pre_fec_kp4 2.4e-4 for "
	  "RS(544,514) on PAM4 lanes (IEEE 802.3bs/cd, e.g. Clause 138 50GBASE-SR); an "
	  "InfiniBand port's symbol errors over the bits its rate carried passed ber_max (the "
	  "IBTA link BER target, 1e-12), or its symbol errors or link error recoveries per "
	  "hour passed the profile's ib_symbol_errors_per_hour / ib_link_recoveries_per_hour "
	  "(no default: no standard gives one).  A window that carried fewer than 1/ber_max "
	  "bits, or shorter than one event per the hourly ceiling, a counter cleared within "
	  "it or one the driver does not report: not checked (between two readings of the "
	  "agent a ratio too short to tell is left unsaid, and judged over the long window from "
	  "the boot's first reading instead; docs/state.md)",
	  "reseat, then swap the cable or module (`ethtool -I --show-fec IF` per lane, "
	  "`mlxlink -d DEV -c`), then the switch port" },
	{ "link.flaps", "error",
	  "link_downed, link_down_events_phy or the netdev's carrier_changes grew "
	  "within a window (`check --window`, `watch`)",
	  "reseat then replace the cable and module, then look at the switch port's log" },
	{ "module.dom", "error (beyond an alarm threshold); warn (beyond a warning one); info "
	  "(an NPU board without optical commands: not supported)",
	  "a transceiver's temperature, voltage, bias or optical power is outside the "
	  "module's own thresholds",
	  "clean and reseat the connector and fibre, then swap the patch cord, then "
	  "the module" },
	{ "mtu.ib", "warn",
	  "an InfiniBand port's active MTU below 4096, the largest there is (a rail at "
	  "4096 is never asked to match rails below it)",
	  "give the partition a 4K MTU in the subnet manager" },
	{ "mtu.roce", "warn (also netdev MTU not readable under the profile's mtu: required, not "
	  "checked); info (netdev MTU not readable: not checked)",
	  "a RoCE netdev MTU too small for a 4096-byte RDMA MTU (about 4200; 9000 "
	  "usual), or a rail's netdev MTU unlike most rails of the host",
	  "`ip link set dev IF mtu 9000` and the same in its network configuration" },
	{ "nccl.gdr_level", "warn; info (the GPU nearest a NIC unknown: not checked)",
	  "`--env`: NCCL_NET_GDR_LEVEL is stricter than the PCIe path from a NIC the job "
	  "uses to its nearest GPU (our NODE is NCCL's PHB), so GPUDirect RDMA is off there",
	  "leave NCCL_NET_GDR_LEVEL unset, or set it to the level `rdmadoctor nccl` prints" },
	{ "nccl.gid_index", "error; info (not checked)",
	  "`--env`: NCCL_IB_GID_INDEX is not a RoCE v2 IPv4 GID on some RoCE port the job "
	  "uses (NCCL_IB_HCA's, else the rails)",
	  "set the index `rdmadoctor nccl` prints, or leave it unset for NCCL 2.21 or later "
	  "to pick" },
	{ "nccl.hca_down", "error; info (the port's state unknown: not checked)",
	  "`--env`: NCCL_IB_HCA names a port (by its whole name) that is not ACTIVE and "
	  "LinkUp",
	  "bring the link up, or leave the port out until it is" },
	{ "nccl.hca_missing", "warn",
	  "`--env`: a rail port that is up is not selected by NCCL_IB_HCA (a rail left idle)",
	  "add it to NCCL_IB_HCA (`rdmadoctor nccl` prints the list)" },
	{ "nccl.hca_storage", "warn",
	  "`--env`: NCCL_IB_HCA selects a storage NIC, often through a prefix: without "
	  "a leading '=' the name mlx5_1 also selects mlx5_10",
	  "name the rails with '=' and their ports, or exclude the storage NIC with '^='" },
	{ "nccl.hca_unknown", "error",
	  "`--env`: NCCL_IB_HCA names a device or port this machine does not have",
	  "correct the name; `rdmadoctor nccl` prints the list for this machine" },
	{ "nccl.ifname_down", "error; info (not an RDMA NIC's interface, or its state "
	  "unknown: not checked)",
	  "`--env`: NCCL_SOCKET_IFNAME names only interfaces that are down",
	  "name an interface that is up and reaches the other nodes, or leave it unset" },
	{ "nccl.malformed", "error",
	  "`--env`: a value NCCL would not read as meant: a GID index, TC, SL or GDR level "
	  "that is no number or name of its range, an NCCL_IB_HCA port that is no number",
	  "write the value in NCCL's form, or leave it unset" },
	{ "nccl.sl_no_pfc", "error; info (trust or PFC unknown: not checked)",
	  "`--env`: NCCL_IB_SL on a RoCE port with trust pcp is a priority without PFC",
	  "set the lossless priority, or turn PFC on for it on the NIC and the switch" },
	{ "nccl.tc_no_pfc", "error; info (trust, DSCP map or PFC unknown: not checked)",
	  "`--env`: NCCL_IB_TC's DSCP (the TC >> 2) maps, under trust dscp, to a priority "
	  "without PFC",
	  "set the TC `rdmadoctor nccl` prints (106 for DSCP 26), or turn PFC on for the "
	  "priority" },
	{ "nic.bandwidth_per_gpu",
	  "error (below half); warn (below; a fewer_rails profile); info (not checked)",
	  "the rails' total port rate divided by the GPUs that share them is below what "
	  "the machine is built for (the profile's gpu_gbps, else that of the design "
	  "profile check picks for the machine, so a budget profile measures against "
	  "the same figure, else the GPU class: A100 / A800 200 Gb/s, H100 / H800 / "
	  "H200 / H20 / B200 400); a datacenter-GPU machine without RDMA NIC; every "
	  "profile, generic too",
	  "add rail NICs, one per GPU under its PCIe switch; first check no rail is "
	  "missing or down; where the GPUs and NICs fit a built-in budget profile, "
	  "the fix names it" },
	{ "nic.count", "error (rails missing); warn (extra NICs, storage); "
	  "info (a rail port's link layer not readable: not checked)",
	  "fewer (or more) RDMA NICs of a role than the profile expects",
	  "check every card enumerates with its driver bound (`lspci -d 15b3: -k`); "
	  "reseat a missing one" },
	{ "nic.excluded", "warn (a rail: not checked); info (not checked)",
	  "an RDMA device the site file's `exclude =` names (by device name or PCI address) "
	  "was read no further than its name and PCI address: no attributes, ports, "
	  "counters, config space or ethtool, so nothing of it was checked; on a rail a "
	  "warning, so that a node whose rail nobody read does not pass",
	  "nothing, where the function must not be touched (the internal ConnectX-7 "
	  "functions of some B200/GB200 systems log a kernel error on every counter read); "
	  "else remove it from `exclude =` in the site file" },
	{ "npu.health", "error (Alarm, Critical); warn (Warning); info (UNKNOWN or not "
	  "readable: not checked)",
	  "an Ascend NPU whose health (`npu-smi info -t health -i N -c C`, else the Health "
	  "column of `npu-smi info`) is not OK, with the query's error codes and "
	  "information",
	  "look the error code up in the product's black-box error code list and follow "
	  "its action (cooling, `npu-smi set -t reset`, replacing the NPU)" },
	{ "npu.ip_missing", "error; info (an address hccn_tool printed is not one: not checked)",
	  "an Ascend NPU port has no IPv4 address, or not the address and netmask "
	  "/etc/hccn.conf plans for it",
	  "`hccn_tool -i N -ip -s address ADDR netmask MASK`, as /etc/hccn.conf says" },
	{ "npu.net_health", "error",
	  "an Ascend NPU port's net health (`hccn_tool -i N -net_health -g`) is "
	  "neither Success nor Init: its detect address does not answer",
	  "check the port's link, address and the detect address in /etc/hccn.conf "
	  "(`hccn_tool -i N -netdetect -s address ADDR`)" },
	{ "npu.not_recorded", "info (not checked)",
	  "a replayed snapshot holds no reply to an `hccn_tool` or `npu-smi` call: it "
	  "was taken before rdmadoctor asked it, so the value was not checked (a call "
	  "that failed on the machine is npu.unreadable)",
	  "take a new snapshot with this version, or run the named call by hand as root" },
	{ "npu.subnets", "error",
	  "the NPU ports break the model's subnet plan (Atlas 800 9000: NPU 0&4, 1&5, "
	  "2&6, 3&7 in four different subnets; A2: one subnet; A3: the two dies of "
	  "an NPU in different subnets)",
	  "readdress the NPU ports as the plan of /etc/hccn.conf says" },
	{ "npu.unreadable", "error (no NPU port read at all); warn (read in part)",
	  "a machine with Ascend NPUs whose NPU ports hccn_tool or npu-smi could not "
	  "read (timed out, not installed, failed), or an NPU npu-smi does not list",
	  "run the named `hccn_tool`/`npu-smi` call by hand as root; a hung call is a "
	  "driver to reload (`npu-smi info` first)" },
	{ "nvlink.fabric", "error (registration completed with an error, clique 0 or a zero "
	  "cluster UUID); warn (not started, in progress); info (NVML absent or not "
	  "answering: not checked)",
	  "an NVIDIA GPU in an NVLink domain (NVML's fabric state not NOT_SUPPORTED, as on "
	  "GB200/GB300 NVL72 trays) whose fabric registration is COMPLETED with a status "
	  "other than NVML_SUCCESS (e.g. NVML_ERROR_INSUFFICIENT_RESOURCES), a clique id 0 "
	  "or an all-zero cluster UUID, or is not yet completed; read through NVML "
	  "(libnvidia-ml.so.1, loaded at run time; RDMADOCTOR_NVML names another file). "
	  "GPUs without an NVLink domain are not judged",
	  "`nvidia-smi -q | grep -A6 Fabric`; check the NVSwitch trays and the fabric "
	  "manager (NMX), then reset the GPU or reboot the tray" },
	{ "nvlink.link_down", "error",
	  "an NVLink link NVML reports inactive on a GPU in an NVLink domain whose other "
	  "links are active, or a GPU with no active link while the node's other GPUs have "
	  "theirs: collectives fall back to PCIe and nothing errors",
	  "`nvidia-smi nvlink -s`; reset the GPU, then check the tray's NVLink cartridge and "
	  "the NVSwitch side" },
	{ "pcie.acs", "error; info (config space not readable)",
	  "ACS Request or Completion Redirect on a PCIe switch port between a GPU "
	  "and its NIC (one finding per GPU-NIC path, naming each such bridge)",
	  "turn ACS off in the BIOS, or clear it at every boot with `setpci` on each "
	  "bridge" },
	{ "pcie.bottleneck", "warn",
	  "the PCIe link's usable bandwidth is below what the card's ports need at "
	  "line rate (when the link is itself degraded, pcie.link_degraded says it)",
	  "put the card in a slot that trains a wide and fast enough link" },
	{ "pcie.link_degraded", "error (rail); warn (storage, or a slot narrower than the card); "
	  "warn (link not readable under pcie_gen or pcie_width: required, not checked); "
	  "info (link not readable: not checked)",
	  "a NIC's negotiated PCIe speed or width below what card and slot can do, its "
	  "width below the card's own whatever the slot allows, or either below the "
	  "profile's; says too when that caps the ports",
	  "reseat the card, check its riser and the BIOS slot settings (`lspci -vv`); "
	  "move a card from a slot narrower than it" },
	{ "pcie.mps_mismatch", "warn; info (config space not readable: not checked)",
	  "a NIC's Max Payload Size (DevCtl MaxPayload) differs from a bridge's above it: "
	  "set above a bridge (it may send TLPs the bridge drops as malformed), or below "
	  "the bridge while the NIC could do more (smaller writes); a NIC at its own "
	  "maximum below a bridge is fine. The NIC's or a bridge's Device Control unread "
	  "(config space past 64 bytes needs root: any non-root run, containers, snapshots "
	  "taken without root) is said as not checked, counted, never as a match",
	  "boot with `pci=pcie_bus_safe` or set MaxPayload in the BIOS; `lspci -vv` shows "
	  "each" },
	{ "pcie.mrrs_low", "warn (also config space not readable: required, not checked)",
	  "a NIC's Max Read Request Size (DevCtl MaxReadReq) below the profile's "
	  "pcie_max_read_request (no built-in profile sets one)",
	  "`setpci -s BDF CAP_EXP+8.w=5000:7000` (4096 bytes) at every boot" },
	{ "pcie.relaxed_ordering", "warn; info (config space not readable: not checked)",
	  "a NIC's Relaxed Ordering enable (DevCtl RlxdOrd) is off where the profile's "
	  "pcie_relaxed_ordering asks for it (no built-in profile asks)",
	  "`setpci -s BDF CAP_EXP+8.w=0010:0010`, unless a kernel quirk cleared it for the "
	  "root port" },
	{ "pcie.upstream_degraded", "error (rail); warn; info (a bridge's link not readable: not checked)",
	  "a bridge or switch link on the NIC's path runs below its capability",
	  "reseat the riser or switch board; check the BIOS slot settings" },
	{ "port.down", "error (rail); warn (storage; a rail not checked); info (storage not checked)",
	  "a port is not ACTIVE or its physical state is not LinkUp; a port whose state files "
	  "are missing, unreadable or malformed is not checked (unchecked), and on a rail that "
	  "warning keeps the verdict from PASS (WARN, exit 0; `--nhc` prints an UNCHECKED line). "
	  "A driver whose port state is a constant (efa: `efa_query_port` answers ACTIVE/LinkUp "
	  "at EDR 4X whatever the link does; `src/model/driver_link.c`) is judged by the network "
	  "interface on its PCI function, and not checked, with that reason, where it has none; "
	  "its rate is never read",
	  "reseat then swap the cable and module, then `mlxlink`, then the switch port (an EFA: "
	  "its interface and instance, not a cable)" },
	{ "port.fec", "error (rail); warn",
	  "an Ethernet link at 50 Gb/s or more per lane runs with FEC off",
	  "`ethtool --set-fec IF encoding auto` and the same FEC on the switch port" },
	{ "port.link_layer", "error",
	  "a rail port, or a card of the rail model in a rail's place, runs the other "
	  "link layer than the profile's [rail] link_layer (a VPI card left in Ethernet "
	  "on an InfiniBand fabric, or the reverse); such a card is not counted as a "
	  "rail, so nic.count shows the rail missing too",
	  "`mlxconfig -d PCI_ADDRESS set LINK_TYPE_P1=1` (1 InfiniBand, 2 Ethernet; "
	  "LINK_TYPE_P2 for the card's second port), then `mlxfwreset -d PCI_ADDRESS "
	  "reset` or a cold reboot; the finding names the card's address" },
	{ "port.no_sm", "error (rail); warn (storage)",
	  "an InfiniBand port in INIT with LinkUp: no subnet manager gave it a LID",
	  "start a subnet manager on the fabric and check it sees the port" },
	{ "port.rate_low", "error (rail); warn (storage, and a rate not readable: required, "
	  "not checked)",
	  "a port trained below the expected rate with all its lanes (lost lanes are "
	  "port.width_low); `observed` names the cause in the field guide's order: the "
	  "module's rate set (SFF-8636 compliance codes, CMIS applications) below the "
	  "port's (\"MMA1B00-E100 is an EDR (100G) module on an HDR (200G) port\"), the "
	  "link partner advertising less (\"the switch port advertises 100G only\"), the "
	  "NIC's own modes, else \"the module and both ends support 200G: suspect the "
	  "cable\"; a piece that cannot be read is said (\"cause not found (...)\"), "
	  "never taken as fine",
	  "by cause: replace the module, set the switch port's speed, check the NIC's "
	  "configuration, or swap the cable; without one: swap the cable and module, then "
	  "`mlxlink`, then the switch port's speed" },
	{ "port.width_low", "error (rail); warn",
	  "an InfiniBand port on fewer lanes than its 4X width; names the rate it "
	  "lost with them",
	  "reseat, then swap the cable and module; then the switch port's width" },
	{ "rail.cabling", "error; warn (the switch a rail reaches unknown while one is expected: "
	  "not checked)",
	  "a rail port's switch, as its LLDP (InfiniBand: its NodeDescription) names it, "
	  "does not match the site file's "
	  "rail_switch pattern for the rail (two rails each on the other's switch: one "
	  "finding, \"rails j and k swapped\"), or two rails of the node reach one switch "
	  "while the profile's [rail] distinct_switches = yes; without either nothing is "
	  "judged",
	  "swap the two rails' cables, or move the one cable to its rail's switch; the "
	  "finding names the node's ports and the switch ports they reach now" },
	{ "roce.ecn", "warn (also ECN not readable under ecn = yes: required, not checked)",
	  "ECN (DCQCN notification or reaction point) off on the RoCE priority, or a "
	  "rail's ECN priorities unlike most rails of the host",
	  "`echo 1 > /sys/class/net/IF/ecn/roce_np/enable/P` (and roce_rp)" },
	{ "roce.pfc", "error (PFC off); warn (elsewhere, and no DCB or no DCB reply where the "
	  "profile requires PFC: not checked); info (no DCB reading under generic: not checked)",
	  "PFC not on the priority the profile names, on no priority at all where the profile "
	  "names none (a board built as InfiniBand or RoCE), or a rail's PFC priorities unlike "
	  "most rails of the host (the finding says over how many rails the majority was "
	  "taken); every RoCE rail without a DCB reading is counted as not checked, and under "
	  "a board profile (or one naming pfc_priority or trust) weighs as a warning unless "
	  "the site file's accept_unchecked names roce.pfc. The collector reads PFC and trust "
	  "by DCB netlink (RTM_GETDCB, DCB_CMD_IEEE_GET: the inbox mlx5 driver answers it); "
	  "the a800-8x100g-roce and hgx-roce-lag examples have no DCB reading on their rails "
	  "because their snapshots never stored a reply (.rdmadoctor/dcb/IFNAME), not because "
	  "the driver cannot give one: they are not checked, so not PASS",
	  "`mlnx_qos -i IF --pfc 0,0,0,1,0,0,0,0` and the same on the switch port" },
	{ "roce.qos_mismatch", "error (no PFC on it); warn",
	  "a RoCE port's PFC, DSCP 26 mapping and ECN do not name the same priority, "
	  "or a rail's DSCP map is unlike most rails of the host",
	  "the commands that make them agree on the profile's priority, else the "
	  "one most rails use (`mlnx_qos --dscp2prio`, `--pfc`, ECN enable)" },
	{ "roce.trust", "warn",
	  "trust mode not the profile's (DSCP), or a rail's trust unlike most rails of "
	  "the host",
	  "`mlnx_qos -i IF --trust dscp`" },
	{ "snapshot.incomplete", "warn (not checked)",
	  "a replayed snapshot (`--root DIR`) lacks entries its manifest (rdmadoctor-manifest, "
	  "written by `snapshot`) lists: a half-extracted archive, a copy cut short. What it "
	  "lacks is not judged: the findings of the RDMA devices with entries missing, and "
	  "those of the machine as a whole (NIC count, bandwidth, topology), are left out, and "
	  "this one names them; a snapshot without a manifest is read as it is",
	  "take the snapshot again, or unpack the whole archive" },
	{ "sys.device_access", "error (a rail, or a closed rdma_cm where there are rails); "
	  "warn (elsewhere, or rdma_cm missing); info (not checked)",
	  "a NIC's /dev/infiniband/uverbsN, or /dev/infiniband/rdma_cm, missing, or its "
	  "owner, group, mode and ACL keep the job's user (site file job_user / job_group; "
	  "any user when neither) from opening it for reading and writing; formerly "
	  "sys.uverbs, which `ignore` still accepts",
	  "load ib_uverbs (rdma_ucm for rdma_cm); find the udev rule that overrides "
	  "rdma-core's mode 0666, or put the job's user in the node's group" },
	{ "sys.job_memlock", "warn; info (a limit or a file not readable: not checked)",
	  "the memlock limit jobs get is not unlimited: this process's RLIMIT_MEMLOCK, "
	  "slurmd's unit LimitMEMLOCK= (its drop-ins, else systemd's DefaultLimitMEMLOCK), "
	  "or pam_limits' memlock lines for the job's user in /etc/security/limits.conf and "
	  "limits.d; formerly sys.memlock, which `ignore` still accepts",
	  "LimitMEMLOCK=infinity in the slurmd unit, `* - memlock unlimited` in "
	  "limits.d, `--ulimit memlock=-1` for containers" },
	{ "topo.nic_far", "error; info (NUMA node unknown)",
	  "a rail NIC is PHB, NODE or SYS from its GPU instead of PIX or PXB; on generic "
	  "(x86, datacenter GPUs, not Grace) when no RDMA NIC is PIX or PXB to any GPU",
	  "move the card to the slot under the GPU's PCIe switch" },
	{ "topo.nic_shared", "warn",
	  "more GPUs share a NIC than the profile allows: about each GPU that reaches "
	  "the NIC from farther than the NIC's own GPUs (it has no NIC under its PCIe "
	  "switch), and about the NIC when the GPUs alike near to it are too many",
	  "add rail NICs so the GPUs spread over them (`rdmadoctor topo`)" },
};

const struct check_entry *check_catalog(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const struct check_entry *check_catalog_find(const char *id)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].id, id) == 0)
			return &rows[i];
	return NULL;
}
