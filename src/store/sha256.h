/* SHA-256 (FIPS 180-4): the fingerprint of a record's content, strong
 * enough that two checks with the same one are taken as the same without
 * comparing them (store/row.c); also under fabric's HMAC
 * (fabric/pair_secret.c). */
#ifndef RD_STORE_SHA256_H
#define RD_STORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
#define SHA256_HEX_LEN 64

/* The digest of n bytes at p, as 32 bytes. */
void sha256(const void *p, size_t n, unsigned char out[SHA256_LEN]);

/* The digest of n bytes at p, as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *p, size_t n, char out[SHA256_HEX_LEN + 1]);
/* The same in plain C whatever the CPU has (what sha256_hex is checked
 * against). */
void sha256_hex_c(const void *p, size_t n, char out[SHA256_HEX_LEN + 1]);

#endif
