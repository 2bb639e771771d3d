/* libFuzzer target: what a fabric listener and a connecting rank read from
 * each other before their test (src/fabric/pair_secret.c): a proof, an
 * ack; and a secret's hex, as a rank's endpoint carries it.
 * Seeds in corpus/fabric_secret/ (a good proof and ack of the fixed secret
 * below, a secret's hex, garbage).  Nothing is accepted but the exact
 * bytes the secret makes. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/pair_secret.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char secret[FAB_SECRET_LEN], nonce[FAB_NONCE_LEN], got[FAB_NONCE_LEN];
	unsigned char good[FAB_PROOF_LEN], out[FAB_SECRET_LEN];
	const struct fab_pair_id want = { 1, 6, 2 };
	char why[200];
	bool late;

	/* the fixed secret and nonce of tests/fabric/test_fabric_pair_secret.c */
	for (int i = 0; i < FAB_SECRET_LEN; i++)
		secret[i] = (unsigned char)i;
	for (int i = 0; i < FAB_NONCE_LEN; i++)
		nonce[i] = (unsigned char)(0xa0 + i);
	if (fab_secret_from_hex((const char *)data, size, out) == 0 && size != FAB_SECRET_HEX_LEN)
		abort();
	if (size >= FAB_PROOF_LEN) {
		fab_proof_make(secret, nonce, &want, good);
		if (fab_proof_check(secret, &want, data, got, &late, why, sizeof(why)) == 0 &&
		    (memcmp(got, nonce, FAB_NONCE_LEN) != 0 || memcmp(data, good, FAB_PROOF_LEN) != 0 ||
		     late))
			abort();
	}
	if (size >= FAB_ACK_LEN) {
		fab_ack_make(secret, nonce, &want, good);
		if (fab_ack_check(secret, nonce, &want, data) &&
		    memcmp(data, good, FAB_ACK_LEN) != 0)
			abort();
	}
	if (size && fab_hmac_sha256(data, size, data, size, out) == 0 && size > FAB_HMAC_MSG_MAX)
		abort();
	return 0;
}
