/* RoCE QoS from DCB netlink (net/dcb/dcbnl.c): trust, PFC,
 * the DSCP map and the PFC pause counters of a RoCE port's netdev. */
#ifndef RD_SYSFS_QOS_H
#define RD_SYSFS_QOS_H

#include "root.h"
#include "../model/inventory.h"

/* The raw DCB_CMD_IEEE_GET reply of each netdev is fetched (fetch.h) as
 * .rdmadoctor/dcb/<netdev>. */
#define DCB_FETCH_KIND "dcb"

/* For an Ethernet port with a netdev: the DCB reply through root_fetch.  Fills p->qos, allocating it when DCB told
 * something; leaves the port alone when nothing could be read.  0 or
 * -ENOMEM. */
int qos_read_dcb(struct root *r, struct port *p);

#endif
