/* fabric --load's report as JSON and text (fabric_load_out.h). */
#include "fabric_load_out.h"
#include "json.h"
#include "plural.h"
#include "text_printf.h"

#include <math.h>
#include <string.h>

const char *fab_load_verdict_of(const struct fab_report *r)
{
	return r->error ? "error" : r->load->j->verdict ? r->load->j->verdict : "error";
}

const char *fab_load_reason_of(const struct fab_report *r)
{
	return r->error ? r->error : r->load->j->verdict ? r->load->j->reason : "not judged";
}

static const char *node_name(const struct fab_report *r, uint32_t i)
{
	return i < r->n_nodes ? r->nodes[i].name : "?";
}

/* ---- JSON ---- */

static json_t *prios_json(int mask)
{
	json_t *a;

	if (mask < 0)
		return json_null();
	a = json_array();
	for (int p = 0; a && p < 8; p++)
		if (mask & (1 << p))
			json_array_append_new(a, json_integer(p));
	return a;
}

static json_t *port_json(const struct fab_report *r, const struct fab_port_load *l)
{
	json_t *c = json_object(), *reset = json_array(), *o;

	for (size_t i = 0; c && reset && i < l->n; i++) {
		if (l->c[i].reset)
			json_array_append_new(reset, json_string(l->c[i].name));
		else
			json_object_set_new(c, l->c[i].name, json_integer((json_int_t)l->c[i].delta));
	}
	o = json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:o}", "node", node_name(r, l->rank), "rail",
		      (int)l->rail, "rate_gbps", json_number_or_null(l->rate_gbps),
		      "pfc_priorities", prios_json(l->pfc_mask), "unread",
		      json_string_or_null(l->unread), "counters", c ? c : json_null(),
		      "reset", reset ? reset : json_null());
	return o;
}

/* Each round's counters into doc's rounds[k] (load rounds are the main
 * rounds, in order). */
static int rounds_add(json_t *doc, const struct fab_report *r)
{
	json_t *rounds = json_object_get(doc, "rounds");

	for (size_t k = 0; k < json_array_size(rounds); k++) {
		json_t *a = json_array();

		for (size_t i = 0; a && i < r->load->n_ports; i++)
			if (r->load->ports[i].round == k &&
			    json_array_append_new(a, port_json(r, &r->load->ports[i])) < 0) {
				json_decref(a);
				a = NULL;
			}
		if (!a || json_object_set_new(json_array_get(rounds, k), "counters", a) < 0)
			return -1;
	}
	return 0;
}

static json_t *known(bool k, uint64_t v)
{
	return k ? json_integer((json_int_t)v) : json_null();
}

static json_t *row_json(const struct fab_report *r, const struct fab_load_row *w)
{
	json_t *ev = json_array(), *o;

	for (size_t i = 0; ev && i < w->n_evidence; i++) {
		const struct fab_load_evidence *e = &w->evidence[i];

		if (json_array_append_new(ev, json_pack("{s:s, s:s, s:I, s:s}", "node",
							node_name(r, e->node), "counter",
							e->counter, "delta", (json_int_t)e->delta,
							"kind", fab_ckind_name(e->kind))) < 0) {
			json_decref(ev);
			ev = NULL;
		}
	}
	if (!ev)
		return NULL;
	o = json_pack("{s:s, s:i, s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o, "
		      "s:o, s:o, s:o}, s:o, s:o, s:o}",
		      "subject", w->rail_only ? "rail" : "receiver", "rail", (int)w->rail,
		      "verdict", fab_load_verdict_name(w->v), "reason", w->reason,
		      "senders", (int)w->n_senders,
		      "goodput_gbps", json_number_or_null(w->goodput_gbps),
		      "line_gbps", json_number_or_null(w->line_gbps),
		      "min_share_gbps", json_number_or_null(w->min_share_gbps),
		      "median_share_gbps", json_number_or_null(w->median_share_gbps),
		      "weakest", w->weakest >= 0 ? json_string(node_name(r, (uint32_t)w->weakest)) :
		      json_null(),
		      "totals",
		      "drops", known(w->loss_known, w->drops),
		      "retransmits", known(w->loss_known, w->retrans),
		      "pause_tx", known(w->pause_known, w->pause_tx),
		      "pause_rx", known(w->pause_known, w->pause_rx),
		      "cnp_sent", known(w->cnp_known, w->cnp_sent),
		      "cnp_handled", known(w->cnp_known, w->cnp_handled),
		      "ecn_marked", known(w->cnp_known, w->ecn_marked),
		      "pause_priorities", w->pause_known ? prios_json(w->pause_prios) : json_null(),
		      "pfc_priorities", prios_json(w->pfc_mask),
		      "evidence", ev);
	if (o && !w->rail_only &&
	    (json_object_set_new(o, "round", json_integer((json_int_t)w->round + 1)) < 0 ||
	     json_object_set_new(o, "receiver", json_string(node_name(r, w->receiver))) < 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int fab_load_json_add(json_t *doc, const struct fab_report *r)
{
	const struct fab_load_report *l = r->load;
	json_t *rows = json_array();

	for (size_t i = 0; rows && i < l->j->n_rows; i++)
		if (json_array_append_new(rows, row_json(r, &l->j->rows[i])) < 0) {
			json_decref(rows);
			rows = NULL;
		}
	if (!rows ||
	    json_object_set_new(doc, "verdicts", rows) < 0 ||
	    json_object_set_new(doc, "load", json_pack(
		    "{s:s, s:o, s:i, s:o, s:o, s:o, s:f, s:f}", "mode", fab_load_name(l->mode),
		    "fan_in", l->mode == FAB_LOAD_INCAST && l->fan_in ? json_integer(l->fan_in) :
		    json_null(), "traffic_class", l->traffic_class,
		    "traffic_class_from", json_string_or_null(l->tc_from),
		    "priority", l->priority >= 0 ? json_integer(l->priority) : json_null(),
		    "line_gbps", json_number_or_null(l->line_gbps),
		    "goodput_fraction", FAB_LOAD_GOODPUT_FRAC,
		    "unfair_fraction", FAB_LOAD_UNFAIR_FRAC)) < 0 ||
	    rounds_add(doc, r) < 0 ||
	    json_object_set_new(doc, "verdict", json_string(fab_load_verdict_of(r))) < 0 ||
	    json_object_set_new(doc, "reason", json_string(fab_load_reason_of(r))) < 0)
		return -1;
	return 0;
}

/* ---- text ---- */

#define FAB_LOAD_TEXT_EVIDENCE 6

static void fig(FILE *out, double v)
{
	if (isfinite(v))
		text_printf(out, " %8.2f", v);
	else
		text_printf(out, " %8s", "-");
}

static void evidence(FILE *out, const struct fab_report *r, const struct fab_load_row *w)
{
	for (size_t i = 0; i < w->n_evidence && i < FAB_LOAD_TEXT_EVIDENCE; i++)
		text_printf(out, "      %s +%llu on %s\n", w->evidence[i].counter,
			    (unsigned long long)w->evidence[i].delta,
			    node_name(r, w->evidence[i].node));
	if (w->n_evidence > FAB_LOAD_TEXT_EVIDENCE)
		text_printf(out, "      ... and %zu more (--json has them all)\n",
			    w->n_evidence - FAB_LOAD_TEXT_EVIDENCE);
}

void fab_load_print(FILE *out, const struct fab_report *r)
{
	const struct fab_load_report *l = r->load;
	const struct fab_load_judgement *j = l->j;
	bool head = false;

	text_printf(out, "  traffic class %d (%s", l->traffic_class,
		    l->tc_from ? l->tc_from : "the device's default");
	if (l->priority >= 0)
		text_printf(out, "; priority %d on %s", l->priority, node_name(r, 0));
	fputs(")\n", out);
	for (size_t i = 0; i < j->n_rows; i++) {
		const struct fab_load_row *w = &j->rows[i];

		if (w->rail_only)
			continue;
		if (!head) {
			fputs("\nreceivers:\n  round  receiver             rail  verdict      "
			      "senders  goodput     line   median   lowest  Gb/s\n", out);
			head = true;
		}
		text_printf(out, "  %-5u  %-20s %-4u  %-11s  %7u", w->round + 1,
			    node_name(r, w->receiver), w->rail, fab_load_verdict_name(w->v),
			    w->n_senders);
		fig(out, w->goodput_gbps);
		fig(out, w->line_gbps);
		fig(out, w->median_share_gbps);
		fig(out, w->min_share_gbps);
		fputc('\n', out);
	}
	head = false;
	for (size_t i = 0; i < j->n_rows; i++) {
		const struct fab_load_row *w = &j->rows[i];

		if (w->rail_only || w->v == FAB_LV_LOSSLESS)
			continue;
		if (!head) {
			fputs("\nwhy:\n", out);
			head = true;
		}
		text_printf(out, "  %s %s rail %u, round %u: %s\n", fab_load_verdict_name(w->v),
			    node_name(r, w->receiver), w->rail, w->round + 1, w->reason);
		evidence(out, r, w);
	}
	head = false;
	for (size_t i = 0; i < j->n_rows; i++) {
		const struct fab_load_row *w = &j->rows[i];

		if (!w->rail_only)
			continue;
		if (!head) {
			fputs("\nrails:\n", out);
			head = true;
		}
		text_printf(out, "  rail %u: %s: %s\n", w->rail, fab_load_verdict_name(w->v),
			    w->reason);
	}
}
