/* The fabric judgement (judge.h): thresholds per rail, slow pairs, and
 * node, rail and pair suspects.  Linear in the results apart from one sort
 * per rail (the medians) and one of the unexplained results, so a full
 * tournament of a thousand nodes is judged in well under a second. */
#include "judge.h"
#include "../model/growbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fab_suspect_kind_name(enum fab_suspect_kind k)
{
	return k == FAB_SUSPECT_NODE ? "node" : k == FAB_SUSPECT_RAIL ? "rail" : "pair";
}

const char *fab_rerun_name(enum fab_rerun r)
{
	switch (r) {
	case FAB_RERUN_CONFIRMED: return "confirmed";
	case FAB_RERUN_CLEARED: return "cleared";
	case FAB_RERUN_ERROR: return "error";
	default: return "none";
	}
}

const char *fab_pair_verdict_name(enum fab_pair_verdict v)
{
	switch (v) {
	case FAB_PV_PASS: return "pass";
	case FAB_PV_SLOW: return "slow";
	case FAB_PV_ERROR: return "error";
	default: return "not run";
	}
}

void fab_judgement_free(struct fab_judgement *j)
{
	for (size_t i = 0; i < j->n_suspects; i++)
		free(j->suspects[i].evidence);
	free(j->suspects);
	for (size_t i = 0; i < j->n_cleared; i++)
		free(j->cleared[i].evidence);
	free(j->cleared);
	free(j->rails);
	memset(j, 0, sizeof(*j));
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static bool measured(const struct fab_result *r)
{
	return !r->error && (isfinite(r->ab) || isfinite(r->ba));
}

/* ---- the rails: median and threshold of the first pass ---- */

static int rail_stats(const struct fab_input *in, struct fab_judgement *j)
{
	uint32_t nr = 0;
	size_t *count;
	double **vals;
	int rc = -1;

	for (size_t i = 0; i < in->n_results; i++)
		if (in->results[i].rail + 1 > nr)
			nr = in->results[i].rail + 1;
	for (uint32_t k = 0; k < in->n_nodes; k++)
		if (in->nodes[k].n_rails > nr)
			nr = in->nodes[k].n_rails;
	j->rails = calloc(nr ? nr : 1, sizeof(*j->rails));
	count = calloc(nr ? nr : 1, sizeof(*count));
	vals = calloc(nr ? nr : 1, sizeof(*vals));
	if (!j->rails || !count || !vals)
		goto out;
	j->n_rails = nr;
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		if (!r->retest && measured(r))
			count[r->rail] += isfinite(r->ab) + isfinite(r->ba);
	}
	for (uint32_t k = 0; k < nr; k++)
		if (count[k] && !(vals[k] = malloc(count[k] * sizeof(double))))
			goto out;
	memset(count, 0, nr * sizeof(*count));
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		if (r->retest || !measured(r))
			continue;
		if (isfinite(r->ab))
			vals[r->rail][count[r->rail]++] = r->ab;
		if (isfinite(r->ba))
			vals[r->rail][count[r->rail]++] = r->ba;
	}
	for (uint32_t k = 0; k < nr; k++) {
		struct fab_rail_stats *s = &j->rails[k];
		size_t n = count[k];

		s->rail = k;
		s->n = n;
		s->min = s->median = s->max = NAN;
		if (n) {
			qsort(vals[k], n, sizeof(double), cmp_double);
			s->min = vals[k][0];
			s->max = vals[k][n - 1];
			s->median = n % 2 ? vals[k][n / 2] : (vals[k][n / 2 - 1] + vals[k][n / 2]) / 2;
		}
		s->threshold = isfinite(s->median) ? in->tolerance * s->median : NAN;
		if (isfinite(in->floor_gbps) && !(s->threshold >= in->floor_gbps))
			s->threshold = in->floor_gbps;
	}
	rc = 0;
out:
	for (uint32_t k = 0; vals && k < nr; k++)
		free(vals[k]);
	free(vals);
	free(count);
	return rc;
}

static bool node_ok(const struct fab_input *in, uint32_t x)
{
	return x < in->n_nodes && in->nodes[x].state == FAB_NODE_OK;
}

static void classify(const struct fab_input *in, const struct fab_judgement *j)
{
	for (size_t i = 0; i < in->n_results; i++) {
		struct fab_result *r = &in->results[i];
		double t = j->rails[r->rail].threshold;

		if (!node_ok(in, r->a) || !node_ok(in, r->b))
			r->verdict = FAB_PV_NOT_RUN;
		else if (!measured(r))
			r->verdict = FAB_PV_ERROR;
		else if (isfinite(t) && ((isfinite(r->ab) && r->ab < t) ||
					 (isfinite(r->ba) && r->ba < t)))
			r->verdict = FAB_PV_SLOW;
		else
			r->verdict = FAB_PV_PASS;
	}
}

/* ---- per node and rail: the row of the matrix ---- */

struct tally {
	uint32_t p1, p1_slow;	/* first pass: partners measured, slow */
	uint32_t rt, rt_slow;	/* retest, counted for the retested end */
};

struct work {
	const struct fab_input *in;
	uint32_t nr;
	struct tally *t;	/* n_nodes x nr */
	bool *bad;		/* n_nodes x nr: the node is bad on that rail */
	bool *node_named;	/* n_nodes: a node suspect (any reason) */
	bool *candidate;	/* n_nodes: an end of an unexplained slow pair */
	uint32_t *measured_n, *error_n;	/* n_nodes: results measured, failed */
};

static struct tally *T(struct work *w, uint32_t x, uint32_t r)
{
	return &w->t[(size_t)x * w->nr + r];
}

static bool explained(const struct work *w, const struct fab_result *r)
{
	return w->bad[(size_t)r->a * w->nr + r->rail] || w->bad[(size_t)r->b * w->nr + r->rail] ||
	       w->node_named[r->a] || w->node_named[r->b];
}

/* A slow pair's own re-run: a retest result between two ends of
 * unexplained slow pairs (a retest partner is never one: it passed
 * everything).  It confirms or clears the pair; it says nothing of either
 * node, whose retest is against known-good partners. */
static bool rerun(const struct work *w, const struct fab_result *r)
{
	return r->retest && w->candidate[r->a] && w->candidate[r->b];
}

static void work_free(struct work *w)
{
	free(w->t);
	free(w->bad);
	free(w->node_named);
	free(w->candidate);
	free(w->measured_n);
	free(w->error_n);
}

/* The first pass: tallies, the nodes bad with every partner, and the ends
 * of slow pairs that explains nothing else (the retest candidates). */
static int first_pass(const struct fab_input *in, uint32_t nr, struct work *w)
{
	size_t nn = in->n_nodes ? in->n_nodes : 1;

	memset(w, 0, sizeof(*w));
	w->in = in;
	w->nr = nr ? nr : 1;
	w->t = calloc(nn * w->nr, sizeof(*w->t));
	w->bad = calloc(nn * w->nr, sizeof(*w->bad));
	w->node_named = calloc(nn, sizeof(bool));
	w->candidate = calloc(nn, sizeof(bool));
	w->measured_n = calloc(nn, sizeof(uint32_t));
	w->error_n = calloc(nn, sizeof(uint32_t));
	if (!w->t || !w->bad || !w->node_named || !w->candidate || !w->measured_n || !w->error_n) {
		work_free(w);
		return -1;
	}
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		if (r->verdict == FAB_PV_ERROR) {
			w->error_n[r->a]++;
			w->error_n[r->b]++;
		}
		if (r->verdict != FAB_PV_PASS && r->verdict != FAB_PV_SLOW)
			continue;
		w->measured_n[r->a]++;
		w->measured_n[r->b]++;
		if (r->retest)
			continue;
		T(w, r->a, r->rail)->p1++;
		T(w, r->b, r->rail)->p1++;
		T(w, r->a, r->rail)->p1_slow += r->verdict == FAB_PV_SLOW;
		T(w, r->b, r->rail)->p1_slow += r->verdict == FAB_PV_SLOW;
	}
	for (uint32_t x = 0; x < in->n_nodes; x++) {
		if (!node_ok(in, x) || (!w->measured_n[x] && w->error_n[x]))
			w->node_named[x] = true;	/* dead, or could test with nobody */
		for (uint32_t r = 0; r < w->nr; r++) {
			const struct tally *t = T(w, x, r);

			w->bad[(size_t)x * w->nr + r] = t->p1 >= 2 && t->p1_slow == t->p1;
		}
	}
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		if (!r->retest && r->verdict == FAB_PV_SLOW && !explained(w, r))
			w->candidate[r->a] = w->candidate[r->b] = true;
	}
	return 0;
}

/* A node that passed everything in the first pass: a retest partner. */
static bool good(const struct work *w, uint32_t x)
{
	if (w->node_named[x] || w->candidate[x] || !w->measured_n[x] || w->error_n[x])
		return false;
	for (uint32_t r = 0; r < w->nr; r++)
		if (w->bad[(size_t)x * w->nr + r])
			return false;
	return true;
}

static int cmp_pair_first(const void *x, const void *y)
{
	const struct fab_pair *a = x, *b = y;
	uint32_t alo = a->a < a->b ? a->a : a->b, ahi = a->a < a->b ? a->b : a->a;
	uint32_t blo = b->a < b->b ? b->a : b->b, bhi = b->a < b->b ? b->b : b->a;

	if (alo != blo)
		return alo < blo ? -1 : 1;
	return ahi < bhi ? -1 : ahi > bhi;
}

/* Each unexplained slow pair of the first pass, once (whatever its rails),
 * alone in a round from round `first` on, the first FAB_RERUN_MAX of them. */
static int plan_reruns(const struct fab_input *in, const struct work *w, size_t first,
		       struct fab_schedule *s)
{
	struct fab_pair *p;
	size_t n = 0, k = 0;
	int rc = 0;

	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		n += !r->retest && r->verdict == FAB_PV_SLOW && !explained(w, r);
	}
	if (!n)
		return 0;
	if (!(p = malloc(n * sizeof(*p))))
		return -1;
	n = 0;
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		if (!r->retest && r->verdict == FAB_PV_SLOW && !explained(w, r))
			p[n++] = (struct fab_pair){ r->a, r->b };
	}
	qsort(p, n, sizeof(*p), cmp_pair_first);
	for (size_t i = 0; i < n && k < FAB_RERUN_MAX; i++) {
		if (i && cmp_pair_first(&p[i - 1], &p[i]) == 0)
			continue;
		if (fab_schedule_add_directed(s, first + k++, p[i].a, p[i].b) < 0) {
			rc = -1;
			break;
		}
	}
	free(p);
	return rc;
}

int fab_retest_plan(const struct fab_input *in, uint32_t partners, struct fab_schedule *s)
{
	struct fab_judgement j = { 0 };
	struct work w;
	uint32_t *goods = NULL, n_good = 0, n = in->n_nodes;
	uint8_t *busy = NULL;	/* rounds x nodes */
	size_t n_busy_rounds = 0, cap_busy_rounds = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (rail_stats(in, &j) < 0)
		goto out_j;
	classify(in, &j);
	if (first_pass(in, j.n_rails, &w) < 0)
		goto out_j;
	goods = malloc((n ? n : 1) * sizeof(*goods));
	if (!goods)
		goto out;
	for (uint32_t x = 0; x < n; x++)
		if (good(&w, x))
			goods[n_good++] = x;
	rc = 0;
	if (!partners)
		goto out;
	for (uint32_t x = 0, c = 0; n_good && x < n; x++) {
		if (!w.candidate[x] || w.node_named[x])
			continue;
		for (uint32_t k = 0; k < partners && k < n_good; k++, c++) {
			uint32_t g = goods[c % n_good];
			size_t r = 0;

			/* the first round where both are free */
			while (r < n_busy_rounds && (busy[r * n + x] || busy[r * n + g]))
				r++;
			if (r == n_busy_rounds) {
				/* one row of n bytes per round */
				uint8_t *nb = growbuf_reserve(busy, &cap_busy_rounds, r + 1, n);

				if (!nb) {
					rc = -1;
					goto out;
				}
				busy = nb;
				memset(busy + r * n, 0, n);
				n_busy_rounds++;
			}
			busy[r * n + x] = busy[r * n + g] = 1;
			if (fab_schedule_add(s, r, x, g) < 0) {
				rc = -1;
				goto out;
			}
		}
	}
	rc = plan_reruns(in, &w, n_busy_rounds, s);
out:
	if (rc < 0)
		fab_schedule_free(s);
	free(busy);
	free(goods);
	work_free(&w);
out_j:
	fab_judgement_free(&j);
	return rc;
}

/* ---- suspects ---- */

static struct fab_suspect *add_suspect(struct fab_judgement *j, enum fab_suspect_kind k,
				       uint32_t a, uint32_t b, int rail)
{
	struct fab_suspect *n;

	n = growbuf_reserve(j->suspects, &j->cap_suspects, j->n_suspects + 1, sizeof(*n));
	if (!n)
		return NULL;
	j->suspects = n;
	n = &j->suspects[j->n_suspects++];
	memset(n, 0, sizeof(*n));
	n->kind = k;
	n->a = a;
	n->b = b;
	n->rail = rail;
	return n;
}

/* The results of node x (on rail r, or every rail when r < 0). */
static int node_evidence(const struct fab_input *in, struct fab_suspect *s, uint32_t x, int r)
{
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < in->n_results; i++) {
			const struct fab_result *res = &in->results[i];

			if ((res->a != x && res->b != x) || (r >= 0 && res->rail != (uint32_t)r) ||
			    res->verdict == FAB_PV_NOT_RUN)
				continue;
			if (pass)
				s->evidence[n] = i;
			n++;
		}
		if (!pass) {
			s->evidence = malloc((n ? n : 1) * sizeof(size_t));
			if (!s->evidence)
				return -1;
			n = 0;
		}
	}
	s->n_evidence = n;
	return 0;
}

static int node_suspects(const struct fab_input *in, struct work *w, struct fab_judgement *j)
{
	for (uint32_t x = 0; x < in->n_nodes; x++) {
		uint32_t tested = 0, bad = 0;
		bool by_retest = false;
		struct fab_suspect *s;

		if (!node_ok(in, x) || w->node_named[x]) {
			if (!(s = add_suspect(j, FAB_SUSPECT_NODE, x, x, -1)))
				return -1;
			snprintf(s->reason, sizeof(s->reason), "%s",
				 in->nodes[x].state == FAB_NODE_NEVER ? "never answered the rendezvous" :
				 in->nodes[x].state == FAB_NODE_DIED ? "died during the run (gave no results)" :
				 "could not test with any partner");
			if (node_evidence(in, s, x, -1) < 0)
				return -1;
			continue;
		}
		for (uint32_t r = 0; r < w->nr; r++) {
			const struct tally *t = T(w, x, r);
			bool *b = &w->bad[(size_t)x * w->nr + r];

			if (!t->p1 && !t->rt)
				continue;
			tested++;
			if (!*b && t->rt && t->rt_slow == t->rt) {
				*b = true;
				by_retest = true;
			}
			bad += *b;
		}
		if (!bad)
			continue;
		if (bad == tested) {
			w->node_named[x] = true;
			if (!(s = add_suspect(j, FAB_SUSPECT_NODE, x, x, -1)))
				return -1;
			snprintf(s->reason, sizeof(s->reason), "slow with every partner%s%s",
				 tested > 1 ? " on every rail" : "",
				 by_retest ? " (the known-good ones of the retest too)" : "");
			if (node_evidence(in, s, x, -1) < 0)
				return -1;
			continue;
		}
		for (uint32_t r = 0; r < w->nr; r++) {
			if (!w->bad[(size_t)x * w->nr + r])
				continue;
			if (!(s = add_suspect(j, FAB_SUSPECT_RAIL, x, x, (int)r)))
				return -1;
			snprintf(s->reason, sizeof(s->reason),
				 "rail %u slow with every partner, its other rails are not: its "
				 "cable, module or switch port", r);
			if (node_evidence(in, s, x, (int)r) < 0)
				return -1;
		}
	}
	return 0;
}

struct pair_key {
	uint32_t lo, hi, rail;
	size_t i;
};

static int cmp_pair_key(const void *x, const void *y)
{
	const struct pair_key *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->rail != b->rail)
		return a->rail < b->rail ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* Slow or failed pair-rails that no node explains, one suspect per pair
 * (per pair and rail when the pair has several rails), with what the
 * pair's re-run said: slow again confirms it, at or above the threshold
 * clears it (a cleared pair, never a suspect). */
static bool pair_evidence(const struct work *w, const struct fab_result *r)
{
	if (explained(w, r))
		return false;
	return rerun(w, r) || r->verdict == FAB_PV_SLOW || r->verdict == FAB_PV_ERROR;
}

static struct fab_suspect *add_cleared(struct fab_judgement *j, uint32_t a, uint32_t b, int rail)
{
	struct fab_suspect *n;

	n = growbuf_reserve(j->cleared, &j->cap_cleared, j->n_cleared + 1, sizeof(*n));
	if (!n)
		return NULL;
	j->cleared = n;
	n = &j->cleared[j->n_cleared++];
	memset(n, 0, sizeof(*n));
	n->kind = FAB_SUSPECT_PAIR;
	n->a = a;
	n->b = b;
	n->rail = rail;
	n->rerun = FAB_RERUN_CLEARED;
	return n;
}

static int pair_suspects(const struct fab_input *in, struct work *w, struct fab_judgement *j)
{
	struct pair_key *k = NULL;
	size_t n = 0;
	int rc = -1;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < in->n_results; i++) {
			const struct fab_result *r = &in->results[i];

			if (!pair_evidence(w, r))
				continue;
			if (pass)
				k[n] = (struct pair_key){ r->a < r->b ? r->a : r->b,
							  r->a < r->b ? r->b : r->a, r->rail, i };
			n++;
		}
		if (!pass) {
			if (!n)
				return 0;
			if (!(k = malloc(n * sizeof(*k))))
				return -1;
			n = 0;
		}
	}
	qsort(k, n, sizeof(*k), cmp_pair_key);
	for (size_t s0 = 0; s0 < n;) {
		uint32_t lo = k[s0].lo, hi = k[s0].hi;
		bool multi = in->nodes[lo].n_rails > 1 && in->nodes[hi].n_rails > 1;
		size_t e = s0, bad = 0, re_slow = 0, re_pass = 0, re_err = 0;
		const struct fab_result *r0 = NULL, *re_failed = NULL;
		struct fab_suspect *s;
		const struct tally *tl, *th;
		char why[140];	/* room for what a re-run adds */

		while (e < n && k[e].lo == lo && k[e].hi == hi && (!multi || k[e].rail == k[s0].rail))
			e++;
		for (size_t q = s0; q < e; q++) {
			const struct fab_result *r = &in->results[k[q].i];

			if (!rerun(w, r)) {
				bad++;
				if (!r0)
					r0 = r;
			} else if (r->verdict == FAB_PV_SLOW) {
				re_slow++;
			} else if (r->verdict == FAB_PV_PASS) {
				re_pass++;
			} else {
				re_err++;
				re_failed = r;
			}
		}
		if (!bad && !re_slow) {
			s0 = e;	/* a re-run on a rail that was never slow */
			continue;
		}
		if (!r0)
			r0 = &in->results[k[s0].i];
		tl = T(w, lo, r0->rail);
		th = T(w, hi, r0->rail);
		if (r0->verdict == FAB_PV_ERROR)
			snprintf(why, sizeof(why), "could not test: %.120s",
				 r0->error ? r0->error : "no figures");
		else if (tl->rt && th->rt)
			snprintf(why, sizeof(why),
				 "slow only between these two: both are fine with known-good "
				 "partners (the path between them)");
		else if (tl->p1 >= 2 && th->p1 >= 2)
			snprintf(why, sizeof(why),
				 "slow only between these two: both are fine with their other "
				 "partners (the path between them)");
		else
			snprintf(why, sizeof(why),
				 "slow between these two (the ends not retested: no partner passed "
				 "everything)");
		if (!re_slow && re_pass && r0->verdict == FAB_PV_SLOW) {
			s = add_cleared(j, lo, hi, multi ? (int)r0->rail : -1);
			if (!s)
				goto out;
			snprintf(s->reason, sizeof(s->reason),
				 "slow in round %u, at or above the threshold when re-run alone: "
				 "cleared, not a bad path", r0->round + 1);
		} else {
			s = add_suspect(j, FAB_SUSPECT_PAIR, lo, hi, multi ? (int)r0->rail : -1);
			if (!s)
				goto out;
			if (re_slow) {
				s->rerun = FAB_RERUN_CONFIRMED;
				snprintf(s->reason, sizeof(s->reason), "%s; slow again when re-run "
					 "alone", why);
			} else if (re_err && r0->verdict == FAB_PV_SLOW) {
				s->rerun = FAB_RERUN_ERROR;
				snprintf(s->reason, sizeof(s->reason), "%s; its re-run could not "
					 "test: %.30s", why, re_failed->error ? re_failed->error :
					 "no figures");
			} else if (r0->verdict == FAB_PV_SLOW) {
				snprintf(s->reason, sizeof(s->reason), "%s; not re-run", why);
			} else {
				snprintf(s->reason, sizeof(s->reason), "%s", why);
			}
		}
		s->evidence = malloc((e - s0) * sizeof(size_t));
		if (!s->evidence)
			goto out;
		for (size_t q = s0; q < e; q++)
			s->evidence[s->n_evidence++] = k[q].i;
		s0 = e;
	}
	rc = 0;
out:
	free(k);
	return rc;
}

static void summarise(const struct fab_input *in, struct fab_judgement *j, size_t measured_n)
{
	uint32_t alive = 0, nodes = 0, rails = 0, pairs = 0;
	char *p = j->reason;
	size_t left = sizeof(j->reason);

	for (uint32_t x = 0; x < in->n_nodes; x++)
		alive += in->nodes[x].state == FAB_NODE_OK;
	for (size_t i = 0; i < j->n_suspects; i++) {
		enum fab_suspect_kind k = j->suspects[i].kind;

		nodes += k == FAB_SUSPECT_NODE;
		rails += k == FAB_SUSPECT_RAIL;
		pairs += k == FAB_SUSPECT_PAIR;
	}
	if (alive < 2 || !measured_n) {
		j->could_not_run = true;
		j->verdict = "error";
		snprintf(j->reason, sizeof(j->reason), "%s",
			 alive < 2 ? "fewer than two nodes took part: nothing to test"
				   : "no pair could be measured");
		return;
	}
	if (!j->n_suspects && j->n_cleared) {
		j->verdict = "pass";
		snprintf(j->reason, sizeof(j->reason),
			 "%u nodes, no suspect: %zu %s slow once %s at or above the threshold "
			 "when re-run alone", alive, j->n_cleared,
			 j->n_cleared == 1 ? "pair" : "pairs", j->n_cleared == 1 ? "was" : "were");
		return;
	}
	if (!j->n_suspects) {
		j->verdict = "pass";
		snprintf(j->reason, sizeof(j->reason),
			 "%u nodes, every pair on every rail at or above the threshold", alive);
		return;
	}
	j->verdict = "fail";
	for (size_t i = 0; i < j->n_suspects && left > 1; i++) {
		const struct fab_suspect *s = &j->suspects[i];
		int w;

		if (s->kind == FAB_SUSPECT_PAIR)
			w = snprintf(p, left, "%spair %s-%s", i ? ", " : "", in->nodes[s->a].name,
				     in->nodes[s->b].name);
		else if (s->kind == FAB_SUSPECT_RAIL)
			w = snprintf(p, left, "%srail %d of %s", i ? ", " : "", s->rail,
				     in->nodes[s->a].name);
		else
			w = snprintf(p, left, "%snode %s", i ? ", " : "", in->nodes[s->a].name);
		if (w < 0 || (size_t)w >= left) {
			/* say that the list goes on rather than cut a name */
			size_t cut = sizeof(j->reason) - 5;

			memcpy(j->reason + cut, ", ...", 5);
			j->reason[sizeof(j->reason) - 1] = 0;
			break;
		}
		p += w;
		left -= (size_t)w;
	}
	(void)nodes;
	(void)rails;
	(void)pairs;
}

int fab_judge(const struct fab_input *in, struct fab_judgement *j)
{
	struct work w;
	size_t measured_n = 0;

	memset(j, 0, sizeof(*j));
	if (rail_stats(in, j) < 0)
		goto fail;
	classify(in, j);
	if (first_pass(in, j->n_rails, &w) < 0)
		goto fail;
	/* the retest counts for the end that was retested (its partner is
	 * known good and must not look bad for meeting a bad node) */
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];
		uint32_t ends[2] = { r->a, r->b };

		if (r->verdict == FAB_PV_PASS || r->verdict == FAB_PV_SLOW)
			measured_n++;
		if (!r->retest || (r->verdict != FAB_PV_PASS && r->verdict != FAB_PV_SLOW) ||
		    rerun(&w, r))
			continue;
		for (int e = 0; e < 2; e++) {
			if (!w.candidate[ends[e]])
				continue;
			T(&w, ends[e], r->rail)->rt++;
			T(&w, ends[e], r->rail)->rt_slow += r->verdict == FAB_PV_SLOW;
		}
	}
	if (node_suspects(in, &w, j) < 0 || pair_suspects(in, &w, j) < 0) {
		work_free(&w);
		goto fail;
	}
	work_free(&w);
	summarise(in, j, measured_n);
	return 0;
fail:
	fab_judgement_free(j);
	return -1;
}
