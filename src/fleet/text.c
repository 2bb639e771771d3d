/* Tables for people; JSON keys stay the interface. */
#include "text.h"
#include "diff.h"
#include "fields.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const json_t *v)
{
	const char *s = json_string_value(v);

	return s ? s : "-";
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

	fprintf(out, "%-*s  %-20s  %-*s  %-7s  %8s  %7s\n", wh, "HOST", "LAST RECORD", wp,
		"PROFILE", "VERDICT", "FINDINGS", "RECORDS");
	json_array_foreach(hosts, i, h)
		fprintf(out, "%-*s  %-20s  %-*s  %-7s  %8lld  %7lld\n", wh,
			str(json_object_get(h, "host")), str(json_object_get(h, "time")), wp,
			str(json_object_get(h, "profile")), str(json_object_get(h, "verdict")),
			(long long)json_integer_value(json_object_get(h, "findings")),
			(long long)json_integer_value(json_object_get(h, "records")));
}

/* A value as people read it; "-" for null. */
static void put_value(FILE *out, const json_t *v)
{
	char *t;

	if (!v || json_is_null(v)) {
		fputs("-", out);
		return;
	}
	t = fleet_value_text(v);
	fputs(t ? t : "?", out);
	free(t);
}

void fleet_text_show(FILE *out, const json_t *show)
{
	const json_t *recs = json_object_get(show, "records"), *r;
	const json_t *changes = json_object_get(show, "changes"), *ch;
	size_t i;

	fprintf(out, "%s: %zu records\n\n", str(json_object_get(show, "host")),
		json_array_size(recs));
	fprintf(out, "%-20s  %-20s  %-7s  %s\n", "TIME", "PROFILE", "VERDICT", "FINDINGS");
	json_array_foreach(recs, i, r)
		fprintf(out, "%-20s  %-20s  %-7s  %lld\n", str(json_object_get(r, "time")),
			str(json_object_get(r, "profile")), str(json_object_get(r, "verdict")),
			(long long)json_integer_value(json_object_get(r, "findings")));
	if (json_array_size(recs) < 2)
		return;
	if (!json_array_size(changes)) {
		fputs("\nnothing changed between the records\n", out);
		return;
	}
	fputs("\nchanges\n", out);
	json_array_foreach(changes, i, ch) {
		fprintf(out, "  %s  %s %s: ", str(json_object_get(ch, "time")),
			str(json_object_get(ch, "subject")), str(json_object_get(ch, "field")));
		put_value(out, json_object_get(ch, "old"));
		fputs(" -> ", out);
		put_value(out, json_object_get(ch, "new"));
		fputc('\n', out);
	}
}

static void put_shares(FILE *out, const json_t *shares)
{
	const char *k;
	json_t *v;
	bool first = true;

	json_object_foreach((json_t *)shares, k, v) {
		fprintf(out, "%s%s: %lld", first ? "" : ", ", k, (long long)json_integer_value(v));
		first = false;
	}
}

void fleet_text_diff(FILE *out, const json_t *diff)
{
	const json_t *groups = json_object_get(diff, "groups"), *g, *o;
	size_t i, j, total = 0;

	fprintf(out, "%lld hosts in %zu groups (profile / NIC model)\n",
		(long long)json_integer_value(json_object_get(diff, "hosts")),
		json_array_size(groups));
	json_array_foreach(groups, i, g) {
		const json_t *base = json_object_get(g, "baseline"), *outl = json_object_get(g, "outliers");
		const char *field;
		json_t *v;
		int wh = width(outl, "host", "HOST"), wf = width(outl, "field", "FIELD");

		total += json_array_size(outl);
		fprintf(out, "\n%s / %s: %zu hosts, %zu differ\n", str(json_object_get(g, "profile")),
			str(json_object_get(g, "nic_model")),
			json_array_size(json_object_get(g, "hosts")), fleet_diff_group_odd_hosts(g));
		fputs("  baseline:", out);
		json_object_foreach((json_t *)base, field, v) {
			fprintf(out, " %s=", field);
			put_value(out, v);
		}
		fputc('\n', out);
		if (!json_array_size(outl))
			continue;
		fprintf(out, "  %-*s  %-*s  %-20s  %-20s  %s\n", wh, "HOST", wf, "FIELD", "VALUE",
			"BASELINE", "HOSTS PER VALUE");
		json_array_foreach(outl, j, o) {
			char *val = fleet_value_text(json_object_get(o, "value"));
			char *bl = fleet_value_text(json_object_get(o, "baseline"));

			fprintf(out, "  %-*s  %-*s  %-20s  %-20s  ", wh, str(json_object_get(o, "host")),
				wf, str(json_object_get(o, "field")), val ? val : "?", bl ? bl : "?");
			put_shares(out, json_object_get(o, "shares"));
			fputc('\n', out);
			free(val);
			free(bl);
		}
	}
	fprintf(out, "\n%s\n", total ? "hosts differ from their group's baseline"
				   : "no drift: every host matches its group's baseline");
}
