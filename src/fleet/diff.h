/* Fleet drift: pure functions from host facts to the `fleet diff --json`
 * document of the record contract (docs/fleet.md):
 *   {"schema":1, "hosts":N, "groups":[{"profile", "nic_model", "hosts":[...],
 *     "baseline":{field: value}, "outliers":[{"host", "field", "value",
 *     "baseline", "shares":{value: hosts}}]}]}
 *
 * Hosts are grouped by profile and NIC model; a host with two NIC models
 * (ConnectX-7 for compute, BlueField-3 for storage) is in two groups, each
 * judged on its own NICs.  In each group the baseline of a field is the
 * value the most hosts have.  Ties are broken so that the same data always
 * gives the same baseline: a value beats null, then the value whose text
 * sorts first (byte order) wins.  Every host whose value is not the
 * baseline is an outlier; "shares" counts the hosts of the group per value
 * (most first).  A host without a field (no bandwidth measured) is not
 * counted for it.  Groups come sorted by profile then model, hosts by
 * name, outliers by host then field (the order of fleet_field_names). */
#ifndef RD_FLEET_DIFF_H
#define RD_FLEET_DIFF_H

#include <jansson.h>

#define FLEET_DIFF_SCHEMA 1

/* hosts: [{"host", "profile", "facts": fleet_facts()}], one per host (the
 * latest record).  NULL when out of memory. */
json_t *fleet_diff(const json_t *hosts);
/* The same from whole records (each host's latest). */
json_t *fleet_diff_records(const json_t *records);
/* How many outliers (host, field) a diff document lists. */
size_t fleet_diff_outliers(const json_t *diff);
/* How many hosts differ: of one group (a member of "groups"), or of the
 * whole document (a host in two groups counted once).  A host that
 * differs in three fields is one host, three outliers. */
size_t fleet_diff_group_odd_hosts(const json_t *group);
size_t fleet_diff_odd_hosts(const json_t *diff);

#endif
