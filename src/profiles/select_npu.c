/* The Ascend rule of profile selection: a built-in whose match_npu names
 * every NPU's model (exactly: "Ascend 910" is not "Ascend 910B") and whose
 * match_npu_count, when given, is the number of NPUs.  Asked after the DMI
 * product name and before the GPU and NIC rules: an Atlas has no GPU, and
 * its host NICs say nothing of what it is. */
#include "profile.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* model is one of the comma-separated names of list (blanks around each
 * ignored, case ignored). */
static bool in_list(const char *list, const char *model)
{
	size_t m = strlen(model);

	for (const char *s = list; *s;) {
		const char *end = strchr(s, ','), *a = s, *b;

		if (!end)
			end = s + strlen(s);
		b = end;
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if ((size_t)(b - a) == m && strncasecmp(a, model, m) == 0)
			return true;
		s = *end ? end + 1 : end;
	}
	return false;
}

const struct profile *profile_select_npu(const struct inventory *inv, char *reason,
					 size_t reason_len)
{
	const struct npu_inventory *ni = &inv->npu;

	if (!ni->n)
		return NULL;
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct profile *p = profile_builtin_at(i);
		bool all = true;

		if (!p || !p->match_npu)
			continue;
		if (p->match_npu_count && ni->n != (size_t)p->match_npu_count)
			continue;
		for (size_t k = 0; k < ni->n && all; k++)
			all = ni->v[k].model && in_list(p->match_npu, ni->v[k].model);
		if (!all)
			continue;
		if (reason && reason_len)
			snprintf(reason, reason_len, "%zu x %s NPUs: %s", ni->n, ni->v[0].model,
				 p->name);
		return p;
	}
	return NULL;
}
