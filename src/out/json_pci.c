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

json_t *pci_bridge_to_json(const struct pci_func *f)
{
	/* acs_ctrl: the ACS control register; null without root (config_full
	 * false) or when the bridge has no ACS capability */
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}",
			 "bdf", json_string_or_null(f->bdf),
			 "vendor", json_hex_or_null(f->vendor, 4),
			 "device", json_hex_or_null(f->device, 4),
			 "speed_gts", json_number_or_null(f->link.speed_gts),
			 "width", json_int_or_null(f->link.width),
			 "max_speed_gts", json_number_or_null(f->link.max_speed_gts),
			 "max_width", json_int_or_null(f->link.max_width),
			 "driver", json_string_or_null(f->driver),
			 "acs_ctrl", json_int_or_null(f->acs_ctrl),
			 "config_full", f->config_full);
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

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "bdf", json_string_or_null(f->bdf),
			 "vendor", json_hex_or_null(f->vendor, 4),
			 "device", json_hex_or_null(f->device, 4),
			 "subsystem_vendor", json_hex_or_null(f->subsystem_vendor, 4),
			 "subsystem_device", json_hex_or_null(f->subsystem_device, 4),
			 "class", json_hex_or_null(f->class_code, 6),
			 "numa_node", json_int_or_null(f->numa_node),
			 "driver", json_string_or_null(f->driver),
			 "link", pci_link_to_json(&f->link),
			 "upstream", up);
}
