/* libFuzzer target: bw control messages (src/bw/proto.c), header and
 * payload as they come from the network.  Seeds in corpus/bw_proto/ come
 * from tests/bw/test_bw_proto.c (RD_BW_PROTO_CORPUS=DIR). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bw/params.h"
#include "bw/proto.h"
#include "print/bw_out.h"

/* What the peer sent must always make a whole report (the server prints
 * the client's figures): a NULL document would be an error on output. */
static void report_of(struct bw_result *peer)
{
	static struct bw_outcome o;
	struct bw_report r;
	json_t *d;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	bw_params_defaults(&o.p, peer->n_lat ? BW_MODE_LAT : BW_MODE_BW);
	o.n_rails = 1;
	o.remote[0] = *peer;
	r.is_server = true;
	r.p = o.p;
	r.n_rails = 1;
	r.rails[0] = (struct bw_report_rail){ .numa_node = -1, .gpu = -1 };
	r.outcomes = &o;
	r.n_outcomes = 1;
	r.expect_gbps = 1;
	bw_judge(&r);
	d = bw_report_to_json(&r);
	if (!d)
		abort();
	json_decref(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes, so ASan sees any overread */
	uint8_t *m = malloc(size ? size : 1);
	struct bw_err e = { "" };
	int rc;

	if (!m)
		return 0;
	memcpy(m, data, size);
	rc = bw_frame_check(m, size, &e);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && !e.msg[0])
		abort();	/* every refusal says why */
	/* the payload alone through every decoder, whatever the header says */
	if (size > BW_HDR_LEN) {
		struct bw_hello h;
		struct bw_result r;
		uint32_t rail;
		const uint8_t *ep;
		size_t el;
		char text[BW_ERROR_MAX + 1];

		if (bw_hello_decode(m + BW_HDR_LEN, size - BW_HDR_LEN, &h, &e) == 0 &&
		    (h.p.mode > BW_MODE_LAT || h.p.op > BW_OP_SEND || strlen(h.host) > BW_HOST_MAX))
			abort();
		if (bw_result_decode(m + BW_HDR_LEN, size - BW_HDR_LEN, &rail, &r, &e) == 0) {
			for (size_t i = 0; i < r.n_lat; i++)
				if (!(r.lat_usec[i] >= 0))
					abort();
			report_of(&r);
			bw_result_free(&r);
		}
		if (bw_endpoint_decode(m + BW_HDR_LEN, size - BW_HDR_LEN, &rail, &ep, &el, &e) ==
			    0 &&
		    (ep + el != m + size || rail >= BW_RAILS_MAX))
			abort();
		bw_text_decode(m + BW_HDR_LEN, size - BW_HDR_LEN, BW_ERROR_MAX, text, sizeof(text),
			       &e);
	}
	free(m);
	return 0;
}
