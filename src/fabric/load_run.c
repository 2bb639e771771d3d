/* fabric --load's part of a rank's run (load_run.h). */
#include "load_run.h"
#include "load_wire.h"
#include "pmix.h"
#include "../model/growbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fab_load_run_init(struct fab_load_run *lr, uint32_t rank, uint32_t size,
		      const struct fab_endpoint *eps, const struct fab_node *nodes,
		      const struct fab_machine *m, enum bw_transport transport)
{
	lr->rank = rank;
	lr->size = size;
	lr->peers = calloc(size ? size : 1, sizeof(*lr->peers));
	lr->decoded = calloc(size ? size : 1, sizeof(*lr->decoded));
	if (!lr->peers || !lr->decoded || fab_sampler_init(&lr->smp, m, transport) < 0)
		return -1;
	for (uint32_t i = 0; i < size; i++)
		lr->peers[i] = (struct fab_peer){ eps[i].addr, eps[i].port, eps[i].secret,
						  nodes[i].n_rails, nodes[i].state == FAB_NODE_OK };
	return 0;
}

static int keep_result(const struct fab_result *x, struct fab_result **res, size_t *n,
		       size_t *cap)
{
	struct fab_result *g = growbuf_reserve(*res, cap, *n + 1, sizeof(*g));

	if (!g)
		return -1;
	*res = g;
	(*res)[(*n)++] = *x;
	return 0;
}

static int keep_flows(const struct fab_load_flow *fl, size_t n_fl, uint32_t self,
		      uint32_t round, struct fab_result **res, size_t *n, size_t *cap)
{
	int rc = 0;

	for (size_t i = 0; i < n_fl; i++)
		for (uint32_t k = 0; k < fl[i].n_rails; k++) {
			bool failed = fl[i].error[0] != 0;
			const char *why = failed ? fl[i].error : !isfinite(fl[i].m.ab[k]) ?
					  "no figures for this rail" : NULL;
			struct fab_result x = {
				.a = self, .b = fl[i].peer, .rail = k, .round = round,
				.ab = failed ? NAN : fl[i].m.ab[k],
				.ba = failed ? NAN : fl[i].m.ba[k], .lat_usec = NAN,
				.error = why ? fab_wire_error(why) : NULL,
			};

			if ((why && !x.error) || keep_result(&x, res, n, cap) < 0) {
				free((char *)x.error);
				rc = -1;
			}
		}
	return rc;
}

int fab_load_run_round(struct fab_load_run *lr, const struct fab_side *s, int lfd,
		       const unsigned char *secret, const struct fab_round *rd, uint32_t round,
		       double deadline, struct fab_result **res, size_t *n, size_t *cap,
		       char *why, size_t whysz)
{
	struct fab_port_load l[BW_RAILS_MAX];
	struct fab_load_flow *fl = NULL;
	size_t n_fl = 0;
	bool in = false;
	int rc = 0;

	for (size_t i = 0; i < rd->n_pairs; i++)
		in |= rd->pairs[i].a == lr->rank || rd->pairs[i].b == lr->rank;
	if (!in)
		return 0;
	fab_sampler_start(&lr->smp);
	if (fab_load_round(s, lfd, secret, lr->peers, lr->rank, rd, round, deadline, &fl,
			   &n_fl) < 0) {
		snprintf(why, whysz, "out of memory: load round %u is lost", round + 1);
		rc = -1;
	}
	if (fab_sampler_end(&lr->smp, round, lr->rank, l) < 0) {
		snprintf(why, whysz, "out of memory reading the counters of round %u", round + 1);
		rc = -1;
	}
	for (uint32_t k = 0; k < lr->smp.n; k++) {
		struct fab_port_load *g = growbuf_reserve(lr->mine, &lr->cap_mine, lr->n_mine + 1,
							  sizeof(*g));

		if (!g) {
			fab_sampler_load_free(&l[k]);
			snprintf(why, whysz, "out of memory: a rail's counters are lost");
			rc = -1;
			continue;
		}
		lr->mine = g;
		lr->mine[lr->n_mine++] = l[k];
	}
	if (keep_flows(fl, n_fl, lr->rank, round, res, n, cap) < 0) {
		snprintf(why, whysz, "out of memory: a result is lost");
		rc = -1;
	}
	free(fl);
	return rc;
}

char *fab_load_run_text(const struct fab_load_run *lr)
{
	return fab_load_encode(lr->mine, lr->n_mine);
}

int fab_load_run_gather(struct fab_load_run *lr, const struct fab_node *nodes,
			uint32_t n_rounds, const char *prog)
{
	size_t n = 0;

	for (uint32_t i = 0; i < lr->size; i++) {
		char err[256], *t;

		if (nodes[i].state != FAB_NODE_OK)
			continue;
		t = fab_pmix_get(i, FAB_KEY_LOAD);
		if (!t)
			fprintf(stderr, "%s fabric: %s (rank %u) gave no counters\n", prog,
				nodes[i].name, i);
		else if (fab_load_decode(t, strlen(t), i, n_rounds, BW_RAILS_MAX, &lr->decoded[i],
					 err, sizeof(err)) < 0)
			fprintf(stderr, "%s fabric: %s (rank %u)'s counters are broken: %s\n", prog,
				nodes[i].name, i, err);
		free(t);
		n += lr->decoded[i].n;
	}
	lr->all = calloc(n ? n : 1, sizeof(*lr->all));
	if (!lr->all)
		return -1;
	for (uint32_t i = 0; i < lr->size; i++)
		for (size_t k = 0; k < lr->decoded[i].n; k++)
			lr->all[lr->n_all++] = lr->decoded[i].p[k];
	return 0;
}

void fab_load_run_free(struct fab_load_run *lr)
{
	for (size_t i = 0; i < lr->n_mine; i++)
		fab_sampler_load_free(&lr->mine[i]);
	free(lr->mine);
	for (uint32_t i = 0; lr->decoded && i < lr->size; i++)
		fab_load_ports_free(&lr->decoded[i]);
	free(lr->decoded);
	free(lr->all);
	free(lr->peers);
	memset(lr, 0, sizeof(*lr));
}
