/* GPU buffers through the CUDA driver API, loaded at run time (gpu_mem.h).
 * The few prototypes needed are declared here; the types are the driver
 * API's plain C types (CUdeviceptr is an unsigned 64-bit integer on every
 * 64-bit platform, CUresult an int-sized enum). */
#include "gpu_mem.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <infiniband/verbs.h>

typedef int cu_result;
typedef int cu_device;
typedef void *cu_context;
typedef unsigned long long cu_devptr;

#define CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED 124
#define CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 1

struct cuda_api {
	void *lib;
	cu_result (*init)(unsigned);
	cu_result (*device_get)(cu_device *, int);
	cu_result (*device_get_count)(int *);
	cu_result (*device_get_attribute)(int *, int, cu_device);
	cu_result (*primary_ctx_retain)(cu_context *, cu_device);
	cu_result (*primary_ctx_release)(cu_device);
	cu_result (*ctx_set_current)(cu_context);
	cu_result (*mem_alloc)(cu_devptr *, size_t);
	cu_result (*mem_free)(cu_devptr);
	cu_result (*memset_d8)(cu_devptr, unsigned char, size_t);
	cu_result (*get_handle)(void *, cu_devptr, size_t, int, unsigned long long);	/* optional */
	cu_result (*get_error_string)(cu_result, const char **);	/* optional */
};

struct gpu_mem {
	struct cuda_api cu;
	cu_device dev;
	cu_context ctx;		/* the device's primary context, retained */
	cu_devptr ptr;
	size_t len;
	const char *path;
};

static const char *cu_text(const struct cuda_api *cu, cu_result r)
{
	const char *s = NULL;

	if (cu->get_error_string && cu->get_error_string(r, &s) == 0 && s)
		return s;
	return "unknown cuda error";
}

#define LOAD(field, name)                                                                         \
	do {                                                                                      \
		*(void **)&cu->field = dlsym(cu->lib, name);                                      \
		if (!cu->field) {                                                                 \
			snprintf(err, errlen, "libcuda lacks %s: the nvidia driver is too old", name); \
			return -1;                                                                \
		}                                                                                 \
	} while (0)

static int load_cuda(struct cuda_api *cu, char *err, size_t errlen)
{
	cu->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!cu->lib) {
		const char *why = dlerror();

		snprintf(err, errlen,
			 "cannot load libcuda.so.1 (%s): no nvidia driver on this host; run without --gpu, or install the nvidia driver",
			 why ? why : "not found");
		return -1;
	}
	LOAD(init, "cuInit");
	LOAD(device_get, "cuDeviceGet");
	LOAD(device_get_count, "cuDeviceGetCount");
	LOAD(device_get_attribute, "cuDeviceGetAttribute");
	LOAD(primary_ctx_retain, "cuDevicePrimaryCtxRetain");
	LOAD(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2");
	LOAD(ctx_set_current, "cuCtxSetCurrent");
	LOAD(mem_alloc, "cuMemAlloc_v2");
	LOAD(mem_free, "cuMemFree_v2");
	LOAD(memset_d8, "cuMemsetD8_v2");
	*(void **)&cu->get_handle = dlsym(cu->lib, "cuMemGetHandleForAddressRange");
	*(void **)&cu->get_error_string = dlsym(cu->lib, "cuGetErrorString");
	return 0;
}

int gpu_mem_alloc(int ordinal, size_t len, struct gpu_mem **out, char *err, size_t errlen)
{
	struct gpu_mem *g = calloc(1, sizeof(*g));
	cu_result r;
	int count = 0;

	*out = NULL;
	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (load_cuda(&g->cu, err, errlen) != 0)
		goto fail;
	if ((r = g->cu.init(0)) != 0) {
		snprintf(err, errlen, "cuInit failed: %s (is the nvidia kernel module loaded? see nvidia-smi)",
			 cu_text(&g->cu, r));
		goto fail;
	}
	if (g->cu.device_get_count(&count) != 0 || ordinal < 0 || ordinal >= count) {
		snprintf(err, errlen, "no cuda device %d (this host has %d)", ordinal, count);
		goto fail;
	}
	if ((r = g->cu.device_get(&g->dev, ordinal)) != 0 ||
	    (r = g->cu.primary_ctx_retain(&g->ctx, g->dev)) != 0) {
		snprintf(err, errlen, "cannot open cuda device %d: %s", ordinal, cu_text(&g->cu, r));
		goto fail;
	}
	if ((r = g->cu.ctx_set_current(g->ctx)) != 0 || (r = g->cu.mem_alloc(&g->ptr, len)) != 0) {
		snprintf(err, errlen, "cannot allocate %zu bytes on cuda device %d: %s", len, ordinal,
			 cu_text(&g->cu, r));
		g->cu.primary_ctx_release(g->dev);
		goto fail;
	}
	g->len = len;
	if ((r = g->cu.memset_d8(g->ptr, 0, len)) != 0) {
		snprintf(err, errlen, "cannot clear gpu memory on cuda device %d: %s", ordinal, cu_text(&g->cu, r));
		gpu_mem_free(g);
		return -1;
	}
	*out = g;
	return 0;
fail:
	if (g->cu.lib)
		dlclose(g->cu.lib);
	free(g);
	return -1;
}

void *gpu_mem_ptr(const struct gpu_mem *g)
{
	return (void *)(uintptr_t)g->ptr;
}

const char *gpu_mem_path(const struct gpu_mem *g)
{
	return g->path ? g->path : "";
}

void gpu_mem_free(struct gpu_mem *g)
{
	if (!g)
		return;
	if (g->ptr) {
		/* destroy may run on another thread than alloc did */
		g->cu.ctx_set_current(g->ctx);
		g->cu.mem_free(g->ptr);
		g->cu.primary_ctx_release(g->dev);
	}
	if (g->cu.lib)
		dlclose(g->cu.lib);
	free(g);
}

static uint64_t memlock_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX;
	return (uint64_t)rl.rlim_cur;
}

struct ibv_mr *gpu_mem_register(struct gpu_mem *g, struct ibv_pd *pd, int acc, enum bw_peermem peermem,
				char *err, size_t errlen)
{
	struct gpu_reg_failure f = { .len = g->len, .memlock = memlock_limit(), .peermem_loaded = -1 };
	struct ibv_mr *mr;
	int supported = 0;

	/* dma-buf: the upstream path, needs no out-of-tree module. */
	if (g->cu.device_get_attribute(&supported, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, g->dev) != 0 ||
	    !supported) {
		f.dmabuf = GPU_DMABUF_NO_ATTR;
	} else if (!g->cu.get_handle) {
		f.dmabuf = GPU_DMABUF_NO_ENTRY;
	} else {
		int fd = -1;
		cu_result r = g->cu.get_handle(&fd, g->ptr, g->len, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);

		if (r != 0) {
			f.dmabuf = GPU_DMABUF_EXPORT;
			f.cu_code = r;
			f.cu_text = cu_text(&g->cu, r);
		} else {
			mr = ibv_reg_dmabuf_mr(pd, 0, g->len, (uint64_t)g->ptr, fd, acc);
			f.dmabuf_errno = errno;
			close(fd);	/* the MR holds its own reference */
			if (mr) {
				g->path = "dma-buf";
				return mr;
			}
			f.dmabuf = GPU_DMABUF_REG;
		}
	}
	/* Peer memory: the device pointer handed to ibv_reg_mr, resolved by
	 * nvidia_peermem in the kernel. */
	mr = ibv_reg_mr(pd, gpu_mem_ptr(g), g->len, acc);
	if (mr) {
		g->path = "peer memory";
		return mr;
	}
	f.peer_errno = errno;
	/* whether the module is there (the caller's inventory) decides the advice */
	f.peermem_loaded = peermem == BW_PEERMEM_LOADED ? 1 : peermem == BW_PEERMEM_ABSENT ? 0 : -1;
	gpu_mem_explain(&f, err, errlen);
	return NULL;
}

void gpu_mem_explain(const struct gpu_reg_failure *f, char *buf, size_t len)
{
	char d[200], p[200], m[160] = "";

	switch (f->dmabuf) {
	case GPU_DMABUF_OK:
		snprintf(d, sizeof(d), "not tried");
		break;
	case GPU_DMABUF_NO_ATTR:
		snprintf(d, sizeof(d), "the nvidia driver reports no dma-buf support for this gpu (needs the open kernel modules, driver >= 515, and kernel >= 5.12)");
		break;
	case GPU_DMABUF_NO_ENTRY:
		snprintf(d, sizeof(d), "libcuda has no cuMemGetHandleForAddressRange (driver older than cuda 11.7)");
		break;
	case GPU_DMABUF_EXPORT:
		snprintf(d, sizeof(d), "cuMemGetHandleForAddressRange failed: %s (%d): the driver or kernel cannot export dma-buf",
			 f->cu_text ? f->cu_text : "unknown cuda error", f->cu_code);
		break;
	case GPU_DMABUF_REG:
		snprintf(d, sizeof(d), "ibv_reg_dmabuf_mr failed: %s%s", strerror(f->dmabuf_errno),
			 f->dmabuf_errno == EOPNOTSUPP || f->dmabuf_errno == EPROTONOSUPPORT
				 ? " (the rdma driver or kernel does not support dma-buf; kernel >= 5.12 and a recent nic driver needed)"
				 : "");
		break;
	}
	if (f->peermem_loaded == 0)
		snprintf(p, sizeof(p), "ibv_reg_mr failed: %s: nvidia_peermem is not loaded (modprobe nvidia_peermem)",
			 strerror(f->peer_errno));
	else
		snprintf(p, sizeof(p), "ibv_reg_mr failed: %s%s", strerror(f->peer_errno),
			 f->peermem_loaded == 1 ? " although nvidia_peermem is loaded" : "");
	if (f->memlock != UINT64_MAX && f->memlock < f->len)
		snprintf(m, sizeof(m), "; the memlock limit (%llu bytes) is below the %llu-byte buffer: raise it (ulimit -l unlimited)",
			 (unsigned long long)f->memlock, (unsigned long long)f->len);
	snprintf(buf, len, "cannot register gpu memory: dma-buf path: %s; peer-memory path: %s%s", d, p, m);
}
