/* Test buffers in GPU memory.  libcuda is loaded with dlopen at run time:
 * no CUDA headers or library are needed to build, and a host without GPUs
 * runs everything else.  Registration tries dma-buf first
 * (cuMemGetHandleForAddressRange + ibv_reg_dmabuf_mr), then peer memory
 * (plain ibv_reg_mr on the device pointer, which needs nvidia_peermem); when
 * both fail the error names each path and why it failed. */
#ifndef RD_BW_GPU_MEM_H
#define RD_BW_GPU_MEM_H

#include <stddef.h>
#include <stdint.h>
#include "engine.h"

struct ibv_pd;
struct ibv_mr;
struct gpu_mem;

/* Allocate len bytes on CUDA device `ordinal` (zeroed).  0, or -1 with a
 * lower-case reason in err (libcuda not found, no such device, ...). */
int gpu_mem_alloc(int ordinal, size_t len, struct gpu_mem **out, char *err, size_t errlen);
void *gpu_mem_ptr(const struct gpu_mem *g);
void gpu_mem_free(struct gpu_mem *g);

/* How the buffer was registered, for the report ("dma-buf", "peer memory"). */
const char *gpu_mem_path(const struct gpu_mem *g);

/* Register the whole buffer: NULL with err set when both paths failed. */
struct ibv_mr *gpu_mem_register(struct gpu_mem *g, struct ibv_pd *pd, int access, enum bw_peermem peermem,
				char *err, size_t errlen);

/* What went wrong on each path; gpu_mem_register fills it, gpu_mem_explain
 * words it (split out so the wording is unit-tested without a GPU). */
enum gpu_dmabuf_fail {
	GPU_DMABUF_OK,
	GPU_DMABUF_NO_ATTR,	/* the driver says the device cannot export dma-buf */
	GPU_DMABUF_NO_ENTRY,	/* libcuda has no cuMemGetHandleForAddressRange (driver < 11.7) */
	GPU_DMABUF_EXPORT,	/* cuMemGetHandleForAddressRange failed: cu_code */
	GPU_DMABUF_REG,		/* ibv_reg_dmabuf_mr failed: dmabuf_errno */
};

struct gpu_reg_failure {
	enum gpu_dmabuf_fail dmabuf;
	int cu_code;
	const char *cu_text;	/* may be NULL */
	int dmabuf_errno;
	int peer_errno;		/* ibv_reg_mr on the device pointer */
	int peermem_loaded;	/* 1 yes, 0 no, -1 unknown */
	uint64_t memlock;	/* RLIMIT_MEMLOCK soft limit in bytes; UINT64_MAX unlimited */
	uint64_t len;
};

void gpu_mem_explain(const struct gpu_reg_failure *f, char *buf, size_t len);

#endif
