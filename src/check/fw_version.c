/* fw.version: each board's firmware against the site file's [firmware]
 * rule for its PSID (sysfs board_id): an allowed list or a floor.
 *
 * One finding per card: firmware lives on the card, so the PCI functions
 * of one card (mlx5_8 and mlx5_9 at 0000:31:00.0 and .1) run one version
 * and one burn updates them; the finding names them all, under the first.
 * An error when a function of the card is a rail, a warning otherwise.
 * Cards of one PSID that fail alike are still one finding each, as each
 * is burnt and reset by its own PCI address.
 *
 * No built-in floor: a floor needs a public vendor source that names the
 * version and the fault, and none is cited yet (docs/checks.md), so floors
 * and lists come from the site file alone.  A board whose PSID no rule
 * names gives no finding.  What cannot be judged while rules exist (no
 * PSID, a version not read or not dotted numbers) is "not checked". */
#include "families.h"
#include "../model/driver_tools.h"
#include "../profiles/site.h"

#include <string.h>
#include <strings.h>

#define SITE_PATH "/" SITE_FILE

static const char why_rule[] =
	"The site file names the firmware this board may run: another version is one "
	"this fleet has not qualified, or one known to misbehave (early ConnectX-6 "
	"firmware flapped links against some switches).";

/* nics[k] is a function of nics[i]'s card with the same PSID */
static bool same_board(const struct nic *a, const struct nic *b)
{
	return a->board_id && b->board_id && strcasecmp(a->board_id, b->board_id) == 0 &&
	       check_same_pci_device(a->pci.bdf, b->pci.bdf);
}

static void rule_text(struct check_buf *b, const struct fw_rule *r)
{
	if (r->floor) {
		check_buf_printf(b, "%s or newer", r->floor);
		return;
	}
	if (r->allowed.n > 1)
		check_buf_printf(b, "one of ");
	for (size_t i = 0; i < r->allowed.n; i++)
		check_buf_printf(b, "%s%s", i ? ", " : "", r->allowed.v[i]);
}

static int not_checked(const struct check_ctx *c, struct findings *out, const struct nic *n,
		       const char *what, const char *expected, const char *file)
{
	struct finding *f = check_add(c, out, "fw.version", SEV_INFO,
				      "The site file names the firmware boards may run; a board "
				      "whose PSID or version could not be read was not checked, "
				      "not found right.");

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "not checked: %s", what);
	finding_set(&f->expected, "%s", expected);
	if (drv_tools_of_nic(n)->mlx) {
		finding_set(&f->fix, "`cat /sys/class/infiniband/%s/%s` or `mlxfwmanager "
			    "--query` as root", n->name, file);
	} else {	/* mlxfwmanager reads only ConnectX */
		struct check_buf fix = { 0 };

		check_buf_printf(&fix, "`cat /sys/class/infiniband/%s/%s` or ", n->name, file);
		check_fw_query(&fix, n);
		check_buf_take(&fix, &f->fix);
	}
	return 0;
}

/* A card whose PSID has a rule: the first function k of it that has a
 * readable version is judged; none: not checked. */
static int judge_card(const struct check_ctx *c, struct findings *out, size_t i,
		      const struct fw_rule *r)
{
	const struct inventory *inv = c->inv;
	const struct nic *n = &inv->nics[i];
	struct check_buf obs = { 0 }, want = { 0 }, fix = { 0 }, names = { 0 };
	enum severity sev = SEV_WARN;
	const char *ver = NULL;
	struct finding *f;

	for (size_t k = i; k < inv->n_nics; k++) {
		const struct nic *m = &inv->nics[k];

		if (k != i && !same_board(n, m))
			continue;
		check_buf_printf(&names, "%s%s", k == i ? "" : " ", m->name);
		if (!ver && site_fw_version_ok(m->fw_ver))
			ver = m->fw_ver;
		if (check_role_sev(c, k) == SEV_ERROR)
			sev = SEV_ERROR;
	}
	rule_text(&want, r);
	check_buf_printf(&want, " for PSID %s (site file %s, line %d)", r->psid, SITE_PATH,
			 r->line);
	if (!ver) {
		struct check_buf what = { 0 };
		int rc;

		if (n->fw_ver)
			check_buf_printf(&what, "its firmware version '%s' is not dotted numbers "
					 "like 28.39.1002", n->fw_ver);
		else
			check_buf_printf(&what, "its firmware version (fw_ver) could not be read");
		rc = what.nomem || want.nomem ? -ENOMEM :
			not_checked(c, out, n, check_buf_str(&what), check_buf_str(&want), "fw_ver");
		check_buf_free(&what);
		check_buf_free(&names);
		check_buf_free(&want);
		return rc;
	}
	if (site_fw_allows(r, ver)) {
		check_buf_free(&names);
		check_buf_free(&want);
		return 0;
	}
	check_buf_printf(&obs, "PSID %s (%s", n->board_id, check_buf_str(&names));
	if (n->pci.bdf)
		check_buf_printf(&obs, ", %s", n->pci.bdf);
	check_buf_printf(&obs, ") runs %s", ver);
	check_buf_printf(&fix, "update the card to ");
	rule_text(&fix, r);
	if (!drv_tools_of_nic(n)->mlx) {	/* the driver's own way (driver_tools.c) */
		check_buf_printf(&fix, ": ");
		check_fw_update(&fix, n);
		check_buf_printf(&fix, "; ");
		check_fw_query(&fix, n);
		check_buf_printf(&fix, " shows its running and stored firmware");
	} else if (n->pci.bdf)
		check_buf_printf(&fix, ": `mlxfwmanager -d %s -u -i <image for PSID %s>`, then "
				 "`mlxfwreset -d %s reset` (or a cold reboot instead of the reset)",
				 n->pci.bdf, n->board_id, n->pci.bdf);
	else
		check_buf_printf(&fix, ": `mlxfwmanager -d <its PCI address> -u -i <image for "
				 "PSID %s>` (its PCI address was not read), then a cold reboot",
				 n->board_id);
	if (drv_tools_of_nic(n)->mlx)
		check_buf_printf(&fix, "; `mlxfwmanager --query` shows each card's PSID and "
				 "firmware");
	check_buf_free(&names);
	f = check_add(c, out, "fw.version", sev, why_rule);
	if (!f) {
		check_buf_free(&obs);
		check_buf_free(&want);
		check_buf_free(&fix);
		return -ENOMEM;
	}
	finding_set(&f->subject, "%s", n->name);
	check_buf_take(&obs, &f->observed);
	check_buf_take(&want, &f->expected);
	check_buf_take(&fix, &f->fix);
	return 0;
}

int check_fw_version(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	if (!c->site || !c->site->n_fw)
		return 0;
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const struct fw_rule *r;
		bool judged = false;

		if (check_nic_is_software(n))
			continue;
		if (!n->board_id) {
			CHECK_TRY(not_checked(c, out, n, "its PSID (board_id) could not be read, so "
					      "which [firmware] rule applies is not known",
					      "a PSID, judged by the site file's [firmware] rules",
					      "board_id"));
			continue;
		}
		/* an empty board_id ("\n") names no rule either: unreadable,
		 * never a card no rule is about */
		if (!n->board_id[strspn(n->board_id, " \t\r\n")]) {
			CHECK_TRY(not_checked(c, out, n, "its PSID (board_id) is empty, so which "
					      "[firmware] rule applies is not known",
					      "a PSID, judged by the site file's [firmware] rules",
					      "board_id"));
			continue;
		}
		r = site_fw_rule(c->site, n->board_id);
		if (!r)
			continue;
		for (size_t j = 0; j < i && !judged; j++)
			judged = same_board(&inv->nics[j], n);
		if (judged)
			continue;	/* judged at the card's first function */
		CHECK_TRY(judge_card(c, out, i, r));
	}
	return 0;
}
