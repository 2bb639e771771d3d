/* SHA-256 as FIPS 180-4 gives it: one buffer at a time, nothing kept.
 * Every record ingested is hashed whole (some 50 KB), so on x86-64 CPUs
 * with the SHA extensions the blocks go through them (several times the
 * speed of the plain C rounds); the digest is the same either way. */
#include "sha256.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into h, in plain C. */
static void block(uint32_t h[8], const unsigned char *b)
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
		       (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		uint32_t s1 = ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25);
		uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
		uint32_t t1 = v[7] + s1 + ch + K[i] + w[i];
		uint32_t s0 = ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22);
		uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);

		v[7] = v[6];
		v[6] = v[5];
		v[5] = v[4];
		v[4] = v[3] + t1;
		v[3] = v[2];
		v[2] = v[1];
		v[1] = v[0];
		v[0] = t1 + s0 + maj;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

typedef void (*blocks_fn)(uint32_t h[8], const unsigned char *b, size_t n);

/* n bytes (a multiple of 64) into h, in plain C. */
static void blocks_c(uint32_t h[8], const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		block(h, b + i);
}

#ifdef SHA256_X86
/* n bytes (a multiple of 64) into h with the SHA extensions: the state
 * kept as ABEF and CDGH, four rounds per step, the message schedule made
 * four words at a time (W[t-16] + s0(W[t-15]), then + W[t-7], then
 * + s1(W[t-2])). */
__attribute__((target("sha,sse4.1,ssse3")))
static void blocks_x86(uint32_t h[8], const unsigned char *b, size_t n)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
	__m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
	__m128i s0 = _mm_alignr_epi8(tmp, s1, 8);	/* ABEF */

	s1 = _mm_blend_epi16(s1, tmp, 0xF0);		/* CDGH */
	for (size_t at = 0; at < n; at += 64) {
		__m128i abef = s0, cdgh = s1, w[4];

		for (int i = 0; i < 16; i++) {
			__m128i k;

			if (i < 4)
				w[i] = _mm_shuffle_epi8(_mm_loadu_si128(
					(const __m128i *)(b + at + 16 * i)), swap);
			else	/* w[i & 3] held the words of step i - 4 */
				w[i & 3] = _mm_sha256msg2_epu32(
					_mm_add_epi32(_mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]),
						      _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4)),
					w[(i + 3) & 3]);
			k = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, k);
			s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(k, 0x0E));
		}
		s0 = _mm_add_epi32(s0, abef);
		s1 = _mm_add_epi32(s1, cdgh);
	}
	tmp = _mm_shuffle_epi32(s0, 0x1B);		/* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xB1);		/* DCHG */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, s1, 0xF0));	/* DCBA */
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(s1, tmp, 8));	/* HGFE */
}

/* Does this CPU have SHA, SSE4.1 and SSSE3?  (CPUID leaf 7 EBX bit 29;
 * leaf 1 ECX bits 19 and 9.) */
static bool have_sha_x86(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9)))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}
#endif

/* The fastest way this CPU has, found once (0: not yet; 1: plain C; 2:
 * SHA extensions). */
static blocks_fn pick_blocks(void)
{
#ifdef SHA256_X86
	static atomic_int found;
	int f = atomic_load_explicit(&found, memory_order_relaxed);

	if (!f) {
		f = have_sha_x86() ? 2 : 1;
		atomic_store_explicit(&found, f, memory_order_relaxed);
	}
	return f == 2 ? blocks_x86 : blocks_c;
#else
	return blocks_c;
#endif
}

static void digest(const void *p, size_t n, blocks_fn blocks, unsigned char out[SHA256_LEN])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const unsigned char *b = p;
	unsigned char tail[128] = { 0 };
	size_t full = n / 64 * 64, rest = n - full, tail_len = rest < 56 ? 64 : 128;
	uint64_t bits = (uint64_t)n * 8;

	blocks(h, b, full);
	/* the last bytes, a 1 bit, zeros, and the length in bits */
	memcpy(tail, b + full, rest);
	tail[rest] = 0x80;
	for (int i = 0; i < 8; i++)
		tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
	blocks(h, tail, tail_len);
	for (int i = 0; i < SHA256_LEN; i++)
		out[i] = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void hex_digest(const void *p, size_t n, blocks_fn blocks, char out[SHA256_HEX_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char d[SHA256_LEN];

	digest(p, n, blocks, d);
	for (int i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[SHA256_HEX_LEN] = '\0';
}

void sha256(const void *p, size_t n, unsigned char out[SHA256_LEN])
{
	digest(p, n, pick_blocks(), out);
}

void sha256_hex(const void *p, size_t n, char out[SHA256_HEX_LEN + 1])
{
	hex_digest(p, n, pick_blocks(), out);
}

void sha256_hex_c(const void *p, size_t n, char out[SHA256_HEX_LEN + 1])
{
	hex_digest(p, n, blocks_c, out);
}
