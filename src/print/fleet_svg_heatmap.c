/* Pairwise bandwidth: rows are the client (local) host, columns the server
 * (remote) host, each measured cell coloured from red (slow) to green (the
 * fastest pair) and showing its Gb/s. */
#include "fleet_svg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL_W 60
#define CELL_H 28
#define CHAR_W 7
#define LABEL_MAX 40
#define LEGEND_H 40

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct hosts named by pairs, sorted; -ENOMEM or -E2BIG. */
static int pair_hosts(const struct fleet_pair_bw *pairs, size_t n,
		      const char ***hosts, size_t *n_hosts)
{
	const char **v = calloc(2 * n + 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		v[k++] = pairs[i].src;
		v[k++] = pairs[i].dst;
	}
	qsort(v, k, sizeof(*v), str_cmp);
	*n_hosts = 0;
	for (size_t i = 0; i < k; i++)
		if (!*n_hosts || strcmp(v[*n_hosts - 1], v[i]))
			v[(*n_hosts)++] = v[i];
	if (*n_hosts > FLEET_HEATMAP_MAX_HOSTS) {
		free(v);
		return -E2BIG;
	}
	*hosts = v;
	return 0;
}

/* Red (0) through yellow to green (1), light enough for black text. */
static void colour(struct html_out *o, double t)
{
	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	html_printf(o, "hsl(%.0f,70%%,62%%)", 120 * t);
}

static void host_title(struct html_out *o, const char *src, const char *dst)
{
	html_text(o, src);
	html_raw(o, " \xe2\x86\x92 ");	/* U+2192 rightwards arrow */
	html_text(o, dst);
}

static void cell(struct html_out *o, const struct fleet_pair_bw *p, double max,
		 int x, int y)
{
	html_raw(o, "<g class=\"cell\" data-src=\"");
	html_text(o, p->src);
	html_raw(o, "\" data-dst=\"");
	html_text(o, p->dst);
	html_printf(o, "\" data-gbps=\"%.2f\" data-samples=\"%zu\"><title>", p->gbps, p->n);
	host_title(o, p->src, p->dst);
	html_printf(o, ": %.2f Gb/s (mean of %zu)</title>", p->gbps, p->n);
	html_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", x, y,
		    CELL_W, CELL_H);
	colour(o, max > 0 ? p->gbps / max : 0);
	html_printf(o, "\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.2f</text></g>\n",
		    x + CELL_W / 2, y + CELL_H / 2 + 4, p->gbps);
}

static void labels(struct html_out *o, const char **hosts, size_t n, int x0, int y0)
{
	for (size_t i = 0; i < n; i++) {
		int y = y0 + (int)i * CELL_H + CELL_H / 2 + 4;
		int x = x0 + (int)i * CELL_W + CELL_W / 2;

		html_printf(o, "<text class=\"row\" x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			    x0 - 6, y);
		html_text_clip(o, hosts[i], LABEL_MAX);
		html_printf(o, "</text><text class=\"col\" x=\"%d\" y=\"%d\" "
			    "transform=\"rotate(-45 %d %d)\">", x, y0 - 6, x, y0 - 6);
		html_text_clip(o, hosts[i], LABEL_MAX);
		html_raw(o, "</text>\n");
	}
}

static void legend(struct html_out *o, double max, int x0, int y, const char *id)
{
	/* the first heatmap's gradient keeps the name it always had */
	const char *scale = strcmp(id, "bw-heatmap") == 0 ? "heat" : id;

	html_printf(o, "<defs><linearGradient id=\"%s-scale\">", scale);
	for (int k = 0; k <= 4; k++) {
		html_printf(o, "<stop offset=\"%d%%\" stop-color=\"", k * 25);
		colour(o, k / 4.0);
		html_raw(o, "\"/>");
	}
	html_raw(o, "</linearGradient></defs>");
	html_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"200\" height=\"12\" fill=\"url(#%s-scale)\"/>",
		    x0, y, scale);
	html_printf(o, "<text class=\"tick\" x=\"%d\" y=\"%d\">0 Gb/s</text>", x0, y + 26);
	html_printf(o, "<text class=\"tick\" data-legend-max=\"%.2f\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"end\">%.2f Gb/s</text>\n", max, x0 + 200, y + 26, max);
}

int fleet_svg_heatmap(struct html_out *o, const struct fleet_pair_bw *pairs, size_t n)
{
	return fleet_svg_heatmap_id(o, pairs, n, "bw-heatmap");
}

int fleet_svg_heatmap_id(struct html_out *o, const struct fleet_pair_bw *pairs, size_t n,
			 const char *id)
{
	const char **hosts;
	size_t n_hosts, label = 4, k = 0;
	double max = 0;
	int rc, x0, y0, w, h;

	rc = pair_hosts(pairs, n, &hosts, &n_hosts);
	if (rc)
		return rc;
	for (size_t i = 0; i < n_hosts; i++)
		if (html_text_width(hosts[i]) > label)
			label = html_text_width(hosts[i]);
	if (label > LABEL_MAX)
		label = LABEL_MAX + 1;
	for (size_t i = 0; i < n; i++)
		if (pairs[i].gbps > max)
			max = pairs[i].gbps;
	x0 = (int)label * CHAR_W + 12;
	y0 = (int)(label * CHAR_W * 3 / 4) + 16;	/* the 45-degree column labels */
	w = x0 + (int)n_hosts * CELL_W + 16;
	if (w < x0 + 220)
		w = x0 + 220;
	h = y0 + (int)n_hosts * CELL_H + LEGEND_H;
	html_printf(o, "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		    "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" data-hosts=\"%zu\" "
		    "aria-label=\"bandwidth between hosts in Gb/s, client rows, server columns\">\n",
		    id, w, h, w, h, n_hosts);
	labels(o, hosts, n_hosts, x0, y0);
	/* unmeasured cells first, as one grey block under the measured ones */
	html_printf(o, "<rect class=\"unmeasured\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
		    x0, y0, (int)n_hosts * CELL_W, (int)n_hosts * CELL_H);
	for (size_t r = 0; r < n_hosts; r++)
		for (size_t c = 0; c < n_hosts; c++) {
			/* pairs are sorted by (src, dst) as hosts are */
			if (k < n && !strcmp(pairs[k].src, hosts[r]) &&
			    !strcmp(pairs[k].dst, hosts[c])) {
				cell(o, &pairs[k++], max, x0 + (int)c * CELL_W,
				     y0 + (int)r * CELL_H);
			}
		}
	legend(o, max, x0, y0 + (int)n_hosts * CELL_H + 10, id);
	html_raw(o, "</svg>\n");
	free(hosts);
	return 0;
}
