/* One cause, one finding.  Two checks can see one setting from two sides:
 * roce.qos_mismatch sees DSCP 26 land on a priority without PFC, and the
 * rails' vote (agree.c) or the profile's roce.pfc sees PFC off on that
 * priority; each gives the same `mlnx_qos --pfc` command.  Printed twice,
 * at two severities, it reads as two faults.  So among the ids that judge
 * one setting, a finding whose fix commands (its `...` spans) another
 * finding on the same subject already gives, at no lower severity, is
 * dropped: the other says all it would.
 *
 * Only such ids are compared: elsewhere two findings share a command to
 * look with (`rdmadoctor topo`, `perfquery -R`, `hccn_tool -optical`), not
 * a change that cures both.  Findings without a command, and the infos
 * that say what could not be checked, are never compared; nor is a waived
 * one, which the site chose not to see. */
#include "families.h"

#include <stdlib.h>
#include <string.h>

/* Every `...` span of a also stands in b; false when a has none. */
static bool commands_within(const char *a, const char *b)
{
	size_t spans = 0;

	for (const char *s = strchr(a, '`'); s; s = strchr(s + 1, '`')) {
		const char *e = strchr(s + 1, '`');
		const char *h;
		size_t len;

		if (!e)
			break;
		len = (size_t)(e - s) + 1;
		for (h = strchr(b, '`'); h && strncmp(h, s, len) != 0; h = strchr(h + 1, '`'))
			;
		if (!h)
			return false;
		spans++;
		s = e;
	}
	return spans > 0;
}

/* The ids that judge the lossless RoCE setup of a port: trust, the
 * DSCP map, PFC and ECN, each against the profile, the other rails and
 * the port's own other settings. */
static const char *const roce_setup[] = {
	"roce.pfc", "roce.ecn", "roce.trust", "roce.qos_mismatch",
};

static bool judges_roce_setup(const char *id)
{
	for (size_t i = 0; i < sizeof(roce_setup) / sizeof(roce_setup[0]); i++)
		if (strcmp(id, roce_setup[i]) == 0)
			return true;
	return false;
}

static bool comparable(const struct finding *f)
{
	return !f->unchecked && !f->waived && f->subject && f->fix && judges_roce_setup(f->id);
}

/* b says all that a says: same subject, no lower severity, a's commands
 * among b's.  Of two that say the same, the later one goes. */
static bool covered_by(const struct finding *a, size_t ia, const struct finding *b, size_t ib)
{
	if (!comparable(a) || !comparable(b) || strcmp(a->subject, b->subject) != 0 ||
	    b->severity < a->severity || !commands_within(a->fix, b->fix))
		return false;
	if (b->severity > a->severity || !commands_within(b->fix, a->fix))
		return true;
	return ib < ia;
}

static bool marked(const struct finding *f, size_t i, const void *drop)
{
	(void)f;
	return ((const bool *)drop)[i];
}

int check_drop_same_fix(struct findings *out, size_t from)
{
	size_t n = out->n - from;
	bool *drop = calloc(n ? n : 1, sizeof(*drop));

	if (!drop)
		return -ENOMEM;
	/* decide on the whole list first: a dropped finding still covers */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && !drop[i]; j++)
			drop[i] = j != i && covered_by(&out->v[from + i], i, &out->v[from + j], j);
	findings_remove_if(out, from, marked, drop);
	free(drop);
	return 0;
}
