/* The fabric section of the fleet report: the newest `fabric --json`
 * report kept with the records, one heatmap per rail (a row per node as
 * sender, a column per node as receiver, each cell the pair's Gb/s that
 * way) and the list of its suspects. */
#ifndef RD_OUT_FLEET_HTML_FABRIC_H
#define RD_OUT_FLEET_HTML_FABRIC_H

#include <jansson.h>

#include "fleet_html_stream.h"

/* records: as for fleet_html_write().  0, or -ENOMEM. */
int fleet_html_fabric(struct html_out *o, const json_t *records);
/* How many directions (a rail, a sender, a receiver) the newest fabric
 * report measured; 0 when there is none (or no memory). */
size_t fleet_html_fabric_measured(const json_t *records);

#endif
