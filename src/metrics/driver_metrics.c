/* The RDMA driver stack (model/drv_stack.h): which of its modules are
 * loaded, their version and where their file comes from.  driver.* judge
 * them; this lets a dashboard find the node that still runs last month's
 * MLNX_OFED or an inbox ib_core under an OFED mlx5_core. */
#include "families.h"

void metrics_driver_stack(struct expo *e, const struct inventory *inv)
{
	const struct drv_stack *s = inv->host.drv_stack;
	struct expo_fam info = { "rdmadoctor_kernel_module_info", "gauge",
				 "An RDMA kernel module loaded now, always 1: its version and "
				 "srcversion (empty: the module has none, as Debian's inbox "
				 "modules), and its file's source for the running kernel: inbox, "
				 "dkms, out-of-tree, or empty when modules.dep was not read",
				 false };

	if (!s)
		return;
	for (size_t i = 0; i < DRV_COUNT; i++) {
		const struct drv_module *m = &s->mods[i];
		struct expo_label l[] = {
			{ "module", m->name },
			{ "version", m->loaded_version ? m->loaded_version : "" },
			{ "srcversion", m->loaded_srcversion ? m->loaded_srcversion : "" },
			{ "source", m->path ? drv_source_name(m->source) : "" },
			{ "kernel", s->kernel ? s->kernel : "" },
		};

		if (m->loaded)
			expo_fam_sample(e, &info, l, 5, 1);
	}
}
