#include "hccn_conf.h"
#include "tool_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void npu_plan_free(struct npu_plan *plan)
{
	free(plan->address);
	free(plan->netmask);
	free(plan->netdetect);
	free(plan->gateway);
	memset(plan, 0, sizeof(*plan));
}

/* "address_12" is name "address", id 12. */
static bool split_key(struct span k, struct span *name, int64_t *id)
{
	const char *us = NULL;

	for (size_t i = k.n; i > 0; i--) {
		if (k.s[i - 1] == '_') {
			us = k.s + i - 1;
			break;
		}
		if (!isdigit((unsigned char)k.s[i - 1]))
			return false;
	}
	if (!us || us == k.s || us + 1 == k.s + k.n || k.s + k.n - (us + 1) > 9)
		return false;
	*name = (struct span){ k.s, (size_t)(us - k.s) };
	return tt_int((struct span){ us + 1, (size_t)(k.s + k.n - (us + 1)) }, id);
}

int hccn_conf_plan(const char *buf, size_t len, int64_t id, struct npu_plan *plan)
{
	static const struct tt_field keys[] = {
		{ "address", offsetof(struct npu_plan, address) },
		{ "netmask", offsetof(struct npu_plan, netmask) },
		{ "netdetect", offsetof(struct npu_plan, netdetect) },
		{ "gateway", offsetof(struct npu_plan, gateway) },
	};
	struct span line, k, v, name;
	int rc = -ENODATA, set;
	int64_t n;

	for (const char *p = buf, *end = buf + len; tt_next_line(&p, end, &line);) {
		struct span t = tt_trim(line);

		if (!t.n || t.s[0] == '#' || !tt_split(t, '=', &k, &v) || !v.n ||
		    !split_key(k, &name, &n) || n != id)
			continue;
		set = tt_set_field(keys, sizeof(keys) / sizeof(keys[0]), plan, name, v);
		if (set < 0)
			return set;
		if (set)
			rc = 0;
	}
	return rc;
}
