/* Fleet drift: pure functions from host facts to the `fleet diff --json`
 * document (docs/json/fleet.md):
 *   {"schema":1, "hosts":N, "hosts_differ":N, "outliers":N,
 *    "groups":[{"profile", "nic_model", "link_layer", "hosts":[...],
 *      "hosts_differ":N, "baseline":{field: value},
 *      "outliers":[{"host", "field", "subject"?, "value", "baseline",
 *                   "shares":{value: hosts}}],
 *      "no_majority":[{"field", "subject"?, "shares":{value: hosts}}]}],
 *    "profile_changes":[{"host", "from", "to"}],
 *    "profile_splits":[{"dmi_product", "gpus",
 *                       "profiles":[{"profile", "hosts":[...]}]}],
 *    "fabric": null | {"time", "verdict", "reason", "suspects":[{"host",
 *                      "kind", "subject", "rail"?, "reason"}]},
 *    "rails": null | fleet_rails() (fleet/rails.h)}
 *
 * Hosts are grouped by profile, NIC model and link layer (InfiniBand and
 * RoCE ports are never compared); a host with two NIC models (ConnectX-7
 * for compute, BlueField-3 for storage) is in two groups, each judged on
 * its own NICs.  Each NIC and each port is its own value (the subject:
 * "mlx5_0", "mlx5_0 port 1"), so one rail left at MTU 2048 is one outlier
 * naming that rail.  In each group the baseline of a value is the one
 * more hosts have than any other; when two values tie for the most hosts
 * there is no baseline: the value is listed under "no_majority" and no
 * host is an outlier for it.  Values are compared as JSON values: numbers
 * as numbers, null (absent) as one value of its own.  "shares" counts the
 * hosts per value, most first (then smaller numbers, then text order).  A
 * host without a value (no bandwidth measured, a port that is down has no
 * rate) is not counted for it.  Groups come sorted by profile, model and
 * link layer, hosts by name, outliers by host, field (the order of
 * fleet_field_names), subject.
 *
 * Two kinds of drift are of hosts rather than values: a host whose latest
 * record has another profile than the record before ("profile_changes",
 * from the "previous_profile" of its entry), and hosts of the same DMI
 * product and GPUs judged against different profiles ("profile_splits").
 * And a host whose rails reach other rails' switches ("rails": the rails
 * group of the facts, judged by fleet_rails(), never as a drift group). */
#ifndef RD_FLEET_DIFF_H
#define RD_FLEET_DIFF_H

#include <jansson.h>

#define FLEET_DIFF_SCHEMA 1

/* hosts: [{"host", "profile", "facts": fleet_facts(), "dmi_product"?,
 * "gpus"?, "previous_profile"?}], one per host (the latest record;
 * previous_profile: the profile of its latest record with another profile,
 * when there is one).  NULL when out of memory. */
json_t *fleet_diff(const json_t *hosts);
/* Add the newest fabric report's suspects (fleet_fabric_summary(), or
 * NULL / JSON null for none) as "fabric", each suspect marked "recorded":
 * whether its host is one of hosts (fleet_diff's input: the hosts with
 * records).  The recorded hosts it names are hosts that differ; a node of
 * the fabric with no record is no host of the fleet and counts as none
 * (fleet_diff_fabric_unrecorded counts them).  0, or -1 when out of memory. */
int fleet_diff_add_fabric(json_t *diff, const json_t *summary, const json_t *hosts);
/* How many nodes the fabric report names that have no record. */
size_t fleet_diff_fabric_unrecorded(const json_t *diff);
/* The same from whole records (each host's latest). */
json_t *fleet_diff_records(const json_t *records);
/* How many outliers (host, value) a diff document lists. */
size_t fleet_diff_outliers(const json_t *diff);
/* How many hosts differ: of one group (a member of "groups"), or of the
 * whole document (a host in two groups counted once, profile changes and
 * splits included, and the fabric report's suspects that have records).  A host that differs in three values is one host,
 * three outliers. */
size_t fleet_diff_group_odd_hosts(const json_t *group);
size_t fleet_diff_odd_hosts(const json_t *diff);

#endif
