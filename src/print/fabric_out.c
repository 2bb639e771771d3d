/* The fabric report as JSON and as text (fabric_out.h). */
#include "fabric_out.h"
#include "fabric_load_out.h"
#include "json.h"
#include "text_printf.h"
#include "plural.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fab_pair_name(const struct fab_report *r, uint32_t a, uint32_t b, char *out, size_t outsz)
{
	snprintf(out, outsz, "%s-%s", r->nodes[a].name, r->nodes[b].name);
}

static const char *state_name(enum fab_node_state s)
{
	return s == FAB_NODE_OK ? "ok" : s == FAB_NODE_NEVER ? "never answered" : "died";
}

/* ---- JSON ---- */

static json_t *result_json(const struct fab_report *r, const struct fab_result *x)
{
	json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:b, s:{s:o, s:o}, s:s}", "a",
			      r->nodes[x->a].name, "b", r->nodes[x->b].name, "rail", (int)x->rail,
			      "round", (int)x->round + 1, "retest", x->retest, "gbps", "a_to_b",
			      json_number_or_null(x->ab), "b_to_a", json_number_or_null(x->ba),
			      /* under load the receivers are judged, not the pairs */
			      "verdict", !r->load ? fab_pair_verdict_name(x->verdict) :
			      x->error ? "error" : "measured");

	if (o && r->lat && json_object_set_new(o, "lat_usec", json_number_or_null(x->lat_usec)) < 0)
		goto fail;
	if (o && x->error && json_object_set_new(o, "error", json_string(x->error)) < 0)
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

static json_t *rounds_json(const struct fab_report *r)
{
	json_t *a = json_array();
	const struct fab_schedule *s[2] = { r->main_rounds, r->retest_rounds };
	size_t k = 0;

	for (int w = 0; a && w < 2; w++) {
		for (size_t i = 0; s[w] && i < s[w]->n_rounds; i++, k++) {
			json_t *pairs = json_array(), *o;

			for (size_t p = 0; pairs && p < s[w]->rounds[i].n_pairs; p++) {
				const struct fab_pair *fp = &s[w]->rounds[i].pairs[p];

				if (json_array_append_new(pairs, json_pack("[s,s]",
									   r->nodes[fp->a].name,
									   r->nodes[fp->b].name)) < 0) {
					json_decref(pairs);
					pairs = NULL;
				}
			}
			o = pairs ? json_pack("{s:i, s:b, s:o}", "round", (int)k + 1, "retest", w == 1,
					      "pairs", pairs) : NULL;
			if (!o || json_array_append_new(a, o) < 0) {
				json_decref(a);
				return NULL;
			}
		}
	}
	return a;
}

static json_t *suspect_json(const struct fab_report *r, const struct fab_suspect *s)
{
	char subject[2 * 64 + 2];
	json_t *ev = json_array(), *o;

	if (s->kind == FAB_SUSPECT_PAIR)
		fab_pair_name(r, s->a, s->b, subject, sizeof(subject));
	else
		snprintf(subject, sizeof(subject), "%s", r->nodes[s->a].name);
	for (size_t i = 0; ev && i < s->n_evidence; i++)
		if (json_array_append_new(ev, result_json(r, &r->results[s->evidence[i]])) < 0) {
			json_decref(ev);
			ev = NULL;
		}
	if (!ev)
		return NULL;
	o = json_pack("{s:s, s:s, s:s, s:o}", "kind", fab_suspect_kind_name(s->kind), "subject",
		      subject, "reason", s->reason, "evidence", ev);
	if (o && s->rail >= 0 && json_object_set_new(o, "rail", json_integer(s->rail)) < 0) {
		json_decref(o);
		return NULL;
	}
	/* a pair's re-run alone: confirmed, cleared, error, or none */
	if (o && s->kind == FAB_SUSPECT_PAIR &&
	    json_object_set_new(o, "rerun", json_string(fab_rerun_name(s->rerun))) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *fab_report_to_json(const struct fab_report *r)
{
	const struct fab_judgement *j = r->j;
	json_t *doc, *nodes = json_array(), *pairs = json_array(), *sus = json_array(),
		*rails = json_array(), *rounds = rounds_json(r), *cleared = json_array();

	if (!nodes || !pairs || !sus || !rails || !rounds || !cleared)
		goto fail;
	for (uint32_t i = 0; i < r->n_nodes; i++)
		if (json_array_append_new(nodes, json_pack("{s:s, s:i, s:i, s:s}", "name",
							   r->nodes[i].name, "rank",
							   (int)r->nodes[i].rank, "rails",
							   (int)r->nodes[i].n_rails, "state",
							   state_name(r->nodes[i].state))) < 0)
			goto fail;
	for (size_t i = 0; i < r->n_results; i++)
		if (json_array_append_new(pairs, result_json(r, &r->results[i])) < 0)
			goto fail;
	for (size_t i = 0; j && i < j->n_suspects; i++)
		if (json_array_append_new(sus, suspect_json(r, &j->suspects[i])) < 0)
			goto fail;
	for (size_t i = 0; j && i < j->n_cleared; i++)
		if (json_array_append_new(cleared, suspect_json(r, &j->cleared[i])) < 0)
			goto fail;
	for (uint32_t i = 0; j && i < j->n_rails; i++) {
		const struct fab_rail_stats *s = &j->rails[i];

		if (json_array_append_new(rails, json_pack("{s:i, s:i, s:o, s:o, s:o, s:o}", "rail",
							   (int)s->rail, "directions", (int)s->n,
							   "min_gbps", json_number_or_null(s->min),
							   "median_gbps",
							   json_number_or_null(s->median),
							   "max_gbps", json_number_or_null(s->max),
							   "threshold_gbps",
							   json_number_or_null(s->threshold))) < 0)
			goto fail;
	}
	doc = json_pack("{s:i, s:s, s:s, s:s, s:{s:I, s:f, s:f, s:f, s:i, s:b, s:b, s:f, s:o, s:o}, s:o, "
			"s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:o}",
			"schema", FAB_SCHEMA, "test", "fabric", "transport",
			r->transport ? r->transport : "tcp", "mode", r->mode ? r->mode : "full",
			"params", "size_bytes", (json_int_t)r->size, "duration_s", r->duration_s,
			"warmup_s", r->warmup_s, "round_s", r->slot_s, "qps", (int)r->qps, "bidir", r->bidir, "lat", r->lat, "tolerance",
			r->tolerance, "floor_gbps", json_number_or_null(r->floor_gbps),
			"floor_from", json_string_or_null(r->floor_why),
			"nodes", nodes, "rounds", rounds, "pairs", pairs, "rails", rails,
			"suspects", sus, "cleared", cleared,
			"verdict", r->error ? "error" : j ? j->verdict : "error",
			"reason", r->error ? r->error : j ? j->reason : "not judged",
			"wall_s", json_number_or_null(r->wall_s));
	if (doc && r->load && fab_load_json_add(doc, r) < 0) {
		json_decref(doc);
		return NULL;
	}
	return doc;
fail:
	json_decref(nodes);
	json_decref(pairs);
	json_decref(sus);
	json_decref(rails);
	json_decref(rounds);
	json_decref(cleared);
	return NULL;
}

/* ---- text ---- */

static void fig(FILE *out, double v)
{
	if (isfinite(v))
		text_printf(out, "%8.2f", v);
	else
		text_printf(out, "%8s", "-");
}

static void result_line(FILE *out, const struct fab_report *r, const struct fab_result *x)
{
	char name[2 * 64 + 2];

	fab_pair_name(r, x->a, x->b, name, sizeof(name));
	text_printf(out, "    %-24s rail %-2u round %-3u%s ", name, x->rail, x->round + 1,
		    x->retest ? " (retest)" : "         ");
	fig(out, x->ab);
	fputs(" /", out);
	fig(out, x->ba);
	text_printf(out, " Gb/s  %s", fab_pair_verdict_name(x->verdict));
	if (x->error)
		text_printf(out, ": %s", x->error);
	fputc('\n', out);
}

static double worst(const struct fab_result *x)
{
	double a = isfinite(x->ab) ? x->ab : INFINITY, b = isfinite(x->ba) ? x->ba : INFINITY;

	return a < b ? a : b;
}

/* qsort has no context argument: the results being sorted */
static const struct fab_result *sort_base;

static int cmp_slowest(const void *x, const void *y)
{
	double a = worst(&sort_base[*(const size_t *)x]), b = worst(&sort_base[*(const size_t *)y]);

	return a < b ? -1 : a > b;
}

#define FAB_TEXT_EVIDENCE 8
#define FAB_TEXT_SLOWEST 10

/* A suspect (or a cleared pair), its reason and its evidence. */
static void suspect_print(FILE *out, const struct fab_report *r, const struct fab_suspect *s)
{
	char subject[2 * 64 + 2];

	if (s->kind == FAB_SUSPECT_PAIR)
		fab_pair_name(r, s->a, s->b, subject, sizeof(subject));
	else
		snprintf(subject, sizeof(subject), "%s", r->nodes[s->a].name);
	text_printf(out, "  %s %s", fab_suspect_kind_name(s->kind), subject);
	if (s->rail >= 0)
		text_printf(out, " rail %d", s->rail);
	text_printf(out, ": %s\n", s->reason);
	for (size_t e = 0; e < s->n_evidence && e < FAB_TEXT_EVIDENCE; e++)
		result_line(out, r, &r->results[s->evidence[e]]);
	if (s->n_evidence > FAB_TEXT_EVIDENCE)
		text_printf(out, "    ... and %zu more (--json has them all)\n",
			    s->n_evidence - FAB_TEXT_EVIDENCE);
}

void fab_report_print(FILE *out, const struct fab_report *r)
{
	const struct fab_judgement *j = r->j;
	const char *v = r->load ? fab_load_verdict_of(r) : r->error ? "error" : j ? j->verdict :
			"error";
	size_t n_main = r->main_rounds ? r->main_rounds->n_rounds : 0,
	       n_re = r->retest_rounds ? r->retest_rounds->n_rounds : 0, *idx;
	size_t n_idx = 0;

	text_printf(out, "fabric: %s: %s\n", strcmp(v, "pass") == 0 ? "PASS" :
		strcmp(v, "fail") == 0 ? "FAIL" : "ERROR",
		r->load ? fab_load_reason_of(r) : r->error ? r->error : j ? j->reason : "not judged");
	text_printf(out, "  %u %s, %zu %s (%s)", r->n_nodes, plural(r->n_nodes, "node", "nodes"),
		    n_main, plural(n_main, "round", "rounds"), r->mode ? r->mode : "full");
	if (!r->load)
		text_printf(out, " and %zu retest %s", n_re, plural(n_re, "round", "rounds"));
	text_printf(out, ", %s, %g s per test, %s", r->transport ? r->transport : "tcp",
		r->duration_s,
		r->bidir ? "both directions" : "one direction");
	if (isfinite(r->wall_s))
		text_printf(out, ", %.1f s in all", r->wall_s);
	fputc('\n', out);
	if (r->load)
		fab_load_print(out, r);
	if (!j)
		return;
	if (j->n_suspects)
		fputs("\nsuspects:\n", out);
	for (size_t i = 0; i < j->n_suspects; i++)
		suspect_print(out, r, &j->suspects[i]);
	if (j->n_cleared)
		fputs("\ncleared (slow once, at or above the threshold when re-run alone):\n", out);
	for (size_t i = 0; i < j->n_cleared; i++)
		suspect_print(out, r, &j->cleared[i]);
	fputs("\nrails (first pass, every direction):\n"
	      "  rail  directions     min  median     max  threshold  Gb/s\n", out);
	for (uint32_t i = 0; i < j->n_rails; i++) {
		const struct fab_rail_stats *s = &j->rails[i];

		text_printf(out, "  %-4u  %10zu", s->rail, s->n);
		fig(out, s->min);
		fig(out, s->median);
		fig(out, s->max);
		fputs("   ", out);
		fig(out, s->threshold);
		fputc('\n', out);
	}
	idx = malloc((r->n_results ? r->n_results : 1) * sizeof(*idx));
	if (!idx)
		return;
	for (size_t i = 0; i < r->n_results; i++)
		if (isfinite(worst(&r->results[i])))
			idx[n_idx++] = i;
	sort_base = r->results;
	qsort(idx, n_idx, sizeof(*idx), cmp_slowest);
	if (n_idx)
		fputs("\nslowest pairs (a to b / b to a):\n", out);
	for (size_t i = 0; i < n_idx && i < FAB_TEXT_SLOWEST; i++)
		result_line(out, r, &r->results[idx[i]]);
	free(idx);
}

void fab_plan_print(FILE *out, const struct fab_report *r)
{
	size_t n_pairs = fab_schedule_pairs(r->main_rounds), n_rounds = r->main_rounds->n_rounds;
	uint32_t rails = 0;

	for (uint32_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].state == FAB_NODE_OK && r->nodes[i].n_rails > rails)
			rails = r->nodes[i].n_rails;
	text_printf(out, "fabric plan: %u %s, %zu %s (%s), %zu %s, %u %s at once, %s, "
		"%.2f s per round: about %.0f s%s\n",
		r->n_nodes, plural(r->n_nodes, "node", "nodes"), n_rounds,
		plural(n_rounds, "round", "rounds"), r->mode, n_pairs,
		plural(n_pairs, "pair", "pairs"), rails, plural(rails, "rail", "rails"),
		r->transport, r->slot_s, r->slot_s * (double)n_rounds,
		r->load ? "" : ", then retest rounds as needed");
	for (size_t k = 0; k < n_rounds; k++) {
		const struct fab_round *rd = &r->main_rounds->rounds[k];

		text_printf(out, "fabric plan: round %zu:", k + 1);
		for (size_t p = 0; p < rd->n_pairs; p++)
			text_printf(out, " %s-%s", r->nodes[rd->pairs[p].a].name,
				    r->nodes[rd->pairs[p].b].name);
		fputc('\n', out);
	}
	fflush(out);
}
