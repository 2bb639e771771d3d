/* `fleet report`'s line and document (fleet_report_out.h). */
#include "fleet_report_out.h"
#include "json_scalar.h"
#include "../fleet/diff.h"

/* The counts are of hosts (those with records): a node the fabric report
 * names without a record of its own is said apart, never one of them. */
void text_fleet_report(FILE *out, const char *html, const json_t *records, const json_t *diff)
{
	size_t odd = fleet_diff_odd_hosts(diff), un = fleet_diff_fabric_unrecorded(diff);

	fprintf(out, "wrote '%s': %zu %s, %zu %s (drift, rails cabled to another rail's "
		"switch, or named by the fabric report)", html, json_array_size(records),
		json_array_size(records) == 1 ? "host" : "hosts", odd,
		odd == 1 ? "differs" : "differ");
	if (un)
		fprintf(out, "; the fabric report also names %zu %s with no record", un,
			un == 1 ? "node" : "nodes");
	fputc('\n', out);
}

json_t *fleet_report_json(const char *html, const json_t *records, const json_t *diff)
{
	return json_pack("{s:i, s:o, s:I, s:I, s:I, s:I}", "schema", 1, "html",
			 json_string_or_null(html),
			 "hosts", (json_int_t)json_array_size(records),
			 "hosts_differ", (json_int_t)fleet_diff_odd_hosts(diff),
			 "outliers", (json_int_t)fleet_diff_outliers(diff),
			 "fabric_nodes_unrecorded", (json_int_t)fleet_diff_fabric_unrecorded(diff));
}
