/* check_run: roles, then every family, then one order for the output. */
#include "run.h"
#include "families.h"
#include "rank.h"
#include "../profiles/site.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int (*const families[])(const struct check_ctx *, struct findings *) = {
	check_nic, check_port, check_pcie, check_mtu, check_gid,
	check_counters, check_gdr, check_topo, check_sys, check_roce, check_qos,
	check_module, check_link, check_ber, check_link_layer, check_npu, check_npu_health,
	check_bandwidth, check_rail_cabling, check_fw_version, check_verbs_user,
	check_drv_stack, check_nvlink,
	check_unchecked_values, check_kmsg, check_excluded,
};

static int cmp_str(const char *a, const char *b)
{
	return strverscmp(a ? a : "", b ? b : "");
}

/* errors, warnings, infos; then the bandwidth each costs (rank.h: a rail
 * down before a count); then id; then subject (mlx5_2 before mlx5_10);
 * observed and expected only to make the order total. */
static int by_severity_id_subject(const void *pa, const void *pb)
{
	const struct finding *a = pa, *b = pb;
	unsigned ra, rb;
	int r;

	if (a->severity != b->severity)
		return a->severity > b->severity ? -1 : 1;
	ra = check_rank(a->id);
	rb = check_rank(b->id);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if ((r = strcmp(a->id, b->id)) != 0)
		return r;
	if ((r = cmp_str(a->subject, b->subject)) != 0)
		return r;
	if ((r = cmp_str(a->observed, b->observed)) != 0)
		return r;
	return cmp_str(a->expected, b->expected);
}

int check_run(const struct inventory *inv, const struct profile *p, struct findings *out)
{
	enum nic_role *roles = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*roles));
	int rc;

	if (!roles)
		return -ENOMEM;
	check_roles(inv, p, NULL, roles);
	rc = check_run_site(inv, p, NULL, roles, out);
	free(roles);
	return rc;
}

void check_roles(const struct inventory *inv, const struct profile *p, const struct site *site,
		 enum nic_role *roles)
{
	roles_assign(inv, p, roles);
	/* the site file knows what the PCI tree cannot tell */
	for (size_t i = 0; site && i < inv->n_nics; i++) {
		int role = site_role(site, inv->nics[i].name);

		if (role >= 0)
			roles[i] = (enum nic_role)role;
	}
}

void check_waive(struct findings *fs, const struct site *site)
{
	for (size_t i = 0; i < fs->n; i++)
		fs->v[i].waived = site_ignores(site, fs->v[i].id);
}

void check_weigh_required(struct findings *fs, size_t from, const struct site *site)
{
	for (size_t i = from; i < fs->n; i++) {
		struct finding *f = &fs->v[i];

		if (!f->unchecked || !f->required || f->waived)
			continue;
		if (site_accepts_unchecked(site, f->id))
			f->accepted = true;
		else if (f->severity < SEV_WARN)
			f->severity = SEV_WARN;
	}
}

size_t check_unchecked(const struct findings *fs)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += fs->v[i].unchecked;
	return n;
}

/* A NIC the site file names has the role it gives, whatever its link
 * layer. */
bool *check_wrong_links(const struct inventory *inv, const struct profile *p,
			const struct site *site)
{
	size_t n = inv->n_nics ? inv->n_nics : 1;
	enum nic_role *roles = calloc(n, sizeof(*roles));
	bool *wrong = calloc(n, sizeof(*wrong));

	if (roles && wrong) {
		roles_assign_links(inv, p, roles, wrong);
		for (size_t i = 0; site && i < inv->n_nics; i++)
			if (site_role(site, inv->nics[i].name) >= 0)
				wrong[i] = false;
	} else {
		free(wrong);
		wrong = NULL;
	}
	free(roles);
	return wrong;
}

/* Every family fills all four texts of its findings: a NULL one is a text
 * that could not be stored.  0 or -ENOMEM. */
static int texts_stored(const struct findings *out, size_t first)
{
	for (size_t i = first; i < out->n; i++) {
		const struct finding *f = &out->v[i];

		if (!f->subject || !f->observed || !f->expected || !f->fix)
			return -ENOMEM;
	}
	return 0;
}

int check_run_site(const struct inventory *inv, const struct profile *p,
		   const struct site *site, const enum nic_role *roles, struct findings *out)
{
	size_t *gpu_nic = calloc(inv->n_gpus ? inv->n_gpus : 1, sizeof(*gpu_nic));
	enum path_type *gpu_path = calloc(inv->n_gpus ? inv->n_gpus : 1, sizeof(*gpu_path));
	bool *wrong_link = check_wrong_links(inv, p, site);
	int rc = 0;
	struct check_ctx c = {
		.inv = inv,
		.p = p,
		.roles = roles,
		.generic = !p || !p->role[ROLE_RAIL].defined,
		.gpu_nic = gpu_nic,
		.gpu_path = gpu_path,
		.wrong_link = wrong_link,
		.site = site,
	};
	size_t first = out->n;

	if (!gpu_nic || !gpu_path || !wrong_link) {
		free(gpu_nic);
		free(gpu_path);
		free(wrong_link);
		return -ENOMEM;
	}
	check_map_gpus(&c, gpu_nic, gpu_path);
	for (size_t i = 0; !rc && i < sizeof(families) / sizeof(families[0]); i++)
		rc = families[i](&c, out);
	if (!rc)
		rc = check_agree(&c, out, first);
	if (!rc)
		rc = texts_stored(out, first);
	if (!rc)
		check_drop_excluded(&c, out, first);
	/* waived first: a finding the site waives cannot stand in for one it
	 * does not, or waiving one id would hide the other's fault */
	if (!rc)
		check_waive(out, site);
	if (!rc)
		rc = check_drop_same_fix(out, first);
	/* last: what the profile requires and nobody saw keeps the verdict
	 * from PASS, unless the site file accepts it by name */
	if (!rc)
		check_weigh_required(out, first, site);
	free(gpu_nic);
	free(gpu_path);
	free(wrong_link);
	if (rc)
		return rc;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_severity_id_subject);
	return 0;
}

void check_sort(struct findings *fs)
{
	if (fs->n)
		qsort(fs->v, fs->n, sizeof(*fs->v), by_severity_id_subject);
}

int check_run_counters(const struct inventory *inv, struct findings *out)
{
	struct check_ctx c = { .inv = inv, .generic = true };
	size_t first = out->n;
	int rc = check_counters(&c, out);

	if (!rc)
		rc = check_ber(&c, out);
	if (!rc)
		rc = texts_stored(out, first);
	if (rc)
		return rc;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_severity_id_subject);
	return 0;
}
