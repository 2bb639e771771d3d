/* `profiles --json` and `profiles show NAME --json` (profile_out.h). */
#include "profile_out.h"
#include "json.h"

static json_t *opt_string(const char *s)
{
	return json_string_or_null(s);
}

static json_t *opt_int(int v, int any)
{
	return v == any ? json_null() : json_integer(v);
}

static json_t *role_to_json(const struct role_spec *r)
{
	json_t *o;

	if (!r->defined)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "count", opt_int(r->count, -1));
	json_object_set_new(o, "model", opt_string(r->model_family));
	json_object_set_new(o, "link_layer", opt_string(r->link_layer));
	json_object_set_new(o, "rate_gbps", r->rate_gbps > 0 ? json_real(r->rate_gbps) : json_null());
	json_object_set_new(o, "pcie_gen", opt_int(r->pcie_gen, 0));
	json_object_set_new(o, "pcie_width", opt_int(r->pcie_width, 0));
	json_object_set_new(o, "pcie_max_read_request", opt_int(r->pcie_mrrs, 0));
	json_object_set_new(o, "pcie_relaxed_ordering", r->pcie_relaxed_ordering ?
							json_true() : json_null());
	json_object_set_new(o, "mtu", opt_int(r->mtu, 0));
	json_object_set_new(o, "pfc_priority", opt_int(r->pfc_priority, -1));
	json_object_set_new(o, "trust", opt_string(r->trust));
	json_object_set_new(o, "ecn", r->ecn < 0 ? json_null() : json_boolean(r->ecn));
	json_object_set_new(o, "gpudirect", r->gpudirect < 0 ? json_null() :
					    json_boolean(r->gpudirect));
	json_object_set_new(o, "gpus_per_nic", opt_int(r->gpus_per_nic, 0));
	json_object_set_new(o, "placement", r->placement >= PATH_PIX && r->placement <= PATH_SYS ?
					    json_string(path_type_name(r->placement)) :
					    json_null());
	json_object_set_new(o, "bw_floor_gbps", r->bw_floor_gbps > 0 ?
						json_real(r->bw_floor_gbps) : json_null());
	return o;
}

json_t *profile_to_json(const struct profile *p)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "name", opt_string(p->name));
	json_object_set_new(o, "description", opt_string(p->description));
	json_object_set_new(o, "based_on", opt_string(p->based_on));
	json_object_set_new(o, "match_dmi", opt_string(p->match_dmi));
	json_object_set_new(o, "match_gpu", opt_string(p->match_gpu));
	json_object_set_new(o, "match_gpu_count", opt_int(p->match_gpu_count, 0));
	json_object_set_new(o, "match_nic", opt_string(p->match_nic));
	json_object_set_new(o, "grace", json_boolean(p->grace));
	json_object_set_new(o, "match_npu", opt_string(p->match_npu));
	json_object_set_new(o, "match_npu_count", opt_int(p->match_npu_count, 0));
	json_object_set_new(o, "npu_rate_gbps", p->npu.rate_gbps > 0 ? json_real(p->npu.rate_gbps) :
						json_null());
	json_object_set_new(o, "npu_pfc_priority", opt_int(p->npu.pfc_priority, -1));
	json_object_set_new(o, "npu_subnets", opt_string(p->npu.subnets));
	json_object_set_new(o, "rail", role_to_json(&p->role[ROLE_RAIL]));
	json_object_set_new(o, "storage", role_to_json(&p->role[ROLE_STORAGE]));
	return o;
}

json_t *profiles_list_to_json(void)
{
	json_t *doc = json_object(), *list = json_array();

	if (!doc || !list) {
		json_decref(doc);
		json_decref(list);
		return NULL;
	}
	json_object_set_new(doc, "schema", json_integer(1));
	json_object_set_new(doc, "profiles", list);
	for (size_t i = 0; i < profile_builtin_count(); i++) {
		const struct profile *p = profile_builtin_at(i);
		json_t *e = json_object();

		if (!p || !e) {
			json_decref(e);
			json_decref(doc);
			return NULL;
		}
		json_object_set_new(e, "name", json_string(p->name));
		json_object_set_new(e, "description", opt_string(p->description));
		json_array_append_new(list, e);
	}
	return doc;
}
