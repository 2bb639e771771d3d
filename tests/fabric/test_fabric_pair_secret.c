/* The fabric pairing secret (src/fabric/pair_secret.c): HMAC-SHA256 against
 * RFC 4231's test cases, the handshake's bytes against an independent
 * HMAC (Python's hmac module over the layout pair_secret.h documents),
 * and every way a connection's proof can be wrong is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fabric/pair_secret.h"

static void hex_of(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

/* RFC 4231 section 4: cases 1, 2, 3, 6 and 7 (6 and 7: a key longer than
 * a block, hashed first; 7: a message longer than a block) */
static void hmac_rfc4231(void **state)
{
	static const char msg7[] = "This is a test using a larger than block-size key and a larger "
				   "than block-size data. The key needs to be hashed before being "
				   "used by the HMAC algorithm.";
	unsigned char k1[20], k3[20], m3[50], k6[131];
	const struct {
		const unsigned char *key;
		size_t key_len;
		const void *msg;
		size_t len;
		const char *mac;
	} v[] = {
		{ k1, sizeof(k1), "Hi There", 8,
		  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
		{ (const unsigned char *)"Jefe", 4, "what do ya want for nothing?", 28,
		  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
		{ k3, sizeof(k3), m3, sizeof(m3),
		  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
		{ k6, sizeof(k6), "Test Using Larger Than Block-Size Key - Hash Key First", 54,
		  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
		{ k6, sizeof(k6), msg7, sizeof(msg7) - 1,
		  "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2" },
	};
	unsigned char mac[FAB_MAC_LEN], big[FAB_HMAC_MSG_MAX + 1] = { 0 };
	char hex[2 * FAB_MAC_LEN + 1];

	(void)state;
	memset(k1, 0x0b, sizeof(k1));
	memset(k3, 0xaa, sizeof(k3));
	memset(m3, 0xdd, sizeof(m3));
	memset(k6, 0xaa, sizeof(k6));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		assert_int_equal(fab_hmac_sha256(v[i].key, v[i].key_len, v[i].msg, v[i].len, mac),
				 0);
		hex_of(mac, sizeof(mac), hex);
		if (strcmp(hex, v[i].mac) != 0)
			fail_msg("case %zu: %s, expected %s", i, hex, v[i].mac);
	}
	/* over the bound: refused, not overflowed */
	assert_int_equal(fab_hmac_sha256(k1, sizeof(k1), big, sizeof(big), mac), -1);
}

static void secret_hex(void **state)
{
	unsigned char s[FAB_SECRET_LEN], t[FAB_SECRET_LEN], back[FAB_SECRET_LEN];
	char hex[FAB_SECRET_HEX_LEN + 1];

	(void)state;
	assert_int_equal(fab_secret_new(s), 0);
	assert_int_equal(fab_secret_new(t), 0);
	/* two draws of 256 random bits are not the same */
	assert_memory_not_equal(s, t, FAB_SECRET_LEN);
	fab_secret_to_hex(s, hex);
	assert_int_equal(strlen(hex), FAB_SECRET_HEX_LEN);
	assert_int_equal(fab_secret_from_hex(hex, strlen(hex), back), 0);
	assert_memory_equal(s, back, FAB_SECRET_LEN);
	assert_int_equal(fab_secret_from_hex(hex, strlen(hex) - 1, back), -1);
	hex[10] = 'g';
	assert_int_equal(fab_secret_from_hex(hex, FAB_SECRET_HEX_LEN, back), -1);
	hex[10] = 'A';
	assert_int_equal(fab_secret_from_hex(hex, FAB_SECRET_HEX_LEN, back), -1);
	hex[10] = '\0';
	assert_int_equal(fab_secret_from_hex(hex, FAB_SECRET_HEX_LEN, back), -1);
}

/* The fixed secret, nonce and pair whose MACs Python's hmac gave:
 *   hmac.new(bytes(range(32)), b"RDFAB-P1" + bytes(range(0xa0, 0xb0)) +
 *            struct.pack(">III", 1, 6, 2), hashlib.sha256).hexdigest()
 * and the same with b"RDFAB-A1". */
#define PROOF_MAC "e474e3824cf964b62918bcf44f25f242ff0c900ed468d3518d9cdac66e41ad63"
#define ACK_MAC "e736926d23c2bbe335882443412aa5db272f7552742d65d7a0be6b99404b2531"

struct fixed {
	unsigned char secret[FAB_SECRET_LEN], nonce[FAB_NONCE_LEN];
	struct fab_pair_id id;
};

static void fixed_init(struct fixed *f)
{
	for (int i = 0; i < FAB_SECRET_LEN; i++)
		f->secret[i] = (unsigned char)i;
	for (int i = 0; i < FAB_NONCE_LEN; i++)
		f->nonce[i] = (unsigned char)(0xa0 + i);
	f->id = (struct fab_pair_id){ 1, 6, 2 };
}

static void handshake_bytes(void **state)
{
	struct fixed f;
	unsigned char n1[FAB_NONCE_LEN], n2[FAB_NONCE_LEN], got[FAB_NONCE_LEN];
	unsigned char proof[FAB_PROOF_LEN], ack[FAB_ACK_LEN];
	char hex[2 * FAB_MAC_LEN + 1], why[200];
	bool late = true;

	(void)state;
	fixed_init(&f);
	assert_int_equal(fab_nonce_new(n1), 0);
	assert_int_equal(fab_nonce_new(n2), 0);
	assert_memory_not_equal(n1, n2, FAB_NONCE_LEN);

	fab_proof_make(f.secret, f.nonce, &f.id, proof);
	assert_memory_equal(proof, "RDFAB-P1\0\0\0\1\0\0\0\6\0\0\0\2", FAB_TAG_LEN + 12);
	assert_memory_equal(proof + FAB_TAG_LEN + 12, f.nonce, FAB_NONCE_LEN);
	hex_of(proof + FAB_TAG_LEN + 12 + FAB_NONCE_LEN, FAB_MAC_LEN, hex);
	assert_string_equal(hex, PROOF_MAC);
	assert_int_equal(fab_proof_check(f.secret, &f.id, proof, got, &late, why, sizeof(why)), 0);
	assert_false(late);
	assert_memory_equal(got, f.nonce, FAB_NONCE_LEN);

	fab_ack_make(f.secret, f.nonce, &f.id, ack);
	assert_memory_equal(ack, "RDFAB-A1", FAB_TAG_LEN);
	hex_of(ack + FAB_TAG_LEN, FAB_MAC_LEN, hex);
	assert_string_equal(hex, ACK_MAC);
	assert_true(fab_ack_check(f.secret, f.nonce, &f.id, ack));
	/* an ack for another nonce (another connection's) */
	assert_false(fab_ack_check(f.secret, n1, &f.id, ack));
}

/* A proof that is not exactly the one expected is refused, and the reason
 * tells a stranger from a late partner. */
static void proof_refused(void **state)
{
	struct fixed f;
	unsigned char proof[FAB_PROOF_LEN], bad[FAB_PROOF_LEN], other[FAB_SECRET_LEN];
	unsigned char nonce[FAB_NONCE_LEN];
	struct fab_pair_id id;
	char why[200];
	bool late;

	(void)state;
	fixed_init(&f);
	fab_proof_make(f.secret, f.nonce, &f.id, proof);

	/* garbage: no proof at all */
	memset(bad, 'A', sizeof(bad));
	assert_int_equal(fab_proof_check(f.secret, &f.id, bad, nonce, &late, why, sizeof(why)), -1);
	assert_false(late);
	assert_non_null(strstr(why, "no fabric proof"));

	/* another secret (another run, or a guess) */
	memcpy(other, f.secret, sizeof(other));
	other[31] ^= 1;
	fab_proof_make(other, f.nonce, &f.id, bad);
	assert_int_equal(fab_proof_check(f.secret, &f.id, bad, nonce, &late, why, sizeof(why)), -1);
	assert_false(late);
	assert_non_null(strstr(why, "not of this rank's secret"));

	/* every single bit flipped anywhere */
	for (size_t i = 0; i < sizeof(proof) * 8; i++) {
		memcpy(bad, proof, sizeof(bad));
		bad[i / 8] ^= (unsigned char)(1u << (i % 8));
		if (fab_proof_check(f.secret, &f.id, bad, nonce, &late, why, sizeof(why)) == 0)
			fail_msg("bit %zu flipped: still accepted", i);
		assert_false(late);
	}

	/* a rank of this run for another round or partner: late, refused */
	id = f.id;
	id.round = 1;
	fab_proof_make(f.secret, f.nonce, &id, bad);
	assert_int_equal(fab_proof_check(f.secret, &f.id, bad, nonce, &late, why, sizeof(why)), -1);
	assert_true(late);
	assert_non_null(strstr(why, "rank 1's connection for round 2"));
	id = f.id;
	id.client = 4;
	fab_proof_make(f.secret, f.nonce, &id, bad);
	assert_int_equal(fab_proof_check(f.secret, &f.id, bad, nonce, &late, why, sizeof(why)), -1);
	assert_true(late);
	assert_non_null(strstr(why, "rank 4's"));
}

static void ack_refused(void **state)
{
	struct fixed f;
	unsigned char ack[FAB_ACK_LEN], proof[FAB_PROOF_LEN], other[FAB_SECRET_LEN];
	struct fab_pair_id id;

	(void)state;
	fixed_init(&f);
	fab_ack_make(f.secret, f.nonce, &f.id, ack);
	/* a listener that does not know the secret */
	memcpy(other, f.secret, sizeof(other));
	other[0] ^= 1;
	assert_false(fab_ack_check(other, f.nonce, &f.id, ack));
	/* an ack for another pair */
	id = f.id;
	id.server = 5;
	assert_false(fab_ack_check(f.secret, f.nonce, &id, ack));
	/* the connector's own proof echoed back is no ack */
	fab_proof_make(f.secret, f.nonce, &f.id, proof);
	assert_false(fab_ack_check(f.secret, f.nonce, &f.id, proof));
	for (size_t i = 0; i < sizeof(ack) * 8; i++) {
		unsigned char bad[FAB_ACK_LEN];

		memcpy(bad, ack, sizeof(bad));
		bad[i / 8] ^= (unsigned char)(1u << (i % 8));
		if (fab_ack_check(f.secret, f.nonce, &f.id, bad))
			fail_msg("bit %zu flipped: still accepted", i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hmac_rfc4231),
		cmocka_unit_test(secret_hex),
		cmocka_unit_test(handshake_bytes),
		cmocka_unit_test(proof_refused),
		cmocka_unit_test(ack_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
