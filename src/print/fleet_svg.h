/* The fleet report's two figures, as inline SVG (no script, no network):
 * bandwidth per host and rail as horizontal bars on a decimal Gb/s axis,
 * and client x server bandwidth as a heatmap.  Every number drawn is also
 * in a data-* attribute and a <title>, printed with two decimals, so a test
 * (or a reader's tooltip) gets the exact figure. */
#ifndef RD_OUT_FLEET_SVG_H
#define RD_OUT_FLEET_SVG_H

#include "fleet_bw.h"
#include "fleet_html_stream.h"

/* Hosts beyond this many make cells too small to read; the page lists the
 * slowest pairs instead (fleet_html.c). */
#define FLEET_HEATMAP_MAX_HOSTS 64

/* Bars beyond this many make a chart no one reads (and a page of megabytes):
 * the page draws the slowest rails instead (fleet_html.c). */
#define FLEET_BARS_MAX 512

/* The colour of every bar, for the screenshot test to find. */
#define FLEET_BAR_COLOUR "#2f6bd8"

/* An axis from 0 past max in 1-2-5 steps: step, top and the decimals its
 * labels need (0 for steps of 1 and more). */
struct fleet_axis {
	double step, top;
	int decimals;
	int ticks;		/* labels, including 0 */
};
void fleet_axis_for(double max, struct fleet_axis *ax);

void fleet_svg_bars(struct html_out *o, const struct fleet_rail_bw *rails, size_t n);
/* At most FLEET_HEATMAP_MAX_HOSTS distinct hosts; more draws nothing and
 * returns -E2BIG. */
int fleet_svg_heatmap(struct html_out *o, const struct fleet_pair_bw *pairs, size_t n);
/* The same with another id for the <svg> (one page, several heatmaps);
 * id: letters, digits and dashes. */
int fleet_svg_heatmap_id(struct html_out *o, const struct fleet_pair_bw *pairs, size_t n,
			 const char *id);

#endif
