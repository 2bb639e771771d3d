/* fabric --load's judgement (load.h): the verdict of every receiver and
 * rail from the flows into it and its ports' totals (load_counters.c). */
#include "load.h"
#include "load_counters.h"
#include "../model/growbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fab_load_name(enum fab_load l)
{
	return l == FAB_LOAD_INCAST ? "incast" : l == FAB_LOAD_ALLTOALL ? "alltoall" : NULL;
}

const char *fab_load_verdict_name(enum fab_load_verdict v)
{
	switch (v) {
	case FAB_LV_LOSSLESS: return "lossless";
	case FAB_LV_NOT_CHECKED: return "not-checked";
	case FAB_LV_SLOW: return "slow";
	case FAB_LV_UNFAIR: return "unfair";
	case FAB_LV_NO_ECN: return "no-ecn";
	case FAB_LV_LOSSY: return "lossy";
	default: return "not-run";
	}
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- the flows into each receiver ---- */

struct edge {
	uint32_t round, rail, recv, send;
	size_t res;
	double share;		/* Gb/s; NAN: planned, did not finish */
};

static int cmp_edge(const void *x, const void *y)
{
	const struct edge *a = x, *b = y;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	if (a->rail != b->rail)
		return a->rail < b->rail ? -1 : 1;
	if (a->recv != b->recv)
		return a->recv < b->recv ? -1 : 1;
	if (a->send != b->send)
		return a->send < b->send ? -1 : 1;
	return a->res < b->res ? -1 : a->res > b->res;
}

static bool same_row(const struct edge *a, const struct edge *b)
{
	return a->round == b->round && a->rail == b->rail && a->recv == b->recv;
}

static double flow(const struct fab_result *r, double v)
{
	return !r->error && isfinite(v) && v >= 0 ? v : NAN;
}

/* Every planned flow: a to b always (both modes send that way); b to a in
 * alltoall, or wherever b's figure is there.  Ends that name no node are
 * not flows (nothing could name them). */
static struct edge *edges(const struct fab_load_input *in, size_t *n)
{
	struct edge *e;

	*n = 0;
	if (in->n_results > SIZE_MAX / 2 / sizeof(*e))
		return NULL;
	e = malloc((in->n_results ? in->n_results : 1) * 2 * sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < in->n_results; i++) {
		const struct fab_result *r = &in->results[i];

		if (r->a >= in->n_nodes || r->b >= in->n_nodes || r->a == r->b)
			continue;
		e[(*n)++] = (struct edge){ r->round, r->rail, r->b, r->a, i, flow(r, r->ab) };
		if (in->mode == FAB_LOAD_ALLTOALL || isfinite(flow(r, r->ba)))
			e[(*n)++] = (struct edge){ r->round, r->rail, r->a, r->b, i, flow(r, r->ba) };
	}
	qsort(e, *n, sizeof(*e), cmp_edge);
	return e;
}

/* The port loads by (round, rail, rank); the first given wins a tie. */
struct pkey {
	uint32_t round, rail, rank;
	size_t i;
};

static int cmp_pkey(const void *x, const void *y)
{
	const struct pkey *a = x, *b = y;

	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	if (a->rail != b->rail)
		return a->rail < b->rail ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static struct pkey *port_index(const struct fab_load_input *in)
{
	struct pkey *k = malloc((in->n_ports ? in->n_ports : 1) * sizeof(*k));

	if (!k)
		return NULL;
	for (size_t i = 0; i < in->n_ports; i++)
		k[i] = (struct pkey){ in->ports[i].round, in->ports[i].rail, in->ports[i].rank, i };
	qsort(k, in->n_ports, sizeof(*k), cmp_pkey);
	return k;
}

static const struct fab_port_load *find_port(const struct fab_load_input *in,
					     const struct pkey *idx, uint32_t round, uint32_t rail,
					     uint32_t rank)
{
	struct pkey want = { round, rail, rank, 0 };
	size_t lo = 0, hi = in->n_ports;

	/* the first key not below want (i 0 sorts before every index) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_pkey(&idx[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < in->n_ports && idx[lo].round == round && idx[lo].rail == rail &&
	    idx[lo].rank == rank)
		return &in->ports[idx[lo].i];
	return NULL;
}

/* ---- text ---- */

static const char *node_name(const struct fab_load_input *in, uint32_t x)
{
	return x < in->n_nodes && in->nodes[x].name ? in->nodes[x].name : "(unnamed)";
}

static const char *bare(const char *counter)
{
	const char *c = strchr(counter, ':');

	return c ? c + 1 : counter;
}

/* Append to buf (size bytes, holding a string); a cut text ends "...". */
static void append(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	int w;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (w >= 0 && (size_t)w >= size - len && size >= 4)
		memcpy(buf + size - 4, "...", 4);
}

/* "rx_discards_phy +1200 on node2, ..." of the evidence of the kinds in
 * mask, in at most size bytes: whole entries, then "..." when more. */
static void growth_list(const struct fab_load_input *in, const struct fab_load_row *row,
			unsigned mask, char *buf, size_t size)
{
	size_t len = 0;
	bool first = true;

	buf[0] = 0;
	for (size_t i = 0; i < row->n_evidence; i++) {
		const struct fab_load_evidence *e = &row->evidence[i];
		int w;

		if (!(mask & (1u << e->kind)))
			continue;
		w = snprintf(buf + len, size - len, "%s%s +%llu on %s", first ? "" : ", ",
			     bare(e->counter), (unsigned long long)e->delta, node_name(in, e->node));
		if (w < 0 || (size_t)w + 5 >= size - len) {
			buf[len] = 0;
			append(buf, size, "%s...", first ? "" : ", ");
			return;
		}
		len += (size_t)w;
		first = false;
	}
}

static void prio_list(int mask, char *buf, size_t size)
{
	int n = 0;

	buf[0] = 0;
	for (int p = 0; p < 8; p++)
		if (mask & (1 << p))
			n++;
	if (!n) {
		snprintf(buf, size, "PFC is off on every priority");
		return;
	}
	append(buf, size, "PFC is on for %s", n == 1 ? "priority" : "priorities");
	for (int p = 0, k = 0; p < 8; p++)
		if (mask & (1 << p))
			append(buf, size, "%s%d", k++ ? ", " : " ", p);
	if (n == 1)
		append(buf, size, " only");
}

/* Why PFC let packets go: the test's priority against the receiver's
 * PFC priorities, whichever is known. */
static void pfc_says(int prio, int mask, char *buf, size_t size)
{
	char on[64];

	if (mask >= 0)
		prio_list(mask, on, sizeof(on));
	else
		snprintf(on, sizeof(on), "the receiver's PFC priorities are unknown");
	if (prio >= 0 && prio < 8 && mask >= 0 && (mask & (1 << prio)))
		snprintf(buf, size,
			 "PFC is on for priority %d (the test's traffic) and did not hold: the "
			 "switch's PFC or buffer headroom", prio);
	else if (prio >= 0 && prio < 8)
		snprintf(buf, size, "PFC is not effective on priority %d (the test's traffic); %s",
			 prio, on);
	else
		snprintf(buf, size,
			 "PFC is not effective on the test's traffic (its priority unknown); %s", on);
}

/* ---- one receiver ---- */

enum unknown_why { UW_NONE, UW_MISSING, UW_UNREAD, UW_NO_COUNTER, UW_NO_DROP, UW_NO_RETRANS,
		   UW_RESET };

struct row_work {
	double *shares;
	size_t cap_shares;
	size_t cap_ev;
	/* the first port whose loss counters are unknown, and how many */
	enum unknown_why why;
	uint32_t why_node;
	const char *why_unread;
	uint32_t n_unknown;
};

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static int add_evidence(struct fab_load_row *row, struct row_work *w, uint32_t node,
			const struct fab_cdelta *c, enum fab_ckind k)
{
	struct fab_load_evidence *e;

	e = growbuf_reserve(row->evidence, &w->cap_ev, row->n_evidence + 1, sizeof(*e));
	if (!e)
		return -1;
	row->evidence = e;
	row->evidence[row->n_evidence++] = (struct fab_load_evidence){ node, c->name, c->delta, k };
	return 0;
}

/* Add one port (or its absence) to the row's totals and evidence. */
static int judge_port(const struct fab_load_input *in, const struct pkey *idx, struct fab_load_row *row,
		      struct row_work *w, uint32_t node, bool receiver)
{
	const struct fab_port_load *p = find_port(in, idx, row->round, row->rail, node);
	enum unknown_why why = UW_NONE;
	struct fab_port_sum s;

	if (!p || p->unread) {
		why = p ? UW_UNREAD : UW_MISSING;
		row->pause_known = row->cnp_known = false;
	} else {
		fab_port_sum(p, &s);
		/* a loss shows as a drop where it happened or as a retransmit
		 * at the sender: a port that reads only one of the two (a tcp
		 * rail's interface has drops, its retransmits are TCP's) cannot
		 * say there was none */
		if (!s.known[FAB_CK_DROP] || !s.known[FAB_CK_RETRANS])
			why = s.any_reset_loss ? UW_RESET :
			      s.known[FAB_CK_DROP] ? UW_NO_RETRANS :
			      s.known[FAB_CK_RETRANS] ? UW_NO_DROP : UW_NO_COUNTER;
		row->drops = add_sat(row->drops, s.k[FAB_CK_DROP]);
		row->retrans = add_sat(row->retrans, s.k[FAB_CK_RETRANS]);
		row->pause_tx = add_sat(row->pause_tx, s.k[FAB_CK_PAUSE_TX]);
		row->pause_rx = add_sat(row->pause_rx, s.k[FAB_CK_PAUSE_RX]);
		row->cnp_sent = add_sat(row->cnp_sent, s.k[FAB_CK_CNP_SENT]);
		row->cnp_handled = add_sat(row->cnp_handled, s.k[FAB_CK_CNP_HANDLED]);
		row->ecn_marked = add_sat(row->ecn_marked, s.k[FAB_CK_ECN_MARKED]);
		row->pause_prios |= s.pause_prios;
		if (!s.known[FAB_CK_PAUSE_TX] && !s.known[FAB_CK_PAUSE_RX])
			row->pause_known = false;
		if (!s.known[FAB_CK_CNP_SENT] && !s.known[FAB_CK_CNP_HANDLED] &&
		    !s.known[FAB_CK_ECN_MARKED])
			row->cnp_known = false;
		for (size_t i = 0; i < p->n; i++) {
			enum fab_ckind k = fab_counter_kind(p->c[i].name, NULL);

			if (k != FAB_CK_NONE && !p->c[i].reset && p->c[i].delta &&
			    add_evidence(row, w, node, &p->c[i], k) < 0)
				return -1;
		}
	}
	/* the receiver's port speaks for the row's PFC and line rate */
	if (receiver && p)
		row->pfc_mask = p->pfc_mask >= 0 && p->pfc_mask <= 255 ? p->pfc_mask : -1;
	if (receiver && p && !isfinite(row->line_gbps) && isfinite(p->rate_gbps) &&
	    p->rate_gbps > 0)
		row->line_gbps = p->rate_gbps;
	if (why != UW_NONE) {
		row->loss_known = false;
		if (!w->n_unknown++) {
			w->why = why;
			w->why_node = node;
			w->why_unread = p ? p->unread : NULL;
		}
	}
	return 0;
}

static double frac(double v, double def)
{
	return isfinite(v) && v > 0 ? v : def;
}

static void why_unknown(const struct fab_load_input *in, const struct fab_load_row *row,
			const struct row_work *w, char *buf, size_t size)
{
	const char *n = node_name(in, w->why_node);

	buf[0] = 0;
	switch (w->why) {
	case UW_MISSING:
		append(buf, size, "no counters came from %s's port on rail %u", n, row->rail);
		break;
	case UW_UNREAD:
		append(buf, size, "%s's counters could not be read (%s)", n, w->why_unread);
		break;
	case UW_RESET:
		append(buf, size, "%s's drop and retransmit counters were reset during the round", n);
		break;
	case UW_NO_DROP:
		append(buf, size, "%s read no drop counter", n);
		break;
	case UW_NO_RETRANS:
		append(buf, size, "%s read no retransmit counter", n);
		break;
	default:
		append(buf, size, "%s read no drop or retransmit counter", n);
		break;
	}
	if (w->n_unknown > 1)
		append(buf, size, " (and %u more port%s)", w->n_unknown - 1,
		       w->n_unknown > 2 ? "s" : "");
}

static void explain(const struct fab_load_input *in, struct fab_load_row *row,
		    const struct row_work *w, const char *first_error)
{
	char list[sizeof(row->reason)], tail[200];
	size_t size = sizeof(row->reason);
	double gf = frac(in->goodput_frac, FAB_LOAD_GOODPUT_FRAC);
	double uf = frac(in->unfair_frac, FAB_LOAD_UNFAIR_FRAC);

	row->reason[0] = 0;
	switch (row->v) {
	case FAB_LV_NOT_RUN:
		append(row->reason, size, "no flow into %s finished: %.200s",
		       node_name(in, row->receiver), first_error ? first_error : "no figures");
		break;
	case FAB_LV_LOSSY:
		pfc_says(in->priority, row->pfc_mask, tail, sizeof(tail));
		growth_list(in, row, 1u << FAB_CK_DROP | 1u << FAB_CK_RETRANS, list,
			    size - strlen(tail) - 32);
		append(row->reason, size, "drops or retransmits grew: %s: %s", list, tail);
		break;
	case FAB_LV_NO_ECN:
		growth_list(in, row, 1u << FAB_CK_PAUSE_TX | 1u << FAB_CK_PAUSE_RX, list, 200);
		append(row->reason, size,
		       "pauses grew (%s) but no CNP: ECN is not marking, congestion is held by PFC "
		       "alone (head-of-line blocking)", list);
		break;
	case FAB_LV_UNFAIR:
		append(row->reason, size,
		       "%s's flow into %s got %.3g Gb/s, %.2f of the median %.3g Gb/s of its %u "
		       "senders (under %.2f): the fabric does not share the port fairly",
		       node_name(in, (uint32_t)row->weakest), node_name(in, row->receiver),
		       row->min_share_gbps, row->min_share_gbps / row->median_share_gbps,
		       row->median_share_gbps, row->n_senders, uf);
		break;
	case FAB_LV_SLOW:
		append(row->reason, size,
		       "goodput %.3g Gb/s into %s is %.2f of the %.3g Gb/s line (under %.2f)",
		       row->goodput_gbps, node_name(in, row->receiver),
		       row->goodput_gbps / row->line_gbps, row->line_gbps, gf);
		if (row->loss_known) {
			append(row->reason, size, ", and no drop, pause-only congestion or unfair share "
						  "explains it");
		} else {
			why_unknown(in, row, w, tail, sizeof(tail));
			append(row->reason, size, "; loss unknown: %s", tail);
		}
		break;
	case FAB_LV_NOT_CHECKED:
		if (!row->loss_known) {
			why_unknown(in, row, w, tail, sizeof(tail));
			append(row->reason, size, "loss unknown: %s", tail);
		}
		if (!isfinite(row->line_gbps))
			append(row->reason, size,
			       "%sline rate unknown (no expected rate given and %s's port rate was not "
			       "read)", row->reason[0] ? "; " : "", node_name(in, row->receiver));
		break;
	default:
		append(row->reason, size,
		       "goodput %.3g Gb/s into %s from %u senders, %.2f of the %.3g Gb/s line; no "
		       "drop or retransmit", row->goodput_gbps, node_name(in, row->receiver),
		       row->n_senders, row->goodput_gbps / row->line_gbps, row->line_gbps);
		/* what held the congestion, where it was read */
		if (row->pause_known)
			append(row->reason, size, "; %llu pauses",
			       (unsigned long long)add_sat(row->pause_tx, row->pause_rx));
		if (row->cnp_known)
			append(row->reason, size, "; %llu CNPs",
			       (unsigned long long)add_sat(row->cnp_sent, row->cnp_handled));
		if (!row->pause_known && !row->cnp_known)
			append(row->reason, size, "; pauses and CNPs not read");
		break;
	}
}

/* The row of the edges e[0..n) (one round, rail and receiver). */
static int judge_row(const struct fab_load_input *in, const struct pkey *idx, const struct edge *e,
		     size_t n, struct fab_load_row *row, struct row_work *w)
{
	const char *first_error = NULL;
	double gf = frac(in->goodput_frac, FAB_LOAD_GOODPUT_FRAC);
	double uf = frac(in->unfair_frac, FAB_LOAD_UNFAIR_FRAC);
	size_t ns = 0;

	memset(row, 0, sizeof(*row));
	row->round = e[0].round;
	row->rail = e[0].rail;
	row->receiver = e[0].recv;
	row->weakest = -1;
	row->pfc_mask = -1;
	row->goodput_gbps = row->min_share_gbps = row->median_share_gbps = NAN;
	row->line_gbps = isfinite(in->line_gbps) && in->line_gbps > 0 ? in->line_gbps : NAN;
	row->loss_known = row->pause_known = row->cnp_known = true;
	w->why = UW_NONE;
	w->n_unknown = 0;

	if (!(w->shares = growbuf_reserve(w->shares, &w->cap_shares, n, sizeof(double))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(e[i].share)) {
			if (!first_error)
				first_error = in->results[e[i].res].error;
			continue;
		}
		w->shares[ns++] = e[i].share;
		row->goodput_gbps = isfinite(row->goodput_gbps) ? row->goodput_gbps + e[i].share
								: e[i].share;
		if (row->weakest < 0 || e[i].share < row->min_share_gbps) {
			row->min_share_gbps = e[i].share;
			row->weakest = e[i].send;
		}
	}
	row->n_senders = (uint32_t)ns;
	if (ns) {
		qsort(w->shares, ns, sizeof(double), cmp_double);
		row->median_share_gbps = ns % 2 ? w->shares[ns / 2]
						: (w->shares[ns / 2 - 1] + w->shares[ns / 2]) / 2;
	}

	/* the ports: the receiver's, and in incast (any mode but alltoall,
	 * where every port sends and receives at once) its senders', each
	 * once (the edges are sorted by sender).  A sender whose flow failed
	 * counts too: its traffic may have run for a while, and a port not
	 * read leaves the loss unknown, never lossless. */
	if (judge_port(in, idx, row, w, row->receiver, true) < 0)
		return -1;
	for (size_t i = 0; in->mode != FAB_LOAD_ALLTOALL && i < n; i++)
		if ((!i || e[i].send != e[i - 1].send) &&
		    judge_port(in, idx, row, w, e[i].send, false) < 0)
			return -1;

	if (!ns)
		row->v = FAB_LV_NOT_RUN;
	else if (row->drops || row->retrans)
		row->v = FAB_LV_LOSSY;
	else if ((row->pause_tx || row->pause_rx) && row->cnp_known &&
		 !row->cnp_sent && !row->cnp_handled && !row->ecn_marked)
		row->v = FAB_LV_NO_ECN;
	else if (ns >= 2 && row->min_share_gbps < uf * row->median_share_gbps)
		row->v = FAB_LV_UNFAIR;
	else if (isfinite(row->line_gbps) && row->goodput_gbps < gf * row->line_gbps)
		row->v = FAB_LV_SLOW;
	else if (!row->loss_known || !isfinite(row->line_gbps))
		row->v = FAB_LV_NOT_CHECKED;
	else
		row->v = FAB_LV_LOSSLESS;
	explain(in, row, w, first_error);
	return 0;
}

/* ---- rails and the whole ---- */

/* "2 of 8 receivers lossy, 1 unfair, 5 lossless": worst first. */
static void counts_say(const size_t *count, char *buf, size_t size)
{
	size_t total = 0;
	bool first = true;

	for (int v = 0; v <= FAB_LV_NOT_RUN; v++)
		total += count[v];
	buf[0] = 0;
	for (int v = FAB_LV_NOT_RUN; v >= 0; v--) {
		if (!count[v])
			continue;
		if (first)
			append(buf, size, "%zu of %zu receivers %s", count[v], total,
			       fab_load_verdict_name((enum fab_load_verdict)v));
		else
			append(buf, size, ", %zu %s", count[v],
			       fab_load_verdict_name((enum fab_load_verdict)v));
		first = false;
	}
}

static struct fab_load_row *add_row(struct fab_load_judgement *j)
{
	struct fab_load_row *r;

	r = growbuf_reserve(j->rows, &j->cap_rows, j->n_rows + 1, sizeof(*r));
	if (!r)
		return NULL;
	j->rows = r;
	r = &j->rows[j->n_rows];
	memset(r, 0, sizeof(*r));
	return r;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static int rail_rows(struct fab_load_judgement *j)
{
	size_t n = j->n_rows;
	uint32_t *rails = malloc((n ? n : 1) * sizeof(*rails));
	size_t nr = 0;

	if (!rails)
		return -1;
	for (size_t i = 0; i < n; i++)
		rails[i] = j->rows[i].rail;
	qsort(rails, n, sizeof(*rails), cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (!i || rails[i] != rails[i - 1])
			rails[nr++] = rails[i];
	for (size_t k = 0; k < nr; k++) {
		size_t count[FAB_LV_NOT_RUN + 1] = { 0 };
		struct fab_load_row *r = add_row(j);

		if (!r) {
			free(rails);
			return -1;
		}
		j->n_rows++;
		r->rail_only = true;
		r->rail = rails[k];
		r->weakest = -1;
		r->pfc_mask = -1;
		r->goodput_gbps = r->line_gbps = r->min_share_gbps = r->median_share_gbps = NAN;
		r->loss_known = r->pause_known = r->cnp_known = true;
		for (size_t i = 0; i < n; i++) {
			const struct fab_load_row *x = &j->rows[i];

			if (x->rail != rails[k])
				continue;
			count[x->v]++;
			if (x->v > r->v)
				r->v = x->v;
			r->n_senders += x->n_senders;
			r->drops = add_sat(r->drops, x->drops);
			r->retrans = add_sat(r->retrans, x->retrans);
			r->pause_tx = add_sat(r->pause_tx, x->pause_tx);
			r->pause_rx = add_sat(r->pause_rx, x->pause_rx);
			r->cnp_sent = add_sat(r->cnp_sent, x->cnp_sent);
			r->cnp_handled = add_sat(r->cnp_handled, x->cnp_handled);
			r->ecn_marked = add_sat(r->ecn_marked, x->ecn_marked);
			r->loss_known &= x->loss_known;
			r->pause_known &= x->pause_known;
			r->cnp_known &= x->cnp_known;
			r->pause_prios |= x->pause_prios;
		}
		counts_say(count, r->reason, sizeof(r->reason));
	}
	free(rails);
	return 0;
}

void fab_load_judgement_free(struct fab_load_judgement *j)
{
	for (size_t i = 0; i < j->n_rows; i++)
		free(j->rows[i].evidence);
	free(j->rows);
	memset(j, 0, sizeof(*j));
}

static void summarise(struct fab_load_judgement *j, size_t n_recv)
{
	bool ran = false;
	char counts[200];

	for (size_t i = 0; i < n_recv; i++) {
		j->count[j->rows[i].v]++;
		ran |= j->rows[i].n_senders > 0;
	}
	if (!ran) {
		j->verdict = "error";
		snprintf(j->reason, sizeof(j->reason), "%s",
			 n_recv ? "no load flow finished: nothing to judge"
				: "no load flow was planned: nothing to judge");
		return;
	}
	counts_say(j->count, counts, sizeof(counts));
	j->verdict = j->count[FAB_LV_LOSSLESS] == n_recv ? "pass" : "fail";
	snprintf(j->reason, sizeof(j->reason), "%s", counts);
}

int fab_load_judge(const struct fab_load_input *in, struct fab_load_judgement *j)
{
	struct row_work w = { 0 };
	struct edge *e;
	struct pkey *idx;
	size_t ne, n_recv;

	memset(j, 0, sizeof(*j));
	if (!(idx = port_index(in)))
		return -1;
	if (!(e = edges(in, &ne)))
		goto fail_idx;
	for (size_t s = 0; s < ne;) {
		size_t t = s + 1;
		struct fab_load_row *r;

		while (t < ne && same_row(&e[s], &e[t]))
			t++;
		w.cap_ev = 0;
		if (!(r = add_row(j)))
			goto fail;
		j->n_rows++;	/* counted now, so that a failure frees its evidence */
		if (judge_row(in, idx, &e[s], t - s, r, &w) < 0)
			goto fail;
		s = t;
	}
	n_recv = j->n_rows;
	if (rail_rows(j) < 0)
		goto fail;
	summarise(j, n_recv);
	free(w.shares);
	free(e);
	free(idx);
	return 0;
fail:
	free(w.shares);
	free(e);
fail_idx:
	free(idx);
	fab_load_judgement_free(j);
	return -1;
}
