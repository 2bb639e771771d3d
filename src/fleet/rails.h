/* Rails cabled right, across the fleet: which switch each rail port of
 * every host reaches (the top-level `rails` of its newest check, numbered
 * as src/check/rails.h numbers them), which rail each switch belongs to,
 * and the hosts whose rails reach another rail's switch.  Pure: JSON in,
 * JSON out, no system access.
 *
 * Why here and not in the check: a node cabled with two rails swapped
 * passes every local check (traffic still flows, through the spine); only
 * the other nodes' cabling says which switch is rail k's.
 *
 * A switch is known by its neighbour's system name, else its chassis id.
 * It belongs to rail j (its owner) when more hosts reach it on rail j
 * than on any other rail; when rails tie for the most, it has no owner,
 * no host is judged by it, and the tie is listed for a person to decide.
 * A host's rail k that reaches rail j's switch is a finding ("rail k
 * reaches rail j's switch S"); when its rail j also reaches a switch of
 * rail k's, the two are ONE finding, "rails j and k swapped".  A rail
 * whose neighbour is not known is counted as not checked on that rail,
 * never as cabled right.  A record without `rails` (older than the
 * neighbours) adds nothing. */
#ifndef RD_FLEET_RAILS_H
#define RD_FLEET_RAILS_H

#include <jansson.h>

/* The facts group (fleet/facts.h) that carries a record's rails: the
 * store keeps it with the drift facts, so `fleet diff` reads the rails of
 * ten thousand hosts without parsing their documents.  No NIC model is
 * empty (facts.h says "unknown"), so the group is no NIC's; fleet_diff()
 * judges it here, never as drift. */
#define FLEET_RAILS_MODEL ""
#define FLEET_RAILS_LINK_LAYER "rails"

/* Rail indices past this are not read: no machine has that many rail
 * ports, and a record from outside cannot make the judge allocate more. */
#define FLEET_RAILS_MAX 1024

/* The rails group of a record's facts:
 *   {"nic_model": "", "link_layer": "rails",
 *    "fields": {"0": {"switch": "leaf-r0" | null, "device": "mlx5_0" | null,
 *                     "port": 1 | null}, ...}}
 * one member per rail (its index as text; switch null when the
 * neighbour is not known).  *group NULL when the record's check lists no
 * rail.  0, or -1 when out of memory. */
int fleet_rails_facts(const json_t *record, json_t **group);

/* hosts: as fleet_diff() takes them ({"host", "facts"}, one per host).
 * The `rails` member of `fleet diff --json` (docs/json/fleet.md):
 *   {"hosts": N, "hosts_differ": N,
 *    "rails": [{"rail", "hosts", "not_checked", "not_checked_hosts": [...],
 *               "switches": [{"switch", "hosts", "owner": j | null}]}],
 *    "no_owner": [{"switch", "shares": {"2": 3, "3": 3}}],
 *    "findings": [{"host", "kind": "swapped" | "other_rail",
 *                  "rails": [{"rail", "device", "port", "switch", "owner"}],
 *                  "reason"}]}
 * or JSON null when no host's newest record lists its rails.  Rails by
 * index, a rail's switches most hosts first (then by name), findings by
 * host then rail.  NULL when out of memory. */
json_t *fleet_rails(const json_t *hosts);

#endif
