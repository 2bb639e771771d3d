/* The fabric test's schedule: which nodes meet in which round.  Pure
 * functions over node indices 0..n-1 (the ranks that answered), unit-tested
 * in tests/fabric/test_fabric_schedule.c; docs/fabric.md describes the modes. */
#ifndef RD_FABRIC_SCHEDULE_H
#define RD_FABRIC_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

/* One pair of a round: node a is the client (it connects), b the server. */
struct fab_pair {
	uint32_t a, b;
};

struct fab_round {
	struct fab_pair *pairs;
	size_t n_pairs, cap_pairs;	/* cap_pairs: room at pairs (growbuf) */
};

struct fab_schedule {
	struct fab_round *rounds;
	size_t n_rounds, cap_rounds;	/* cap_rounds: room at rounds (growbuf) */
};

/* Above this many nodes the default mode is quick. */
#define FAB_FULL_MAX_NODES 128

/* Round-robin tournament (the circle method): n-1 rounds of n/2 pairs for
 * an even n, n rounds with one node sitting out each for an odd n; every
 * pair of nodes meets exactly once.  0, or -1 (no memory). */
int fab_schedule_full(uint32_t n, struct fab_schedule *s);
/* One round: node i of the lower half against node i of the upper half
 * (an odd node out pairs with node 0 in a second round, so every node is
 * tested).  0 or -1. */
int fab_schedule_quick(uint32_t n, struct fab_schedule *s);
/* fabric --load incast: n rounds, one receiver each (node r in round r),
 * its senders the fan_in nodes after it (r+1, r+2, ... modulo n; fan_in 0
 * or over n-1: every other node), each a pair {sender, receiver}: the
 * sender connects and sends.  0 or -1. */
int fab_schedule_incast(uint32_t n, uint32_t fan_in, struct fab_schedule *s);
/* fabric --load alltoall: one round of every pair at once, the lower node
 * connecting, both directions.  0 or -1. */
int fab_schedule_alltoall(uint32_t n, struct fab_schedule *s);
/* Append a pair to round r (rounds grow as needed), the lower node as a.
 * 0 or -1. */
int fab_schedule_add(struct fab_schedule *s, size_t r, uint32_t a, uint32_t b);
/* The same with a kept as a (the connecting side) whatever the order. */
int fab_schedule_add_directed(struct fab_schedule *s, size_t r, uint32_t a, uint32_t b);
/* Pairs in all rounds. */
size_t fab_schedule_pairs(const struct fab_schedule *s);
void fab_schedule_free(struct fab_schedule *s);

/* --pairs FILE: lines `ROUND NODE_A NODE_B` (rounds numbered from 1, in
 * any order; '#' starts a comment; blank lines allowed).  Nodes are names,
 * looked up in names[0..n-1].  A node twice in one round, a pair of a node
 * with itself, an unknown name or a malformed line is an error naming the
 * line.  text need not be NUL-terminated.  0, or -1 with err set.
 * names NULL: the form only (lines, round numbers, a node with itself), as
 * before the job's names are known; s is left empty. */
int fab_schedule_parse(const char *text, size_t len, const char *const *names, uint32_t n,
		       struct fab_schedule *s, char *err, size_t errsz);

#endif
