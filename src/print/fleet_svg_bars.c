/* Bandwidth per host and rail: one horizontal bar per rail, labelled
 * "host device/port", on an axis in decimal Gb/s. */
#include "fleet_svg.h"
#include "../fleet/fields.h"

#include <math.h>
#include <stdint.h>

#define ROW_H 18		/* px per bar */
#define BAR_H 14
#define PLOT_W 640		/* px of the axis */
#define CHAR_W 7		/* px per label character at 12px monospace */
#define HOST_MAX 32		/* characters of a host name in a label */
#define DEVICE_MAX 16		/* characters of a device name in a label */
#define LABEL_MAX (HOST_MAX + DEVICE_MAX + 12)	/* with a space, "/" and port */
#define VALUE_W 70		/* px right of the plot for the value text */
#define AXIS_H 36		/* px under the bars for ticks and the unit */

void fleet_axis_for(double max, struct fleet_axis *ax)
{
	double raw, mag, m, step, top;
	int decimals;

	if (!isfinite(max) || max <= 0)
		max = 1;
	raw = max / 5;
	mag = pow(10, floor(log10(raw)));
	m = raw / mag;
	step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
	top = ceil(max / step) * step;
	if (!isfinite(top) || top < max)
		top = max;
	decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	ax->step = step;
	ax->top = top;
	ax->decimals = decimals > 6 ? 6 : decimals;
	ax->ticks = (int)lround(top / step) + 1;
	if (ax->ticks < 2 || ax->ticks > 11)	/* only from rounding at the edges */
		ax->ticks = 2, ax->step = top;
}

/* "host device/port"; clipped (the visible label) or whole (the title). */
static void rail_label(struct html_out *o, const struct fleet_rail_bw *r, bool clip)
{
	html_text_clip(o, r->host, clip ? HOST_MAX : SIZE_MAX);
	html_raw(o, " ");
	html_text_clip(o, r->device, clip ? DEVICE_MAX : SIZE_MAX);
	if (r->port >= 0)
		html_printf(o, "/%lld", r->port);
	else
		html_raw(o, "/" FLEET_MISSING);
}

static void rail_attr(struct html_out *o, const struct fleet_rail_bw *r)
{
	html_raw(o, " data-host=\"");
	html_text(o, r->host);
	html_raw(o, "\" data-rail=\"");
	html_text(o, r->device);
	if (r->port >= 0)
		html_printf(o, "/%lld\"", r->port);
	else
		html_raw(o, "/" FLEET_MISSING "\"");
}

static void axis(struct html_out *o, const struct fleet_axis *ax, int x0, int y0, int y1)
{
	for (int k = 0; k < ax->ticks; k++) {
		double v = k * ax->step;
		double x = x0 + v / ax->top * PLOT_W;

		html_printf(o, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			    x, y0, x, y1 + 4);
		html_printf(o, "<text class=\"tick\" data-tick=\"%.*f\" x=\"%.1f\" y=\"%d\" "
			    "text-anchor=\"middle\">%.*f</text>\n",
			    ax->decimals, v, x, y1 + 16, ax->decimals, v);
	}
	html_printf(o, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		    x0, y1, x0 + PLOT_W, y1);
	html_printf(o, "<text class=\"unit\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">Gb/s</text>\n",
		    x0 + PLOT_W / 2, y1 + 32);
}

void fleet_svg_bars(struct html_out *o, const struct fleet_rail_bw *rails, size_t n)
{
	struct fleet_axis ax;
	size_t label = 8;
	double max = 0;
	int x0, w, h;

	for (size_t i = 0; i < n; i++) {
		size_t hw = html_text_width(rails[i].host), dw = html_text_width(rails[i].device);
		size_t l = (hw <= HOST_MAX ? hw : HOST_MAX + 1) + (dw <= DEVICE_MAX ? dw : DEVICE_MAX + 1) + 8;

		if (l > label)
			label = l;
		if (rails[i].gbps > max)
			max = rails[i].gbps;
	}
	if (label > LABEL_MAX)
		label = LABEL_MAX;
	fleet_axis_for(max, &ax);
	x0 = (int)label * CHAR_W + 12;
	w = x0 + PLOT_W + VALUE_W;
	h = (int)n * ROW_H + 8 + AXIS_H;
	html_printf(o, "<svg id=\"bw-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-axis-top=\"%.*f\" "
		    "aria-label=\"bandwidth per host and rail in Gb/s\">\n",
		    w, h, w, h, ax.decimals, ax.top);
	axis(o, &ax, x0, 4, (int)n * ROW_H + 8);
	for (size_t i = 0; i < n; i++) {
		const struct fleet_rail_bw *r = &rails[i];
		double bw = r->gbps > 0 ? r->gbps / ax.top * PLOT_W : 0;
		int y = 8 + (int)i * ROW_H;

		html_raw(o, "<g class=\"bar\"");
		rail_attr(o, r);
		html_printf(o, " data-gbps=\"%.2f\" data-samples=\"%zu\"><title>", r->gbps, r->n);
		rail_label(o, r, false);
		html_printf(o, ": %.2f Gb/s (mean of %zu)</title>", r->gbps, r->n);
		html_printf(o, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			    x0 - 6, y + 11);
		rail_label(o, r, true);
		html_printf(o, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
			    x0, y, bw, BAR_H, FLEET_BAR_COLOUR);
		html_printf(o, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%.2f</text></g>\n",
			    x0 + bw + 4, y + 11, r->gbps);
	}
	html_raw(o, "</svg>\n");
}
