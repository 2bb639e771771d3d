/* driver.stale_module, driver.mixed_stack, driver.peermem_mismatch,
 * driver.next_boot: the RDMA modules loaded now against the files on disk
 * for the running kernel and for the kernel that boots next
 * (model/drv_stack.h).  A module is "the one on disk" when their GNU build
 * ids agree (every Debian and RHEL module has one; the loaded module's is
 * root only), else their srcversion (modules with MODULE_VERSION: OFED's),
 * else a differing version.  Nothing comparable is not checked, never a
 * pass. */
#include "families.h"

#include <stdio.h>
#include <string.h>

static const char WHY_STALE[] =
	"The module running is not the file that a reload or the next boot loads: an "
	"upgrade (a new kernel package, MLNX_OFED, DKMS) is waiting, and until then the "
	"host runs code nobody installed any more, with the old bugs and the old ABI.";
static const char WHY_MIXED[] =
	"One RDMA stack built from two sources (MLNX_OFED's or a vendor's modules over "
	"the kernel's own): their symbol versions and structures differ, so modules fail "
	"to load or misbehave, and ibv_devices may list nothing.";
static const char WHY_PEERMEM[] =
	"nvidia_peermem is built against one NVIDIA driver; over another its symbols or "
	"structures differ, it fails to load or GPUDirect RDMA fails, and NCCL falls back "
	"to copies through host memory.";
static const char WHY_NEXT[] =
	"After the reboot into the newest installed kernel this module will not load: the "
	"kernel has no such file and DKMS did not build one, so the NICs or GPUDirect are "
	"gone after the next boot (the field guide's fault, caught before the reboot).";

static struct finding *add(const struct check_ctx *c, struct findings *out, const char *id,
			   enum severity sev, const char *why, const char *subject)
{
	struct finding *f = check_add(c, out, id, sev, why);

	if (f)
		finding_set(&f->subject, "%s", subject);
	return f;
}

static int not_checked(const struct check_ctx *c, struct findings *out, const char *id,
		       const char *why, const char *subject, const char *observed,
		       const char *expected, const char *fix)
{
	struct finding *f = add(c, out, id, SEV_INFO, why, subject);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->observed, "not checked: %s", observed);
	finding_set(&f->expected, "%s", expected);
	finding_set(&f->fix, "%s", fix);
	return 0;
}

static bool any_loaded(const struct drv_stack *s)
{
	for (size_t i = 0; i < DRV_COUNT; i++)
		if (s->mods[i].loaded)
			return true;
	return false;
}

static int stale(const struct check_ctx *c, struct findings *out, const struct drv_stack *s,
		 const struct drv_module *m)
{
	char a[2 * MODINFO_BUILD_ID_MAX + 1], b[2 * MODINFO_BUILD_ID_MAX + 1];
	const char *what = NULL;
	struct finding *f;
	bool differ;

	if (!m->path) {
		f = add(c, out, "driver.stale_module", SEV_WARN, WHY_STALE, m->name);
		if (!f)
			return -ENOMEM;
		finding_set(&f->observed, "%s is loaded; lib/modules/%s/modules.dep names no file "
			    "for it (its package was removed or replaced)", m->name, s->kernel);
		finding_set(&f->expected, "a %s.ko for the running kernel %s", m->name, s->kernel);
		finding_set(&f->fix, "reinstall the package that ships %s for %s (the kernel's, "
			    "or MLNX_OFED's), or reboot into a kernel that has it", m->name,
			    s->kernel);
		return 0;
	}
	if (!m->disk_read)
		return not_checked(c, out, "driver.stale_module", WHY_STALE, m->name,
				   m->disk_why ? m->disk_why : "the module file was not read",
				   "the loaded module's build id equal to the file's",
				   "modinfo the file and compare with /sys/module/<name>");
	if (m->loaded_id_len && m->disk.build_id_len) {
		differ = !drv_id_equal(m->loaded_id, m->loaded_id_len, m->disk.build_id,
				       m->disk.build_id_len);
		drv_id_hex(m->loaded_id, m->loaded_id_len, a);
		drv_id_hex(m->disk.build_id, m->disk.build_id_len, b);
		what = "build id";
	} else if (m->loaded_srcversion && m->disk.srcversion) {
		differ = strcmp(m->loaded_srcversion, m->disk.srcversion) != 0;
		snprintf(a, sizeof(a), "%s", m->loaded_srcversion);
		snprintf(b, sizeof(b), "%s", m->disk.srcversion);
		what = "srcversion";
	} else if (m->loaded_version && m->disk.version &&
		   strcmp(m->loaded_version, m->disk.version)) {
		differ = true;
		snprintf(a, sizeof(a), "%s", m->loaded_version);
		snprintf(b, sizeof(b), "%s", m->disk.version);
		what = "version";
	} else {
		return not_checked(c, out, "driver.stale_module", WHY_STALE, m->name,
				   "the loaded module's build id (sys/module/<name>/notes, root "
				   "only) could not be read and it has no srcversion to compare",
				   "the loaded module's build id equal to the file's",
				   "run rdmadoctor as root");
	}
	if (!differ)
		return 0;
	f = add(c, out, "driver.stale_module", SEV_WARN, WHY_STALE, m->name);
	if (!f)
		return -ENOMEM;
	finding_set(&f->observed, "loaded %s %s%s%s; lib/modules/%s/%s has %s%s%s", what, a,
		    m->loaded_version ? ", version " : "",
		    m->loaded_version ? m->loaded_version : "", s->kernel, m->path, b,
		    m->disk.version ? ", version " : "", m->disk.version ? m->disk.version : "");
	finding_set(&f->expected, "the loaded %s equal to the file's", what);
	finding_set(&f->fix, "reload the RDMA stack when no job runs (`/etc/init.d/openibd "
		    "restart` under MLNX_OFED, else `modprobe -r` and `modprobe` of %s and the "
		    "modules above it) or reboot", m->name);
	return 0;
}

/* The core stack (not nvidia_peermem) from one source. */
static int mixed(const struct check_ctx *c, struct findings *out, const struct drv_stack *s)
{
	struct check_buf obs = { 0 };
	bool inbox = false, other = false;
	struct finding *f;

	for (size_t i = 0; i < DRV_NVIDIA_PEERMEM; i++) {
		const struct drv_module *m = &s->mods[i];

		if (!m->loaded || m->source == DRV_SRC_UNKNOWN)
			continue;
		if (m->source == DRV_SRC_INBOX)
			inbox = true;
		else
			other = true;
		check_buf_printf(&obs, "%s%s: %s (%s)", obs.s ? "; " : "", m->name, m->path,
				 drv_source_name(m->source));
	}
	if (!inbox || !other) {
		check_buf_free(&obs);
		return 0;
	}
	f = add(c, out, "driver.mixed_stack", SEV_WARN, WHY_MIXED, "host");
	if (!f) {
		check_buf_free(&obs);
		return -ENOMEM;
	}
	check_buf_take(&obs, &f->observed);
	finding_set(&f->expected, "mlx5_core, mlx5_ib, ib_core and ib_uverbs all from "
		    "kernel/ (inbox) or all from updates/ (MLNX_OFED, DOCA, DKMS)");
	finding_set(&f->fix, "reinstall MLNX_OFED / DOCA for kernel %s (it replaces the whole "
		    "stack), or remove it to run the inbox stack; then `depmod -a` and reload",
		    s->kernel);
	return 0;
}

static int peermem(const struct check_ctx *c, struct findings *out, const struct drv_stack *s)
{
	const struct drv_module *m = &s->mods[DRV_NVIDIA_PEERMEM];
	const char *pv = m->loaded_version ? m->loaded_version : m->disk.version;
	struct finding *f;

	if (!m->loaded || !s->nvidia_loaded)
		return 0;
	if (!pv || !s->nvidia_version)
		return not_checked(c, out, "driver.peermem_mismatch", WHY_PEERMEM, m->name,
				   !pv ? "nvidia_peermem's version (sys/module/nvidia_peermem/"
					 "version, its .modinfo) could not be read"
				       : "sys/module/nvidia/version could not be read",
				   "nvidia_peermem of the NVIDIA driver's version",
				   "cat /sys/module/nvidia/version /sys/module/nvidia_peermem/version");
	if (!strcmp(pv, s->nvidia_version))
		return 0;
	f = add(c, out, "driver.peermem_mismatch", SEV_ERROR, WHY_PEERMEM, m->name);
	if (!f)
		return -ENOMEM;
	finding_set(&f->observed, "nvidia_peermem %s over NVIDIA driver %s", pv, s->nvidia_version);
	finding_set(&f->expected, "nvidia_peermem %s (the same driver package)", s->nvidia_version);
	finding_set(&f->fix, "install nvidia_peermem of the same NVIDIA driver package (or let its "
		    "DKMS build run), then `modprobe -r nvidia_peermem; modprobe nvidia_peermem`");
	return 0;
}

static int next_boot(const struct check_ctx *c, struct findings *out, const struct drv_stack *s)
{
	if (!s->next_kernel)
		return 0;
	if (!s->next_dep_known)
		return not_checked(c, out, "driver.next_boot", WHY_NEXT, "host",
				   s->next_why ? s->next_why : "the next kernel's modules.dep "
							       "was not read",
				   "the loaded RDMA modules under the next kernel's lib/modules",
				   "run `depmod -a <next kernel>`; reinstall the kernel package");
	for (size_t i = 0; i < DRV_COUNT; i++) {
		const struct drv_module *m = &s->mods[i];
		bool fallback;
		struct finding *f;

		if (!m->loaded || m->next_dkms)
			continue;
		/* running an out-of-tree build, next boot would fall back to the
		 * kernel's own: the OFED stack was not rebuilt */
		fallback = m->next_path && m->source != DRV_SRC_UNKNOWN &&
			   m->source != DRV_SRC_INBOX && drv_source_of(m->next_path) == DRV_SRC_INBOX;
		if (m->next_path && !fallback)
			continue;
		f = add(c, out, "driver.next_boot", SEV_WARN, WHY_NEXT, m->name);
		if (!f)
			return -ENOMEM;
		if (fallback)
			finding_set(&f->observed, "%s runs from %s (%s); kernel %s has only %s "
				    "(inbox) and no DKMS build", m->name, m->path,
				    drv_source_name(m->source), s->next_kernel, m->next_path);
		else
			finding_set(&f->observed, "%s is loaded; lib/modules/%s has no %s and "
				    "var/lib/dkms no build for %s", m->name, s->next_kernel, m->name,
				    s->next_kernel);
		finding_set(&f->expected, "%s for kernel %s from the same source as now",
			    m->name, s->next_kernel);
		finding_set(&f->fix, "build it before the reboot: `dkms autoinstall -k %s` "
			    "(see `dkms status`), or install MLNX_OFED / the NVIDIA driver for %s",
			    s->next_kernel, s->next_kernel);
	}
	return 0;
}

int check_drv_stack(const struct check_ctx *c, struct findings *out)
{
	const struct drv_stack *s = c->inv->host.drv_stack;

	if (!s || !any_loaded(s))
		return 0;
	if (!s->dep_known)
		CHECK_TRY(not_checked(c, out, "driver.stale_module", WHY_STALE, "host",
				      s->dep_why ? s->dep_why : "modules.dep was not read",
				      "the loaded RDMA modules against lib/modules/<release>",
				      "mount /lib/modules into the container, or run on the host"));
	else
		for (size_t i = 0; i < DRV_COUNT; i++)
			if (s->mods[i].loaded)
				CHECK_TRY(stale(c, out, s, &s->mods[i]));
	CHECK_TRY(mixed(c, out, s));
	CHECK_TRY(peermem(c, out, s));
	CHECK_TRY(next_boot(c, out, s));
	return 0;
}
