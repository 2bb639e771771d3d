/* bw_pair: both ends of one verbs test in one process, server and client
 * engines in two threads, endpoint bytes handed over directly (no control
 * channel).  A real peer for the verbs engine inside the Soft-RoCE VM,
 * independent of the CLI; tests/vm/bw_verbs.sh and bench/bench_bw_vm.sh
 * drive it next to ib_write_bw / ib_write_lat.
 *
 *   bw_pair [--mode bw|lat] [--op write|read|send] [--size N] [--qps N]
 *           [--iters N] [--duration-ms N] [--warmup-ms N] [--tx-depth N]
 *           [--cq-mod N] [--post-list N] [--inline N] [--bidir]
 *           [--device NAME] [--peer ADDR] [--gid-index N] [--gpu N]
 *
 * Prints one line per side: "side=client gbps=... bytes=... seconds=...
 * msgs=... intervals=N min_gbps=... mtu=... gid_index=..." and for latency
 * "lat_n=... lat_min=... lat_p50=... lat_p99=... lat_max=..." (usec, one
 * way).  Exit 0 when both sides ran, 1 when one failed (its error on
 * stderr), 2 on a usage error. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw/engine.h"
#include "bw/params.h"

struct side {
	const struct bw_engine_ops *ops;
	void *st;
	bool is_server;
	struct bw_result res;
	struct bw_err err;
	int rc;
	pthread_barrier_t *go;
};

static void *run_side(void *arg)
{
	struct side *sd = arg;

	pthread_barrier_wait(sd->go);
	sd->rc = sd->ops->run(sd->st, &sd->res, &sd->err);
	return NULL;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)n);

	if (n == 0)
		return 0;
	return v[i >= n ? n - 1 : i];
}

static void print_side(const char *name, struct bw_result *r)
{
	double min_gbps = 0, max_gbps = 0;

	for (size_t i = 0; i < r->n_intervals; i++) {
		double g = r->intervals[i].seconds > 0 ? r->intervals[i].bytes * 8 / r->intervals[i].seconds / 1e9 : 0;

		if (i == 0 || g < min_gbps)
			min_gbps = g;
		if (g > max_gbps)
			max_gbps = g;
	}
	printf("side=%s gbps=%.6f bytes=%llu seconds=%.4f msgs=%llu intervals=%zu min_gbps=%.6f max_gbps=%.6f cpu_s=%.3f mtu=%u gid_index=%d gid=%s device=%s",
	       name, r->seconds > 0 ? (double)r->bytes * 8 / r->seconds / 1e9 : 0, (unsigned long long)r->bytes,
	       r->seconds, (unsigned long long)r->msgs, r->n_intervals, min_gbps, max_gbps,
	       r->cpu_user_s + r->cpu_sys_s, r->mtu, r->gid_index, r->gid[0] ? r->gid : "-", r->device);
	if (r->n_lat) {
		qsort(r->lat_usec, r->n_lat, sizeof(double), cmp_d);
		printf(" lat_n=%zu lat_min=%.3f lat_p50=%.3f lat_p99=%.3f lat_max=%.3f", r->n_lat, r->lat_usec[0],
		       pct(r->lat_usec, r->n_lat, 0.5), pct(r->lat_usec, r->n_lat, 0.99), r->lat_usec[r->n_lat - 1]);
	}
	printf("\n");
}

static int usage(const char *m)
{
	fprintf(stderr, "bw_pair: %s\n", m);
	return 2;
}

int main(int argc, char **argv)
{
	struct bw_params p = { .mode = BW_MODE_BW, .transport = BW_TRANSPORT_VERBS, .op = BW_OP_WRITE,
			       .size = 65536, .qps = 1, .iters = 5000, .interval_ms = 1000 };
	struct bw_local l = { .device = NULL, .ib_port = 1, .gid_index = -1, .gpu = -1, .numa_node = -1,
			      .peer_addr = "10.0.2.15" };
	struct side sd[2] = { { .is_server = true }, { .is_server = false } };
	static uint8_t ep[2][BW_ENDPOINT_MAX];
	size_t eplen[2];
	pthread_barrier_t go;
	pthread_t th[2];
	bool inline_set = false;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--bidir") == 0) {
			p.bidir = true;
			continue;
		}
		if (!v)
			return usage("option needs a value");
		i++;
		if (strcmp(a, "--mode") == 0)
			p.mode = strcmp(v, "lat") == 0 ? BW_MODE_LAT : BW_MODE_BW;
		else if (strcmp(a, "--op") == 0)
			p.op = strcmp(v, "read") == 0 ? BW_OP_READ : strcmp(v, "send") == 0 ? BW_OP_SEND : BW_OP_WRITE;
		else if (strcmp(a, "--size") == 0)
			p.size = strtoull(v, NULL, 0);
		else if (strcmp(a, "--qps") == 0)
			p.qps = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--iters") == 0)
			p.iters = strtoull(v, NULL, 0);
		else if (strcmp(a, "--duration-ms") == 0)
			p.duration_ms = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--warmup-ms") == 0)
			p.warmup_ms = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--tx-depth") == 0)
			p.tx_depth = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--cq-mod") == 0)
			p.cq_mod = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--post-list") == 0)
			p.post_list = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--inline") == 0) {
			p.inline_size = (uint32_t)strtoul(v, NULL, 0);
			inline_set = true;
		}
		else if (strcmp(a, "--device") == 0)
			l.device = v;
		else if (strcmp(a, "--peer") == 0)
			l.peer_addr = v;
		else if (strcmp(a, "--gid-index") == 0)
			l.gid_index = atoi(v);
		else if (strcmp(a, "--gpu") == 0)
			l.gpu = atoi(v);
		else
			return usage("unknown option");
	}
	if (p.mode == BW_MODE_LAT && !inline_set)
		p.inline_size = BW_LAT_INLINE_DEFAULT;	/* as bw_params_defaults */
	for (int k = 0; k < 2; k++) {
		sd[k].ops = &bw_verbs_engine;
		if (sd[k].ops->prepare(&sd[k].st, &p, &l, sd[k].is_server, ep[k], &eplen[k], &sd[k].err) != 0) {
			fprintf(stderr, "bw_pair: %s prepare: %s\n", k ? "client" : "server", sd[k].err.msg);
			rc = 1;
			goto out;
		}
	}
	for (int k = 0; k < 2; k++) {
		if (sd[k].ops->connect(sd[k].st, ep[1 - k], eplen[1 - k], &sd[k].err) != 0) {
			fprintf(stderr, "bw_pair: %s connect: %s\n", k ? "client" : "server", sd[k].err.msg);
			rc = 1;
			goto out;
		}
	}
	pthread_barrier_init(&go, NULL, 2);
	for (int k = 0; k < 2; k++) {
		sd[k].go = &go;
		if (pthread_create(&th[k], NULL, run_side, &sd[k]) != 0) {
			fprintf(stderr, "bw_pair: cannot start a thread\n");
			return 1;
		}
	}
	for (int k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&go);
	for (int k = 0; k < 2; k++) {
		if (sd[k].rc != 0) {
			fprintf(stderr, "bw_pair: %s run: %s\n", k ? "client" : "server", sd[k].err.msg);
			rc = 1;
		} else {
			print_side(k ? "client" : "server", &sd[k].res);
		}
	}
out:
	for (int k = 0; k < 2; k++) {
		bw_result_free(&sd[k].res);
		if (sd[k].st)
			sd[k].ops->destroy(sd[k].st);
	}
	return rc;
}
