/* Who may take a partner's place in a fabric round: only a rank of this
 * run.  Each rank makes a random secret and publishes it with its
 * endpoint through PMIx (never on the command line, never on the test
 * wire); whoever connects to its listener must prove it knows it for the
 * pair and round the listener expects, before the bw test starts:
 *
 *   connector -> listener  PROOF  tag "RDFAB-P1", client rank, server rank,
 *                                 round (u32 big-endian each), a fresh
 *                                 16-byte nonce, HMAC-SHA256(secret, tag
 *                                 nonce ranks round)
 *   listener -> connector  ACK    tag "RDFAB-A1", the same HMAC under the
 *                                 ack's tag: the listener knew it too
 *
 * The connector speaks first, at once: one round trip before the test,
 * which a busy node's round can spare (a challenge from the listener
 * would cost two).  The secret never crosses the wire, the ranks and
 * round are inside the MAC (a stranger, a rank of another job, or a
 * partner of an earlier round late is refused), and the listener takes
 * one partner per round: a proof seen on the wire and sent again comes
 * after the partner's own, to a door already closed.  Pure bytes in and
 * out here (unit-tested in tests/fabric/test_fabric_pair_secret.c,
 * fuzzed by tests/fuzz/fuzz_fabric_secret.c); the socket steps are in
 * fabric/pair_test.c and fabric/admit.c. */
#ifndef RD_FABRIC_PAIR_SECRET_H
#define RD_FABRIC_PAIR_SECRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAB_SECRET_LEN 32
#define FAB_SECRET_HEX_LEN (2 * FAB_SECRET_LEN)
#define FAB_NONCE_LEN 16
#define FAB_TAG_LEN 8
#define FAB_MAC_LEN 32
#define FAB_PROOF_LEN (FAB_TAG_LEN + 12 + FAB_NONCE_LEN + FAB_MAC_LEN)
#define FAB_ACK_LEN (FAB_TAG_LEN + FAB_MAC_LEN)
/* the longest message fab_hmac_sha256 takes (the handshake's are 36
 * bytes): it hashes from one buffer on the stack */
#define FAB_HMAC_MSG_MAX 256

/* One pair test: the connecting rank, the listening rank, the round. */
struct fab_pair_id {
	uint32_t client, server, round;
};

/* HMAC-SHA256 (RFC 2104) of len bytes at msg.  0, or -1 when len is over
 * FAB_HMAC_MSG_MAX. */
int fab_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
		    size_t len, unsigned char out[FAB_MAC_LEN]);

/* A new secret from getrandom(2).  0, or -1 with errno set. */
int fab_secret_new(unsigned char out[FAB_SECRET_LEN]);
/* The secret as 64 lowercase hex digits and a NUL (how the endpoint text
 * carries it), and back: 0, or -1 unless len is 64 and every byte a hex
 * digit. */
void fab_secret_to_hex(const unsigned char s[FAB_SECRET_LEN], char out[FAB_SECRET_HEX_LEN + 1]);
int fab_secret_from_hex(const char *hex, size_t len, unsigned char out[FAB_SECRET_LEN]);

/* A fresh nonce for a proof, from getrandom(2).  0, or -1 with errno set. */
int fab_nonce_new(unsigned char out[FAB_NONCE_LEN]);

/* The proof the connector sends: the listening rank's secret over the
 * nonce and id. */
void fab_proof_make(const unsigned char secret[FAB_SECRET_LEN],
		    const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		    unsigned char out[FAB_PROOF_LEN]);
/* The listener's check of a proof against its own secret and the pair it
 * expects (the MAC compared in constant time).  0 with the proof's nonce
 * in nonce (for the ack), or -1 with why (for the log line naming the
 * refused address); *late tells a proof of this run for another pair or
 * round (a partner of an earlier round, late) from a stranger's. */
int fab_proof_check(const unsigned char secret[FAB_SECRET_LEN], const struct fab_pair_id *want,
		    const unsigned char in[FAB_PROOF_LEN], unsigned char nonce[FAB_NONCE_LEN],
		    bool *late, char *why, size_t whysz);

/* The listener's answer to a good proof, and the connector's check of it
 * (for the nonce it sent): the listener is the rank it published itself
 * as. */
void fab_ack_make(const unsigned char secret[FAB_SECRET_LEN],
		  const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		  unsigned char out[FAB_ACK_LEN]);
bool fab_ack_check(const unsigned char secret[FAB_SECRET_LEN],
		   const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		   const unsigned char in[FAB_ACK_LEN]);

#endif
