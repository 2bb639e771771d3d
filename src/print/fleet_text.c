/* Tables for people; JSON keys stay the interface. */
#include "fleet_text.h"
#include "plural.h"
#include "text_printf.h"
#include "../fleet/diff.h"
#include "../fleet/fields.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const json_t *v)
{
	const char *s = json_string_value(v);

	return s ? s : FLEET_MISSING;
}

/* The widest value of key over the rows, at least the heading. */
static int width(const json_t *rows, const char *key, const char *heading)
{
	size_t i, w = strlen(heading);
	const json_t *r;

	json_array_foreach(rows, i, r) {
		size_t n = strlen(str(json_object_get(r, key)));

		if (n > w)
			w = n;
	}
	return (int)(w > 64 ? 64 : w);
}

void fleet_text_ls(FILE *out, const json_t *ls)
{
	const json_t *hosts = json_object_get(ls, "hosts"), *h;
	int wh = width(hosts, "host", "HOST"), wp = width(hosts, "profile", "PROFILE");
	size_t i;

	text_printf(out, "%-*s  %-20s  %-*s  %-7s  %8s  %7s\n", wh, "HOST", "LAST RECORD", wp,
		    "PROFILE", "VERDICT", "FINDINGS", "RECORDS");
	json_array_foreach(hosts, i, h)
		text_printf(out, "%-*s  %-20s  %-*s  %-7s  %8lld  %7lld\n", wh,
			    str(json_object_get(h, "host")), str(json_object_get(h, "time")), wp,
			    str(json_object_get(h, "profile")), str(json_object_get(h, "verdict")),
			    (long long)json_integer_value(json_object_get(h, "findings")),
			    (long long)json_integer_value(json_object_get(h, "records")));
}

/* A value as people read it; FLEET_MISSING for null (nothing there). */
static void put_value_padded(FILE *out, const json_t *v, int pad)
{
	char *t = !v || json_is_null(v) ? NULL : fleet_value_text(v);

	text_printf(out, "%-*s", pad, t ? t : (!v || json_is_null(v)) ? FLEET_MISSING : "?");
	free(t);
}

static void put_value(FILE *out, const json_t *v)
{
	put_value_padded(out, v, 0);
}

void fleet_text_show(FILE *out, const json_t *show)
{
	const json_t *recs = json_object_get(show, "records"), *r;
	const json_t *changes = json_object_get(show, "changes"), *ch;
	size_t i, n = json_array_size(recs);

	text_printf(out, "%s: %zu %s\n\n", str(json_object_get(show, "host")), n,
		    n == 1 ? "record" : "records");
	text_printf(out, "%-20s  %-20s  %-7s  %8s  %-20s  %s\n", "TIME", "PROFILE", "VERDICT",
		    "FINDINGS", "LAST SEEN", "CHECKS");
	json_array_foreach(recs, i, r) {
		const json_t *checks = json_object_get(r, "checks");

		text_printf(out, "%-20s  %-20s  %-7s  %8lld  %-20s  %lld\n", str(json_object_get(r, "time")),
			    str(json_object_get(r, "profile")), str(json_object_get(r, "verdict")),
			    (long long)json_integer_value(json_object_get(r, "findings")),
			    str(json_object_get(r, "last_seen")),
			    checks ? (long long)json_integer_value(checks) : 1LL);
	}
	if (json_array_size(recs) < 2)
		return;
	if (!json_array_size(changes)) {
		fputs("\nnothing changed between the records\n", out);
		return;
	}
	fputs("\nchanges\n", out);
	json_array_foreach(changes, i, ch) {
		text_printf(out, "  %s  %s %s: ", str(json_object_get(ch, "time")),
			    str(json_object_get(ch, "subject")), str(json_object_get(ch, "field")));
		put_value(out, json_object_get(ch, "old"));
		fputs(" -> ", out);
		put_value(out, json_object_get(ch, "new"));
		fputc('\n', out);
	}
}

/* "4096 on 9 hosts, 2048 on 1" */
static void put_shares(FILE *out, const json_t *shares)
{
	const char *k;
	json_t *v;
	bool first = true;

	json_object_foreach((json_t *)shares, k, v) {
		long long n = (long long)json_integer_value(v);

		text_printf(out, "%s%s on %lld%s", first ? "" : ", ", fleet_share_text(k), n,
			    first ? plural((size_t)n, " host", " hosts") : "");
		first = false;
	}
}

static void text_group(FILE *out, const json_t *g)
{
	const json_t *base = json_object_get(g, "baseline"), *outl = json_object_get(g, "outliers");
	const json_t *ties = json_object_get(g, "no_majority"), *o;
	size_t n_hosts = json_array_size(json_object_get(g, "hosts"));
	size_t odd = fleet_diff_group_odd_hosts(g), n_out = json_array_size(outl), j;
	const char *field;
	json_t *v;
	int wh = width(outl, "host", "HOST"), wf = width(outl, "field", "FIELD");
	int ws = width(outl, "subject", "SUBJECT");

	text_printf(out, "\n%s / %s / %s: %zu %s, %zu %s", str(json_object_get(g, "profile")),
		    str(json_object_get(g, "nic_model")), str(json_object_get(g, "link_layer")),
		    n_hosts, plural(n_hosts, "host", "hosts"), odd, plural(odd, "differs", "differ"));
	if (odd)
		text_printf(out, " in %zu %s", n_out, plural(n_out, "value", "values"));
	fputs("\n  baseline:", out);
	json_object_foreach((json_t *)base, field, v) {
		text_printf(out, " %s=", field);
		put_value(out, v);
	}
	fputc('\n', out);
	json_array_foreach(ties, j, o) {
		const char *subject = json_string_value(json_object_get(o, "subject"));

		text_printf(out, "  no majority: %s%s%s: ", str(json_object_get(o, "field")),
			    subject ? " of " : "", subject ? subject : "");
		put_shares(out, json_object_get(o, "shares"));
		fputc('\n', out);
	}
	if (!n_out)
		return;
	text_printf(out, "  %-*s  %-*s  %-*s  %-20s  %-20s  %s\n", wh, "HOST", wf, "FIELD", ws,
		    "SUBJECT", "VALUE", "BASELINE", "HOSTS PER VALUE");
	json_array_foreach(outl, j, o) {
		text_printf(out, "  %-*s  %-*s  %-*s  ", wh, str(json_object_get(o, "host")),
			    wf, str(json_object_get(o, "field")), ws, str(json_object_get(o, "subject")));
		put_value_padded(out, json_object_get(o, "value"), 20);
		fputs("  ", out);
		put_value_padded(out, json_object_get(o, "baseline"), 20);
		fputs("  ", out);
		put_shares(out, json_object_get(o, "shares"));
		fputc('\n', out);
	}
}

static void text_fabric(FILE *out, const json_t *diff)
{
	const json_t *fabric = json_object_get(diff, "fabric");
	const json_t *suspects = json_object_get(fabric, "suspects"), *x;
	json_t *named = json_object();
	size_t i, n, un = fleet_diff_fabric_unrecorded(diff);

	if (!json_is_object(fabric) || !named) {
		json_decref(named);
		return;
	}
	/* hosts, each once (a node in two suspects is one host) */
	json_array_foreach(suspects, i, x)
		if (json_is_string(json_object_get(x, "host")))
			json_object_set_new(named, json_string_value(json_object_get(x, "host")),
					    json_true());
	n = json_object_size(named);
	json_decref(named);
	text_printf(out, "\nfabric report of %s: %s, %zu %s named", str(json_object_get(fabric, "time")),
		    str(json_object_get(fabric, "verdict")), n,
		    un ? plural(n, "node", "nodes") : plural(n, "host", "hosts"));
	if (un)
		text_printf(out, ", %zu with no record here (not counted as %s of this fleet)", un,
			    plural(un, "a host", "hosts"));
	fputc('\n', out);
	json_array_foreach(suspects, i, x) {
		const json_t *rail = json_object_get(x, "rail");

		text_printf(out, "  %s%s: %s %s", str(json_object_get(x, "host")),
			    json_is_false(json_object_get(x, "recorded")) ? " (no record)" : "",
			    str(json_object_get(x, "kind")), str(json_object_get(x, "subject")));
		if (rail) {
			fputs(" rail ", out);
			put_value(out, rail);
		}
		text_printf(out, ": %s\n", str(json_object_get(x, "reason")));
	}
}

static void text_host_drift(FILE *out, const json_t *diff)
{
	const json_t *changes = json_object_get(diff, "profile_changes");
	const json_t *splits = json_object_get(diff, "profile_splits"), *c, *p, *h;
	size_t i, j, k;

	if (json_array_size(changes))
		fputs("\nprofile changed since the record before\n", out);
	json_array_foreach(changes, i, c) {
		text_printf(out, "  %s: ", str(json_object_get(c, "host")));
		put_value(out, json_object_get(c, "from"));
		fputs(" -> ", out);
		put_value(out, json_object_get(c, "to"));
		fputc('\n', out);
	}
	if (json_array_size(splits))
		fputs("\nthe same machine (DMI product, GPUs and NPUs) judged against "
		      "different profiles\n", out);
	json_array_foreach(splits, i, c) {
		text_printf(out, "  %s with %s:\n", str(json_object_get(c, "dmi_product")),
			    str(json_object_get(c, "gpus")));
		json_array_foreach(json_object_get(c, "profiles"), j, p) {
			size_t n = json_array_size(json_object_get(p, "hosts"));

			text_printf(out, "    %s: %zu %s:", str(json_object_get(p, "profile")), n,
				    plural(n, "host", "hosts"));
			json_array_foreach(json_object_get(p, "hosts"), k, h)
				text_printf(out, " %s", str(h));
			fputc('\n', out);
		}
	}
}

/* "leaf-r2 on 5 hosts, leaf-r3 on 1 (rail 3's)": whose each switch is, when
 * it is not this rail's. */
static void rail_switches(FILE *out, const json_t *rail)
{
	const json_t *sws = json_object_get(rail, "switches"), *sw;
	json_int_t k = json_integer_value(json_object_get(rail, "rail"));
	size_t i;

	json_array_foreach(sws, i, sw) {
		const json_t *owner = json_object_get(sw, "owner");
		long long n = (long long)json_integer_value(json_object_get(sw, "hosts"));

		text_printf(out, "%s%s on %lld%s", i ? ", " : "", str(json_object_get(sw, "switch")),
			    n, i ? "" : plural((size_t)n, " host", " hosts"));
		if (!json_is_integer(owner))
			fputs(" (no owner: rails tie)", out);
		else if (json_integer_value(owner) != k)
			text_printf(out, " (rail %lld's)", (long long)json_integer_value(owner));
	}
}

/* "\nTITLE, over N hosts": the head of a view over the fleet's hosts. */
static void section_head(FILE *out, const char *title, const json_t *view)
{
	size_t n = (size_t)json_integer_value(json_object_get(view, "hosts"));

	text_printf(out, "\n%s, over %zu %s\n", title, n, plural(n, "host", "hosts"));
}

/* Per rail the switches it reaches, the ties, and the hosts cabled to
 * another rail's switch. */
static void text_rails(FILE *out, const json_t *rails)
{
	const json_t *r, *h;
	size_t i, j;

	if (!json_is_object(rails))
		return;
	section_head(out, "rails: which switch each rail reaches", rails);
	json_array_foreach(json_object_get(rails, "rails"), i, r) {
		size_t un = (size_t)json_integer_value(json_object_get(r, "not_checked"));

		text_printf(out, "  rail %lld: ", (long long)json_integer_value(json_object_get(r,
			    "rail")));
		rail_switches(out, r);
		if (un) {
			text_printf(out, "%snot checked on %zu %s (neighbour not known):",
				    json_array_size(json_object_get(r, "switches")) ? "; " : "", un,
				    plural(un, "host", "hosts"));
			json_array_foreach(json_object_get(r, "not_checked_hosts"), j, h)
				text_printf(out, " %s", str(h));
		}
		fputc('\n', out);
	}
	json_array_foreach(json_object_get(rails, "no_owner"), i, r) {
		const char *k;
		json_t *v;
		bool first = true;

		text_printf(out, "  no owner: %s is reached", str(json_object_get(r, "switch")));
		json_object_foreach(json_object_get(r, "shares"), k, v) {
			long long n = (long long)json_integer_value(v);

			text_printf(out, "%s on rail %s by %lld%s", first ? "" : ",", k, n,
				    first ? plural((size_t)n, " host", " hosts") : "");
			first = false;
		}
		fputs(": no rail's switch, no host judged by it\n", out);
	}
	json_array_foreach(json_object_get(rails, "findings"), i, r)
		text_printf(out, "  %s: %s\n", str(json_object_get(r, "host")),
			    str(json_object_get(r, "reason")));
}

/* Per PSID the versions its boards run, most hosts first: each version
 * with its hosts named, except the one most hosts run when one leads
 * (the rest are the ones to look at). */
static void text_firmware(FILE *out, const json_t *fw)
{
	const json_t *p, *v, *h;
	size_t i, j, k;

	if (!json_is_object(fw))
		return;
	section_head(out, "firmware: which version each board (PSID) runs", fw);
	json_array_foreach(json_object_get(fw, "psids"), i, p) {
		const json_t *vers = json_object_get(p, "versions");
		long long top = (long long)json_integer_value(json_object_get(json_array_get(vers,
			0), "hosts"));
		long long next = (long long)json_integer_value(json_object_get(json_array_get(vers,
			1), "hosts"));

		text_printf(out, "  %s:", str(json_object_get(p, "psid")));
		json_array_foreach(vers, j, v) {
			long long n = (long long)json_integer_value(json_object_get(v, "hosts"));
			const json_t *ver = json_object_get(v, "version");

			if (json_is_string(ver))
				text_printf(out, "%s %s on %lld %s", j ? ";" : "", json_string_value(ver),
					    n, plural((size_t)n, "host", "hosts"));
			else
				text_printf(out, "%s not read on %lld %s", j ? ";" : "", n,
					    plural((size_t)n, "host", "hosts"));
			if (j == 0 && json_array_size(vers) > 1 && top > next)
				continue;
			if (j == 0 && json_array_size(vers) == 1)
				continue;
			fputc(':', out);
			json_array_foreach(json_object_get(v, "host_names"), k, h)
				text_printf(out, " %s", str(h));
		}
		fputc('\n', out);
	}
}

void fleet_text_diff(FILE *out, const json_t *diff)
{
	const json_t *groups = json_object_get(diff, "groups"), *g;
	size_t i, n_groups = json_array_size(groups), odd = fleet_diff_odd_hosts(diff);
	long long hosts = (long long)json_integer_value(json_object_get(diff, "hosts"));

	text_printf(out, "%lld %s in %zu %s (profile / NIC model / link layer)\n", hosts,
		    plural((size_t)hosts, "host", "hosts"), n_groups,
		    plural(n_groups, "group", "groups"));
	json_array_foreach(groups, i, g)
		text_group(out, g);
	text_host_drift(out, diff);
	text_fabric(out, diff);
	text_rails(out, json_object_get(diff, "rails"));
	text_firmware(out, json_object_get(diff, "firmware"));
	if (odd)
		text_printf(out, "\n%zu %s %s from %s group's baseline, profile or rails\n", odd,
			    plural(odd, "host", "hosts"), plural(odd, "differs", "differ"),
			    plural(odd, "its", "their"));
	else
		fputs("\nno drift: every host matches its group's baseline\n", out);
}
