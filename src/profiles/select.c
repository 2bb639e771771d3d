/* Which built-in profile fits a machine (docs/profiles.md, "How check picks
 * a profile").
 *
 * A profile is chosen from what the machine is, never from what it then
 * judges: a machine with its rails pulled must not turn into one that
 * needs none.  So:
 *   1. the DMI product name (match_dmi): a DGX says what it is; an OEM
 *      chassis (NF5688M6, SYS-821GE-TNHR, XE9680, ...) holds several GPU
 *      generations, so its profiles are narrowed by the GPUs too;
 *   2. else the GPU model and count (match_gpu, match_gpu_count);
 *   3. else generic.
 * Of the profiles that fit, the first in built-in order is the machine's
 * design.  The NICs may then pick another that fits as well (the
 * InfiniBand or the RoCE build of the same board, match_nic and [rail]
 * link_layer) but only one that expects no fewer rails, no lower rate,
 * no farther placement and no more GPUs per NIC.  A profile with
 * fewer_rails (fewer rails than GPUs on purpose) is never the pick for
 * datacenter GPUs: it has to be named.
 *
 * NIC fit, for the variant:
 *   match_nic        more than half the [rail] count of RDMA devices of
 *                    one of these models (exactly, so ConnectX-6 is not
 *                    ConnectX-6 Dx) and, when [rail] names one, of its link
 *                    layer: an HGX with one rail missing is still an HGX
 *   no match_nic     exactly [rail] count RDMA devices of the [rail] link
 *                    layer */
#include "profile.h"
#include "gpu_class.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The next comma-separated alternative of *list, without blanks around
 * it; false at the end. */
static bool next_alt(const char **list, const char **start, size_t *len)
{
	const char *s = *list, *end;

	while (*s == ',' || isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	end = strchr(s, ',');
	if (!end)
		end = s + strlen(s);
	*list = end;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*start = s;
	*len = (size_t)(end - s);
	return true;
}

/* needle[0..n) occurs in hay when blanks are dropped from both and case
 * is ignored: "DGX H100" is in "DGXH100 920-..." */
static bool contains_squeezed(const char *hay, const char *needle, size_t n)
{
	for (const char *h = hay; *h; h++) {
		const char *a = h;
		size_t i = 0;

		if (isspace((unsigned char)*h))
			continue;
		while (i < n) {
			if (isspace((unsigned char)needle[i])) {
				i++;
				continue;
			}
			while (isspace((unsigned char)*a))
				a++;
			if (!*a || tolower((unsigned char)*a) != tolower((unsigned char)needle[i]))
				break;
			a++;
			i++;
		}
		if (i == n)
			return true;
	}
	return false;
}

/* model starts with the word: "H20" fits "H20" but not "H200 SXM 141GB". */
static bool starts_with_word(const char *model, const char *word, size_t n)
{
	return strncasecmp(model, word, n) == 0 &&
	       (model[n] == '\0' || isspace((unsigned char)model[n]));
}

static bool same_name(const char *model, const char *word, size_t n)
{
	return strlen(model) == n && strncasecmp(model, word, n) == 0;
}

static bool any_alt(const char *list, const char *s,
		    bool (*fits)(const char *, const char *, size_t))
{
	const char *start;
	size_t len;

	while (next_alt(&list, &start, &len))
		if (fits(s, start, len))
			return true;
	return false;
}

static bool gpus_fit(const struct profile *p, const struct inventory *inv)
{
	if (p->match_gpu_count && inv->n_gpus != (size_t)p->match_gpu_count)
		return false;
	if (!p->match_gpu)
		return true;
	if (!inv->n_gpus)
		return false;
	for (size_t i = 0; i < inv->n_gpus; i++)
		if (!inv->gpus[i].model ||
		    !any_alt(p->match_gpu, inv->gpus[i].model, starts_with_word))
			return false;
	return true;
}

/* Every port of the NIC has this link layer (a NIC whose link layer
 * cannot be read is not counted). */
static bool nic_link_is(const struct nic *n, const char *link)
{
	if (!n->n_ports)
		return false;
	for (size_t i = 0; i < n->n_ports; i++)
		if (!n->ports[i].link_layer || strcmp(n->ports[i].link_layer, link) != 0)
			return false;
	return true;
}

static bool nic_counts(const struct profile *p, const struct nic *n)
{
	const struct role_spec *rail = &p->role[ROLE_RAIL];

	if (p->match_nic && (!n->model || !any_alt(p->match_nic, n->model, same_name)))
		return false;
	if (rail->defined && rail->link_layer && !nic_link_is(n, rail->link_layer))
		return false;
	return true;
}

/* How many NICs count for p, and the model of the first, for the reason. */
static bool nics_fit(const struct profile *p, const struct inventory *inv, size_t *found,
		     const char **model)
{
	const struct role_spec *rail = &p->role[ROLE_RAIL];
	bool have_count = rail->defined && rail->count >= 0;

	*found = 0;
	*model = NULL;
	for (size_t i = 0; i < inv->n_nics; i++) {
		if (!nic_counts(p, &inv->nics[i]))
			continue;
		if (!*model)
			*model = inv->nics[i].model;
		(*found)++;
	}
	if (p->match_nic)
		return *found * 2 > (have_count && rail->count > 0 ? (size_t)rail->count : 1);
	if (have_count)
		return *found == (size_t)rail->count;
	return true;
}

static void say(char *reason, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *reason, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!reason || !len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(reason, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		reason[0] = '\0';
	else if ((size_t)n >= len && len > 4)
		memcpy(reason + len - 4, "...", 4);	/* cut, and says so */
}

/* The GPUs, for a reason: "8 x H100 SXM5 80GB" or "3 GPUs". */
static void say_gpus(char *buf, size_t len, const struct inventory *inv)
{
	if (inv->n_gpus && inv->gpus[0].model)
		snprintf(buf, len, "%zu x %.64s", inv->n_gpus, inv->gpus[0].model);
	else
		snprintf(buf, len, "%zu GPU%s", inv->n_gpus, inv->n_gpus == 1 ? "" : "s");
}

/* The NICs that made the variant: "8 ConnectX-7" or "2 Ethernet RDMA
 * devices". */
static void say_nics(char *buf, size_t len, const struct profile *p, size_t nics,
		     const char *model)
{
	const char *link = p->role[ROLE_RAIL].defined ? p->role[ROLE_RAIL].link_layer : NULL;

	if (p->match_nic)
		snprintf(buf, len, "%zu %.64s%s%s%s", nics, model ? model : "?",
			 link ? " (" : "", link ? link : "", link ? ")" : "");
	else
		snprintf(buf, len, "%zu %s%sRDMA device%s", nics, link ? link : "",
			 link ? " " : "", nics == 1 ? "" : "s");
}

const char *profile_source_name(enum profile_source s)
{
	switch (s) {
	case PROFILE_FROM_OPTION:
		return "--profile";
	case PROFILE_FROM_SITE:
		return "site file";
	case PROFILE_FROM_DMI:
		return "DMI";
	case PROFILE_FROM_GPUS:
		return "GPUs";
	case PROFILE_FROM_NPUS:
		return "NPUs";
	case PROFILE_FROM_DEFAULT:
		break;
	}
	return "default";
}

static bool dmi_fits(const struct profile *p, const char *dmi)
{
	const char *list, *start;
	size_t len;

	if (!dmi || !p->match_dmi)
		return false;
	list = p->match_dmi;
	while (next_alt(&list, &start, &len))
		if (contains_squeezed(dmi, start, len))
			return true;
	return false;
}

/* b expects no less than a: as many rails, as fast, as near, as few GPUs
 * per NIC.  "any" (not judged) is less than any figure. */
static bool expects_no_less(const struct profile *b, const struct profile *a)
{
	const struct role_spec *ra = &a->role[ROLE_RAIL], *rb = &b->role[ROLE_RAIL];

	if (!ra->defined)
		return true;
	if (!rb->defined)
		return false;
	if (ra->count >= 0 && rb->count < ra->count)
		return false;
	if (ra->rate_gbps > 0 && rb->rate_gbps < ra->rate_gbps)
		return false;
	if (ra->placement >= 0 && (rb->placement < 0 || rb->placement > ra->placement))
		return false;
	if (ra->gpus_per_nic > 0 && (rb->gpus_per_nic <= 0 || rb->gpus_per_nic > ra->gpus_per_nic))
		return false;
	return true;
}

#define MAX_CANDIDATES 32

/* Of the candidates (the design first), the one the NICs choose. */
static const struct profile *variant(const struct profile *const *cand, size_t n,
				     const struct inventory *inv, size_t *nics,
				     const char **model, bool *by_nics)
{
	/* one candidate: nothing for the NICs to choose */
	for (size_t i = 0; n > 1 && inv->n_nics && i < n; i++) {
		if (expects_no_less(cand[i], cand[0]) && cand[i]->role[ROLE_RAIL].defined &&
		    nics_fit(cand[i], inv, nics, model)) {
			*by_nics = true;
			return cand[i];
		}
	}
	*by_nics = false;
	return cand[0];
}

/* The profiles step 1 or 2 leaves, in built-in order. */
static size_t candidates(const struct inventory *inv, bool by_dmi, const struct profile **cand)
{
	bool datacenter = gpu_class_gbps_max(inv) > 0;
	size_t n = 0;

	for (size_t i = 0; i < profile_builtin_count() && n < MAX_CANDIDATES; i++) {
		const struct profile *p = profile_builtin_at(i);

		if (!p)
			continue;
		if (by_dmi ? !dmi_fits(p, inv->host.dmi_product) : !p->match_gpu)
			continue;
		if (!gpus_fit(p, inv))
			continue;
		if (p->fewer_rails && datacenter)
			continue;
		cand[n++] = p;
	}
	return n;
}

const struct profile *profile_pick(const struct inventory *inv, enum profile_source *source,
				   char *reason, size_t reason_len)
{
	const struct profile *generic = profile_builtin("generic");
	const struct profile *cand[MAX_CANDIDATES], *p;
	enum profile_source spare;
	char gpus[96], nic_words[128];
	const char *model = NULL;
	size_t n, nics = 0;
	bool by_nics;

	if (!source)
		source = &spare;
	*source = PROFILE_FROM_DEFAULT;
	if (!generic) {
		say(reason, reason_len, "cannot load the built-in profiles: out of memory");
		return NULL;
	}
	say_gpus(gpus, sizeof(gpus), inv);
	n = candidates(inv, true, cand);
	if (n) {
		*source = PROFILE_FROM_DMI;
		p = variant(cand, n, inv, &nics, &model, &by_nics);
		if (!p->match_gpu && !by_nics) {
			say(reason, reason_len, "DMI product '%.64s' matches %s",
			    inv->host.dmi_product, p->name);
			return p;
		}
		if (by_nics)
			say_nics(nic_words, sizeof(nic_words), p, nics, model);
		say(reason, reason_len, "DMI product '%.64s'%s%s%s%s: %s", inv->host.dmi_product,
		    p->match_gpu ? " with " : "", p->match_gpu ? gpus : "",
		    by_nics ? " and " : "", by_nics ? nic_words : "", p->name);
		return p;
	}
	/* an Ascend machine by its NPUs (select_npu.c, docs/ascend.md) */
	p = profile_select_npu(inv, reason, reason_len);
	if (p) {
		*source = PROFILE_FROM_NPUS;
		return p;
	}
	n = candidates(inv, false, cand);
	if (n) {
		*source = PROFILE_FROM_GPUS;
		p = variant(cand, n, inv, &nics, &model, &by_nics);
		if (by_nics) {
			say_nics(nic_words, sizeof(nic_words), p, nics, model);
			say(reason, reason_len, "GPUs %s and %s: %s", gpus, nic_words, p->name);
		} else if (!inv->n_nics) {
			say(reason, reason_len, "GPUs %s and no RDMA device: %s", gpus, p->name);
		} else {
			say(reason, reason_len, "GPUs %s: %s", gpus, p->name);
		}
		return p;
	}
	/* an Ascend machine no built-in knows: its NPUs named, so the user
	 * sees what was found and that their ports get only the rules that
	 * need no profile */
	if (inv->npu.n)
		say(reason, reason_len, "no profile matches (%zu GPU%s, %zu NIC%s, %zu x %.32s "
		    "NPUs): generic", inv->n_gpus, inv->n_gpus == 1 ? "" : "s", inv->n_nics,
		    inv->n_nics == 1 ? "" : "s", inv->npu.n,
		    inv->npu.v[0].model ? inv->npu.v[0].model : "unknown model");
	else if (inv->npu.n_pci)
		say(reason, reason_len, "no profile matches (%zu GPU%s, %zu NIC%s, %zu Ascend NPU "
		    "PCI functions, none listed by npu-smi): generic", inv->n_gpus,
		    inv->n_gpus == 1 ? "" : "s", inv->n_nics, inv->n_nics == 1 ? "" : "s",
		    inv->npu.n_pci);
	else
		say(reason, reason_len, "no profile matches (%zu GPU%s, %zu NIC%s): generic",
		    inv->n_gpus, inv->n_gpus == 1 ? "" : "s", inv->n_nics,
		    inv->n_nics == 1 ? "" : "s");
	return generic;
}

const struct profile *profile_budget_fit(const struct inventory *inv)
{
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct profile *p = profile_builtin_at(i);
		const char *model;
		size_t nics;

		if (p && p->fewer_rails && p->role[ROLE_RAIL].defined && gpus_fit(p, inv) &&
		    nics_fit(p, inv, &nics, &model))
			return p;
	}
	return NULL;
}

const struct profile *profile_select(const struct inventory *inv, char *reason,
				     size_t reason_len)
{
	return profile_pick(inv, NULL, reason, reason_len);
}
