/* Fabric reports (`rdmadoctor fabric --json`) kept with the fleet's
 * records: pure functions over JSON.  The document:
 *   {"schema":1, "test":"fabric", "nodes":[{"name", "rank", "rails"}],
 *    "rounds", "pairs":[{"a", "b", "rail", "gbps":{"a_to_b", "b_to_a"},
 *    "lat_usec"?, "verdict"}], "suspects":[{"kind":"node"|"rail"|"pair",
 *    "subject": a node's name or "A-B", "rail"?, "reason", "evidence"}],
 *    "verdict", "reason"}
 * (docs/json/fleet.md). */
#ifndef RD_FLEET_FABRIC_H
#define RD_FLEET_FABRIC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Why doc is not a fabric report (into why), or 0 when it is one. */
int fleet_fabric_problem(const json_t *doc, char *why, size_t len);
/* Is host one of the report's nodes? */
bool fleet_fabric_names(const json_t *doc, const char *host);
/* What the store keeps beside the record to say who the report suspects:
 * {"time", "verdict", "reason", "suspects":[{"host", "kind", "subject",
 * "rail"?, "reason"}]}, one entry per host a suspect names (a pair names
 * two).  NULL when out of memory. */
json_t *fleet_fabric_summary(const json_t *doc, const char *time);

#endif
