/* The bytes of one GPU's NVLink fabric reading, as the live reader writes
 * them and a snapshot keeps them at .rdmadoctor/nvml/<bdf> (docs/snapshot.md):
 *
 *   state 3
 *   status 0
 *   clique 32766
 *   cluster 0123456789abcdef0123456789abcdef
 *   links 111111111111111111
 *
 * state, status and clique are NVML's numbers (model/nvlink.h); cluster the
 * 16-byte UUID in hex; links one character per link 0..17: '1' active,
 * '0' inactive, '-' NVML gave no state for it.  Only state is required.
 * A pure parser, so replay, unit tests and the fuzz target share it. */
#ifndef RD_NVML_FABRIC_TEXT_H
#define RD_NVML_FABRIC_TEXT_H

#include <stddef.h>

#include "../model/nvlink.h"

/* 0, or -EINVAL (malformed: out is left zeroed but for err). */
int nvml_fabric_parse(const void *buf, size_t len, struct gpu_fabric *out);
/* Write f as above into buf (at least NVML_FABRIC_TEXT_MAX bytes); the
 * length written. */
#define NVML_FABRIC_TEXT_MAX 160
size_t nvml_fabric_format(const struct gpu_fabric *f, char *buf, size_t cap);

#endif
