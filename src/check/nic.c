/* nic.count: the profile's rail and storage NIC counts.  A card that is no
 * rail only for its link layer counts as neither: the rails name it as not
 * counted, and port.link_layer says why.
 * fw.mixed: one NIC model running several firmware versions. */
#include "families.h"
#include "../model/driver_tools.h"

#include <string.h>

/* The rails the profile asks for are NVIDIA's (ConnectX, BlueField), or
 * of any model where it names none but the rail cards present are all
 * NVIDIA's: only then do the Mellanox tools answer the missing one. */
static bool rails_are_mellanox(const struct check_ctx *c, const struct role_spec *rs)
{
	const char *m = rs->model_family;
	size_t seen = 0;

	if (m)
		return strncmp(m, "ConnectX", 8) == 0 || strncmp(m, "BlueField", 9) == 0;
	for (size_t i = 0; i < c->inv->n_nics; i++) {
		if (!check_is_rail(c, i))
			continue;
		if (!drv_tools_of_nic(&c->inv->nics[i])->mlx)
			return false;
		seen++;
	}
	return seen > 0;
}

static void list_role(const struct check_ctx *c, enum nic_role role, struct check_buf *b,
		      size_t *n)
{
	const struct inventory *inv = c->inv;

	*n = 0;
	for (size_t i = 0; i < inv->n_nics; i++) {
		if (c->roles[i] != role || check_nic_is_software(&inv->nics[i]) ||
		    check_wrong_link(c, i))
			continue;
		check_buf_printf(b, "%s%s", *n ? " " : "", inv->nics[i].name);
		(*n)++;
	}
}

/* "; not counted, link layer Ethernet: mlx5_0 mlx5_3 (port.link_layer)" */
static void wrong_link_note(const struct check_ctx *c, struct check_buf *b)
{
	const struct inventory *inv = c->inv;
	size_t n = 0;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const char *ll = check_nic_link_layer(&inv->nics[i]);

		if (!check_wrong_link(c, i))
			continue;
		check_buf_printf(b, n ? " %s" : "; not counted, in the wrong link layer: %s",
				 inv->nics[i].name);
		if (ll)
			check_buf_printf(b, " (%s)", ll);
		n++;
	}
	if (n)
		check_buf_printf(b, ", see port.link_layer");
}

static size_t wrong_links(const struct check_ctx *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->inv->n_nics; i++)
		n += check_wrong_link(c, i);
	return n;
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
	struct check_buf names = { 0 }, want = { 0 }, obs = { 0 };
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
		check_buf_printf(&obs, "%zu (%s)", n, check_buf_str(&names));
	else
		check_buf_printf(&obs, "none");
	check_buf_free(&names);
	if (role == ROLE_RAIL)
		wrong_link_note(c, &obs);
	check_buf_take(&obs, &f->observed);
	describe_role(&want, rs);
	if (role == ROLE_RAIL && rs->placement >= 0 && !c->p->grace)
		check_buf_printf(&want, ", each %s or closer to a GPU",
				 path_type_name((enum path_type)rs->placement));
	check_buf_take(&want, &f->expected);
	if (role == ROLE_RAIL && n < (size_t)rs->count && n + wrong_links(c) >= (size_t)rs->count)
		finding_set(&f->fix,
			    "set the cards in the wrong link layer to the rails' one, as "
			    "port.link_layer says for each: they are the missing rails");
	else if (role == ROLE_RAIL && n < (size_t)rs->count && rails_are_mellanox(c, rs))
		finding_set(&f->fix,
			    "check every rail card enumerates and has its driver bound "
			    "(`lspci -d 15b3: -k`, `dmesg | grep mlx5`), reseat a card that is "
			    "missing, and check `mlxfwmanager --query` for a card in recovery; a "
			    "card of another model, or whose port is in the other link layer "
			    "(`ibv_devinfo` prints link_layer), is not counted");
	else if (role == ROLE_RAIL && n < (size_t)rs->count)
		/* rails of any model (Thor2, Pollara, E810...): the missing card's
		 * driver is not known, so no vendor's tool */
		finding_set(&f->fix,
			    "check every rail card enumerates and has its driver bound (`lspci "
			    "-k`: 'Kernel driver in use' on each; `dmesg` for its driver's probe "
			    "errors), reseat a card that is missing, and check its firmware "
			    "(`devlink dev info`) for a card in recovery; a card of another model, "
			    "or whose port is in the other link layer (`ibv_devinfo` prints "
			    "link_layer), is not counted");
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

/* b is a NIC of a's model whose firmware is known */
static bool fw_peer(const struct nic *a, const struct nic *b)
{
	return fw_candidate(b) && strcmp(a->model, b->model) == 0;
}

/* NICs of n's model that run version v */
static size_t fw_count(const struct inventory *inv, const struct nic *n, const char *v)
{
	size_t count = 0;

	for (size_t k = 0; k < inv->n_nics; k++)
		count += fw_peer(n, &inv->nics[k]) && strcmp(inv->nics[k].fw_ver, v) == 0;
	return count;
}

/* nics[j] is of n's model and the first NIC that runs its version */
static bool fw_first(const struct inventory *inv, const struct nic *n, size_t j)
{
	const struct nic *v = &inv->nics[j];

	if (!fw_peer(n, v))
		return false;
	for (size_t k = 0; k < j; k++)
		if (fw_peer(n, &inv->nics[k]) && strcmp(inv->nics[k].fw_ver, v->fw_ver) == 0)
			return false;
	return true;
}

/* The version most NICs of n's model run, when one leads alone; NULL on a
 * tie, where naming either would be a guess. */
static const char *fw_leader(const struct inventory *inv, const struct nic *n)
{
	const char *best = NULL;
	size_t best_count = 0;
	bool tie = false;

	for (size_t k = 0; k < inv->n_nics; k++) {
		const struct nic *v = &inv->nics[k];
		size_t count;

		if (!fw_first(inv, n, k))
			continue;
		count = fw_count(inv, n, v->fw_ver);
		if (count > best_count) {
			best = v->fw_ver;
			best_count = count;
			tie = false;
		} else if (count == best_count) {
			tie = true;
		}
	}
	return tie ? NULL : best;
}

/* The functions of one card share the bus and device of their PCI
 * address ("0000:e1:00.0", "0000:e1:00.1"): one burn updates both. */
static bool same_card(const struct nic *a, const struct nic *b)
{
	const char *da = a->pci.bdf ? strrchr(a->pci.bdf, '.') : NULL;
	const char *db = b->pci.bdf ? strrchr(b->pci.bdf, '.') : NULL;

	return da && db && da - a->pci.bdf == db - b->pci.bdf &&
	       strncmp(a->pci.bdf, b->pci.bdf, (size_t)(da - a->pci.bdf)) == 0;
}

/* "v (mlx5_0 mlx5_3); w (mlx5_5)", each version once, in NIC order */
static void fw_versions(struct check_buf *obs, const struct inventory *inv, const struct nic *n)
{
	bool any = false;

	for (size_t j = 0; j < inv->n_nics; j++) {
		const struct nic *v = &inv->nics[j];
		bool named = false;

		if (!fw_first(inv, n, j))
			continue;
		check_buf_printf(obs, "%s%s (", any ? "; " : "", v->fw_ver);
		for (size_t k = j; k < inv->n_nics; k++) {
			const struct nic *w = &inv->nics[k];

			if (!fw_peer(n, w) || strcmp(w->fw_ver, v->fw_ver) != 0)
				continue;
			check_buf_printf(obs, "%s%s", named ? " " : "", w->name);
			named = true;
		}
		check_buf_printf(obs, ")");
		any = true;
	}
}

/* "2 run 28.39.1002, 2 run 28.37.1014": a tie, said without a winner */
static void fw_counts(struct check_buf *want, const struct inventory *inv, const struct nic *n)
{
	bool any = false;

	for (size_t j = 0; j < inv->n_nics; j++) {
		const struct nic *v = &inv->nics[j];

		if (!fw_first(inv, n, j))
			continue;
		check_buf_printf(want, "%s%zu run %s", any ? ", " : "",
				 fw_count(inv, n, v->fw_ver), v->fw_ver);
		any = true;
	}
}

/* One burn and reset per card to update, by its real PCI address: the
 * cards off the leading version, or every card of the model when none
 * leads (the version to settle on is the engineer's choice then). */
static void fw_commands(struct check_buf *fix, const struct inventory *inv, const struct nic *n,
			const char *keep)
{
	for (size_t j = 0; j < inv->n_nics; j++) {
		const struct nic *v = &inv->nics[j];
		bool first = true;

		if (!fw_peer(n, v) || (keep && strcmp(v->fw_ver, keep) == 0))
			continue;
		for (size_t k = 0; k < j && first; k++)
			first = !(fw_peer(n, &inv->nics[k]) && same_card(&inv->nics[k], v) &&
				  !(keep && strcmp(inv->nics[k].fw_ver, keep) == 0));
		if (!first)
			continue;
		if (!drv_tools_of_nic(v)->mlx) {	/* flint burns only ConnectX */
			check_buf_printf(fix, "; %s: ", v->name);
			check_fw_update(fix, v);
		} else if (v->pci.bdf)
			check_buf_printf(fix, "; %s: `flint -d %s -i <image> burn`, then "
					 "`mlxfwreset -d %s reset`", v->name, v->pci.bdf,
					 v->pci.bdf);
		else
			check_buf_printf(fix, "; %s: `flint -d <its PCI address> -i <image> "
					 "burn` (its PCI address was not read)", v->name);
	}
}

static int fw_mixed(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		struct check_buf obs = { 0 }, want = { 0 }, fix = { 0 };
		const char *lead;
		bool seen = false, mixed = false;
		struct finding *f;

		if (!fw_candidate(n))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = fw_peer(n, &inv->nics[j]);
		if (seen)
			continue;	/* this model was judged at its first NIC */
		for (size_t j = i + 1; j < inv->n_nics && !mixed; j++)
			mixed = fw_peer(n, &inv->nics[j]) && strcmp(inv->nics[j].fw_ver, n->fw_ver) != 0;
		if (!mixed)
			continue;
		lead = fw_leader(inv, n);
		fw_versions(&obs, inv, n);
		check_buf_printf(&want, "one firmware version on every %s", n->model);
		if (lead) {
			check_buf_printf(&want, " (most run %s)", lead);
		} else {
			check_buf_printf(&want, " (no version leads: ");
			fw_counts(&want, inv, n);
			check_buf_printf(&want, ")");
		}
		if (lead)
			check_buf_printf(&fix, "bring every %s to %s, the version most run: ",
					 n->model, lead);
		else
			check_buf_printf(&fix, "bring every %s to one version, chosen from the "
					 "vendor's release notes: ", n->model);
		if (drv_tools_of_nic(n)->mlx) {
			check_buf_printf(&fix, "`mlxfwmanager --query` shows each card's PSID "
					 "and firmware, `mlxfwmanager -u` updates them all, or "
					 "card by card");
			fw_commands(&fix, inv, n, lead);
			check_buf_printf(&fix, " (or a cold reboot instead of the reset)");
		} else {
			check_buf_printf(&fix, "`devlink dev info` shows each card's firmware; "
					 "card by card");
			fw_commands(&fix, inv, n, lead);
		}
		f = check_add(c, out, "fw.mixed", SEV_WARN,
			      "Firmware versions differ in link training and congestion control, "
			      "so one NIC behaves unlike the others on the same fabric (early "
			      "ConnectX-6 firmware flapped against some switches).");
		if (!f) {
			check_buf_free(&obs);
			check_buf_free(&want);
			check_buf_free(&fix);
			return -ENOMEM;
		}
		finding_set(&f->subject, "%s", n->model);
		check_buf_take(&obs, &f->observed);
		check_buf_take(&want, &f->expected);
		check_buf_take(&fix, &f->fix);
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
		if (drv_tools_of_nic(n)->mlx) {
			finding_set(&f->fix, "`cat /sys/class/infiniband/%s/fw_ver` or "
				    "`mlxfwmanager --query` as root", n->name);
		} else {
			struct check_buf fix = { 0 };

			check_buf_printf(&fix, "`cat /sys/class/infiniband/%s/fw_ver` or ",
					 n->name);
			check_fw_query(&fix, n);
			check_buf_take(&fix, &f->fix);
		}
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
