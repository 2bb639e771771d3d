/* A PCI function as the JSON documents write it: its ids, NUMA node, link
 * and the bridges above it.  A leaf: the inventory and the NPU documents
 * both call it. */
#include "json.h"

json_t *pci_link_to_json(const struct pci_link *l)
{
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "speed_gts", json_number_or_null(l->speed_gts),
			 "width", json_int_or_null(l->width),
			 "max_speed_gts", json_number_or_null(l->max_speed_gts),
			 "max_width", json_int_or_null(l->max_width));
}

static json_t *int_or_null(int v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *bool_or_null(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* As `lspci -vv` prints them: DevCap, DevCtl and ATSCtl; null each where
 * config space was not readable (not root), and for a function without
 * the PCI Express capability (express false) */
static json_t *pcie_settings_to_json(const struct pcie_settings *p)
{
	bool pcie = p->express == 1;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "express", bool_or_null(p->express),
			 "mps", int_or_null(pcie ? p->mps : -1),
			 "mps_cap", int_or_null(pcie ? p->mps_cap : -1),
			 "mrrs", int_or_null(pcie ? p->mrrs : -1),
			 "relaxed_ordering", bool_or_null(pcie ? p->relaxed_ordering : -1),
			 "ext_tag", bool_or_null(pcie ? p->ext_tag : -1),
			 "ext_tag_cap", bool_or_null(pcie ? p->ext_tag_cap : -1),
			 "ats", bool_or_null(pcie ? p->ats : -1),
			 "ats_enable", bool_or_null(pcie && p->ats == 1 ? p->ats_enable : -1),
			 "ats_stu", int_or_null(pcie && p->ats == 1 ? p->ats_stu : -1));
}

json_t *pci_bridge_to_json(const struct pci_func *f)
{
	/* acs_ctrl: the ACS control register; null without root (config_full
	 * false) or when the bridge has no ACS capability */
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o}",
			 "bdf", json_string_or_null(f->bdf),
			 "vendor", json_hex_or_null(f->vendor, 4),
			 "device", json_hex_or_null(f->device, 4),
			 "speed_gts", json_number_or_null(f->link.speed_gts),
			 "width", json_int_or_null(f->link.width),
			 "max_speed_gts", json_number_or_null(f->link.max_speed_gts),
			 "max_width", json_int_or_null(f->link.max_width),
			 "driver", json_string_or_null(f->driver),
			 "acs_ctrl", json_int_or_null(f->acs_ctrl),
			 "config_full", f->config_full,
			 "settings", pcie_settings_to_json(&f->pcie));
}

json_t *pci_upstream_to_json(const struct pci_func *f)
{
	json_t *up = json_array();

	/* the model keeps the root port first (the order the path is walked
	 * in); docs/json/inventory.md promises the nearest bridge first, as
	 * the text prints it */
	for (size_t i = f->n_upstream; i-- > 0;)
		json_array_append_new(up, pci_bridge_to_json(&f->upstream[i]));
	return up;
}

json_t *pci_to_json(const struct pci_func *f)
{
	json_t *up = pci_upstream_to_json(f);

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "bdf", json_string_or_null(f->bdf),
			 "vendor", json_hex_or_null(f->vendor, 4),
			 "device", json_hex_or_null(f->device, 4),
			 "subsystem_vendor", json_hex_or_null(f->subsystem_vendor, 4),
			 "subsystem_device", json_hex_or_null(f->subsystem_device, 4),
			 "class", json_hex_or_null(f->class_code, 6),
			 "numa_node", json_int_or_null(f->numa_node),
			 "driver", json_string_or_null(f->driver),
			 "link", pci_link_to_json(&f->link),
			 "settings", pcie_settings_to_json(&f->pcie),
			 "upstream", up);
}
