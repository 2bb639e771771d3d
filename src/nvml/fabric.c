/* Each NVIDIA GPU's NVLink fabric through NVML, loaded at run time
 * (fabric.h).  The structure NVML fills is laid out as NVIDIA's published
 * nvml.h defines nvmlGpuFabricInfo_t: the cluster UUID (16 bytes), the
 * status (nvmlReturn_t, an int-sized enum), the clique id (unsigned int),
 * the state (nvmlGpuFabricState_t, an unsigned char). */
#include "fabric.h"
#include "fabric_text.h"
#include "../model/inventory.h"
#include "../sysfs/fetch.h"
#include "../sysfs/root.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef int nvml_return;		/* nvmlReturn_t */
typedef struct nvml_device *nvml_device;	/* nvmlDevice_t: opaque */

struct nvml_fabric_info {		/* nvmlGpuFabricInfo_t */
	unsigned char cluster_uuid[NVLINK_UUID_LEN];
	nvml_return status;
	unsigned int clique_id;
	unsigned char state;
};

struct nvml_lib {
	bool tried;
	int err;		/* 0 loaded and started, else the fetch's errno */
	void *dl;
	bool started;
	nvml_return (*init)(void);
	nvml_return (*shutdown)(void);
	nvml_return (*by_bus_id)(const char *bus_id, nvml_device *dev);
	nvml_return (*fabric_info)(nvml_device dev, struct nvml_fabric_info *info);
	nvml_return (*link_state)(nvml_device dev, unsigned int link, int *is_active);
};

static const char *lib_path(void)
{
	const char *p = getenv(NVML_ENV);

	return p && *p ? p : "libnvidia-ml.so.1";
}

static int lib_open(struct nvml_lib *l)
{
	if (l->tried)
		return l->err;
	l->tried = true;
	l->dl = dlopen(lib_path(), RTLD_NOW | RTLD_LOCAL);
	if (!l->dl)
		return l->err = -ELIBACC;
	*(void **)&l->init = dlsym(l->dl, "nvmlInit_v2");
	*(void **)&l->shutdown = dlsym(l->dl, "nvmlShutdown");
	*(void **)&l->by_bus_id = dlsym(l->dl, "nvmlDeviceGetHandleByPciBusId_v2");
	*(void **)&l->fabric_info = dlsym(l->dl, "nvmlDeviceGetGpuFabricInfo");
	*(void **)&l->link_state = dlsym(l->dl, "nvmlDeviceGetNvLinkState");
	if (!l->init || !l->shutdown || !l->by_bus_id || !l->fabric_info || !l->link_state)
		return l->err = -ENOSYS;
	if (l->init() != NVML_RC_SUCCESS)
		return l->err = -EIO;
	l->started = true;
	return l->err = 0;
}

static void lib_close(struct nvml_lib *l)
{
	if (l->started)
		l->shutdown();
	if (l->dl)
		dlclose(l->dl);
	memset(l, 0, sizeof(*l));
}

struct fetch_arg {
	struct nvml_lib *lib;
	const char *bdf;
};

/* One GPU's answer as fabric_text.h's bytes.  Never -ENOENT: that is a
 * replay root's "nothing recorded". */
static int fetch_fabric(void *arg, void **data, size_t *len)
{
	struct fetch_arg *a = arg;
	struct nvml_fabric_info info;
	struct gpu_fabric f = { 0 };
	nvml_device dev = NULL;
	nvml_return rc;
	char *buf;
	int err = lib_open(a->lib);

	if (err)
		return err;
	if (a->lib->by_bus_id(a->bdf, &dev) != NVML_RC_SUCCESS || !dev)
		return -ENODEV;
	memset(&info, 0, sizeof(info));
	rc = a->lib->fabric_info(dev, &info);
	if (rc == NVML_RC_NOT_SUPPORTED) {
		f.state = NVLINK_FABRIC_NOT_SUPPORTED;	/* no fabric: the call's answer */
	} else if (rc != NVML_RC_SUCCESS) {
		return -EIO;
	} else {
		f.state = info.state;
		f.status = (unsigned)info.status;
		f.clique = info.clique_id;
		memcpy(f.cluster, info.cluster_uuid, NVLINK_UUID_LEN);
	}
	for (unsigned i = 0; i < NVLINK_MAX_LINKS; i++) {
		int active = 0;

		if (a->lib->link_state(dev, i, &active) != NVML_RC_SUCCESS)
			continue;
		f.answered |= 1u << i;
		f.n_links++;
		if (active)
			f.active |= 1u << i;
	}
	buf = malloc(NVML_FABRIC_TEXT_MAX);
	if (!buf)
		return -ENOMEM;
	*len = nvml_fabric_format(&f, buf, NVML_FABRIC_TEXT_MAX);
	*data = buf;
	return 0;
}

static const char *why_of(int err)
{
	switch (err) {
	case -ELIBACC:
		return "NVML (libnvidia-ml.so.1) is not installed or could not be loaded";
	case -ENOSYS:
		return "this NVML lacks nvmlDeviceGetGpuFabricInfo or nvmlDeviceGetNvLinkState "
		       "(a driver older than the fabric calls)";
	case -EIO:
		return "NVML did not start or did not answer (nvmlInit_v2 or the fabric call failed)";
	case -ENODEV:
		return "NVML does not know this GPU";
	case -EINVAL:
		return "the recorded NVML answer is malformed";
	default:
		return "NVML could not be asked";
	}
}

static int read_one(struct root *r, struct nvml_lib *lib, struct gpu *g)
{
	struct fetch_arg a = { lib, g->pci.bdf };
	void *data = NULL;
	size_t len = 0;
	int rc;

	rc = root_fetch(r, NVML_FETCH_KIND, g->pci.bdf, 4096, fetch_fabric, &a, &data, &len);
	/* a replay root that recorded nothing: the stand-in or library the
	 * environment names answers (tests) */
	if (rc == -ENOENT && getenv(NVML_ENV) && *getenv(NVML_ENV))
		rc = fetch_fabric(&a, &data, &len);
	if (rc == -ENOMEM)
		return rc;
	if (rc == 0) {
		rc = nvml_fabric_parse(data, len, &g->fabric);
		free(data);
		if (rc != 0)
			root_note(r, FETCH_DIR "/" NVML_FETCH_KIND, "malformed answer for %s",
				  g->pci.bdf);
	}
	if (rc != 0) {
		memset(&g->fabric, 0, sizeof(g->fabric));
		g->fabric.err = rc;
		if (rc != -ENOENT)
			g->fabric.why = why_of(rc);
		if (fetch_failure_noted(r, rc))
			root_note(r, FETCH_DIR "/" NVML_FETCH_KIND, "%s: %s", g->pci.bdf,
				  why_of(rc));
	}
	return 0;
}

int nvml_read_fabric(struct root *r, struct gpu *gpus, size_t n)
{
	struct nvml_lib lib = { 0 };
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		gpus[i].fabric.err = -ENOENT;
		if (gpus[i].vendor != GPU_VENDOR_NVIDIA || !gpus[i].pci.bdf ||
		    !fetch_name_ok(gpus[i].pci.bdf))
			continue;
		rc = read_one(r, &lib, &gpus[i]);
	}
	lib_close(&lib);
	return rc;
}
