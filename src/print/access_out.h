/* Who can use the devices (model/access.h), as inventory shows it: the
 * /dev/infiniband nodes of each NIC and rdma_cm, and the files that set the
 * jobs' memlock limit.  Text and JSON (docs/json/inventory.md). */
#ifndef RD_OUT_ACCESS_OUT_H
#define RD_OUT_ACCESS_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "../model/access.h"

/* host.device_nodes and host.job_memlock added to the host object (null
 * when not read). */
void access_json_add(json_t *host, const struct dev_access *a);

/* "    nodes uverbs0 crw-rw-rw- root:root, umad0 ..." for one NIC; nothing
 * when it has none. */
void access_text_nic(FILE *out, const struct dev_access *a, const char *nic);
/* rdma_cm and the jobs' memlock, under the host line. */
void access_text_host(FILE *out, const struct dev_access *a);

#endif
