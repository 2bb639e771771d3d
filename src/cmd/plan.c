/* rdmadoctor plan: from a model and its parallelism to the network each
 * GPU needs, against this machine (a profile, an inventory, or a host's
 * latest record with what was measured on it).  docs/plan.md. */
#include "cmd.h"
#include "../pipeline/pipeline.h"
#include "../pipeline/plan_source.h"
#include "../print/plan_out.h"
#include "../plan/count.h"
#include "../plan/plan.h"
#include "../plan/recorded.h"
#include "../plan/model_shape.h"
#include "../print/plan_models_out.h"
#include "../profiles/profile.h"
#include "../collect/collect.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct plan_args {
	struct plan_job job;
	struct plan_shape_ask shape;
	const char *profile, *db, *host;
	const char *dtype, *grad_dtype;
	long long gpus, gpn;
	bool list_models;
};

static int bad_value(const struct ctx *c, const char *opt, const char *v, const char *why)
{
	fprintf(stderr, "%s plan: --%s '%s' %s\n", c->prog, opt, v, why);
	return EXIT_USAGE;
}

static int whole(const struct ctx *c, const char *opt, const char *v, long long min,
		 long long max, long long *out)
{
	const char *why = plan_parse_whole(v, min, max, out);
	char range[64];

	if (!why)
		return CMD_GO_ON;
	if (strcmp(why, "is out of range") == 0) {
		snprintf(range, sizeof(range), "is out of range (%lld to %lld)", min, max);
		why = range;
	}
	return bad_value(c, opt, v, why);
}

static int whole_int(const struct ctx *c, const char *opt, const char *v, long long max,
		     int *out)
{
	long long n;
	int rc = whole(c, opt, v, 1, max, &n);

	if (rc == CMD_GO_ON)
		*out = (int)n;
	return rc;
}

static int count(const struct ctx *c, const char *opt, const char *v, double *out)
{
	const char *why = plan_parse_count(v, out);

	return why ? bad_value(c, opt, v, why) : CMD_GO_ON;
}

/* One value setter per option for the option table: a whole number into
 * an int of the job, and so on. */
#define JOB_INT(fn, opt, field, max, seen)                                      \
	static int fn(struct ctx *c, void *args, const char *v)                 \
	{                                                                       \
		struct plan_args *a = args;                                     \
		seen;                                                           \
		return whole_int(c, opt, v, max, &a->job.field);                \
	}
#define ARG_WHOLE(fn, opt, field, max)                                          \
	static int fn(struct ctx *c, void *args, const char *v)                 \
	{                                                                       \
		return whole(c, opt, v, 1, max, &((struct plan_args *)args)->field); \
	}
#define JOB_COUNT(fn, opt, field)                                               \
	static int fn(struct ctx *c, void *args, const char *v)                 \
	{                                                                       \
		return count(c, opt, v, &((struct plan_args *)args)->job.field); \
	}

JOB_INT(set_tp, "tp", tp, 1 << 20, (void)0)
JOB_INT(set_pp, "pp", pp, 1 << 20, (void)0)
JOB_INT(set_dp, "dp", dp, 1 << 24, (void)0)
JOB_INT(set_ep, "ep", ep, 1 << 20, (void)0)
JOB_INT(set_layers, "layers", layers, 1 << 20, a->shape.has_layers = true)
JOB_INT(set_hidden, "hidden", hidden, 1 << 24, a->shape.has_hidden = true)
JOB_INT(set_seq, "seq", seq, 1 << 26, (void)0)
JOB_INT(set_micro, "micro-batch", micro_batch, 1 << 20, (void)0)
JOB_INT(set_experts, "experts", experts, 1 << 20, a->shape.has_experts = true)
JOB_INT(set_topk, "top-k", top_k, 1 << 20, a->shape.has_topk = true)
ARG_WHOLE(set_moe_layers, "moe-layers", shape.moe_layers, 1 << 20)
ARG_WHOLE(set_gpus, "gpus", gpus, 1LL << 30)
ARG_WHOLE(set_gpn, "gpus-per-node", gpn, 4096)
JOB_COUNT(set_step, "step-seconds", step_seconds)
JOB_COUNT(set_tflops, "tflops", tflops)

static int set_params(struct ctx *c, void *args, const char *v)
{
	struct plan_args *a = args;

	a->shape.params = v;
	return count(c, "params", v, &a->job.params);
}

static int set_global(struct ctx *c, void *args, const char *v)
{
	return whole(c, "global-batch", v, 1, 1LL << 40,
		     &((struct plan_args *)args)->job.global_batch);
}

static int set_zero(struct ctx *c, void *args, const char *v)
{
	if (strlen(v) != 1 || v[0] < '0' || v[0] > '3')
		return bad_value(c, "zero", v, "is not a ZeRO stage (0, 1, 2 or 3)");
	((struct plan_args *)args)->job.zero = v[0] - '0';
	return CMD_GO_ON;
}

static int set_dtype(struct ctx *c, void *args, const char *v)
{
	if (!plan_dtype_bytes(v))
		return bad_value(c, "dtype", v, "is not a data type (bf16, fp16 or fp32)");
	((struct plan_args *)args)->dtype = v;
	return CMD_GO_ON;
}

static int set_grad_dtype(struct ctx *c, void *args, const char *v)
{
	if (!plan_dtype_bytes(v))
		return bad_value(c, "grad-dtype", v, "is not a data type (bf16, fp16 or fp32)");
	((struct plan_args *)args)->grad_dtype = v;
	return CMD_GO_ON;
}

static const struct cmd_opt plan_opts[] = {
	{ "params", 0, "N", OPT_CALL_AT(set_params),
	  .help = "parameters: 70B, 405B, 8e9 (K, M, B, T)" },
	{ "model", 0, "NAME", OPT_STRING_AT(struct plan_args, shape.model), .flags = OPT_NONEMPTY,
	  .help = "a built-in shape (--models lists them); options override it" },
	{ "tp", 0, "N", OPT_CALL_AT(set_tp), .help = "tensor-parallel size (default 1)" },
	{ "pp", 0, "N", OPT_CALL_AT(set_pp), .help = "pipeline-parallel stages (default 1)" },
	{ "dp", 0, "N", OPT_CALL_AT(set_dp), .help = "data-parallel replicas (default 1)" },
	{ "ep", 0, "N", OPT_CALL_AT(set_ep), .help = "expert-parallel size, out of DP (default 1)" },
	{ "zero", 0, "0-3", OPT_CALL_AT(set_zero), .help = "ZeRO stage (default 0)" },
	{ "layers", 0, "L", OPT_CALL_AT(set_layers), .help = "transformer layers" },
	{ "hidden", 0, "H", OPT_CALL_AT(set_hidden), .help = "hidden size" },
	{ "seq", 0, "S", OPT_CALL_AT(set_seq), .help = "sequence length (default 4096)" },
	{ "micro-batch", 0, "B", OPT_CALL_AT(set_micro), .help = "micro-batch size (default 1)" },
	{ "global-batch", 0, "G", OPT_CALL_AT(set_global),
	  .help = "sequences per step (default: micro-batch x DP)" },
	{ "experts", 0, "E", OPT_CALL_AT(set_experts), .help = "routed experts per MoE layer" },
	{ "top-k", 0, "K", OPT_CALL_AT(set_topk), .help = "experts per token" },
	{ "moe-layers", 0, "N", OPT_CALL_AT(set_moe_layers),
	  .help = "layers with experts (default: all but the model's dense ones)" },
	{ "dtype", 0, "T", OPT_CALL_AT(set_dtype), .help = "bf16, fp16 or fp32 (default bf16)" },
	{ "grad-dtype", 0, "T", OPT_CALL_AT(set_grad_dtype),
	  .help = "the gradients' type (default: --dtype)" },
	{ "step-seconds", 0, "T", OPT_CALL_AT(set_step), .help = "compute time per step, in seconds" },
	{ "tflops", 0, "X", OPT_CALL_AT(set_tflops),
	  .help = "or: achieved TFLOP/s per GPU\n(compute = 6 x params x tokens / GPUs / X)" },
	{ "gpus", 0, "N", OPT_CALL_AT(set_gpus), .help = "total GPUs: must equal DP x TP x PP" },
	{ "gpus-per-node", 0, "N", OPT_CALL_AT(set_gpn),
	  .help = "GPUs per node (default: the machine's)" },
	{ "profile", 0, "NAME|FILE", OPT_STRING_AT(struct plan_args, profile),
	  .flags = OPT_NONEMPTY, .help = "plan on a built-in profile or a profile file" },
	{ "db", 0, "DB", OPT_STRING_AT(struct plan_args, db), .flags = OPT_NONEMPTY,
	  .help = "with --host: plan on a host's latest record,\nmeasured figures first" },
	{ "host", 0, "HOST", OPT_STRING_AT(struct plan_args, host), .flags = OPT_NONEMPTY,
	  .help = "the host in --db" },
	{ "models", 0, NULL, OPT_FLAG_AT(struct plan_args, list_models),
	  .help = "list the built-in model shapes" },
	{ 0 }
};

const struct cmd_spec plan_spec = {
	.name = "plan",
	.opts = plan_opts,
	.usage = "usage: rdmadoctor plan --params 70B|--model NAME --tp N --pp N --dp N [options]\n"
		 "                       [--profile NAME | --root DIR | --db DB --host HOST]\n"
		 "       rdmadoctor plan --models\n",
	.about =
	"How much network a training job needs per GPU, what this machine gives\n"
	"it, and the ports that would make it fit.  The machine is a profile, a\n"
	"snapshot (--root), this host (default), or a host's latest record in a\n"
	"fleet database, whose measured bw figures replace the nominal ones.\n",
	.epilog =
	"exit: 0 fits (or tight), 1 network-bound, 2 usage, 3 could not run.\n"
	"The formulas and their sources: docs/plan.md; JSON keys: docs/json/plan.md.\n",
};

static int list_models(struct ctx *c)
{
	FILE *out = ctx_open_text(c);

	if (!out)
		return EXIT_RUNTIME;
	plan_print_models(out);
	return ctx_close_text(c, out);
}

int cmd_plan(struct ctx *c, int argc, char **argv)
{
	struct plan_args a = { .job = { .tp = 1, .pp = 1, .dp = 1, .ep = 1, .seq = 4096,
					.micro_batch = 1 } };
	struct plan_source ms;
	struct plan_result r;
	const char *title;
	char why[256], assumed[320], *bad = NULL;
	int n, rc = opts_parse(c, &plan_spec, argc, argv, &a, &n);

	if (rc != CMD_GO_ON)
		return rc;
	if (a.list_models)
		return list_models(c);
	if (plan_model_shape(&a.shape, &a.job, c->prog, &title, assumed, sizeof(assumed), &bad) < 0) {
		fprintf(stderr, "%s plan: %s\n", c->prog, bad ? bad : "out of memory");
		free(bad);
		return EXIT_USAGE;
	}
	a.job.bytes = plan_dtype_bytes(a.dtype ? a.dtype : "bf16");
	a.job.grad_bytes = plan_dtype_bytes(a.grad_dtype ? a.grad_dtype : a.dtype ? a.dtype : "bf16");
	if (plan_job_check(&a.job, a.gpus, why, sizeof(why)) < 0 ||
	    plan_tp_check_node(a.job.tp, (int)a.gpn, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s plan: %s\n", c->prog, why);
		return EXIT_USAGE;
	}
	memset(&ms, 0, sizeof(ms));
	rc = plan_source_pick(c, &(struct plan_ask){ .profile = a.profile, .db = a.db,
						    .host = a.host, .gpn = (int)a.gpn }, &ms);
	/* without --gpus-per-node, the machine's count is known only now */
	if (rc == CMD_GO_ON &&
	    plan_tp_check_node(a.job.tp, ms.m.gpus_per_node, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s plan: %s (%s)\n", c->prog, why, ms.source);
		rc = EXIT_USAGE;
	}
	if (rc == CMD_GO_ON) {
		struct plan_report rep = {
			.job = &a.job, .machine = &ms.m, .result = &r, .model = title,
			.dtype = a.dtype ? a.dtype : "bf16",
			.grad_dtype = a.grad_dtype ? a.grad_dtype : a.dtype ? a.dtype : "bf16",
			.source = ms.source, .measured_from = ms.have_measured ? ms.measured : NULL,
			.shape_assumed = assumed[0] ? assumed : NULL,
		};

		memset(&r, 0, sizeof(r));
		plan_compute(&a.job, &ms.m, &r);
		if (c->json) {
			json_t *doc = plan_to_json(&rep);

			rc = doc ? ctx_emit_json(c, doc) : EXIT_RUNTIME;
			if (!doc)
				fprintf(stderr, "%s: out of memory\n", c->prog);
		} else {
			FILE *out = ctx_open_text(c);

			rc = EXIT_RUNTIME;
			if (out) {
				plan_print_text(out, &rep);
				rc = ctx_close_text(c, out);
			}
		}
		if (rc == EXIT_OK && r.verdict == PLAN_BOUND)
			rc = EXIT_PROBLEMS;
	}
	plan_source_free(&ms);
	return rc;
}
