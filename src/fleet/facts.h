/* The facts of one record that `fleet diff` compares: per NIC model of the
 * host, the value of each drift field (fleet/fields.h) over the NICs and
 * ports of that model.  Pure: a record document in, JSON out.  The store
 * keeps them beside each record so that a diff over ten thousand hosts
 * never parses ten thousand whole documents. */
#ifndef RD_FLEET_FACTS_H
#define RD_FLEET_FACTS_H

#include <jansson.h>

/* [{"nic_model": "ConnectX-7", "fields": {"fw": "28.39.1002", ...}}, ...]
 * sorted by model; [] for a host without NICs; NULL when out of memory.
 * When the NICs of one model disagree within the host, the value is the
 * text of each distinct value, sorted, joined by ", " (so one NIC left on
 * old firmware makes the whole host differ from its group).  A NIC without
 * a model counts as "unknown". */
json_t *fleet_facts(const json_t *record);

#endif
