#include "pci.h"
#include "attr.h"
#include "parse.h"
#include "pci_config.h"
#include "../model/growbuf.h"
#include "../model/pci_ids.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_link(struct root *r, const char *dir, struct pci_link *l)
{
	/* Present only for PCIe functions (pcie_dev_attrs_are_visible). */
	l->speed_gts = attr_pcie_speed(r, dir, "current_link_speed");
	l->max_speed_gts = attr_pcie_speed(r, dir, "max_link_speed");
	l->width = attr_s64(r, dir, "current_link_width");
	l->max_width = attr_s64(r, dir, "max_link_width");
}

/* The function's binary config file: its PCI Express settings (MPS, MRRS,
 * relaxed ordering, extended tag, ATS) and, for a bridge, its ACS control
 * register.  Without CAP_SYS_ADMIN the kernel hands out the first 64
 * bytes only: both stay unknown. */
static void read_config(struct root *r, const char *dir, struct pci_func *f, bool bridge)
{
	uint8_t cfg[PCI_CFG_SPACE_EXP_SIZE];
	char path[PATH_MAX];
	uint16_t ctrl;
	size_t len;
	int rc, n = snprintf(path, sizeof(path), "%s/config", dir);

	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	rc = root_read_bin(r, path, cfg, sizeof(cfg), &len);
	if (rc < 0) {
		if (rc != -ENOENT)
			root_note(r, dir, "cannot read 'config': %s", strerror(-rc));
		return;
	}
	f->config_full = len > PCI_CFG_UNPRIVILEGED;
	if (!f->config_full) {
		root_note(r, dir, "only %zu bytes of 'config' readable (needs root): "
			  "%sMaxPayload, MaxReadReq and ATS not known", len, bridge ? "ACS, " : "");
		return;
	}
	rc = pci_config_exp_dev(cfg, len, &f->pcie);
	if (rc == -ENODATA)
		root_note(r, dir, "only %zu bytes of 'config' readable: the PCI Express "
			  "capability ends past them, MaxPayload and MaxReadReq not known", len);
	else if (rc == 0 && f->pcie.ats < 0)
		root_note(r, dir, "only %zu of 4096 bytes of 'config' readable: ATS not known",
			  len);
	if (!bridge)
		return;
	rc = pci_config_acs_ctrl(cfg, len, &ctrl);
	f->acs_known = rc == 0 || rc == -ENOENT;
	if (rc == 0)
		f->acs_ctrl = ctrl;
	else if (rc == -ENODATA && len >= PCI_CFG_SPACE_EXP_SIZE)
		root_note(r, dir, "'config': extended capability chain is malformed");
	else if (rc == -ENODATA)
		/* a truncated copy, or a kernel that hands out only the
		 * conventional 256 bytes (no extended config space) */
		root_note(r, dir, "only %zu of 4096 bytes of 'config' readable: the extended "
			  "capabilities end early, ACS not known", len);
}

static int read_one(struct root *r, const char *dir, struct pci_func *f, bool bridge)
{
	const char *base = strrchr(dir, '/');

	memset(f, 0, sizeof(*f));
	f->acs_ctrl = NA;
	pcie_settings_unknown(&f->pcie);
	f->bdf = strdup(base ? base + 1 : dir);
	f->sysfs_path = strdup(dir);
	if (!f->bdf || !f->sysfs_path)
		return -ENOMEM;
	f->vendor = attr_hex(r, dir, "vendor");
	f->device = attr_hex(r, dir, "device");
	f->subsystem_vendor = attr_hex(r, dir, "subsystem_vendor");
	f->subsystem_device = attr_hex(r, dir, "subsystem_device");
	f->class_code = attr_hex(r, dir, "class");
	f->numa_node = attr_s64(r, dir, "numa_node");
	if (!IS_NA(f->numa_node) && f->numa_node < 0)
		f->numa_node = NA;	/* -1: the firmware gave no proximity domain */
	f->driver = attr_link_name(r, dir, "driver");
	read_link(r, dir, &f->link);
	read_config(r, dir, f, bridge);
	if (!bridge)
		f->local_cpulist = attr_str(r, dir, "local_cpulist");	/* topo's CPU column */
	return 0;
}

static int read_upstream(struct root *r, const char *dir, struct pci_func *f);

int pci_func_identity(struct root *r, const char *dir, struct pci_func *f)
{
	const char *base = strrchr(dir, '/');

	memset(f, 0, sizeof(*f));
	f->acs_ctrl = NA;
	pcie_settings_unknown(&f->pcie);
	f->vendor = f->device = f->subsystem_vendor = f->subsystem_device = NA;
	f->class_code = f->numa_node = NA;
	f->link.speed_gts = f->link.max_speed_gts = NAN;
	f->link.width = f->link.max_width = NA;
	f->bdf = strdup(base ? base + 1 : dir);
	f->sysfs_path = strdup(dir);
	if (!f->bdf || !f->sysfs_path)
		return -ENOMEM;
	return read_upstream(r, dir, f);
}

int pci_read_func(struct root *r, const char *dir, struct pci_func *f, bool upstream)
{
	int rc = read_one(r, dir, f, false);

	if (rc < 0 || !upstream)
		return rc;
	return read_upstream(r, dir, f);
}

/* The bridges above the function, root port first. */
static int read_upstream(struct root *r, const char *dir, struct pci_func *f)
{
	char *path;
	size_t n = 0;
	int rc;
	/* Bridges are the BDF components between "pciDDDD:BB" and the device. */
	path = strdup(dir);
	if (!path)
		return -ENOMEM;
	for (char *c = strtok(path, "/"); c; c = strtok(NULL, "/"))
		if (is_bdf(c))
			n++;
	free(path);
	if (n <= 1)
		return 0;
	f->upstream = calloc(n - 1, sizeof(*f->upstream));
	if (!f->upstream)
		return -ENOMEM;
	for (const char *p = strstr(dir, "/pci"); p && f->n_upstream < n - 1;) {
		const char *next = strchr(p + 1, '/');
		char *bridge_dir;

		if (!next)
			break;
		/* p+1 .. next is one component; a BDF is 12 characters */
		if (next - (p + 1) == 12) {
			char comp[13];

			memcpy(comp, p + 1, 12);
			comp[12] = '\0';
			if (is_bdf(comp)) {
				bridge_dir = strndup(dir, (size_t)(next - dir));
				if (!bridge_dir)
					return -ENOMEM;
				rc = read_one(r, bridge_dir, &f->upstream[f->n_upstream], true);
				free(bridge_dir);
				f->n_upstream++;
				if (rc < 0)
					return rc;
			}
		}
		p = next;
	}
	return 0;
}

char *pci_function_dir(const char *canonical)
{
	char *dir = strdup(canonical);

	while (dir) {
		char *slash = strrchr(dir, '/');
		const char *last = slash ? slash + 1 : dir;

		if (is_bdf(last))
			return dir;
		if (!slash || strncmp(last, "pci", 3) == 0)
			break;
		*slash = '\0';
	}
	free(dir);
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* by BDF, the last component of each canonical directory */
static int cmp_bdf(const void *a, const void *b)
{
	return strcmp(base_name(*(char *const *)a), base_name(*(char *const *)b));
}

int pci_find(struct root *r, pci_want_fn want, char ***dirs, size_t *n)
{
	static const char devices[] = "sys/bus/pci/devices";
	char **names;
	size_t count;
	int rc;

	*dirs = NULL;
	*n = 0;
	rc = root_list(r, devices, &names, &count);
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;
	for (size_t i = 0; i < count && rc == 0; i++) {
		char *link, *dir, **g;
		size_t cap;

		if (asprintf(&link, "%s/%s", devices, names[i]) < 0) {
			rc = -ENOMEM;
			break;
		}
		if (!want(r, link)) {
			free(link);
			continue;
		}
		rc = root_resolve(r, link, &dir);
		free(link);
		if (rc < 0) {
			if (rc == -ENOMEM)
				break;
			root_note(r, devices, "skipped '%s': %s", names[i], strerror(-rc));
			rc = 0;
			continue;
		}
		cap = *n;
		g = growbuf_reserve(*dirs, &cap, *n + 1, sizeof(*g));
		if (!g) {
			free(dir);
			rc = -ENOMEM;
			break;
		}
		*dirs = g;
		g[(*n)++] = dir;
	}
	root_free_list(names, count);
	if (rc < 0) {
		root_free_list(*dirs, *n);
		*dirs = NULL;
		*n = 0;
		return rc;
	}
	if (*n)
		qsort(*dirs, *n, sizeof(**dirs), cmp_bdf);
	return 0;
}

/* A GPU function whose class could not be read is still a GPU when its
 * device ID names one: dropping it would leave its NIC blamed for a GPU
 * that is not there (topo.nic_far) and the per-GPU bandwidth counted over
 * fewer GPUs.  Only NVIDIA's and AMD's functions are read further. */
static bool want_gpu(struct root *r, const char *link)
{
	int64_t vendor = attr_hex(r, link, "vendor");
	int64_t cls = !IS_NA(vendor) && gpu_vendor_known((uint64_t)vendor) ?
		      attr_hex(r, link, "class") : NA;
	int64_t device;
	enum gpu_kind kind;

	if (IS_NA(vendor) || !gpu_vendor_known((uint64_t)vendor))
		return false;
	/* AMD's class-03 functions are Radeons unless the ID is an
	 * Instinct's, so the ID is wanted whenever the vendor is AMD */
	device = vendor == PCI_VENDOR_AMD || IS_NA(cls) ? attr_hex(r, link, "device") : NA;
	if (!IS_NA(cls))
		return pci_is_gpu((uint64_t)vendor, (uint64_t)cls,
				  IS_NA(device) ? 0 : (uint64_t)device);
	if (IS_NA(device) || !gpu_model_name((uint64_t)vendor, (uint64_t)device, &kind)) {
		/* an NVSwitch or an unknown GPU alike: said, never silent */
		root_note(r, link, "%s function with no readable 'class' and %s: not "
			  "taken for a GPU", gpu_vendor_name(gpu_vendor_of((uint64_t)vendor)),
			  IS_NA(device) ? "no readable 'device'" :
			  "a device ID that names no GPU known here");
		return false;
	}
	root_note(r, link, "no readable 'class': taken for a GPU by its device ID 0x%04llx",
		  (unsigned long long)device);
	return true;
}

int pci_read_wanted(struct root *r, pci_want_fn want, struct pci_func **funcs, size_t *n)
{
	char **dirs;
	size_t count;
	int rc = pci_find(r, want, &dirs, &count);

	*funcs = NULL;
	*n = 0;
	if (rc < 0 || !count)
		return rc;
	*funcs = calloc(count, sizeof(**funcs));
	if (!*funcs) {
		root_free_list(dirs, count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count && rc == 0; i++) {
		rc = pci_read_func(r, dirs[i], &(*funcs)[i], true);
		if (rc < 0)
			pci_func_free(&(*funcs)[i]);
		else
			(*n)++;
	}
	root_free_list(dirs, count);
	if (rc < 0) {
		for (size_t i = 0; i < *n; i++)
			pci_func_free(&(*funcs)[i]);
		free(*funcs);
		*funcs = NULL;
		*n = 0;
	}
	return rc;
}

int pci_read_gpus(struct root *r, struct gpu **gpus, size_t *n)
{
	struct pci_func *funcs;
	size_t count;
	int rc = pci_read_wanted(r, want_gpu, &funcs, &count);

	*gpus = NULL;
	*n = 0;
	if (rc < 0 || !count)
		return rc;
	*gpus = calloc(count, sizeof(**gpus));
	if (!*gpus) {
		for (size_t i = 0; i < count; i++)
			pci_func_free(&funcs[i]);
		free(funcs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		struct gpu *g = &(*gpus)[i];

		g->pci = funcs[i];
		g->vendor = gpu_vendor_of((uint64_t)g->pci.vendor);
		if (!IS_NA(g->pci.device))
			g->model = gpu_model_name((uint64_t)g->pci.vendor,
						  (uint64_t)g->pci.device, &g->kind);
		else
			g->kind = GPU_UNKNOWN;
		/* every AMD processing accelerator is an Instinct (pci_is_gpu):
		 * a datacenter part whose model this table does not name yet */
		if (g->kind == GPU_UNKNOWN && g->vendor == GPU_VENDOR_AMD &&
		    !IS_NA(g->pci.class_code) && (g->pci.class_code >> 16) == 0x12)
			g->kind = GPU_DATACENTER;
	}
	*n = count;
	free(funcs);
	return 0;
}
