/* What changed between two records of one host (`fleet show HOST`): pure,
 * two record documents in, a list of changes out:
 *   [{"time": <newer record's time>, "subject": "host" | "mlx5_0" |
 *     "mlx5_0 port 1" | <finding subject>, "field", "old", "new"}]
 * Fields: profile, verdict, kernel, dmi_product, driver_stack, nvidia
 * (the GPU driver); per NIC: nic (appeared: old null; gone: new null),
 * model and the NIC drift fields (fw, pcie_gen, pcie_width); per port:
 * port (appeared: old null; gone: new null; the value is its state name)
 * and the port drift fields (mtu, netdev_mtu, rocev2_gid_index,
 * pfc_priority, trust, ecn, port_rate_gbps, port_state); per Ascend NPU
 * (subject "npu3"): npu (appeared or gone, the value its model) and the
 * NPU drift fields (fleet_npu_values); and finding (a finding id that
 * appeared, old null, or went away, new null). */
#ifndef RD_FLEET_HISTORY_H
#define RD_FLEET_HISTORY_H

#include <jansson.h>

/* The changes from older to newer, appended to changes (an array).
 * 0, or -1 when out of memory. */
int fleet_changes(const json_t *older, const json_t *newer, json_t *changes);

#endif
