/* RoCE LAG (mlx5 LAG: one RDMA device on the bond): an mlx5_bond_N port's netdev is the
 * bond master, which has no DCB, no ECN files and no transceiver.  Those
 * live on the bond's slaves, the physical functions: ask each of them. */
#ifndef RD_SYSFS_LAG_H
#define RD_SYSFS_LAG_H

#include "root.h"
#include "../model/inventory.h"

/* At most this many slaves are asked (an mlx5 LAG has 2, or 4 on CX-7). */
#define LAG_MAX_SLAVES 4

/* For an Ethernet port whose netdev is a bond (p->bond_slaves): ECN, DCB,
 * the module EEPROM and the link modes of each slave into p->slaves, and
 * p->qos the slaves' merged view: PFC and ECN on a priority only where
 * every slave has it, trust DSCP only when every slave trusts DSCP, the
 * DSCP map of the first slave, pause counters summed.  Slaves that
 * disagree get a note.  0 or -ENOMEM. */
int lag_read_port(struct root *r, struct port *p);

/* watch: the slaves' DCB pause counters again, summed into p->qos.
 * 0 or -ENOMEM. */
int lag_sample_pause(struct root *r, struct port *p);

#endif
