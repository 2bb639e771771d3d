/* Parser of `npu-smi info -t health -i N -c C`, one chip's health:
 *
 *         Health Status                  : Warning
 *         Error Code                     : 80E01801
 *         Error Information              : node type=SOC, sensor type=Temperature
 *
 * (Huawei's npu-smi reference; the status is one of OK, Warning, Alarm,
 * Critical, UNKNOWN).  `npu-smi info -t health -i N` without -c prints
 * "Health : OK" per chip instead, the NPU's chip first: that first one is
 * read when there is no Health Status line. */
#ifndef RD_ASCEND_NPU_SMI_HEALTH_H
#define RD_ASCEND_NPU_SMI_HEALTH_H

#include <stddef.h>

struct npu_smi_health {
	char *status;		/* "OK", "Warning", ... as printed */
	char *code, *info;	/* NULL when absent or "NA" */
};

/* 0 (a status read), -ENODATA (none), -ENOMEM; free with
 * npu_smi_health_free. */
int npu_smi_parse_health(const char *buf, size_t len, struct npu_smi_health *h);
void npu_smi_health_free(struct npu_smi_health *h);

#endif
