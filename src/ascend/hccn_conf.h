/* /etc/hccn.conf: the intended NPU port configuration, one key_N=value a
 * line, N the device id ("address_0=192.168.100.101").  A pure parser. */
#ifndef RD_ASCEND_HCCN_CONF_H
#define RD_ASCEND_HCCN_CONF_H

#include <stddef.h>
#include <stdint.h>

#include "../model/inventory.h"

/* Fill plan with what the file says of device id (address_N, netmask_N,
 * netdetect_N, gateway_N; the last line wins).  0, or -ENODATA when it
 * says nothing of id, or -ENOMEM. */
int hccn_conf_plan(const char *buf, size_t len, int64_t id, struct npu_plan *plan);
void npu_plan_free(struct npu_plan *plan);

#endif
