/* The NPU ports section of the fleet report: for each host with Ascend
 * NPUs, one row per NPU and its on-chip RoCE port (model, firmware,
 * driver, link, speed, PFC), each value that `fleet diff` found off its
 * group's baseline marked with that baseline, as the drift table marks a
 * NIC port's.  Nothing is written for a fleet without NPUs. */
#ifndef RD_OUT_FLEET_HTML_NPU_H
#define RD_OUT_FLEET_HTML_NPU_H

#include <jansson.h>
#include <stddef.h>

#include "fleet_html_stream.h"

/* One host of the page: its name and its record. */
struct fleet_html_npu_host {
	const char *name;
	const json_t *rec;
};

/* hosts in page order; diff: as for fleet_html_write() (may be NULL).
 * 0, or -ENOMEM. */
int fleet_html_npus(struct html_out *o, const struct fleet_html_npu_host *hosts, size_t n,
		    const json_t *diff);

#endif
