#include "npu_smi_health.h"
#include "tool_text.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void npu_smi_health_free(struct npu_smi_health *h)
{
	free(h->status);
	free(h->code);
	free(h->info);
	memset(h, 0, sizeof(*h));
}

/* "NA" says there is none: kept as NULL, so an absent code reads the same */
static int keep(char **field, struct span v)
{
	if (!v.n || (v.n == 2 && strncmp(v.s, "NA", 2) == 0))
		return 0;
	return tt_set(field, v);
}

int npu_smi_parse_health(const char *buf, size_t len, struct npu_smi_health *h)
{
	struct span line, k, v;
	bool from_status = false;
	int rc = 0;

	for (const char *p = buf, *end = buf + len; rc == 0 && tt_next_line(&p, end, &line);) {
		if (!tt_split(line, ':', &k, &v))
			continue;
		if (tt_key_is(k, "Health Status") && v.n && !from_status) {
			/* the one-chip form wins over a per-chip "Health" line */
			free(h->status);
			h->status = NULL;
			from_status = true;
			rc = tt_set(&h->status, v);
		} else if (tt_key_is(k, "Health") && v.n && !h->status) {
			rc = tt_set(&h->status, v);
		} else if (tt_key_is(k, "Error Code") && !h->code) {
			rc = keep(&h->code, v);
		} else if (tt_key_is(k, "Error Information") && !h->info) {
			rc = keep(&h->info, v);
		}
	}
	if (rc < 0)
		return rc;
	return h->status ? 0 : -ENODATA;
}
