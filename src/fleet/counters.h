/* A check's counters as a series: pure functions over check documents.
 * An unchanged check is stored as the deltas of its counters since the
 * check before, small enough to keep every hour for years and to plot. */
#ifndef RD_FLEET_COUNTERS_H
#define RD_FLEET_COUNTERS_H

#include <jansson.h>

/* {"mlx5_0 port 1": {"port_rcv_data": 123, "hw:out_of_buffer": 0,
 *   "eth:rx_pause": 7, "carrier_changes": 2}, "npu0": {"roce_rx_err_pkt_num":
 *   0, "link_up_count": 1}, ...}: every integer counter of every port
 * (counters as they are, hw_counters with "hw:", ethtool_stats with
 * "eth:", the netdev's carrier_changes, the FEC statistics' totals with
 * "fec:") and of every Ascend NPU port (its
 * hccn_tool -stat counters, link_up_count).  {} for a check without
 * counters; NULL when out of memory. */
json_t *fleet_counters(const json_t *check);
/* {subject: {name: new - old}} for the counters that changed (a counter
 * that went down, reset by a reboot or a driver reload, is its new value
 * as a delta from 0, marked {"reset": value}); NULL when out of memory. */
json_t *fleet_counter_deltas(const json_t *old, const json_t *new);

/* The counters of now that differ from base, with now's values: what a
 * check's counters are, kept small beside the record they equal (base). */
json_t *fleet_counters_changed(const json_t *base, const json_t *now);
/* base with changed laid over it (fleet_counters_changed undone). */
json_t *fleet_counters_overlay(const json_t *base, const json_t *changed);
/* A copy of a document without the members named (at any depth); NULL
 * when out of memory. */
json_t *fleet_without(const json_t *doc, const char *const *drop);

#endif
