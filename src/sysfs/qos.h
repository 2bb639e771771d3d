/* RoCE QoS from DCB netlink (kernel-interfaces.md section 5): trust, PFC,
 * the DSCP map and the PFC pause counters of a RoCE port's netdev. */
#ifndef RD_SYSFS_QOS_H
#define RD_SYSFS_QOS_H

#include "root.h"
#include "../model/inventory.h"

/* Where `snapshot` keeps the raw DCB_CMD_IEEE_GET reply of each netdev. */
#define DCB_SNAPSHOT_DIR ".rdmadoctor/dcb"

/* For an Ethernet port with a netdev: live, ask the kernel (and put the
 * reply on the tape when snapshotting); replay, read the reply from
 * .rdmadoctor/dcb/<netdev>.  Fills p->qos, allocating it when DCB told
 * something; leaves the port alone when nothing could be read.  0 or
 * -ENOMEM. */
int qos_read_dcb(struct root *r, struct port *p);

#endif
