/* libFuzzer target: the port loads fabric --load ranks read from each
 * other through PMIx (src/fabric/load_wire.c).  Seeds in
 * corpus/fabric_load_wire/.  Whatever decodes must satisfy the documented
 * bounds, encode to a text that decodes to the same, and be judged
 * (src/fabric/load.c) into rows that keep theirs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/load_wire.h"
#include "fabric/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct fab_load_ports *lp)
{
	for (size_t i = 0; i < lp->n; i++) {
		const struct fab_port_load *p = &lp->p[i];

		if (p->rank != 3 || p->round >= 8 || p->rail >= 4 || p->n > FAB_LOAD_COUNTERS_MAX ||
		    p->pfc_mask < -1 || p->pfc_mask > 255 ||
		    (!isnan(p->rate_gbps) && !(p->rate_gbps >= 0 && p->rate_gbps <= 1e5)) ||
		    (p->unread && (!*p->unread || strlen(p->unread) > FAB_ERROR_MAX)))
			abort();
		for (size_t k = 0; k < p->n; k++)
			if (strlen(p->c[k].name) > FAB_LOAD_NAME_MAX ||
			    fab_counter_kind(p->c[k].name, NULL) == FAB_CK_NONE ||
			    p->c[k].delta > INT64_MAX)
				abort();
	}
}

static bool same(const struct fab_load_ports *a, const struct fab_load_ports *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct fab_port_load *x = &a->p[i], *y = &b->p[i];

		if (x->rank != y->rank || x->round != y->round || x->rail != y->rail ||
		    x->pfc_mask != y->pfc_mask || x->n != y->n ||
		    (isnan(x->rate_gbps) ? !isnan(y->rate_gbps) : x->rate_gbps != y->rate_gbps) ||
		    !x->unread != !y->unread || (x->unread && strcmp(x->unread, y->unread)))
			return false;
		for (size_t k = 0; k < x->n; k++)
			if (strcmp(x->c[k].name, y->c[k].name) || x->c[k].delta != y->c[k].delta ||
			    x->c[k].reset != y->c[k].reset)
				return false;
	}
	return true;
}

/* Rank 3's decoded ports beside a quiet rank 0: node 0 and node 1 send
 * into node 3, node 3 into node 2, every round and rail. */
static void judge(const struct fab_load_ports *lp)
{
	static const struct fab_node nodes[4] = { { "n0", 0, 4, FAB_NODE_OK },
		{ "n1", 1, 4, FAB_NODE_OK }, { "n2", 2, 4, FAB_NODE_OK }, { "n3", 3, 4, FAB_NODE_OK } };
	static const struct fab_cdelta quiet[] = { { "hw:out_of_sequence", 0, false },
						   { "eth:rx_prio3_pause", 0, false } };
	struct fab_result res[8 * 4 * 3];
	struct fab_port_load *ports = malloc((lp->n + 8 * 4) * sizeof(*ports));
	struct fab_load_input in = { .mode = FAB_LOAD_INCAST, .nodes = nodes, .n_nodes = 4,
				     .results = res, .ports = ports, .priority = 3,
				     .line_gbps = NAN, .goodput_frac = FAB_LOAD_GOODPUT_FRAC,
				     .unfair_frac = FAB_LOAD_UNFAIR_FRAC };
	struct fab_load_judgement j;

	if (!ports)
		return;
	memcpy(ports, lp->p, lp->n * sizeof(*ports));
	in.n_ports = lp->n;
	for (uint32_t r = 0; r < 8; r++)
		for (uint32_t k = 0; k < 4; k++) {
			ports[in.n_ports++] = (struct fab_port_load){ 0, k, r, 100, 8, NULL, quiet, 2 };
			res[in.n_results++] = (struct fab_result){ .a = 0, .b = 3, .rail = k,
				.round = r, .ab = 40 + r, .ba = NAN, .lat_usec = NAN };
			res[in.n_results++] = (struct fab_result){ .a = 1, .b = 3, .rail = k,
				.round = r, .ab = 5 * k, .ba = NAN, .lat_usec = NAN };
			res[in.n_results++] = (struct fab_result){ .a = 3, .b = 2, .rail = k,
				.round = r, .ab = 90, .ba = NAN, .lat_usec = NAN };
		}
	if (fab_load_judge(&in, &j) == 0) {
		/* 8 rounds x 4 rails x receivers 2 and 3, then 4 rails */
		if (j.n_rows != 8 * 4 * 2 + 4 || !j.verdict)
			abort();
		for (size_t i = 0; i < j.n_rows; i++)
			if (j.rows[i].v > FAB_LV_NOT_RUN ||
			    strnlen(j.rows[i].reason, sizeof(j.rows[i].reason)) ==
				    sizeof(j.rows[i].reason) ||
			    (j.rows[i].v == FAB_LV_LOSSLESS && !j.rows[i].loss_known))
				abort();
		fab_load_judgement_free(&j);
	}
	free(ports);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fab_load_ports lp, again;
	char err[200];
	char *text;

	if (fab_load_decode((const char *)data, size, 3, 8, 4, &lp, err, sizeof(err)) < 0)
		return 0;
	check(&lp);
	judge(&lp);
	text = fab_load_encode(lp.p, lp.n);
	if (!text)
		abort();	/* what decodes must encode (memory aside) */
	if (fab_load_decode(text, strlen(text), 3, 8, 4, &again, err, sizeof(err)) < 0 ||
	    !same(&lp, &again))
		abort();
	fab_load_ports_free(&again);
	fab_load_ports_free(&lp);
	free(text);
	return 0;
}
