/* Huawei Ascend NPUs and their on-chip RoCE ports (docs/ascend.md).
 *
 * On an Atlas 800 training server the parameter-plane network is not under
 * /sys/class/infiniband: each Ascend NPU has its own RoCE v2 port, read
 * with Huawei's hccn_tool and npu-smi.  src/ascend fills these structs
 * from the tools' stdout (live, or replayed from .rdmadoctor/hccn and
 * .rdmadoctor/npu-smi) and from /etc/hccn.conf.  As everywhere in the
 * model, a value that could not be read is NA / NAN / NULL / -1; a value
 * whose format is not confirmed keeps its raw text beside the number.
 */
#ifndef RD_MODEL_NPU_H
#define RD_MODEL_NPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct counter_set;
struct pci_func;

#define NPU_LANES 8	/* optical lanes kept (QSFP28 has 4, QSFP-DD 8) */

/* A threshold pair the module itself advertises; NAN unknown. */
struct npu_thres {
	double high, low;
};

/* `hccn_tool -i N -optical -g`: the port's transceiver. */
struct npu_optical {
	char *present;		/* as printed ("present", "not present"...) */
	char *vendor, *part, *serial, *identifier;
	double temp_c, vcc_mv;			/* NAN unknown */
	double tx_mw[NPU_LANES], rx_mw[NPU_LANES], bias_ma[NPU_LANES];
	double snr_db[NPU_LANES];		/* NAN: unknown or "not supported" */
	int n_lanes;				/* highest lane index seen + 1 */
	struct npu_thres temp, vcc, tx_power, rx_power;	/* module thresholds */
	int64_t tx_los, rx_los, tx_lol, rx_lol;	/* flag bitmaps; NA unknown */
};

/* One tool call that gave no usable answer: named for the user. */
struct npu_failure {
	char *call;		/* "hccn_tool -i 3 -optical -g" */
	char *why;		/* "timed out", "exit status 1: ...", "not installed" */
};

/* The PFC of one member of a bonded port: newer hccn_tool prints -pfc once
 * per member, each block under "[dev_name:<member>]". */
struct npu_pfc_member {
	char *dev;		/* "eth0", as printed */
	int enabled[8];		/* 1, 0, -1 unknown */
};

/* One NPU's RoCE port, from `hccn_tool -i N -<option> -g`. */
struct npu_port {
	int link_up;		/* 1 UP, 0 DOWN, -1 unknown */
	int64_t speed_mbps;	/* NA unknown (also "unknown") */
	char *ipaddr, *netmask;	/* NULL unknown */
	bool ip_unset;		/* the tool says no address was preset */
	char *ipv6addr;		/* "ipv6_address:"; NULL unknown */
	int64_t ipv6_prefix;	/* "prefix_length:"; NA unknown */
	/* the first -ip line of a family whose value is not an address
	 * ("ipaddr:10.0.1"): then none of that family is taken, and this says
	 * why it was not checked */
	char *ip_malformed, *ip6_malformed;
	char *net_health;	/* "Success", "Fault", "Init", ... */
	int64_t link_up_count;	/* NA unknown */
	/* change records of -link_stat, each "Tue Aug  1 14:43:40 2022    LINK UP" */
	char **link_changes;
	size_t n_link_changes;
	/* link changes within the 24 h before the tool's "current time";
	 * NA when either time could not be read */
	int64_t link_downs_24h;
	struct npu_optical *optical;	/* NULL: not read */
	/* -optical answered "This device does not support optical cmd." */
	bool optical_unsupported;
	struct counter_set *stat;	/* -stat name:value lines; NULL not read */
	char *fec_mode;			/* "rs FEC mode", "no FEC mode" */
	/* 1, 0, -1 unknown; on a bonded port, where its members agree (-1
	 * where they differ: each member is in pfc_members) */
	int pfc_enabled[8];
	struct npu_pfc_member *pfc_members;	/* n_pfc_members, none unbonded */
	size_t n_pfc_members;
	char *lldp_port, *lldp_system;	/* the switch port and switch name */
	int64_t mtu;			/* NA unknown */
	char *mtu_raw;			/* -mtu's text: its format is not confirmed */
};

/* What /etc/hccn.conf plans for one device id. */
struct npu_plan {
	char *address, *netmask, *netdetect, *gateway;	/* NULL: not planned */
};

struct npu {
	int64_t id;		/* the device id hccn_tool -i takes (and npu-smi -i,
				 * unless the NPU has two dies) */
	/* An NPU of two dies (Atlas A3): npu-smi lists each die with its own
	 * Chip Phy-ID, the id hccn_tool takes, and each die is one struct npu
	 * here; card is the NPU ID of the NPU it is part of and die its Chip
	 * ID.  Both NA on a listing of one chip per NPU. */
	int64_t card, die;
	int64_t chip;		/* its Chip ID in `npu-smi info -m` (the die on A3) */
	char *chip_name;	/* `npu-smi info -m`: "Ascend 910A" */
	const char *model;	/* from the PCI device id: "Ascend 910"; NULL */
	bool has_pci;
	struct pci_func *pci;	/* the PCI function of `PCIe Bus Info`; NULL */
	char *bus_info;		/* `npu-smi info -t board`: PCIe Bus Info, raw */
	char *fw_version, *sw_version, *pci_device_id;
	/* `npu-smi info -t health -i N -c C`, or when it did not answer the
	 * Health column of `npu-smi info`'s table: "OK", "Warning", "Alarm",
	 * "Critical", "UNKNOWN"; NULL not read */
	char *health;
	char *health_code, *health_info;	/* its Error Code, Information; NULL none */
	double temp_c, power_w;	/* `npu-smi info`'s table; NAN not read or "-" */
	bool port_read;		/* at least one hccn_tool call answered */
	struct npu_port port;
	struct npu_plan plan;
	struct npu_failure *failures;
	size_t n_failures, cap_failures;	/* cap_failures: room (growbuf) */
	/* calls a replayed snapshot holds no record of (taken before the
	 * reader asked them): not checked, which is no fault of the machine */
	struct npu_failure *unrecorded;
	size_t n_unrecorded, cap_unrecorded;
};

/* The NPUs of one machine, in id order, and the PCI functions that are
 * NPUs (19e5:d801/d802/d803) whether or not a tool answered for them. */
struct npu_inventory {
	size_t n_pci;		/* NPU PCI functions under /sys/bus/pci */
	struct npu *v;
	size_t n;
	/* NPU PCI functions no npu-smi id maps to */
	struct pci_func *unmapped;
	size_t n_unmapped;
	/* calls not about one NPU (npu-smi info -m) that failed */
	struct npu_failure *failures;
	size_t n_failures, cap_failures;	/* cap_failures: room (growbuf) */
	bool conf_read;		/* /etc/hccn.conf was there */
	/* why `npu-smi info`'s table was not read ("a column this reader does
	 * not know: ...", "timed out"); NULL when it was */
	char *table_why;
};

void npu_port_init(struct npu_port *p);
/* The priorities with PFC on, bit p for priority p; -1 when any of the
 * eight is unknown (not read, or a bond's members that differ). */
int npu_port_pfc_mask(const struct npu_port *p);
void npu_optical_init(struct npu_optical *o);
void npu_inventory_free(struct npu_inventory *ni);
void npu_optical_free(struct npu_optical *o);	/* and o itself; NULL-safe */
void npu_counters_free(struct counter_set *c);	/* and c itself; NULL-safe */
void npu_pfc_members_free(struct npu_port *p);	/* and leaves none */
/* Append a failure to *v, which has *n of them and room for *cap (copies
 * both texts); 0 or -ENOMEM. */
int npu_failure_add(struct npu_failure **v, size_t *n, size_t *cap, const char *call,
		    const char *why);

/* "Ascend 910", "Ascend 910B", "Ascend 910C" for Huawei 19e5:d801/d802/d803;
 * NULL for anything else. */
const char *npu_model_name(uint64_t vendor, uint64_t device);

#endif
