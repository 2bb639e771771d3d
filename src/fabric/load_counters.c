/* fabric --load's counters (load_counters.h): which kernel counter tells
 * what, and what one port's counters add up to.  hw: names are the RDMA
 * drivers' hw_counters, told by the one vocabulary the checks use
 * (model/driver_counters.h); the others are the kernel's:
 * drivers/net/ethernet/mellanox/mlx5/core/en_stats.c (eth: of mlx5),
 * struct rtnl_link_stats64 (net:) and DCB netlink's PFC counters (dcb:). */
#include "load_counters.h"
#include "../model/driver_counters.h"

#include <string.h>

const char *fab_ckind_name(enum fab_ckind k)
{
	switch (k) {
	case FAB_CK_PAUSE_TX: return "pause-tx";
	case FAB_CK_PAUSE_RX: return "pause-rx";
	case FAB_CK_DROP: return "drop";
	case FAB_CK_RETRANS: return "retrans";
	case FAB_CK_CNP_SENT: return "cnp-sent";
	case FAB_CK_CNP_HANDLED: return "cnp-handled";
	case FAB_CK_ECN_MARKED: return "ecn-marked";
	default: return "none";
	}
}

/* Counters that count the same frames share a class; within a class each
 * view is one way of counting them (one counter, or one per-priority
 * family summed over its priorities), and the class's total is its
 * largest view, never the sum.  Classes apart add up. */
enum cls {
	CL_OOB,		/* receive WQE out of buffer: hw:out_of_buffer, eth:rx_out_of_buffer,
			 * and mlx5's net:rx_dropped (before 6.9) or net:rx_missed_errors
			 * (since), both set from that q counter in mlx5e_get_stats */
	CL_RX_DISCARD,	/* port discards: eth:rx_discards_phy, eth:rx_prioN_buf_discard */
	CL_TX_DISCARD,
	CL_WRED,	/* eth:rx_prioN_cong_discard */
	CL_TX_DROPPED,
	CL_FIFO,
	CL_ECN,		/* hw:np_ecn_marked_roce_packets, eth:rx_prioN_marked */
	CL_PAUSE_RX,	/* 9 classes: the global pause, then priorities 0-7 */
	CL_PAUSE_TX = CL_PAUSE_RX + 9,
	CL_N = CL_PAUSE_TX + 9,
};

#define VIEWS 4

struct cdef {
	const char *prefix, *pattern;	/* '#' in pattern: a priority, one digit 0-7 */
	enum fab_ckind kind;
	unsigned char cls, view;	/* pauses: cls is the global one's, + 1 + prio */
};

/* The hw: counters that count the same frames as an eth: or net: one
 * (mlx5's) share its class here; every other hw: counter of a kind is a
 * class of its own (fab_port_sum). */
static const struct cdef cdefs[] = {
	{ "hw:", "out_of_buffer", FAB_CK_DROP, CL_OOB, 0 },
	{ "hw:", "np_ecn_marked_roce_packets", FAB_CK_ECN_MARKED, CL_ECN, 0 },
	/* mlx5 ethtool -S */
	{ "eth:", "rx_prio#_pause", FAB_CK_PAUSE_RX, CL_PAUSE_RX, 0 },
	{ "eth:", "tx_prio#_pause", FAB_CK_PAUSE_TX, CL_PAUSE_TX, 0 },
	{ "eth:", "rx_global_pause", FAB_CK_PAUSE_RX, CL_PAUSE_RX, 2 },
	{ "eth:", "tx_global_pause", FAB_CK_PAUSE_TX, CL_PAUSE_TX, 2 },
	{ "eth:", "rx_pause_ctrl_phy", FAB_CK_PAUSE_RX, CL_PAUSE_RX, 3 },
	{ "eth:", "tx_pause_ctrl_phy", FAB_CK_PAUSE_TX, CL_PAUSE_TX, 3 },
	{ "eth:", "rx_discards_phy", FAB_CK_DROP, CL_RX_DISCARD, 0 },
	{ "eth:", "rx_prio#_buf_discard", FAB_CK_DROP, CL_RX_DISCARD, 1 },
	{ "eth:", "tx_discards_phy", FAB_CK_DROP, CL_TX_DISCARD, 0 },
	{ "eth:", "rx_out_of_buffer", FAB_CK_DROP, CL_OOB, 1 },
	{ "eth:", "rx_prio#_cong_discard", FAB_CK_DROP, CL_WRED, 0 },
	{ "eth:", "rx_prio#_marked", FAB_CK_ECN_MARKED, CL_ECN, 1 },
	/* the netdev's statistics/ */
	{ "net:", "rx_dropped", FAB_CK_DROP, CL_OOB, 2 },
	{ "net:", "rx_missed_errors", FAB_CK_DROP, CL_OOB, 3 },
	{ "net:", "tx_dropped", FAB_CK_DROP, CL_TX_DROPPED, 0 },
	{ "net:", "rx_fifo_errors", FAB_CK_DROP, CL_FIFO, 0 },
	/* DCB netlink's PFC counters: the same frames as eth:'s per priority */
	{ "dcb:", "rx_pause_prio#", FAB_CK_PAUSE_RX, CL_PAUSE_RX, 1 },
	{ "dcb:", "tx_pause_prio#", FAB_CK_PAUSE_TX, CL_PAUSE_TX, 1 },
};

static bool match(const char *pattern, const char *s, int *prio)
{
	for (; *pattern; pattern++, s++) {
		if (*pattern == '#') {
			if (*s < '0' || *s > '7')
				return false;
			*prio = *s - '0';
		} else if (*pattern != *s) {
			return false;
		}
	}
	return !*s;
}

/* What a hw_counters row tells under load: retransmits, sequence errors,
 * ACK timeouts and retries run out are packets sent again; drops; CNPs and
 * ECN marks.  RNR is left out (a receiver with no receive posted is not
 * the fabric losing packets), as are ICRC errors and link downs, which
 * other tests judge, and byte counts (their packet counter counts the same
 * events).  An echo (duplicate_request) counts: a duplicate arriving at a
 * receiver is a retransmit on its path. */
static enum fab_ckind row_kind(const struct drv_counter *r)
{
	if (!r || r->flags & CTR_F_BYTES)
		return FAB_CK_NONE;
	switch (r->cls) {
	case CTR_RETRANSMIT:
	case CTR_SEQ_ERR:
	case CTR_ACK_TIMEOUT:
	case CTR_RETRY_EXCEEDED:
		return FAB_CK_RETRANS;
	case CTR_DROP:
		return FAB_CK_DROP;
	case CTR_CNP_SENT:
		return FAB_CK_CNP_SENT;
	case CTR_CNP_HANDLED:
		return FAB_CK_CNP_HANDLED;
	case CTR_ECN_MARKED:
		return FAB_CK_ECN_MARKED;
	default:
		return FAB_CK_NONE;
	}
}

/* The kind of a "hw:" name by driver's vocabulary (DRV_ANY: any driver's). */
static enum fab_ckind hw_kind(const char *driver, const char *name)
{
	if (!name || strncmp(name, "hw:", 3) != 0)
		return FAB_CK_NONE;
	return row_kind(drv_counter_find(driver, name + 3));
}

static const struct cdef *cdef_find(const char *name, int *prio)
{
	*prio = -1;
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(cdefs) / sizeof(cdefs[0]); i++) {
		size_t pl = strlen(cdefs[i].prefix);

		if (strncmp(name, cdefs[i].prefix, pl) == 0 && match(cdefs[i].pattern, name + pl, prio))
			return &cdefs[i];
		*prio = -1;
	}
	return NULL;
}

enum fab_ckind fab_counter_kind_of(const char *driver, const char *name, int *prio)
{
	int p;
	const struct cdef *d = cdef_find(name, &p);

	if (prio)
		*prio = d ? p : -1;
	if (name && strncmp(name, "hw:", 3) == 0)
		return hw_kind(driver, name);	/* a cdef row's kind is its class's too */
	return d ? d->kind : FAB_CK_NONE;
}

enum fab_ckind fab_counter_kind(const char *name, int *prio)
{
	return fab_counter_kind_of(DRV_ANY, name, prio);
}

/* ---- one port's totals ---- */

struct tally {
	uint64_t view[CL_N][VIEWS];
	bool seen[CL_N][VIEWS];
};

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static unsigned cls_of(const struct cdef *d, int prio)
{
	if (d->cls == CL_PAUSE_RX || d->cls == CL_PAUSE_TX)
		return d->cls + 1u + (unsigned)prio;	/* prio -1: the global class */
	return d->cls;
}

static enum fab_ckind kind_of_cls(unsigned c)
{
	static const enum fab_ckind k[CL_PAUSE_RX] = {
		[CL_OOB] = FAB_CK_DROP, [CL_RX_DISCARD] = FAB_CK_DROP,
		[CL_TX_DISCARD] = FAB_CK_DROP, [CL_WRED] = FAB_CK_DROP,
		[CL_TX_DROPPED] = FAB_CK_DROP, [CL_FIFO] = FAB_CK_DROP,
		[CL_ECN] = FAB_CK_ECN_MARKED,
	};

	if (c >= CL_PAUSE_TX)
		return FAB_CK_PAUSE_TX;
	if (c >= CL_PAUSE_RX)
		return FAB_CK_PAUSE_RX;
	return k[c];
}

void fab_port_sum(const struct fab_port_load *p, struct fab_port_sum *s)
{
	struct tally tt = { 0 }, *t = &tt;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < p->n; i++) {
		int prio;
		const struct cdef *d = cdef_find(p->c[i].name, &prio);
		enum fab_ckind own = d ? FAB_CK_NONE : hw_kind(DRV_ANY, p->c[i].name);
		unsigned c;

		if (own != FAB_CK_NONE) {
			/* a hw: counter of its own class: it adds up with the others */
			if (p->c[i].reset) {
				s->any_reset_loss |= own == FAB_CK_DROP || own == FAB_CK_RETRANS;
				continue;
			}
			s->known[own] = true;
			s->k[own] = add_sat(s->k[own], p->c[i].delta);
			continue;
		}
		if (!d)
			continue;
		if (p->c[i].reset) {
			/* neither growth nor zero: as if not read */
			s->any_reset_loss |= d->kind == FAB_CK_DROP || d->kind == FAB_CK_RETRANS;
			continue;
		}
		c = cls_of(d, prio);
		t->view[c][d->view] = add_sat(t->view[c][d->view], p->c[i].delta);
		t->seen[c][d->view] = true;
	}
	for (unsigned c = 0; c < CL_N; c++) {
		enum fab_ckind k = kind_of_cls(c);
		uint64_t most = 0;
		bool seen = false;

		for (unsigned v = 0; v < VIEWS; v++) {
			if (!t->seen[c][v])
				continue;
			seen = true;
			if (t->view[c][v] > most)
				most = t->view[c][v];
		}
		if (!seen)
			continue;
		s->known[k] = true;
		s->k[k] = add_sat(s->k[k], most);
		if (most && c >= CL_PAUSE_RX && (c - CL_PAUSE_RX) % 9)
			s->pause_prios |= (uint8_t)(1u << ((c - CL_PAUSE_RX) % 9 - 1));
	}
}
