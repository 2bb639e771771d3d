/* What a bw/lat server's door remembers of each address that knocked
 * (bw/lobby.c): wrong tokens in a row, and the pause they earned, so that
 * a token cannot be guessed at the rate the door answers; and how many of
 * its refusals were logged lately, so that a flood of them cannot fill the
 * server's log.  Bounded: the addresses seen least lately give way to new
 * ones.  Pure (times are the caller's bw_now()). */
#ifndef RD_BW_PEER_MEMO_H
#define RD_BW_PEER_MEMO_H

#include <stdbool.h>
#include <stddef.h>

/* Addresses remembered at once (those that guessed wrong tokens are kept
 * over those that were only refused). */
#define BW_PEERS_MAX 128
/* Wrong tokens an address may present in a row before it must pause; each
 * further one doubles the pause, from 1 s up to BW_PEER_PAUSE_MAX_S.  A
 * right token forgets them. */
#define BW_PEER_FREE_GUESSES 5
#define BW_PEER_PAUSE_MAX_S 60.0
/* The log: an address's refusals are logged BW_PEER_LOG_BURST at once,
 * then one every BW_PEER_LOG_EVERY_S; all addresses together at most
 * BW_LOG_BURST at once, then one every BW_LOG_EVERY_S.  A line that is
 * logged says how many were not since the last. */
#define BW_PEER_LOG_BURST 10
#define BW_PEER_LOG_EVERY_S 6.0
#define BW_LOG_BURST 50
#define BW_LOG_EVERY_S 0.2

struct bw_peer {
	char addr[64];		/* numeric, as bw_session.peer_addr */
	double seen;		/* the last time it knocked */
	unsigned wrong;		/* wrong tokens in a row */
	double paused_until;	/* no token of it is read before then */
	double log_credit;	/* lines it may still log now */
	double log_at;		/* when log_credit was last topped up */
};

struct bw_peer_memo {
	struct bw_peer p[BW_PEERS_MAX];
	size_t n;
	double log_credit, log_at;	/* every address together */
	unsigned unlogged;		/* refusals not logged since the last line */
};

void bw_peer_memo_init(struct bw_peer_memo *m);
/* The seconds addr must still wait before a token of it is read (0: none). */
double bw_peer_paused(struct bw_peer_memo *m, const char *addr, double now);
/* addr presented a wrong token: the pause it earned, in seconds (0: none). */
double bw_peer_wrong_token(struct bw_peer_memo *m, const char *addr, double now);
/* addr presented the right one. */
void bw_peer_right_token(struct bw_peer_memo *m, const char *addr);
/* Whether a refusal of addr is logged now; when it is, *unlogged is the
 * refusals of every address that were not since the last line logged. */
bool bw_peer_log(struct bw_peer_memo *m, const char *addr, double now, unsigned *unlogged);

#endif
