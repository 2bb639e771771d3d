/* The facts of one record that `fleet diff` compares: per drift group of
 * the host (NIC model and link layer), the value of each drift field
 * (fleet/fields.h), one per NIC or port where the host has several.  Pure:
 * a record document in, JSON out.  The store keeps them beside each record
 * so that a diff over ten thousand hosts never parses ten thousand whole
 * documents. */
#ifndef RD_FLEET_FACTS_H
#define RD_FLEET_FACTS_H

#include <jansson.h>

/* The separator of a fact key: "FIELD" for a value of the whole group
 * (driver_stack, nic_count, bw_gbps), "FIELD@SUBJECT" for one NIC
 * ("fw@mlx5_0") or one port ("mtu@mlx5_0 port 1"). */
#define FLEET_FACT_SEP '@'

/* The link layer of the group of a host's Ascend NPUs of one model (their
 * on-chip RoCE ports are read with hccn_tool, not as RDMA devices): such
 * a group's "nic_model" is the NPU model ("Ascend 910"), its subjects
 * "npu0".."npu7" (see docs/fleet.md). */
#define FLEET_NPU_LINK_LAYER "NPU RoCE"

/* [{"nic_model": "ConnectX-7", "link_layer": "InfiniBand",
 *   "fields": {"fw@mlx5_0": "28.39.1002", "mtu@mlx5_0 port 1": 4096, ...}}]
 * sorted by model then link layer, then one group per Ascend NPU model
 * (link layer FLEET_NPU_LINK_LAYER, "npu_count" and "fw@npu3" and the
 * like), then, when the record's check lists its rails, the rails group
 * (fleet/rails.h: nic_model "", link_layer "rails": which switch each
 * rail reaches; judged by fleet_rails(), never as drift), then, when a
 * NIC has a board_id, the firmware group (fleet/firmware.h: nic_model "",
 * link_layer "firmware": each board's PSID and version; shown by
 * fleet_firmware(), never as drift); [] for a host
 * without NICs or NPUs; NULL when
 * out of memory.  A NIC without a model counts as "unknown"; a NIC's link
 * layer is its first port's ("unknown" without ports). */
json_t *fleet_facts(const json_t *record);

/* What the machine is, for "same machine, different profile":
 * {"dmi_product": string or null, "gpus": "8x H100 SXM5 80GB" ("none")}:
 * its accelerators, GPUs and Ascend NPUs alike ("8x Ascend 910"), counted
 * per model in name order.  NULL when out of memory. */
json_t *fleet_machine(const json_t *record);

#endif
