/* nic.excluded: the devices the site file's exclude = names were read no
 * further than their name and PCI address (sysfs/ib.c), so nothing of
 * them is checked.  One finding says so, unchecked and counted; on a rail
 * a warning, so that a node whose rail nobody read does not PASS.  What
 * the other families say of the same device follows from the exclusion
 * alone (no firmware, no ports, no PCIe link read) and is dropped: one
 * cause, one finding. */
#include "families.h"

#include <stdlib.h>
#include <string.h>

int check_excluded(const struct check_ctx *c, struct findings *out)
{
	for (size_t i = 0; i < c->inv->n_nics; i++) {
		const struct nic *n = &c->inv->nics[i];
		bool rail = check_is_rail(c, i);
		struct finding *f;

		if (!n->excluded)
			continue;
		f = check_add(c, out, "nic.excluded", rail ? SEV_WARN : SEV_INFO,
			      "A device the site file excludes is not read, so nothing of it is "
			      "checked; said, not taken for healthy.");
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->subject, "%s", n->name);
		finding_set(&f->observed, "not checked: excluded by the site file (line %d, "
			    "'%s')%s%s", n->exclude_line, n->exclude_pattern ? n->exclude_pattern : "",
			    n->has_pci && n->pci.bdf ? "; PCI " : "",
			    n->has_pci && n->pci.bdf ? n->pci.bdf : "");
		finding_set(&f->expected, "%s read and judged", rail ? "a rail" : "a device");
		finding_set(&f->fix, "nothing, if it must not be touched; else remove it from "
			    "`exclude =` in /etc/rdmadoctor/rdmadoctor.conf (line %d)",
			    n->exclude_line);
	}
	return 0;
}

/* "mlx5_8", "mlx5_8 port 1": a subject of that device. */
static bool of_nic(const char *subject, const char *name)
{
	size_t len = strlen(name);

	return subject && !strncmp(subject, name, len) && (!subject[len] || subject[len] == ' ');
}

/* A finding of an excluded NIC, but the one that says it is excluded. */
static bool of_excluded(const struct finding *f, size_t i, const void *ctx)
{
	const struct check_ctx *c = ctx;

	(void)i;
	if (!strcmp(f->id, "nic.excluded"))
		return false;
	for (size_t k = 0; k < c->inv->n_nics; k++)
		if (c->inv->nics[k].excluded && of_nic(f->subject, c->inv->nics[k].name))
			return true;
	return false;
}

void check_drop_excluded(const struct check_ctx *c, struct findings *out, size_t from)
{
	findings_remove_if(out, from, of_excluded, c);
}
