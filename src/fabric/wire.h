/* What fabric ranks tell each other through the launcher's key-value store
 * (PMIx): each rank's endpoint before the rounds, each client's results
 * after them.  Small JSON texts; every field of a peer's text is checked
 * (it comes from another process), unit-tested in
 * tests/fabric/test_fabric_wire.c and fuzzed by tests/fuzz/fuzz_fabric_wire.c. */
#ifndef RD_FABRIC_WIRE_H
#define RD_FABRIC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge.h"
#include "pair_secret.h"

#define FAB_WIRE_VERSION 1
#define FAB_NAME_MAX 64		/* a node's name in the report */
#define FAB_ADDR_MAX 64		/* a numeric address or a host name */
#define FAB_WIRE_TEXT_MAX (1u << 24)
#define FAB_RESULTS_MAX (1u << 20)	/* results one rank may report */
#define FAB_ERROR_MAX 200

/* Whether s may be a name in the report (--name, a host name) or an
 * address (--bind): printable, no blanks, no '#' (a comment in the
 * --pairs format, which also carries the retest plan), 1 to 64 bytes. */
bool fab_name_printable(const char *s);

/* A rank's endpoint: who it is, where its bw listener is, its rails, and
 * the secret whoever connects to that listener must prove it knows
 * (pair_secret.h; in the text as hex, only ever through PMIx). */
struct fab_endpoint {
	char name[FAB_NAME_MAX + 1];
	char addr[FAB_ADDR_MAX + 1];
	uint16_t port;
	uint32_t n_rails;
	char transport[8];	/* "tcp" or "verbs" */
	double t0;		/* rank 0 only: the first round's start (Unix seconds); 0 else */
	unsigned char secret[FAB_SECRET_LEN];
};

/* The endpoint as text (malloc'd), or NULL (no memory). */
char *fab_endpoint_encode(const struct fab_endpoint *ep);
/* 0, or -1 with err set. */
int fab_endpoint_decode(const char *text, size_t len, struct fab_endpoint *ep, char *err,
			size_t errsz);

/* A client's results: what it measured as the a side of each pair-rail.
 * Errors are copied into the results' own storage (fab_results_free). */
struct fab_results {
	struct fab_result *r;
	size_t n;
	char **errors;		/* n entries, NULL where none */
};
char *fab_results_encode(const struct fab_result *r, size_t n);
/* An error text as it may go to a peer: at most FAB_ERROR_MAX bytes,
 * control bytes as '?' (malloc'd, or NULL). */
char *fab_wire_error(const char *msg);
/* n_nodes bounds the peer indices and rounds the round numbers; a is the
 * sender's own index (set on every result). */
int fab_results_decode(const char *text, size_t len, uint32_t self, uint32_t n_nodes,
		       uint32_t n_rounds, uint32_t n_rails, struct fab_results *out, char *err,
		       size_t errsz);
void fab_results_free(struct fab_results *res);

#endif
