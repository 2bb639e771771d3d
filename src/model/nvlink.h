/* A GPU's NVLink fabric as NVML reports it (src/nvml/fabric.c reads it;
 * check/nvlink.c judges it).  The numbers are NVML's own, as NVIDIA's
 * published nvml.h defines them: the fabric state (nvmlGpuFabricState_t),
 * the status (an nvmlReturn_t, meaningful once the state is COMPLETED),
 * the clique id and the cluster UUID (16 bytes), and each NVLink link's
 * nvmlDeviceGetNvLinkState answer.  Data only. */
#ifndef RD_MODEL_NVLINK_H
#define RD_MODEL_NVLINK_H

#include <stdbool.h>
#include <stdint.h>

/* nvmlGpuFabricState_t */
enum { NVLINK_FABRIC_NOT_SUPPORTED = 0, NVLINK_FABRIC_NOT_STARTED = 1,
       NVLINK_FABRIC_IN_PROGRESS = 2, NVLINK_FABRIC_COMPLETED = 3 };
/* nvmlReturn_t values the judge names */
enum { NVML_RC_SUCCESS = 0, NVML_RC_NOT_SUPPORTED = 3, NVML_RC_INSUFFICIENT_RESOURCES = 23 };
/* NVML_NVLINK_MAX_LINKS in current nvml.h */
#define NVLINK_MAX_LINKS 18
#define NVLINK_UUID_LEN 16

struct gpu_fabric {
	/* 0: read; -ENOENT: not asked (a replay root that recorded nothing:
	 * say nothing); any other negative errno: asked and not answered,
	 * why says it (a static string) */
	int err;
	const char *why;
	unsigned state;		/* nvmlGpuFabricState_t */
	unsigned status;	/* nvmlReturn_t, once COMPLETED */
	unsigned clique;
	uint8_t cluster[NVLINK_UUID_LEN];
	unsigned n_links;	/* links NVML answered for, 0..NVLINK_MAX_LINKS */
	uint32_t answered;	/* bit i: NVML gave link i's state */
	uint32_t active;	/* bit i: link i is active */
};

/* NVML's name of an nvmlReturn_t ("NVML_ERROR_INSUFFICIENT_RESOURCES"),
 * NULL for one it does not know; of a fabric state ("COMPLETED"). */
const char *nvml_return_name(unsigned rc);
const char *nvlink_fabric_state_name(unsigned state);
/* Whether the 16 bytes are all zero. */
bool nvlink_uuid_zero(const uint8_t *u);

#endif
