#include "host.h"
#include "attr.h"
#include "parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const module_names[MOD_COUNT] = {
	[MOD_NVIDIA_PEERMEM] = "nvidia_peermem",
	[MOD_NV_PEER_MEM] = "nv_peer_mem",
	[MOD_IB_UVERBS] = "ib_uverbs",
	[MOD_IB_CORE] = "ib_core",
	[MOD_MLX5_CORE] = "mlx5_core",
	[MOD_MLX5_IB] = "mlx5_ib",
	[MOD_RDMA_RXE] = "rdma_rxe",
	[MOD_NVIDIA] = "nvidia",
};

static void read_memlock(struct root *r, struct host *h)
{
	char *text;
	uint64_t bytes;
	bool unlimited;

	h->memlock_bytes = NA;
	h->memlock_unlimited = -1;
	/* proc/self is a symlink; resolved in the root it is this process on a
	 * live machine and the captured process in a snapshot. */
	if (root_read(r, "proc/self/limits", &text) < 0)
		return;
	if (parse_limits_memlock(text, &bytes, &unlimited) < 0) {
		root_note(r, "proc/self/limits", "no \"Max locked memory\" line");
	} else {
		/* an unsigned 64-bit limit: at 2^63 bytes or more nothing is ever
		 * refused (RLIM_INFINITY is 2^64-1; some setups write 2^64-2^20) */
		if (!unlimited && bytes > INT64_MAX)
			unlimited = true;
		h->memlock_unlimited = unlimited;
		if (!unlimited)
			h->memlock_bytes = (int64_t)bytes;
	}
	free(text);
}

static bool is_iommu_token(const char *t, size_t len)
{
	static const char *const prefixes[] = {
		"iommu", "intel_iommu", "amd_iommu", "pci=",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t plen = strlen(prefixes[i]);

		if (len >= plen && strncmp(t, prefixes[i], plen) == 0)
			return true;
	}
	return false;
}

/* Whether a NIC has an iommu_group link. */
static bool any_in_group(struct root *r, const struct nic *nics, size_t n_nics)
{
	bool found = false;

	for (size_t i = 0; i < n_nics && !found; i++) {
		char *link;

		if (!nics[i].has_pci ||
		    asprintf(&link, "%s/iommu_group", nics[i].pci.sysfs_path) < 0)
			continue;
		found = root_exists(r, link);
		free(link);
	}
	return found;
}

/* The IOMMU words of /proc/cmdline ("intel_iommu=on iommu=pt"); NULL
 * when there are none or it cannot be read. */
static char *read_iommu_cmdline(struct root *r)
{
	char *cmdline, *out;
	size_t used = 0;

	if (root_read(r, "proc/cmdline", &cmdline) < 0)
		return NULL;
	out = calloc(strlen(cmdline) + 1, 1);
	for (char *t = cmdline; out && *t;) {
		size_t len = strcspn(t, " \t\n");

		if (len && is_iommu_token(t, len)) {
			if (used)
				out[used++] = ' ';
			memcpy(out + used, t, len);
			used += len;
		}
		t += len;
		t += strspn(t, " \t\n");
	}
	free(cmdline);
	if (out && !used) {
		free(out);
		out = NULL;
	}
	return out;
}

/* The first word of words that sets up an IOMMU to translate or pass
 * through (iommu.passthrough=0, iommu=pt, intel_iommu=on); NULL when
 * none does.  "=off" turns it off; pci= words say nothing about it. */
static const char *asks_for_iommu(const char *words, int *len)
{
	for (const char *t = words; t && *t;) {
		int n = (int)strcspn(t, " ");
		const char *eq = memchr(t, '=', (size_t)n);

		if (strncmp(t, "pci=", 4) != 0 && !(eq && t + n - eq == 4 &&
						     strncmp(eq, "=off", 4) == 0)) {
			*len = n;
			return t;
		}
		t += n;
		t += strspn(t, " ");
	}
	return NULL;
}

static void read_iommu(struct root *r, const struct nic *nics, size_t n_nics,
		       struct host *h)
{
	char **names;
	const char *asked;
	size_t n;
	int rc, len = 0;

	h->iommu_present = -1;
	h->iommu_cmdline = read_iommu_cmdline(r);
	asked = asks_for_iommu(h->iommu_cmdline, &len);
	/* The class directory exists once the IOMMU core is up; empty means
	 * no IOMMU registered.  Absent (a tree git stored drops an empty
	 * directory) it means none only when nothing else says there is one:
	 * a device in an IOMMU group (a partial capture), or a command line
	 * that sets one up (iommu.passthrough=0), leaves it unknown. */
	rc = root_list(r, "sys/class/iommu", &names, &n);
	if (rc == -ENOENT && root_is_dir(r, "sys/class")) {
		bool grouped = any_in_group(r, nics, n_nics);

		h->iommu_present = grouped || asked ? -1 : 0;
		if (grouped)
			root_note(r, "sys/class/iommu", "missing while devices are in IOMMU "
				  "groups: IOMMU unknown");
		else if (asked)
			root_note(r, "sys/class/iommu", "missing while the kernel command line "
				  "sets up an IOMMU (%.*s): IOMMU unknown", len, asked);
	} else if (rc == 0) {
		h->iommu_present = n > 0;
		/* Resolve each entry so a snapshot keeps it. */
		for (size_t i = 0; i < n; i++) {
			char *path, *canon;

			if (asprintf(&path, "sys/class/iommu/%s", names[i]) < 0)
				continue;
			if (root_resolve(r, path, &canon) == 0)
				free(canon);
			free(path);
		}
		root_free_list(names, n);
	}
	for (size_t i = 0; i < n_nics && !h->iommu_domain; i++) {
		char *link, *group;

		if (!nics[i].has_pci ||
		    asprintf(&link, "%s/iommu_group", nics[i].pci.sysfs_path) < 0)
			continue;
		if (root_exists(r, link) && root_resolve(r, link, &group) == 0) {
			h->iommu_domain = attr_str(r, group, "type");
			free(group);
		}
		free(link);
	}
}

void host_module_read(struct root *r, const char *modules, struct module_state *m)
{
	const char *state;
	int len;
	char *dir;

	if (asprintf(&dir, "sys/module/%s", m->name) < 0)
		return;
	/* initstate exists only for loadable modules: "live" once init
	 * returned 0 (nvidia_peermem built against an ib_core without
	 * PeerDirect fails init and never gets here). */
	m->initstate = attr_str(r, dir, "initstate");
	m->version = attr_str(r, dir, "version");
	if (m->initstate)
		m->loaded = strcmp(m->initstate, "live") == 0;
	else if (modules && modules_find(modules, m->name, &state, &len))
		m->loaded = len == 4 && strncmp(state, "Live", 4) == 0;
	else	/* built in (=y): a directory without initstate */
		m->loaded = root_is_dir(r, dir);
	free(dir);
}

static void read_modules(struct root *r, struct host *h)
{
	char *modules = NULL;

	if (root_read(r, "proc/modules", &modules) < 0)
		modules = NULL;
	h->modules_known = modules || root_is_dir(r, "sys/module");
	if (!h->modules_known)
		root_note(r, "proc/modules", "neither it nor /sys/module: which modules "
			  "are loaded is unknown");
	for (int i = 0; i < MOD_COUNT; i++) {
		h->modules[i].name = module_names[i];
		host_module_read(r, modules, &h->modules[i]);
	}
	free(modules);
}

/* Open or proprietary kernel modules: the first line of the driver's
 * version file says ("Open Kernel Module" or not). */
static void read_nvidia_flavour(struct root *r, struct host *h)
{
	static const char path[] = "proc/driver/nvidia/version";
	char *text;
	int rc;

	h->nvidia_open = -1;
	rc = root_read(r, path, &text);
	if (rc < 0) {
		if (rc != -ENOENT)
			root_note(r, path, "cannot read: %s", strerror(-rc));
		return;
	}
	rc = parse_nvidia_version_open(text);
	if (rc >= 0) {
		h->nvidia_open = rc;
	} else {
		int len = (int)strcspn(text, "\n");

		root_note(r, path, "malformed first line: \"%.*s\"", len < 60 ? len : 60, text);
	}
	free(text);
}

int host_read(struct root *r, const struct nic *nics, size_t n_nics, struct host *h)
{
	const struct module_state *mlx5;

	h->hostname = attr_str(r, "proc/sys/kernel", "hostname");
	h->kernel = attr_str(r, "proc/sys/kernel", "osrelease");
	h->dmi_product = attr_str(r, "sys/class/dmi/id", "product_name");
	read_memlock(r, h);
	read_iommu(r, nics, n_nics, h);
	read_modules(r, h);

	/* MLNX_OFED's mlx5_core carries MODULE_VERSION; the in-kernel one has
	 * none. */
	mlx5 = &h->modules[MOD_MLX5_CORE];
	if (mlx5->version) {
		h->stack = strdup("ofed");
		h->ofed_version = strdup(mlx5->version);
	} else if (mlx5->loaded || h->modules[MOD_IB_CORE].loaded) {
		h->stack = strdup("inbox");
	}
	if (h->modules[MOD_NVIDIA].version)
		h->nvidia_driver = strdup(h->modules[MOD_NVIDIA].version);
	read_nvidia_flavour(r, h);
	{
		char *v = attr_str(r, "sys/kernel/mm/memory_peers/nv_mem", "version");

		h->peermem_memory_peers = v != NULL;
		free(v);
	}
	return 0;
}
