/* The JSON documents of the views that are cut from the inventory:
 * the GID table and the GPU x NIC matrix. */
#include "json.h"
#include "../model/gid_choice.h"
#include "../model/topo_verdict.h"

json_t *gids_to_json(const struct inventory *inv)
{
	json_t *rows = json_array(), *rec = json_array();

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t p = 0; p < n->n_ports; p++) {
			const struct port *pt = &n->ports[p];
			const struct gid *best = gid_recommended(pt);

			for (size_t g = 0; g < pt->n_gids; g++) {
				const struct gid *e = &pt->gids[g];

				json_array_append_new(rows, json_pack("{s:o, s:i, s:i, s:o, s:o, s:o, s:o}",
					"dev", json_string_or_null(n->name), "port", pt->num,
					"index", e->index, "gid", json_string_or_null(e->text),
					"ipv4", e->ipv4[0] ? json_string(e->ipv4) : json_null(),
					"type", json_string_or_null(e->type),
					"netdev", json_string_or_null(e->netdev)));
			}
			json_array_append_new(rec, json_pack("{s:o, s:i, s:o, s:o, s:o}",
				"dev", json_string_or_null(n->name), "port", pt->num,
				"netdev", json_string_or_null(pt->netdev),
				"index", best ? json_integer(best->index) : json_null(),
				"ipv4", best ? json_string(best->ipv4) : json_null()));
		}
	}
	return json_pack("{s:i, s:o, s:o}", "schema", INVENTORY_SCHEMA, "gids", rows,
			 "recommended", rec);
}

/* Each port's switch and switch port, as the inventory has them. */
static json_t *topo_ports_json(const struct nic *n)
{
	json_t *a = json_array();

	for (size_t j = 0; a && j < n->n_ports; j++) {
		const struct port *p = &n->ports[j];
		json_t *o = json_pack("{s:i, s:o}", "port", p->num, "neighbor",
				      neighbor_to_json(p->neighbor));

		if (o && !p->neighbor && p->neighbor_why)
			json_object_set_new(o, "neighbor_unknown",
					    json_string_or_null(p->neighbor_why));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *topo_to_json(const struct inventory *inv)
{
	json_t *gpus = json_array(), *nics = json_array(), *matrix = json_array();

	for (size_t g = 0; g < inv->n_gpus; g++) {
		json_t *row = json_array();

		json_array_append_new(gpus, json_pack("{s:o, s:o}",
			"bdf", json_string_or_null(inv->gpus[g].pci.bdf),
			"model", json_string_or_null(inv->gpus[g].model)));
		for (size_t i = 0; i < inv->n_nics; i++) {
			const struct affinity *a = topo_pair(inv, g, i);

			json_array_append_new(row, a ? json_string(path_type_name(a->path))
						     : json_null());
		}
		json_array_append_new(matrix, row);
	}
	for (size_t i = 0; i < inv->n_nics; i++) {
		struct topo_nearest near = topo_nearest_gpu(inv, i);

		json_array_append_new(nics, json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"name", json_string_or_null(inv->nics[i].name),
			"nearest_gpu", near.found ? json_string_or_null(inv->gpus[near.gpu].pci.bdf)
						  : json_null(),
			"path", near.found ? json_string(path_type_name(near.path)) : json_null(),
			"near", near.found ? json_boolean(near.path <= PATH_PXB) : json_null(),
			"ports", topo_ports_json(&inv->nics[i])));
	}
	return json_pack("{s:i, s:o, s:o, s:o}", "schema", INVENTORY_SCHEMA, "gpus", gpus,
			 "nics", nics, "matrix", matrix);
}
