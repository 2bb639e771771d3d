/* The pairing secret and its handshake's bytes (pair_secret.h). */
#include "pair_secret.h"
#include "../store/sha256.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#define SHA256_BLOCK 64

/* each message's first FAB_TAG_LEN bytes */
#define TAG_PROOF "RDFAB-P1"
#define TAG_ACK "RDFAB-A1"

int fab_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *msg,
		    size_t len, unsigned char out[FAB_MAC_LEN])
{
	unsigned char k[SHA256_BLOCK] = { 0 };
	unsigned char buf[SHA256_BLOCK + (FAB_HMAC_MSG_MAX > SHA256_LEN ? FAB_HMAC_MSG_MAX :
					  SHA256_LEN)];

	if (len > FAB_HMAC_MSG_MAX)
		return -1;
	/* a key longer than a block is its digest (RFC 2104 section 2) */
	if (key_len > SHA256_BLOCK)
		sha256(key, key_len, k);
	else
		memcpy(k, key, key_len);
	for (int i = 0; i < SHA256_BLOCK; i++)
		buf[i] = k[i] ^ 0x36;
	memcpy(buf + SHA256_BLOCK, msg, len);
	sha256(buf, SHA256_BLOCK + len, out);
	for (int i = 0; i < SHA256_BLOCK; i++)
		buf[i] = k[i] ^ 0x5c;
	memcpy(buf + SHA256_BLOCK, out, SHA256_LEN);
	sha256(buf, SHA256_BLOCK + SHA256_LEN, out);
	return 0;
}

/* Whether two MACs are equal, in a time that does not tell where they
 * first differ (a guesser learns nothing byte by byte). */
static bool same_mac(const unsigned char *a, const unsigned char *b)
{
	unsigned char d = 0;

	for (int i = 0; i < FAB_MAC_LEN; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static int random_bytes(unsigned char *out, size_t n)
{
	/* up to 256 bytes come whole once the pool is ready (getrandom(2)) */
	return getrandom(out, n, 0) == (ssize_t)n ? 0 : -1;
}

int fab_secret_new(unsigned char out[FAB_SECRET_LEN])
{
	return random_bytes(out, FAB_SECRET_LEN);
}

void fab_secret_to_hex(const unsigned char s[FAB_SECRET_LEN], char out[FAB_SECRET_HEX_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < FAB_SECRET_LEN; i++) {
		out[2 * i] = hex[s[i] >> 4];
		out[2 * i + 1] = hex[s[i] & 15];
	}
	out[FAB_SECRET_HEX_LEN] = '\0';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int fab_secret_from_hex(const char *hex, size_t len, unsigned char out[FAB_SECRET_LEN])
{
	if (len != FAB_SECRET_HEX_LEN)
		return -1;
	for (int i = 0; i < FAB_SECRET_LEN; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

int fab_nonce_new(unsigned char out[FAB_NONCE_LEN])
{
	return random_bytes(out, FAB_NONCE_LEN);
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_id(unsigned char *p, const struct fab_pair_id *id)
{
	put_be32(p, id->client);
	put_be32(p + 4, id->server);
	put_be32(p + 8, id->round);
}

/* The MAC of a message: its tag, so that a proof is never an ack; the
 * connector's nonce; the pair and round. */
static void mac_of(const unsigned char secret[FAB_SECRET_LEN], const char *tag,
		   const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		   unsigned char out[FAB_MAC_LEN])
{
	unsigned char msg[FAB_TAG_LEN + FAB_NONCE_LEN + 12];

	memcpy(msg, tag, FAB_TAG_LEN);
	memcpy(msg + FAB_TAG_LEN, nonce, FAB_NONCE_LEN);
	put_id(msg + FAB_TAG_LEN + FAB_NONCE_LEN, id);
	/* 36 bytes: within FAB_HMAC_MSG_MAX */
	(void)fab_hmac_sha256(secret, FAB_SECRET_LEN, msg, sizeof(msg), out);
}

void fab_proof_make(const unsigned char secret[FAB_SECRET_LEN],
		    const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		    unsigned char out[FAB_PROOF_LEN])
{
	memcpy(out, TAG_PROOF, FAB_TAG_LEN);
	put_id(out + FAB_TAG_LEN, id);
	memcpy(out + FAB_TAG_LEN + 12, nonce, FAB_NONCE_LEN);
	mac_of(secret, TAG_PROOF, nonce, id, out + FAB_TAG_LEN + 12 + FAB_NONCE_LEN);
}

int fab_proof_check(const unsigned char secret[FAB_SECRET_LEN], const struct fab_pair_id *want,
		    const unsigned char in[FAB_PROOF_LEN], unsigned char nonce[FAB_NONCE_LEN],
		    bool *late, char *why, size_t whysz)
{
	struct fab_pair_id got = {
		get_be32(in + FAB_TAG_LEN), get_be32(in + FAB_TAG_LEN + 4),
		get_be32(in + FAB_TAG_LEN + 8),
	};
	unsigned char mac[FAB_MAC_LEN];

	*late = false;
	if (memcmp(in, TAG_PROOF, FAB_TAG_LEN) != 0) {
		snprintf(why, whysz, "it sent no fabric proof (not an rdmadoctor fabric rank)");
		return -1;
	}
	memcpy(nonce, in + FAB_TAG_LEN + 12, FAB_NONCE_LEN);
	mac_of(secret, TAG_PROOF, nonce, &got, mac);
	if (!same_mac(mac, in + FAB_TAG_LEN + 12 + FAB_NONCE_LEN)) {
		snprintf(why, whysz, "its proof is not of this rank's secret (not a rank of this "
			 "run)");
		return -1;
	}
	if (got.client != want->client || got.server != want->server ||
	    got.round != want->round) {
		*late = true;
		snprintf(why, whysz, "rank %u's connection for round %u, not this round's "
			 "partner's (rank %u, round %u): late", got.client, got.round + 1,
			 want->client, want->round + 1);
		return -1;
	}
	return 0;
}

void fab_ack_make(const unsigned char secret[FAB_SECRET_LEN],
		  const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		  unsigned char out[FAB_ACK_LEN])
{
	memcpy(out, TAG_ACK, FAB_TAG_LEN);
	mac_of(secret, TAG_ACK, nonce, id, out + FAB_TAG_LEN);
}

bool fab_ack_check(const unsigned char secret[FAB_SECRET_LEN],
		   const unsigned char nonce[FAB_NONCE_LEN], const struct fab_pair_id *id,
		   const unsigned char in[FAB_ACK_LEN])
{
	unsigned char mac[FAB_MAC_LEN];

	if (memcmp(in, TAG_ACK, FAB_TAG_LEN) != 0)
		return false;
	mac_of(secret, TAG_ACK, nonce, id, mac);
	return same_mac(mac, in + FAB_TAG_LEN);
}
