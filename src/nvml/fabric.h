/* Each NVIDIA GPU's NVLink fabric through NVML (model/nvlink.h).
 *
 * NVML is loaded at run time with dlopen, never linked: libnvidia-ml.so.1,
 * or the file the environment variable RDMADOCTOR_NVML names (tests use a
 * stand-in library there; docs/snapshot.md).  Each GPU's answer goes
 * through root_fetch as kind "nvml", key its PCI address, so `snapshot`
 * records it and a replay root reads it back; NVML is asked only on a live
 * root, or on a replay root that recorded nothing for the GPU when
 * RDMADOCTOR_NVML names a library (for tests and stand-ins).
 *
 * A GPU's fabric.err: 0 read; -ENOENT not asked (a snapshot from before
 * NVML was read: say nothing); else why says what was missing (no NVML,
 * an NVML without the call, NVML not starting, the GPU unknown to it).
 * Returns 0, or -ENOMEM. */
#ifndef RD_NVML_FABRIC_H
#define RD_NVML_FABRIC_H

#include <stddef.h>

struct root;
struct gpu;

#define NVML_FETCH_KIND "nvml"
#define NVML_ENV "RDMADOCTOR_NVML"

int nvml_read_fabric(struct root *r, struct gpu *gpus, size_t n);

#endif
