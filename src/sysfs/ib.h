/* RDMA devices from /sys/class/infiniband (drivers/infiniband/core/sysfs.c): attributes, ports, GIDs, counters, netdev and PCI function. */
#ifndef RD_SYSFS_IB_H
#define RD_SYSFS_IB_H

#include "root.h"
#include "../model/inventory.h"

/* What only verbs can tell is fetched (fetch.h) as
 * .rdmadoctor/verbs/<dev>/<port>/{active_mtu,max_mtu}: a decimal number
 * of bytes and a newline. */
#define VERBS_FETCH_KIND "verbs"
/* ... and what stat and access say of /dev/infiniband/<uverbsN> as
 * .rdmadoctor/dev/infiniband/<uverbsN>: one word and a newline, "ok",
 * "missing" or "no access" (UVERBS_DEV_* below). */
#define UVERBS_DEV_FETCH_KIND "dev"

#define UVERBS_DEV_OK "ok"
#define UVERBS_DEV_MISSING "missing"
#define UVERBS_DEV_NO_ACCESS "no access"

int ib_read_nics(struct root *r, struct nic **nics, size_t *n);

/* The counters of one plain directory of count files (a netdev's
 * statistics/) into an empty set; a port's PMA and hw counters are
 * ib_read_port_counters'.  A missing directory gives an empty set; 0 or
 * -ENOMEM. */
int ib_read_counter_dir(struct root *r, const char *dir, struct counter_set *set);
/* A port's counters/ (with counters_ext/) and hw_counters/ under portdir
 * into its empty sets; where counters/ files read "N/A (no PMA)" a note
 * says which, and what is still read.  0 or -ENOMEM. */
int ib_read_port_counters(struct root *r, const char *portdir, struct port *p);

#endif
