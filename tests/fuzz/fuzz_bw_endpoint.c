/* libFuzzer target: the verbs transport's endpoint bytes (src/bw/
 * verbs_endpoint.c), which arrive from the peer over the control channel.
 * Seeds in corpus/bw_endpoint/ come from tests/bw/test_bw_verbs_endpoint.c
 * (RD_BW_ENDPOINT_CORPUS=DIR).  Whatever decodes must re-encode to the same
 * bytes and satisfy the documented ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bw/engine.h"
#include "bw/verbs_endpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *m = malloc(size ? size : 1);
	struct verbs_ep ep;
	char err[200];

	if (!m)
		return 0;
	memcpy(m, data, size);
	if (verbs_ep_decode(m, size, &ep, err, sizeof(err)) == 0) {
		uint8_t *again = malloc(size);

		if (ep.n == 0 || ep.n > VERBS_EP_MAX_QPS || size > BW_ENDPOINT_MAX || !again)
			abort();
		for (size_t i = 0; i < ep.n; i++) {
			const struct verbs_ep_qp *q = &ep.qp[i];

			if (q->qpn == 0 || q->qpn > 0xffffff || q->psn > 0xffffff || q->len == 0 ||
			    q->addr > UINT64_MAX - q->len || q->mtu < 256 || q->mtu > 4096 ||
			    q->rd_atomic == 0)
				abort();
		}
		if (verbs_ep_encode(ep.qp, ep.n, again, size) != size || memcmp(again, m, size) != 0)
			abort();
		free(again);
		verbs_ep_free(&ep);
	} else if (ep.qp || ep.n || !err[0] || strlen(err) >= sizeof(err)) {
		abort();
	}
	free(m);
	return 0;
}
