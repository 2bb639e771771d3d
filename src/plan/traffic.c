#include "traffic.h"

long long plan_micro_batches(const struct plan_job *j)
{
	long long per = (long long)j->micro_batch * j->dp;

	return j->global_batch > 0 && per > 0 ? j->global_batch / per : 1;
}

/* How many ranks of a group (size ranks, stride apart) share one node of
 * gpn GPUs. */
static int ranks_per_node(long long stride, int size, int gpn)
{
	long long k = stride >= gpn ? 1 : gpn / stride;

	return k < size ? (int)k : size;
}

/* A ring collective over a group with k ranks per node crosses each node
 * boundary once per ring: the node's NICs carry what one rank sends, for
 * each group in the node, so a GPU's share of it is 1/k. */
static double ring_nic_share(int group, int per_node)
{
	return per_node >= group ? 0 : 1.0 / per_node;
}

static void data_parallel(const struct plan_job *j, int gpn, struct plan_traffic *t)
{
	double held = j->params / ((double)j->tp * j->pp) * j->grad_bytes;
	int d = j->dp;

	t->group = d;
	t->per_node = ranks_per_node((long long)j->tp * j->pp, d, gpn);
	/* ring AllReduce (or ZeRO-1/2's reduce-scatter + all-gather, the same
	 * volume); ZeRO-3 gathers the parameters again in forward and backward */
	t->bytes = d > 1 ? 2.0 * (d - 1) / d * held * (j->zero == 3 ? 1.5 : 1.0) : 0;
	t->nic_bytes = t->bytes * ring_nic_share(d, t->per_node);
}

static double activation(const struct plan_job *j)
{
	return (double)j->micro_batch * j->seq * j->hidden * j->bytes;
}

static void tensor_parallel(const struct plan_job *j, int gpn, long long m,
			    struct plan_traffic *t)
{
	int n = j->tp;

	t->group = n;
	t->per_node = ranks_per_node(1, n, gpn);
	/* two AllReduces per layer forward and two backward, of b*s*h each,
	 * over the layers of one stage, for every micro-batch */
	t->bytes = n > 1 ? 4.0 * 2.0 * (n - 1) / n * activation(j) *
				   ((double)j->layers / j->pp) * (double)m : 0;
	t->nic_bytes = t->bytes * ring_nic_share(n, t->per_node);
}

static void pipeline_parallel(const struct plan_job *j, int gpn, long long m,
			      struct plan_traffic *t)
{
	int p = j->pp, boundaries = p >= 3 ? 2 : 1;
	double per_boundary = activation(j) * (double)m;

	t->group = p;
	t->per_node = ranks_per_node(j->tp, p, gpn);
	/* a middle stage sends activations forward and gradients backward */
	t->bytes = p > 1 ? boundaries * per_boundary : 0;
	if (p == 1 || t->per_node >= p)
		t->nic_bytes = 0;
	else if (t->per_node == 1)
		t->nic_bytes = t->bytes;	/* every neighbour is on another node */
	else
		t->nic_bytes = per_boundary;	/* a node's edge stage: one of them */
}

static void expert_parallel(const struct plan_job *j, int gpn, long long m,
			    struct plan_traffic *t)
{
	int e = j->ep;

	t->group = e;
	t->per_node = ranks_per_node((long long)j->tp * j->pp, e, gpn);
	/* all-to-all dispatch and combine of top_k copies of each token, per
	 * MoE layer, forward and backward; tokens routed to an expert on the
	 * same node stay on NVLink */
	t->bytes = e > 1 ? 4.0 * j->top_k * activation(j) * ((double)j->moe_layers / j->pp) *
				   (double)m : 0;
	t->nic_bytes = t->bytes * (double)(e - t->per_node) / e;
}

void plan_traffic(const struct plan_job *j, int gpus_per_node, struct plan_traffic *t)
{
	long long m = plan_micro_batches(j);

	data_parallel(j, gpus_per_node, &t[PLAN_DP]);
	tensor_parallel(j, gpus_per_node, m, &t[PLAN_TP]);
	pipeline_parallel(j, gpus_per_node, m, &t[PLAN_PP]);
	expert_parallel(j, gpus_per_node, m, &t[PLAN_EP]);
}
