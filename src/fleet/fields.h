/* The fields fleet drift is judged on, read out of a `check --json`
 * document: pure functions over JSON, no system access.
 *
 * A value is a JSON scalar (string, number, true/false) or null when the
 * document says the thing is absent (a port without QoS has trust null).
 * A field that does not apply (the RoCE v2 GID index of an InfiniBand
 * port, a bandwidth never measured) is left out of the object, so that
 * hosts which never had it are not counted for or against a baseline.
 *
 * Field names (stable, the keys of `fleet diff --json`):
 *   fw                the NIC firmware (fw_ver); an NPU's firmware
 *   driver_stack      "inbox", or "ofed" and the MLNX_OFED version
 *   kernel            the running kernel (driver_stack.kernel)   (added)
 *   rdma_modules      the RDMA modules loaded, "NAME VERSION (SOURCE)"
 *                     each, ", " between                         (added)
 *   npu_driver        an Ascend NPU's driver ("software") version  (added)
 *   mtu               the RDMA active MTU of each port, bytes
 *   netdev_mtu        the MTU of the port's netdev, bytes        (added)
 *   rocev2_gid_index  the first RoCE v2 GID with an IPv4 address (Ethernet)
 *   pfc_priority      the priorities with PFC on ("3", "none")
 *   trust             the QoS trust mode (pcp, dscp)
 *   ecn               the priorities with ECN on ("3"; "np 3, rp none")
 *   pcie_gen          the negotiated PCIe generation of the NIC
 *   pcie_width        the negotiated PCIe width of the NIC
 *   port_rate_gbps    the port rate, Gb/s, of a port that is ACTIVE (a
 *                     port down shows a placeholder rate); of an NPU port
 *                     that is UP, its speed_mbps / 1000
 *   port_state        the port state name (ACTIVE, DOWN; an NPU's UP,
 *                     DOWN)                                       (added)
 *   pfc_priority      of an NPU port: its PFC bitmap as priorities ("4")
 *   nic_count         how many NICs of this model the host has    (added)
 *   npu_count         how many NPUs of this model the host has    (added)
 *   bw_gbps           the slowest rail of the host's `bw` client runs,
 *                     Gb/s at two significant digits, so run-to-run
 *                     noise does not make every host differ       */
#ifndef RD_FLEET_FIELDS_H
#define RD_FLEET_FIELDS_H

#include <jansson.h>
#include <stddef.h>

/* The names above, in the order reports list them. */
extern const char *const fleet_field_names[];
extern const size_t fleet_n_fields;

/* fw, pcie_gen, pcie_width of one inventory NIC. */
json_t *fleet_nic_values(const json_t *nic);
/* mtu, netdev_mtu, rocev2_gid_index, pfc_priority, trust, ecn,
 * port_rate_gbps, port_state of one inventory port. */
json_t *fleet_port_values(const json_t *port);
/* fw, npu_driver, pcie_gen, pcie_width, port_state, port_rate_gbps,
 * pfc_priority of one inventory NPU (an element of npus.devices). */
json_t *fleet_npu_values(const json_t *npu);
/* driver_stack of a check document's host. */
json_t *fleet_host_values(const json_t *check);
/* The slowest rail (gbps.avg of the largest size) over the client bw
 * documents in bw_docs on the NICs named in devices (a JSON object used as
 * a set of names); NULL when none measured one.  New reference. */
json_t *fleet_bw_gbps(const json_t *bw_docs, const json_t *devices);

/* A value as text for people and as a key of "shares": strings as they
 * are, other scalars as JSON ("4096", "null").  malloc'd; NULL on OOM. */
char *fleet_value_text(const json_t *v);

/* How a missing value (JSON null, or no member at all) reads for people:
 * the one spelling of the fleet's text tables and HTML page alike; JSON
 * documents say null. */
#define FLEET_MISSING "-"

/* A share's key as people read it: the key "null" (hosts without the
 * value) is FLEET_MISSING, any other key as it is. */
const char *fleet_share_text(const char *key);

#endif
