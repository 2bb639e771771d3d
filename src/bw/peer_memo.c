/* bw_peer_* (peer_memo.h). */
#include "peer_memo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void bw_peer_memo_init(struct bw_peer_memo *m)
{
	memset(m, 0, sizeof(*m));
	m->log_credit = BW_LOG_BURST;
}

/* Whether p guessed: wrong tokens not yet forgotten, or a pause. */
static bool guessed(const struct bw_peer *p)
{
	return p->wrong > 0 || p->paused_until > 0;
}

/* addr's entry: found, or made in a free place or in place of the one seen
 * least lately among those that never guessed (addresses that were only
 * refused, so that strangers knocking from many addresses cannot wipe a
 * guesser's count and pause); only when every entry guessed, the guesser
 * seen least lately (more than BW_PEERS_MAX addresses guessing at once). */
static struct bw_peer *peer(struct bw_peer_memo *m, const char *addr, double now)
{
	struct bw_peer *p = NULL;

	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->p[i].addr, addr) == 0) {
			m->p[i].seen = now;
			return &m->p[i];
		}
	if (m->n < BW_PEERS_MAX) {
		p = &m->p[m->n++];
	} else {
		for (size_t i = 0; i < m->n; i++) {
			struct bw_peer *q = &m->p[i];

			if (!p || (guessed(p) && !guessed(q)) ||
			    (guessed(p) == guessed(q) && q->seen < p->seen))
				p = q;
		}
	}
	memset(p, 0, sizeof(*p));
	snprintf(p->addr, sizeof(p->addr), "%s", addr);
	p->seen = now;
	p->log_credit = BW_PEER_LOG_BURST;
	p->log_at = now;
	return p;
}

double bw_peer_paused(struct bw_peer_memo *m, const char *addr, double now)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->p[i].addr, addr) == 0)
			return m->p[i].paused_until > now ? m->p[i].paused_until - now : 0;
	return 0;
}

double bw_peer_wrong_token(struct bw_peer_memo *m, const char *addr, double now)
{
	struct bw_peer *p = peer(m, addr, now);
	double pause;

	if (p->wrong < 1000)
		p->wrong++;
	if (p->wrong <= BW_PEER_FREE_GUESSES)
		return 0;
	pause = fmin(ldexp(1.0, (int)fmin(p->wrong - BW_PEER_FREE_GUESSES - 1, 16)),
		     BW_PEER_PAUSE_MAX_S);
	p->paused_until = now + pause;
	return pause;
}

void bw_peer_right_token(struct bw_peer_memo *m, const char *addr)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->p[i].addr, addr) == 0) {
			m->p[i].wrong = 0;
			m->p[i].paused_until = 0;
		}
}

/* A budget of lines: burst at most, one more every `every` seconds. */
static bool spend(double *credit, double *at, double burst, double every, double now)
{
	if (now > *at) {
		*credit = fmin(burst, *credit + (now - *at) / every);
		*at = now;
	}
	if (*credit < 1)
		return false;
	*credit -= 1;
	return true;
}

bool bw_peer_log(struct bw_peer_memo *m, const char *addr, double now, unsigned *unlogged)
{
	struct bw_peer *p = peer(m, addr, now);

	/* the address's own budget first: one address cannot spend the
	 * others' */
	if (!spend(&p->log_credit, &p->log_at, BW_PEER_LOG_BURST, BW_PEER_LOG_EVERY_S, now)) {
		m->unlogged++;
		return false;
	}
	if (!spend(&m->log_credit, &m->log_at, BW_LOG_BURST, BW_LOG_EVERY_S, now)) {
		p->log_credit += 1;	/* not its fault: give its line back */
		m->unlogged++;
		return false;
	}
	*unlogged = m->unlogged;
	m->unlogged = 0;
	return true;
}
