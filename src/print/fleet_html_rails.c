/* Rails and the switches they reach, in the fleet report. */
#include "fleet_html_rails.h"

#include <stdio.h>

static void cell(struct html_out *o, const char *s)
{
	html_raw(o, "<td>");
	html_text(o, s);
	html_raw(o, "</td>");
}

/* The hosts cabled to another rail's switch, or a line saying none is. */
static void findings(struct html_out *o, const json_t *rails)
{
	const json_t *list = json_object_get(rails, "findings"), *f, *r;
	size_t i, j;

	if (!json_array_size(list)) {
		html_raw(o, "<p id=\"rails-clean\" class=\"note\">No host's rail reaches another "
			 "rail's switch.</p>\n");
		return;
	}
	html_raw(o, "<table id=\"rail-findings\"><caption>Hosts cabled to another rail's "
		 "switch</caption><tr><th>host</th><th>rails</th><th>finding</th></tr>\n");
	json_array_foreach(list, i, f) {
		html_raw(o, "<tr class=\"rail-finding\" data-host=\"");
		html_text(o, html_member(f, "host"));
		html_raw(o, "\" data-kind=\"");
		html_text(o, html_member(f, "kind"));
		html_raw(o, "\">");
		cell(o, html_member(f, "host"));
		html_raw(o, "<td class=\"odd\">");
		json_array_foreach(json_object_get(f, "rails"), j, r)
			html_printf(o, "%s%lld", j ? " and " : "",
				    (long long)json_integer_value(json_object_get(r, "rail")));
		html_raw(o, "</td>");
		cell(o, html_member(f, "reason"));
		html_raw(o, "</tr>\n");
	}
	html_raw(o, "</table>\n");
}

/* One rail: its switches, most hosts first, whose each is; then its
 * hosts whose neighbour is not known. */
static void rail_table(struct html_out *o, const json_t *rail)
{
	long long k = (long long)json_integer_value(json_object_get(rail, "rail"));
	long long un = (long long)json_integer_value(json_object_get(rail, "not_checked"));
	const json_t *sw, *h;
	size_t i;

	html_printf(o, "<table class=\"rail\" data-rail=\"%lld\"><caption>Rail %lld</caption>"
		    "<tr><th>switch</th><th>hosts</th><th>whose</th></tr>\n", k, k);
	json_array_foreach(json_object_get(rail, "switches"), i, sw) {
		const json_t *owner = json_object_get(sw, "owner");

		html_raw(o, "<tr class=\"rail-switch\" data-switch=\"");
		html_text(o, html_member(sw, "switch"));
		html_raw(o, "\">");
		cell(o, html_member(sw, "switch"));
		html_printf(o, "<td class=\"num\">%lld</td>",
			    (long long)json_integer_value(json_object_get(sw, "hosts")));
		if (!json_is_integer(owner))
			html_raw(o, "<td class=\"odd\">no rail (a tie)</td>");
		else if (json_integer_value(owner) != k)
			html_printf(o, "<td class=\"odd\">rail %lld's</td>",
				    (long long)json_integer_value(owner));
		else
			html_printf(o, "<td>rail %lld's</td>", k);
		html_raw(o, "</tr>\n");
	}
	if (un) {
		html_printf(o, "<tr class=\"rail-unchecked\" data-hosts=\"%lld\"><td>not checked "
			    "(neighbour not known)</td><td class=\"num\">%lld</td><td>", un, un);
		json_array_foreach(json_object_get(rail, "not_checked_hosts"), i, h) {
			if (i)
				html_raw(o, " ");
			html_text(o, json_string_value(h));
		}
		html_raw(o, "</td></tr>\n");
	}
	html_raw(o, "</table>\n");
}

static void ties(struct html_out *o, const json_t *rails)
{
	const json_t *list = json_object_get(rails, "no_owner"), *t, *v;
	const char *k;
	size_t i;

	if (!json_array_size(list))
		return;
	html_raw(o, "<table id=\"rail-ties\"><caption>Switches no rail owns (as many hosts "
		 "reach them on two rails): no host is judged by them</caption><tr><th>switch"
		 "</th><th>hosts per rail</th></tr>\n");
	json_array_foreach(list, i, t) {
		int first = 1;

		html_raw(o, "<tr class=\"rail-tie\" data-switch=\"");
		html_text(o, html_member(t, "switch"));
		html_raw(o, "\">");
		cell(o, html_member(t, "switch"));
		html_raw(o, "<td>");
		json_object_foreach(json_object_get(t, "shares"), k, v) {
			html_raw(o, first ? "rail " : ", rail ");
			html_text(o, k);
			html_printf(o, ": %lld", (long long)json_integer_value(v));
			first = 0;
		}
		html_raw(o, "</td></tr>\n");
	}
	html_raw(o, "</table>\n");
}

void fleet_html_rails(struct html_out *o, const json_t *diff)
{
	const json_t *rails = json_object_get(diff, "rails"), *r;
	long long n = (long long)json_integer_value(json_object_get(rails, "hosts"));
	size_t i;

	if (!json_is_object(rails))
		return;
	html_printf(o, "<section id=\"rails\"><h2>Rails</h2>\n<p class=\"note\">Which switch "
		    "each rail's ports reach, over the %lld %s whose newest record lists its "
		    "rails' neighbours. A switch is rail k's when most hosts that reach it "
		    "reach it on rail k.</p>\n", n, n == 1 ? "host" : "hosts");
	findings(o, rails);
	ties(o, rails);
	html_raw(o, "<div class=\"tables\">\n");
	json_array_foreach(json_object_get(rails, "rails"), i, r)
		rail_table(o, r);
	html_raw(o, "</div>\n</section>\n");
}
