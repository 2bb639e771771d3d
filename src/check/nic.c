/* nic.count: the profile's rail and storage NIC counts.
 * fw.mixed: one NIC model running several firmware versions. */
#include "families.h"

#include <string.h>

static void list_role(const struct check_ctx *c, enum nic_role role, struct check_buf *b,
		      size_t *n)
{
	const struct inventory *inv = c->inv;

	*n = 0;
	for (size_t i = 0; i < inv->n_nics; i++) {
		if (c->roles[i] != role || check_nic_is_software(&inv->nics[i]))
			continue;
		check_buf_printf(b, "%s%s", *n ? " " : "", inv->nics[i].name);
		(*n)++;
	}
}

static void describe_role(struct check_buf *b, const struct role_spec *rs)
{
	check_buf_printf(b, "%d", rs->count);
	if (rs->model_family)
		check_buf_printf(b, " %s", rs->model_family);
	if (rs->link_layer)
		check_buf_printf(b, " %s", rs->link_layer);
	check_buf_printf(b, " NIC%s", rs->count == 1 ? "" : "s");
}

static int count_role(const struct check_ctx *c, struct findings *out, enum nic_role role)
{
	const struct role_spec *rs = &c->p->role[role];
	struct check_buf names = { 0 }, want = { 0 };
	const char *what = role == ROLE_RAIL ? "rail" : "storage";
	struct finding *f;
	size_t n;

	if (!rs->defined || rs->count < 0)
		return 0;
	list_role(c, role, &names, &n);
	if (n == (size_t)rs->count) {
		check_buf_free(&names);
		return 0;
	}
	if (role == ROLE_RAIL && n < (size_t)rs->count)
		f = check_add(c, out, "nic.count", SEV_ERROR,
			      "Each missing rail NIC takes a GPU's own path to the fabric away: "
			      "NCCL sends its traffic through another NIC and every collective slows down.");
	else if (role == ROLE_RAIL)
		f = check_add(c, out, "nic.count", SEV_WARN,
			      "More rail NICs than the machine model has means a storage card is "
			      "taken for a rail or the profile does not describe this machine, so "
			      "the other checks judge by the wrong expectations.");
	else
		f = check_add(c, out, "nic.count", SEV_WARN,
			      "A storage NIC count that differs from the machine model's means "
			      "missing storage bandwidth for checkpoints and data, or a profile "
			      "that does not describe this machine.");
	if (!f) {
		check_buf_free(&names);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s NICs", what);
	if (n)
		finding_set(&f->observed, "%zu (%s)", n, check_buf_str(&names));
	else
		finding_set(&f->observed, "none");
	check_buf_free(&names);
	describe_role(&want, rs);
	if (role == ROLE_RAIL && rs->placement >= 0 && !c->p->grace)
		check_buf_printf(&want, ", each %s or closer to a GPU",
				 path_type_name((enum path_type)rs->placement));
	check_buf_take(&want, &f->expected);
	if (role == ROLE_RAIL && n < (size_t)rs->count)
		finding_set(&f->fix,
			    "check every rail card enumerates and has its driver bound "
			    "(`lspci -d 15b3: -k`, `dmesg | grep mlx5`), reseat a card that is "
			    "missing, and check `mlxfwmanager --query` for a card in recovery; a "
			    "card set to the other link layer (`mlxconfig -d <dev> q LINK_TYPE_P1`) "
			    "or of another model is not counted");
	else
		finding_set(&f->fix,
			    "if the extra NICs serve storage or management, use a profile with a "
			    "[storage] section that counts them (`rdmadoctor profiles show NAME`, "
			    "then based_on= in your own); otherwise pick the profile that matches "
			    "this machine");
	return 0;
}

static bool fw_candidate(const struct nic *n)
{
	return n->model && n->fw_ver && !check_nic_is_software(n);
}

static int fw_mixed(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		struct check_buf obs = { 0 }, want = { 0 };
		size_t versions = 0, best = 0, best_count = 0;
		bool seen = false, mixed = false;
		struct finding *f;

		if (!fw_candidate(n))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = fw_candidate(&inv->nics[j]) && strcmp(inv->nics[j].model, n->model) == 0;
		if (seen)
			continue;	/* this model was judged at its first NIC */
		for (size_t j = i + 1; j < inv->n_nics && !mixed; j++)
			mixed = fw_candidate(&inv->nics[j]) &&
				strcmp(inv->nics[j].model, n->model) == 0 &&
				strcmp(inv->nics[j].fw_ver, n->fw_ver) != 0;
		if (!mixed)
			continue;
		/* "28.39.1002 (mlx5_0 mlx5_3); 28.37.1014 (mlx5_5)" */
		for (size_t j = i; j < inv->n_nics; j++) {
			const struct nic *v = &inv->nics[j];
			bool first = true;
			size_t count = 0;

			if (!fw_candidate(v) || strcmp(v->model, n->model) != 0)
				continue;
			for (size_t k = i; k < j && first; k++)
				first = !(fw_candidate(&inv->nics[k]) &&
					  strcmp(inv->nics[k].model, n->model) == 0 &&
					  strcmp(inv->nics[k].fw_ver, v->fw_ver) == 0);
			if (!first)
				continue;
			check_buf_printf(&obs, "%s%s (", versions ? "; " : "", v->fw_ver);
			for (size_t k = j; k < inv->n_nics; k++) {
				const struct nic *w = &inv->nics[k];

				if (!fw_candidate(w) || strcmp(w->model, n->model) != 0 ||
				    strcmp(w->fw_ver, v->fw_ver) != 0)
					continue;
				check_buf_printf(&obs, "%s%s", count ? " " : "", w->name);
				count++;
			}
			check_buf_printf(&obs, ")");
			if (count > best_count) {
				best_count = count;
				best = j;
			}
			versions++;
		}
		f = check_add(c, out, "fw.mixed", SEV_WARN,
			      "Firmware versions differ in link training and congestion control, "
			      "so one NIC behaves unlike the others on the same fabric (early "
			      "ConnectX-6 firmware flapped against some switches).");
		if (!f) {
			check_buf_free(&obs);
			return -ENOMEM;
		}
		finding_set(&f->subject, "%s", n->model);
		check_buf_take(&obs, &f->observed);
		check_buf_printf(&want, "one firmware version on every %s", n->model);
		if (best_count > 1)
			check_buf_printf(&want, " (most run %s)", inv->nics[best].fw_ver);
		check_buf_take(&want, &f->expected);
		finding_set(&f->fix,
			    "bring every %s to one version: `mlxfwmanager --query` shows each card's "
			    "PSID and firmware, `mlxfwmanager -u` (or `flint -d <dev> -i <image> burn`) "
			    "updates it, then `mlxfwreset -d <dev> reset` or a cold reboot",
			    n->model);
	}
	return 0;
}

/* A NIC whose firmware version could not be read while others of its model
 * have one: whether it runs theirs is not known. */
static int fw_unknown(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		bool others = false;
		struct finding *f;

		if (!n->model || n->fw_ver || check_nic_is_software(n))
			continue;
		for (size_t j = 0; j < inv->n_nics && !others; j++)
			others = j != i && fw_candidate(&inv->nics[j]) &&
				 strcmp(inv->nics[j].model, n->model) == 0;
		if (!others)
			continue;
		f = check_add(c, out, "fw.mixed", SEV_INFO,
			      "NICs of one model should run one firmware version; a version that "
			      "could not be read was not checked, not found the same.");
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->subject, "%s", n->name);
		finding_set(&f->observed, "not checked: its firmware version (fw_ver) could not "
			    "be read");
		finding_set(&f->expected, "the firmware version of the other %s", n->model);
		finding_set(&f->fix, "`cat /sys/class/infiniband/%s/fw_ver` or "
			    "`mlxfwmanager --query` as root", n->name);
	}
	return 0;
}

int check_nic(const struct check_ctx *c, struct findings *out)
{
	if (!c->generic && c->p) {
		CHECK_TRY(count_role(c, out, ROLE_RAIL));
		CHECK_TRY(count_role(c, out, ROLE_STORAGE));
	}
	CHECK_TRY(fw_mixed(c, out));
	CHECK_TRY(fw_unknown(c, out));
	return 0;
}
