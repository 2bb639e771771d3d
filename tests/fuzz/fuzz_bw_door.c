/* libFuzzer target: what a bw/lat server's door parses (src/bw/token.c,
 * src/bw/allow.c): a token file's bytes (bw_token_take) and an --allow
 * CIDR.  A token taken is printable and within its bound; a CIDR parsed
 * has a prefix within its family's bits and matches its own address. */
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bw/allow.h"
#include "bw/proto.h"
#include "bw/token.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), tok[BW_TOKEN_MAX + 1];
	struct bw_err e;
	struct bw_allow a;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	if (bw_token_take(s, size, tok, sizeof(tok), &e) == 0) {
		size_t n = strlen(tok);

		if (n == 0 || n > BW_TOKEN_MAX || !bw_token_equal(tok, tok))
			abort();
	}
	if (bw_allow_parse(s, &a, &e) == 0) {
		struct sockaddr_in v4 = { .sin_family = AF_INET };
		struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };

		if (a.prefix > (a.family == AF_INET ? 32u : 128u))
			abort();
		memcpy(&v4.sin_addr, a.addr, 4);
		memcpy(&v6.sin6_addr, a.addr, 16);
		if (!bw_allow_match(&a, 1, a.family == AF_INET ? (struct sockaddr *)&v4
							       : (struct sockaddr *)&v6))
			abort();
	}
	free(s);
	return 0;
}
