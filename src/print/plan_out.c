#include "plan_out.h"
#include "text_printf.h"
#include "plural.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* 70e9 -> "70B", 46.7e9 -> "46.7B" */
static void count_str(char *buf, size_t len, double v)
{
	static const struct { double scale; const char *suffix; } units[] = {
		{ 1e12, "T" }, { 1e9, "B" }, { 1e6, "M" }, { 1e3, "K" },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (v >= units[i].scale) {
			snprintf(buf, len, "%.4g%s", v / units[i].scale, units[i].suffix);
			return;
		}
	snprintf(buf, len, "%.4g", v);
}

static void gb_str(char *buf, size_t len, double bytes)
{
	if (bytes >= 1e9 || bytes == 0)
		snprintf(buf, len, "%.1f GB", bytes / 1e9);
	else
		snprintf(buf, len, "%.0f MB", bytes / 1e6);
}

static void seconds_str(char *buf, size_t len, double s)
{
	if (!isfinite(s))
		snprintf(buf, len, "forever");
	else if (s >= 0.1 || s == 0)
		snprintf(buf, len, "%.2f s", s);
	else
		snprintf(buf, len, "%.1f ms", s * 1e3);
}

/* The slowest rate that needs at most two ports per GPU, and the next rate
 * when it needs fewer ports: "16 x 200G or 8 x 400G".  Where no rate does
 * it with two per GPU, the first that does it at all. */
static size_t shown_options(const struct plan_need *n, int gpus, const struct plan_option **v)
{
	size_t k = 0;

	for (size_t i = 0; i < PLAN_RATES && k < 2; i++) {
		const struct plan_option *o = &n->options[i];

		if (!o->ports_per_node || (k == 0 && o->ports_per_node > 2 * gpus))
			continue;
		if (k == 1 && o->ports_per_node >= v[0]->ports_per_node)
			break;
		v[k++] = o;
	}
	for (size_t i = 0; i < PLAN_RATES && !k; i++)
		if (n->options[i].ports_per_node)
			v[k++] = &n->options[i];
	return k;
}

static void need_line(FILE *out, const char *what, const struct plan_need *n, int gpus)
{
	const struct plan_option *v[2];
	size_t k = shown_options(n, gpus, v);

	text_printf(out, "  %.1f GB/s per GPU %s: ", n->per_gpu_gbytes, what);
	if (!k) {
		fputs("more than 4 x 800G per GPU\n", out);
		return;
	}
	for (size_t i = 0; i < k; i++)
		text_printf(out, "%s%d x %dG", i ? " or " : "", v[i]->ports_per_node, v[i]->rate_gbps);
	fputs(" per node", out);
	for (size_t i = 0, slow = 0; i < k; i++)
		if (v[i]->pcie_ok == 0)
			text_printf(out, "%s%dG", slow++ ? ", " : " (this machine's NIC slots are too "
				    "slow for ", v[i]->rate_gbps);
	for (size_t i = 0; i < k; i++)
		if (v[i]->pcie_ok == 0) {
			fputs(" ports)", out);
			break;
		}
	fputc('\n', out);
}

static const char *verdict_words(enum plan_verdict v)
{
	switch (v) {
	case PLAN_FITS: return "fits: the network takes under a tenth of the step";
	case PLAN_TIGHT: return "tight: the network fits only if it overlaps the compute";
	case PLAN_BOUND: return "network-bound: the GPUs wait for the network";
	default: return "no verdict without a compute time (--step-seconds T or --tflops X)";
	}
}

static void machine_line(FILE *out, const struct plan_report *p)
{
	const struct plan_machine *m = p->machine;
	double rate = m->n_ports ? m->ports[0].rate_gbps : 0;
	bool same = true, ib = m->n_ports && m->ports[0].ib;

	for (size_t i = 1; i < m->n_ports; i++)
		if (m->ports[i].rate_gbps != rate || m->ports[i].ib != ib)
			same = false;
	text_printf(out, "machine: %s: ", p->source);
	if (same)
		text_printf(out, "%zu x %gG %s port%s", m->n_ports, rate, ib ? "InfiniBand" : "RoCE",
			    m->n_ports == 1 ? "" : "s");
	else
		text_printf(out, "%zu rail ports of mixed rates", m->n_ports);
	text_printf(out, " for %d %s\n", m->gpus_per_node, plural((unsigned)m->gpus_per_node, "GPU",
									     "GPUs"));
}

static void bandwidth_line(FILE *out, const struct plan_report *p)
{
	const struct plan_result *r = p->result;
	const struct plan_port *c = r->cap_port;

	text_printf(out, "per GPU: %.2f GB/s one way at line rate, %.2f GB/s expected (%.0f %%)",
		    r->per_gpu_line, r->per_gpu_expected,
		    r->per_gpu_line > 0 ? 100 * r->per_gpu_expected / r->per_gpu_line : 100);
	if (r->capped_by == PLAN_CAP_PCIE && c)
		text_printf(out, ", capped by PCIe: %s's %s link carries %.1f GB/s for its card\n",
			    c->nic, c->pcie_link[0] ? c->pcie_link : "PCIe", c->pcie_gbytes);
	else if (r->capped_by == PLAN_CAP_MEASURED && c)
		text_printf(out, ", capped by what was measured: %s port %d %g Gb/s of its %g "
			    "(nominal %.2f GB/s per GPU)\n", c->nic, c->port, c->measured_gbps,
			    c->rate_gbps, r->per_gpu_nominal);
	else
		text_printf(out, ", set by the port rate\n");
}

static void traffic_table(FILE *out, const struct plan_report *p)
{
	const struct plan_result *r = p->result;

	text_printf(out, "\n%-30s %6s %8s %10s %10s %10s\n", "traffic per GPU per step", "group",
		    "in node", "total", "via NIC", "NIC time");
	for (int k = 0; k < PLAN_KINDS; k++) {
		const struct plan_traffic *t = &r->traffic[k];
		char total[32], nic[32], secs[32];

		if (t->group <= 1)
			continue;
		gb_str(total, sizeof(total), t->bytes);
		gb_str(nic, sizeof(nic), t->nic_bytes);
		seconds_str(secs, sizeof(secs), plan_seconds(t->nic_bytes, r->per_gpu_line));
		text_printf(out, "%-30s %6d %8d %10s %10s %10s\n",
			    plan_kind_title((enum plan_kind)k), t->group, t->per_node, total,
			    t->nic_bytes > 0 ? nic : "NVLink", t->nic_bytes > 0 ? secs : "-");
	}
}

static void notes(FILE *out, const struct plan_report *p)
{
	const struct plan_machine *m = p->machine;

	if (p->measured_from)
		text_printf(out, "measured: %s\n", p->measured_from);
	if (m->gpudirect == 0)
		text_printf(out, "note: no GPUDirect RDMA: traffic is staged through host memory, "
			    "slower than these figures and CPU-bound\n");
	if (m->ports_down)
		text_printf(out, "note: %zu rail port%s not up, planned without\n", m->ports_down,
			    m->ports_down == 1 ? "" : "s");
	if (!p->job->global_batch)
		text_printf(out, "note: one micro-batch per step assumed (give --global-batch)\n");
}

void plan_print_text(FILE *out, const struct plan_report *p)
{
	const struct plan_job *j = p->job;
	const struct plan_result *r = p->result;
	char params[32], line[32], expected[32], compute[32];

	seconds_str(line, sizeof(line), r->network_line_s);
	seconds_str(expected, sizeof(expected), r->network_expected_s);
	text_printf(out, "plan: %s\n", verdict_words(r->verdict));
	/* said at once: only NVLink carries per-layer AllReduces */
	if (r->tp_spans_nodes)
		text_printf(out, "RED FLAG: the tensor-parallel group of %d spans %d nodes of %d GPUs: "
			    "its per-layer AllReduces cross the NIC (keep TP inside one NVLink "
			    "domain)\n", j->tp, (j->tp + p->machine->gpus_per_node - 1) /
			    p->machine->gpus_per_node, p->machine->gpus_per_node);
	text_printf(out, "network: at least %s per step at line rate, %s expected", line, expected);
	if (!isnan(r->compute_s)) {
		seconds_str(compute, sizeof(compute), r->compute_s);
		text_printf(out, "; compute %s (the network is %.0f %% of it if not overlapped)",
			    compute, 100 * r->share);
	}
	fputc('\n', out);
	count_str(params, sizeof(params), j->params);
	text_printf(out, "job: %s%s%s%s parameters, TP %d x PP %d x DP %d", p->model ? p->model : "",
		    p->model ? " (" : "", params, p->model ? ")" : "", j->tp, j->pp, j->dp);
	if (j->ep > 1)
		text_printf(out, " (EP %d)", j->ep);
	text_printf(out, " = %d %s on %d %s; %s, gradients %s", r->gpus,
		plural((unsigned)r->gpus, "GPU", "GPUs"), r->nodes,
		plural((unsigned)r->nodes, "node", "nodes"), p->dtype, p->grad_dtype);
	if (j->zero)
		text_printf(out, ", ZeRO-%d", j->zero);
	text_printf(out, "; %lld micro-batch%s per step\n", r->micro_batches,
		    r->micro_batches == 1 ? "" : "es");
	if (p->shape_assumed)
		text_printf(out, "model: %s\n", p->shape_assumed);
	machine_line(out, p);
	bandwidth_line(out, p);
	traffic_table(out, p);
	if (r->nic_bytes <= 0)
		text_printf(out, "\nneeds: nothing crosses the NIC: every group stays inside a node\n");
	else if (!isnan(r->overlap.per_gpu_gbytes)) {
		text_printf(out, "\nneeds:\n");
		need_line(out, "to hide the network behind the compute", &r->overlap,
			  p->machine->gpus_per_node);
		need_line(out, "to keep it under a tenth of the step", &r->no_overlap,
			  p->machine->gpus_per_node);
	}
	fputc('\n', out);
	notes(out, p);
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *need_json(const struct plan_need *n)
{
	json_t *opts = json_array();

	for (size_t i = 0; opts && i < PLAN_RATES; i++) {
		const struct plan_option *o = &n->options[i];

		json_array_append_new(opts, json_pack("{s:i, s:o, s:o, s:o}",
			"rate_gbps", o->rate_gbps,
			"ports_per_node", o->ports_per_node ? json_integer(o->ports_per_node) : json_null(),
			"per_gpu_gbytes_per_s", o->ports_per_node ? num(o->per_gpu_gbytes) : json_null(),
			"pcie_ok", o->pcie_ok < 0 ? json_null() : json_boolean(o->pcie_ok)));
	}
	return json_pack("{s:o, s:o}", "per_gpu_gbytes_per_s", num(n->per_gpu_gbytes),
			 "options", opts ? opts : json_null());
}

static json_t *ports_json(const struct plan_machine *m)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < m->n_ports; i++) {
		const struct plan_port *p = &m->ports[i];

		json_array_append_new(a, json_pack("{s:s, s:i, s:o, s:o, s:s, s:o, s:o, s:o}",
			"nic", p->nic, "port", p->port, "rate_gbps", num(p->rate_gbps),
			"measured_gbps", num(p->measured_gbps),
			"link_layer", p->ib ? "InfiniBand" : "Ethernet",
			"mtu", p->mtu ? json_integer(p->mtu) : json_null(),
			"pcie_link", p->pcie_link[0] ? json_string(p->pcie_link) : json_null(),
			"pcie_gbytes_per_s", num(p->pcie_gbytes)));
	}
	return a;
}

static json_t *traffic_json(const struct plan_result *r)
{
	json_t *a = json_array();

	for (int k = 0; a && k < PLAN_KINDS; k++) {
		const struct plan_traffic *t = &r->traffic[k];

		if (t->group <= 1)
			continue;
		json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:b, s:o}",
			"kind", plan_kind_name((enum plan_kind)k),
			"title", plan_kind_title((enum plan_kind)k),
			"group", t->group, "ranks_per_node", t->per_node,
			"bytes_per_gpu_per_step", num(t->bytes),
			"nic_bytes_per_gpu_per_step", num(t->nic_bytes),
			"crosses_nic", t->nic_bytes > 0,
			"network_seconds_line_rate",
			num(plan_seconds(t->nic_bytes, r->per_gpu_line))));
	}
	return a;
}

static json_t *job_json(const struct plan_report *p)
{
	const struct plan_job *j = p->job;
	const struct plan_result *r = p->result;
	json_t *o = json_pack("{s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s}",
		"model", p->model ? json_string(p->model) : json_null(),
		"params", num(j->params), "tp", j->tp, "pp", j->pp, "dp", j->dp, "ep", j->ep,
		"zero", j->zero, "gpus", r->gpus, "nodes", r->nodes,
		"gpus_per_node", p->machine->gpus_per_node,
		"dtype", p->dtype, "grad_dtype", p->grad_dtype);

	if (!o)
		return NULL;
	json_object_set_new(o, "shape_assumed", json_boolean(p->shape_assumed != NULL));
	json_object_set_new(o, "layers", j->layers ? json_integer(j->layers) : json_null());
	json_object_set_new(o, "hidden", j->hidden ? json_integer(j->hidden) : json_null());
	json_object_set_new(o, "seq", json_integer(j->seq));
	json_object_set_new(o, "micro_batch", json_integer(j->micro_batch));
	json_object_set_new(o, "global_batch", json_integer(r->global_batch));
	json_object_set_new(o, "micro_batches", json_integer(r->micro_batches));
	json_object_set_new(o, "experts", json_integer(j->experts));
	json_object_set_new(o, "top_k", json_integer(j->top_k));
	json_object_set_new(o, "moe_layers", json_integer(j->moe_layers));
	json_object_set_new(o, "step_seconds", j->step_seconds > 0 ? num(j->step_seconds) : json_null());
	json_object_set_new(o, "tflops", j->tflops > 0 ? num(j->tflops) : json_null());
	return o;
}

json_t *plan_to_json(const struct plan_report *p)
{
	const struct plan_result *r = p->result;
	const struct plan_machine *m = p->machine;
	const struct plan_port *c = r->cap_port;
	json_t *doc = json_pack(
		"{s:i, s:s, s:o, s:{s:s, s:i, s:o, s:I, s:o}, s:o, s:o, "
		"s:{s:o, s:o, s:o}, s:s, s:o, s:{s:o, s:o}, s:o, s:o, s:b, s:{s:o, s:o}}",
		"schema", PLAN_SCHEMA, "verdict", plan_verdict_name(r->verdict),
		"job", job_json(p),
		"machine", "source", p->source, "gpus_per_node", m->gpus_per_node,
		"ports", ports_json(m), "ports_down", (json_int_t)m->ports_down,
		"gpudirect", m->gpudirect < 0 ? json_null() : json_boolean(m->gpudirect),
		"traffic", traffic_json(r),
		"per_gpu_gbps", num(r->per_gpu_line * 8),
		"per_gpu_gbytes_per_s", "nominal", num(r->per_gpu_nominal),
		"line_rate", num(r->per_gpu_line), "expected", num(r->per_gpu_expected),
		"capped_by", plan_cap_name(r->capped_by),
		"cap", c ? json_pack("{s:s, s:i, s:o, s:o}", "nic", c->nic, "port", c->port,
				     "pcie_link", c->pcie_link[0] ? json_string(c->pcie_link) : json_null(),
				     "measured_gbps", num(c->measured_gbps)) : json_null(),
		"network_seconds", "line_rate", num(r->network_line_s),
		"expected", num(r->network_expected_s),
		"compute_seconds", num(r->compute_s), "network_share", num(r->share),
		"tp_spans_nodes", r->tp_spans_nodes,
		"needs", "overlap", need_json(&r->overlap), "no_overlap", need_json(&r->no_overlap));

	if (doc)
		json_object_set_new(doc, "measured_from",
				    p->measured_from ? json_string(p->measured_from) : json_null());
	return doc;
}
