/* The order of findings by the bandwidth each costs (rank.h).  The basis,
 * as docs/checks.md says it: a rail that carries nothing costs its whole
 * share of the node's bandwidth; a rail below its rate, the part it
 * cannot carry; GPU traffic off GPUDirect, what host memory or the socket
 * link leaves of it; lossy RoCE, FEC off and bad optics cost only under
 * load or as errors grow, and come before what only records that a fault
 * happened (a count, a kernel log line), which the state it left, if it
 * lasts, explains first.  Within a cost, the row order: the cause before
 * what follows from it. */
#include "rank.h"

#include <string.h>

static const struct check_rank_row rows[] = {
	/* the reading cut short */
	{ "snapshot.incomplete", COST_READING },
	{ "npu.unreadable", COST_READING },
	/* a rail lost: missing, down, unusable, or every rail out of reach */
	{ "nic.count", COST_RAIL_LOST },
	{ "port.down", COST_RAIL_LOST },
	{ "port.no_sm", COST_RAIL_LOST },
	{ "port.link_layer", COST_RAIL_LOST },
	{ "link.flaps", COST_RAIL_LOST },
	{ "npu.health", COST_RAIL_LOST },
	{ "npu.net_health", COST_RAIL_LOST },
	{ "npu.ip_missing", COST_RAIL_LOST },
	{ "npu.subnets", COST_RAIL_LOST },
	{ "sys.device_access", COST_RAIL_LOST },
	{ "driver.userspace", COST_RAIL_LOST },
	{ "gid.rocev2_missing", COST_RAIL_LOST },
	{ "nic.excluded", COST_RAIL_LOST },
	{ "nccl.hca_down", COST_RAIL_LOST },
	{ "nccl.hca_unknown", COST_RAIL_LOST },
	{ "nccl.hca_missing", COST_RAIL_LOST },
	{ "nccl.ifname_down", COST_RAIL_LOST },
	{ "nccl.gid_index", COST_RAIL_LOST },
	{ "nccl.malformed", COST_RAIL_LOST },
	{ "sys.job_memlock", COST_RAIL_LOST },
	/* a rail slow */
	{ "port.rate_low", COST_RAIL_SLOW },
	{ "port.width_low", COST_RAIL_SLOW },
	{ "pcie.link_degraded", COST_RAIL_SLOW },
	{ "pcie.upstream_degraded", COST_RAIL_SLOW },
	{ "pcie.bottleneck", COST_RAIL_SLOW },
	{ "rail.cabling", COST_RAIL_SLOW },
	{ "nic.bandwidth_per_gpu", COST_RAIL_SLOW },
	/* the GPU's path to its NIC */
	{ "gdr.missing", COST_GPU_PATH },
	{ "pcie.acs", COST_GPU_PATH },
	{ "driver.peermem_mismatch", COST_GPU_PATH },
	{ "topo.nic_far", COST_GPU_PATH },
	{ "topo.nic_shared", COST_GPU_PATH },
	{ "nccl.gdr_level", COST_GPU_PATH },
	{ "nccl.hca_storage", COST_GPU_PATH },
	{ "nvlink.fabric", COST_GPU_PATH },
	{ "nvlink.link_down", COST_GPU_PATH },
	/* lossless RoCE */
	{ "roce.pfc", COST_LOSSLESS },
	{ "roce.trust", COST_LOSSLESS },
	{ "roce.qos_mismatch", COST_LOSSLESS },
	{ "nccl.tc_no_pfc", COST_LOSSLESS },
	{ "nccl.sl_no_pfc", COST_LOSSLESS },
	{ "hccl.sl_no_pfc", COST_LOSSLESS },
	{ "hccl.tc_no_pfc", COST_LOSSLESS },
	{ "roce.ecn", COST_LOSSLESS },
	/* the wire */
	{ "port.fec", COST_WIRE },
	{ "link.ber", COST_WIRE },
	/* optics */
	{ "module.dom", COST_OPTICS },
	{ "kmsg.module_temp", COST_OPTICS },
	/* settings that cost a part */
	{ "mtu.ib", COST_SETTING },
	{ "mtu.roce", COST_SETTING },
	{ "gid.index_mismatch", COST_SETTING },
	{ "pcie.mps_mismatch", COST_SETTING },
	{ "pcie.mrrs_low", COST_SETTING },
	{ "pcie.relaxed_ordering", COST_SETTING },
	/* records of faults: the device's own first, then the link's, then counts */
	{ "kmsg.nic_probe", COST_PAST },
	{ "kmsg.health", COST_PAST },
	{ "kmsg.fw_timeout", COST_PAST },
	{ "kmsg.pcie_power", COST_PAST },
	{ "kmsg.aer", COST_PAST },
	{ "kmsg.gpu_lost", COST_PAST },
	{ "kmsg.nvlink_error", COST_PAST },
	{ "kmsg.nvswitch_error", COST_PAST },
	{ "kmsg.link_flap", COST_PAST },
	{ "kmsg.tx_timeout", COST_PAST },
	{ "kmsg.access_reg", COST_PAST },
	{ "kmsg.peermem", COST_PAST },
	{ "counters.errors", COST_PAST },
	{ "counters.saturated", COST_PAST },
	/* no bandwidth now */
	{ "fw.version", COST_NONE },
	{ "fw.mixed", COST_NONE },
	{ "driver.mixed_stack", COST_NONE },
	{ "driver.stale_module", COST_NONE },
	{ "driver.next_boot", COST_NONE },
	{ "gdr.unsupported", COST_NONE },
	{ "kmsg.unreadable", COST_NONE },
	{ "npu.not_recorded", COST_NONE },
	{ "latch.state", COST_NONE },
};

/* An id with no row of its own takes its family's cost. */
static const struct {
	const char *family;
	enum check_cost cost;
} families[] = {
	{ "snapshot", COST_READING }, { "nic", COST_RAIL_LOST },   { "npu", COST_RAIL_LOST },
	{ "port", COST_RAIL_SLOW },   { "rail", COST_RAIL_SLOW },  { "gdr", COST_GPU_PATH },
	{ "topo", COST_GPU_PATH },    { "roce", COST_LOSSLESS },   { "hccl", COST_LOSSLESS },
	{ "link", COST_WIRE },	      { "module", COST_OPTICS },   { "mtu", COST_SETTING },
	{ "gid", COST_SETTING },      { "pcie", COST_SETTING },    { "sys", COST_SETTING },
	{ "nccl", COST_SETTING },     { "kmsg", COST_PAST },	   { "counters", COST_PAST },
	{ "fw", COST_NONE },	      { "driver", COST_NONE },	   { "latch", COST_NONE },
};

static const char *const names[N_COSTS] = {
	[COST_READING] = "the reading cut short",
	[COST_RAIL_LOST] = "a rail lost",
	[COST_RAIL_SLOW] = "a rail slow",
	[COST_GPU_PATH] = "the GPU's path to its NIC",
	[COST_LOSSLESS] = "lossless RoCE off",
	[COST_WIRE] = "bits lost on the wire",
	[COST_OPTICS] = "optics out of range",
	[COST_SETTING] = "a setting that costs a part",
	[COST_PAST] = "a record of faults",
	[COST_NONE] = "no bandwidth now",
};

static const char *const bases[N_COSTS] = {
	[COST_READING] = "what the reading lacks was not judged, and may be anything below",
	[COST_RAIL_LOST] = "the rail's whole share of the node's bandwidth (every rail's, "
			   "where no job can open the devices)",
	[COST_RAIL_SLOW] = "the part of the rail's rate its link, lanes, PCIe or cabling "
			   "cannot carry",
	[COST_GPU_PATH] = "GPU traffic staged through host memory or across the socket link "
			  "instead of GPUDirect RDMA below one PCIe switch",
	[COST_LOSSLESS] = "under congestion RoCE without PFC drops packets and retransmits "
			  "from the loss on",
	[COST_WIRE] = "every bit error costs a retransmission; without FEC a fast link "
		      "errs all the time",
	[COST_OPTICS] = "a transceiver out of range errs next, then drops the link",
	[COST_SETTING] = "a smaller MTU or PCIe payload, or a GID layout some jobs trip on",
	[COST_PAST] = "a count or a kernel log line records that a fault happened; what it "
		      "left behind, if it lasts, is one of the above and explains it first",
	[COST_NONE] = "versions, the next boot, context: nothing lost in this reading",
};

enum check_cost check_cost(const char *id)
{
	const char *dot = id ? strchr(id, '.') : NULL;

	for (size_t i = 0; id && i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(rows[i].id, id) == 0)
			return rows[i].cost;
	for (size_t i = 0; dot && i < sizeof(families) / sizeof(families[0]); i++)
		if (strlen(families[i].family) == (size_t)(dot - id) &&
		    strncmp(families[i].family, id, (size_t)(dot - id)) == 0)
			return families[i].cost;
	return COST_NONE;
}

unsigned check_rank(const char *id)
{
	const size_t n = sizeof(rows) / sizeof(rows[0]);

	for (size_t i = 0; id && i < n; i++)
		if (strcmp(rows[i].id, id) == 0)
			return (unsigned)rows[i].cost * (unsigned)(n + 1) + (unsigned)i;
	return (unsigned)check_cost(id) * (unsigned)(n + 1) + (unsigned)n;
}

const char *check_cost_name(enum check_cost c)
{
	return c < N_COSTS ? names[c] : "?";
}

const char *check_cost_basis(enum check_cost c)
{
	return c < N_COSTS ? bases[c] : "?";
}

const struct check_rank_row *check_rank_rows(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}
