/* The plan: checks the job, then traffic, bandwidth, network time against
 * compute time, verdict, and what it takes to fit. */
#include "plan.h"
#include "bandwidth.h"
#include "traffic.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int refuse(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

int plan_job_check(const struct plan_job *j, long long gpus, char *why, size_t len)
{
	long long total;

	if (!(j->params > 0) || !isfinite(j->params))
		return refuse(why, len, "give the model's size: --params 70B or --model NAME");
	if (j->tp < 1 || j->pp < 1 || j->dp < 1 || j->ep < 1)
		return refuse(why, len, "--tp, --pp, --dp and --ep must be 1 or more");
	/* in floating point first: the product of three options can overflow */
	if ((double)j->tp * j->pp * j->dp > PLAN_MAX_GPUS)
		return refuse(why, len, "DP x TP x PP = %d x %d x %d is more than %d GPUs",
			      j->dp, j->tp, j->pp, PLAN_MAX_GPUS);
	total = (long long)j->tp * j->pp * j->dp;
	if (gpus > 0 && total != gpus)
		return refuse(why, len, "DP x TP x PP = %d x %d x %d = %lld GPUs, but --gpus is %lld",
			      j->dp, j->tp, j->pp, total, gpus);
	if (j->zero < 0 || j->zero > 3)
		return refuse(why, len, "--zero is a ZeRO stage: 0, 1, 2 or 3");
	if ((j->tp > 1 || j->pp > 1 || j->ep > 1) && (j->hidden <= 0 || j->seq <= 0))
		return refuse(why, len, "tensor, pipeline and expert parallelism need the shape: "
			      "--hidden H (and --layers L), or --model NAME");
	/* Megatron splits attention by heads and asserts both of these */
	if (j->heads > 0 && j->heads % j->tp != 0)
		return refuse(why, len, "--tp %d does not divide the model's %d attention heads "
			      "(each GPU of a tensor-parallel group holds whole heads)", j->tp,
			      j->heads);
	if (j->kv_heads > 0 && j->kv_heads % j->tp != 0)
		return refuse(why, len, "--tp %d does not divide the model's %d key/value heads "
			      "(grouped-query attention: each GPU holds whole KV heads)", j->tp,
			      j->kv_heads);
	if ((j->tp > 1 || j->pp > 1) && j->layers <= 0)
		return refuse(why, len, "tensor and pipeline parallelism need --layers L, "
			      "or --model NAME");
	if (j->pp > j->layers && j->pp > 1)
		return refuse(why, len, "--pp %d is more pipeline stages than the model's %d "
			      "layers", j->pp, j->layers);
	if (j->ep > 1 && j->experts <= 0)
		return refuse(why, len, "--ep needs a mixture-of-experts model: --experts E "
			      "--top-k K, or --model NAME of one");
	if (j->experts > 0 && (j->top_k < 1 || j->top_k > j->experts))
		return refuse(why, len, "--top-k must be from 1 to the %d experts", j->experts);
	if (j->ep > 1 && j->dp % j->ep != 0)
		return refuse(why, len, "expert-parallel groups are carved out of the "
			      "data-parallel ones: --dp %d is not a multiple of --ep %d",
			      j->dp, j->ep);
	if (j->ep > 1 && j->experts % j->ep != 0)
		return refuse(why, len, "--ep %d does not divide the %d experts", j->ep,
			      j->experts);
	if (j->global_batch > 0 &&
	    j->global_batch % ((long long)j->micro_batch * j->dp) != 0)
		return refuse(why, len, "--global-batch %lld is not a multiple of micro-batch "
			      "x DP = %lld", j->global_batch, (long long)j->micro_batch * j->dp);
	if (j->step_seconds > 0 && j->tflops > 0)
		return refuse(why, len, "give the compute time one way: --step-seconds or "
			      "--tflops, not both");
	if (j->bytes <= 0 || j->grad_bytes <= 0)
		return refuse(why, len, "unknown data type");
	return 0;
}

int plan_tp_check_node(int tp, int gpus_per_node, char *why, size_t len)
{
	int g = gpus_per_node;

	if (g <= 0 || tp <= 0 || (tp <= g ? g % tp : tp % g) == 0)
		return 0;
	return refuse(why, len, "--tp %d does not fit nodes of %d GPUs: tensor-parallel groups "
		      "would straddle nodes (give a TP that divides %d, or a multiple of it)",
		      tp, g, g);
}

/* The smallest port count per node at rate_gbps that gives each GPU need
 * GB/s: a share of the node's GPUs per port (one port for 8, 2, 4...) or a
 * whole number of ports per GPU, up to 4. */
static void option_for(const struct plan_machine *m, double need, bool ib, double slot,
		       int rate, struct plan_option *o)
{
	int g = m->gpus_per_node;
	double port = rate / 8.0 * plan_port_efficiency(ib, 4096, rate);

	o->rate_gbps = rate;
	o->ports_per_node = 0;
	o->per_gpu_gbytes = 0;
	for (int n = 1; n <= 4 * g; n++) {
		if (n < g ? g % n != 0 : n % g != 0)
			continue;
		if (n * port / g >= need || need <= 0) {
			o->ports_per_node = n;
			o->per_gpu_gbytes = n * port / g;
			break;
		}
	}
	o->pcie_ok = isnan(slot) ? -1 : slot >= rate / 8.0;
}

static void need_for(const struct plan_machine *m, double bytes, double seconds,
		     struct plan_need *n)
{
	static const int rates[PLAN_RATES] = { 100, 200, 400, 800 };
	double slot = NAN;
	size_t ib = 0;

	for (size_t i = 0; i < m->n_ports; i++) {
		const struct plan_port *p = &m->ports[i];

		ib += p->ib;
		if (!isnan(p->slot_gbytes) && (isnan(slot) || p->slot_gbytes < slot))
			slot = p->slot_gbytes;
	}
	n->per_gpu_gbytes = seconds > 0 ? bytes / seconds / 1e9 : NAN;
	for (size_t i = 0; i < PLAN_RATES; i++) {
		if (isnan(n->per_gpu_gbytes))
			n->options[i] = (struct plan_option){ rates[i], 0, 0, -1 };
		else
			option_for(m, n->per_gpu_gbytes, ib * 2 > m->n_ports, slot, rates[i],
				   &n->options[i]);
	}
}

double plan_seconds(double bytes, double gbytes_per_s)
{
	if (bytes <= 0)
		return 0;
	return gbytes_per_s > 0 ? bytes / (gbytes_per_s * 1e9) : INFINITY;
}

static double compute_seconds(const struct plan_job *j, const struct plan_result *r)
{
	if (j->step_seconds > 0)
		return j->step_seconds;
	if (j->tflops > 0 && j->seq > 0)
		/* 6 FLOPs per parameter per token: forward 2, backward 4 */
		return 6.0 * j->params * (double)r->global_batch * j->seq /
		       ((double)r->gpus * j->tflops * 1e12);
	return NAN;
}

void plan_compute(const struct plan_job *j, const struct plan_machine *m,
		  struct plan_result *r)
{
	r->gpus = j->tp * j->pp * j->dp;
	r->nodes = (r->gpus + m->gpus_per_node - 1) / m->gpus_per_node;
	r->micro_batches = plan_micro_batches(j);
	r->global_batch = r->micro_batches * j->micro_batch * j->dp;
	plan_traffic(j, m->gpus_per_node, r->traffic);
	r->nic_bytes = 0;
	for (int k = 0; k < PLAN_KINDS; k++)
		r->nic_bytes += r->traffic[k].nic_bytes;
	r->tp_spans_nodes = j->tp > m->gpus_per_node;
	plan_bandwidth(m, r);
	r->network_line_s = plan_seconds(r->nic_bytes, r->per_gpu_line);
	r->network_expected_s = plan_seconds(r->nic_bytes, r->per_gpu_expected);
	r->compute_s = compute_seconds(j, r);
	r->share = r->compute_s > 0 ? r->network_expected_s / r->compute_s : NAN;
	if (isnan(r->share))
		r->verdict = PLAN_UNKNOWN;
	else if (r->share <= 0.1)
		r->verdict = PLAN_FITS;
	else if (r->share <= 1.0)
		r->verdict = PLAN_TIGHT;
	else
		r->verdict = PLAN_BOUND;
	need_for(m, r->nic_bytes, r->compute_s, &r->overlap);
	need_for(m, r->nic_bytes, r->compute_s * 0.1, &r->no_overlap);
}

const char *plan_kind_name(enum plan_kind k)
{
	static const char *const names[PLAN_KINDS] = { "dp", "tp", "pp", "ep" };

	return k < PLAN_KINDS ? names[k] : "?";
}

const char *plan_kind_title(enum plan_kind k)
{
	static const char *const titles[PLAN_KINDS] = {
		"data parallel (gradients)", "tensor parallel (activations)",
		"pipeline (stage boundaries)", "expert parallel (all-to-all)",
	};

	return k < PLAN_KINDS ? titles[k] : "?";
}

const char *plan_cap_name(enum plan_cap c)
{
	return c == PLAN_CAP_PCIE ? "pcie" : c == PLAN_CAP_MEASURED ? "measured" : "port_rate";
}

const char *plan_verdict_name(enum plan_verdict v)
{
	switch (v) {
	case PLAN_FITS: return "fits";
	case PLAN_TIGHT: return "tight";
	case PLAN_BOUND: return "network-bound";
	default: return "unknown";
	}
}
