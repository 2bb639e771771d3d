/* What the ranks of a fabric run hand each other (exchange.h). */
#include "exchange.h"
#include "pmix.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fab_fence_live(struct fab_run *r, char *err, size_t errsz)
{
	int per = (int)(r->cf->timeout_s / 3), rc = -1;

	for (int attempt = 0; attempt < 3 && rc < 0; attempt++)
		rc = fab_pmix_fence(per < 1 ? 1 : per, true, err, errsz);
	return rc;
}

int fab_publish(struct fab_run *r, const char *key, char *text)
{
	char err[256];
	int rc;

	if (!text) {
		fab_say(r, "out of memory");
		return -1;
	}
	rc = fab_pmix_put(key, text, err, sizeof(err));
	free(text);
	if (rc < 0)
		fab_say(r, err);
	return rc;
}

/* What rank 0 published under key, waited for while rank 0 may itself
 * wait --timeout for the others; NULL with an error said when it did not
 * come. */
static char *from_rank0(struct fab_run *r, const char *key, const char *what)
{
	bool gone;
	double deadline = bw_now() + r->cf->timeout_s + FAB_RANK0_EXTRA_S;
	char *text = fab_pmix_get_wait(0, key, deadline, &gone), msg[200];

	if (!text) {
		snprintf(msg, sizeof(msg), "rank 0 sent no %s %s", what,
			 gone ? "(it is gone: it died or was killed)" :
				"within the time given (--timeout): it died or hangs");
		fab_say(r, msg);
	}
	return text;
}

int fab_sync_all(struct fab_run *r)
{
	char err[256];
	int t = (int)(r->cf->timeout_s < FAB_FENCE_S ? r->cf->timeout_s : FAB_FENCE_S);

	if (r->fence_broken)
		return -1;
	if (fab_pmix_fence(t, true, err, sizeof(err)) == 0)
		return 0;
	r->fence_broken = true;
	if (r->cf->verbose)
		fab_say(r, err);
	return -1;
}

int fab_handout(struct fab_run *r, const char *key, char *text, char **got, const char *what)
{
	*got = NULL;
	if (r->rank == 0 && fab_publish(r, key, text) < 0)
		return -1;
	if (fab_sync_all(r) == 0 && r->rank != 0)
		*got = fab_pmix_get(0, key);
	if (r->rank != 0 && !*got)
		*got = from_rank0(r, key, what);
	return r->rank == 0 || *got ? 0 : -1;
}

int fab_agree_start(struct fab_run *r, const char *key, double *t)
{
	char buf[64], *text = NULL;

	if (r->rank == 0) {
		*t = fab_now_real() + FAB_LEAD_S;
		snprintf(buf, sizeof(buf), "%.6f", *t);
		return fab_handout(r, key, strdup(buf), &text, "start time");
	}
	if (fab_handout(r, key, NULL, &text, "start time") < 0)
		return -1;
	*t = strtod(text, NULL);
	free(text);
	if (!isfinite(*t) || *t <= 0) {
		fab_say(r, "rank 0's start time is broken");
		return -1;
	}
	return 0;
}

int fab_exchange_results(struct fab_run *r, const char *key, uint32_t n_rounds)
{
	char err[256];
	double deadline;
	bool fenced;

	if (fab_publish(r, key, fab_results_encode(r->mine, r->n_mine)) < 0)
		return -1;
	fenced = fab_sync_all(r) == 0;
	if (r->rank != 0)
		return 0;
	for (uint32_t i = 0; i < r->size; i++)
		fab_results_free(&r->decoded[i]);
	free(r->all);
	r->all = NULL;
	r->n_all = 0;
	deadline = bw_now() + r->cf->timeout_s;
	for (uint32_t i = 0; i < r->size; i++) {
		bool gone = false;
		char *t;

		if (r->nodes[i].state != FAB_NODE_OK)
			continue;
		/* after a fence it is here, or the rank is gone: then asking
		 * its server tells which */
		t = fenced ? fab_pmix_get(i, key) : NULL;
		if (!t)
			t = fab_pmix_get_wait(i, key, deadline, &gone);
		if (!t) {
			fprintf(r->cf->log, "%s fabric: %s (rank %u) gave no results: %s\n",
				r->cf->prog, r->names[i], i,
				gone ? "it died" : "it never answered (--timeout)");
			r->nodes[i].state = FAB_NODE_DIED;
		} else if (fab_results_decode(t, strlen(t), i, r->size, n_rounds, BW_RAILS_MAX,
					      &r->decoded[i], err, sizeof(err)) < 0) {
			fprintf(r->cf->log, "%s fabric: %s (rank %u)'s results are broken: %s\n",
				r->cf->prog, r->names[i], i, err);
			r->nodes[i].state = FAB_NODE_DIED;
		}
		free(t);
	}
	for (uint32_t i = 0; i < r->size; i++)
		r->n_all += r->decoded[i].n;
	r->all = calloc(r->n_all ? r->n_all : 1, sizeof(*r->all));
	if (!r->all) {
		fab_say(r, "out of memory");
		return -1;
	}
	r->n_all = 0;
	for (uint32_t i = 0; i < r->size; i++)
		for (size_t k = 0; k < r->decoded[i].n; k++)
			r->all[r->n_all++] = r->decoded[i].r[k];
	return 0;
}
