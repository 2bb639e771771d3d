/* libFuzzer target: every `hccn_tool -i N -<option> -g` parser
 * (src/ascend/hccn_parse.c), live stdout or a snapshot's
 * .rdmadoctor/hccn/<N>/<option>.  The first byte picks the option, the
 * rest is the output; seeds in corpus/hccn/ are the formats of
 * docs/ascend.md. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ascend/hccn_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct npu_inventory ni = { 0 };
	struct npu *n;
	char *m;

	if (size < 1)
		return 0;
	/* a copy of exactly the output's bytes, so ASan sees any overread */
	m = malloc(size);
	n = calloc(1, sizeof(*n));
	if (!m || !n) {
		free(m);
		free(n);
		return 0;
	}
	memcpy(m, data + 1, size - 1);
	npu_port_init(&n->port);
	ni.v = n;
	ni.n = 1;
	/* twice: a parser run again replaces what it set */
	for (int round = 0; round < 2; round++) {
		int rc = hccn_options[data[0] % hccn_n_options].parse(m, size - 1, &n->port);

		if (rc != 0 && rc != -ENODATA && rc != -ENOMEM)
			abort();
	}
	if (n->port.link_up < -1 || n->port.link_up > 1)
		abort();
	for (int i = 0; i < 8; i++)
		if (n->port.pfc_enabled[i] < -1 || n->port.pfc_enabled[i] > 1)
			abort();
	if (n->port.optical && (n->port.optical->n_lanes < 0 || n->port.optical->n_lanes > NPU_LANES))
		abort();
	/* each bond member's row as the port's; a member always named */
	for (size_t k = 0; k < n->port.n_pfc_members; k++) {
		if (!n->port.pfc_members[k].dev)
			abort();
		for (int i = 0; i < 8; i++)
			if (n->port.pfc_members[k].enabled[i] < -1 || n->port.pfc_members[k].enabled[i] > 1)
				abort();
	}
	/* a malformed -ip line leaves its family unknown, never half of it */
	if ((n->port.ip_malformed && (n->port.ipaddr || n->port.netmask)) ||
	    (n->port.ip6_malformed && (n->port.ipv6addr || !IS_NA(n->port.ipv6_prefix))))
		abort();
	npu_inventory_free(&ni);
	free(m);
	return 0;
}
