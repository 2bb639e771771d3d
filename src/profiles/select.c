/* Which built-in profile fits a machine (docs/profiles.md).
 *
 * First the DMI product name, because a DGX says what it is and the same
 * GPUs and NICs also sit in OEM boxes; then the hardware, in built-in
 * order, from each profile's match_* keys:
 *   match_gpu        every GPU's model starts with one of the words
 *   match_gpu_count  exactly this many GPUs
 *   match_nic        more than half the [rail] count of RDMA devices of
 *                    one of these models (exactly, so ConnectX-6 is not
 *                    ConnectX-6 Dx) and, when [rail] names one, of its link
 *                    layer: an HGX with one rail missing is still an HGX,
 *                    and `check` then says nic.count
 *   no match_nic     exactly [rail] count RDMA devices of the [rail] link
 *                    layer: with no model to recognise the rails by, their
 *                    number is what tells a 2-NIC budget build apart
 * A profile with neither match_gpu nor match_nic is never picked by
 * hardware (generic, and the DGX ones, which only DMI names). */
#include "profile.h"

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

static void say_hardware(char *reason, size_t len, const struct profile *p,
			 const struct inventory *inv, size_t nics, const char *model)
{
	const char *link = p->role[ROLE_RAIL].defined ? p->role[ROLE_RAIL].link_layer : NULL;
	char gpus[96];

	if (p->match_gpu && inv->n_gpus)
		snprintf(gpus, sizeof(gpus), "%zu x %.64s", inv->n_gpus, inv->gpus[0].model);
	else
		snprintf(gpus, sizeof(gpus), "%zu GPU%s", inv->n_gpus, inv->n_gpus == 1 ? "" : "s");
	if (p->match_nic)
		say(reason, len, "%s and %zu %.64s%s%s%s: %s", gpus, nics, model ? model : "?",
		    link ? " (" : "", link ? link : "", link ? ")" : "", p->name);
	else
		say(reason, len, "%s and %zu %s%sRDMA device%s: %s", gpus, nics,
		    link ? link : "", link ? " " : "", nics == 1 ? "" : "s", p->name);
}

const struct profile *profile_select(const struct inventory *inv, char *reason,
				     size_t reason_len)
{
	const char *dmi = inv->host.dmi_product;
	const struct profile *generic = profile_builtin("generic"), *p_npu;
	size_t n = profile_builtin_count();

	if (!generic) {
		say(reason, reason_len, "cannot load the built-in profiles: out of memory");
		return NULL;
	}
	for (size_t i = 0; dmi && i < n; i++) {
		const struct profile *p = profile_builtin_at(i);
		const char *list, *start;
		size_t len;

		if (!p || !p->match_dmi)
			continue;
		list = p->match_dmi;
		while (next_alt(&list, &start, &len)) {
			if (contains_squeezed(dmi, start, len)) {
				say(reason, reason_len, "DMI product '%.64s' matches %s", dmi, p->name);
				return p;
			}
		}
	}
	if ((p_npu = profile_select_npu(inv, reason, reason_len)))
		return p_npu;
	for (size_t i = 0; i < n; i++) {
		const struct profile *p = profile_builtin_at(i);
		const char *model;
		size_t nics;

		if (!p || (!p->match_gpu && !p->match_nic))
			continue;
		if (gpus_fit(p, inv) && nics_fit(p, inv, &nics, &model)) {
			say_hardware(reason, reason_len, p, inv, nics, model);
			return p;
		}
	}
	/* GPUs of a known machine and no RDMA device at all: the NICs' driver
	 * did not load (after a kernel update, typically).  Judge the machine
	 * as what its GPUs say it is, so that nic.count fails it, rather than
	 * passing it under generic. */
	for (size_t i = 0; !inv->n_nics && inv->n_gpus && i < n; i++) {
		const struct profile *p = profile_builtin_at(i);

		if (p && p->match_gpu && gpus_fit(p, inv)) {
			say(reason, reason_len, "%zu x %.64s and no RDMA device: %s", inv->n_gpus,
			    inv->gpus[0].model ? inv->gpus[0].model : "GPU", p->name);
			return p;
		}
	}
	say(reason, reason_len, "no profile matches (%zu GPU%s, %zu NIC%s): generic", inv->n_gpus,
	    inv->n_gpus == 1 ? "" : "s", inv->n_nics, inv->n_nics == 1 ? "" : "s");
	return generic;
}
