/* Who a port is cabled to: the switch and switch port at the other end of
 * its cable, as the switch itself announced it.
 *
 * On Ethernet (RoCE) ports this is the switch's LLDP, as lldpd heard it
 * (`lldpcli -f json show neighbors`, src/collect/lldp.c, through root_fetch
 * so snapshots keep it); on Ascend NPU ports `hccn_tool -lldp` (the NPU's
 * own agent).  On InfiniBand ports the node at the other end of the
 * cable says it itself: NodeInfo and NodeDescription asked by directed-route
 * SMP (src/sysfs/ib_smp.c, through root_fetch too).
 *
 * As everywhere in the model a value that could not be read is NULL; a
 * port whose neighbour is not known says why in words, for the check's
 * "not checked" and for -v. */
#ifndef RD_MODEL_NEIGHBOR_H
#define RD_MODEL_NEIGHBOR_H

/* Where a neighbour was read from (the JSON's neighbor.source). */
#define NEIGHBOR_SOURCE_LLDPD "lldpd"
#define NEIGHBOR_SOURCE_HCCN "hccn_tool"
#define NEIGHBOR_SOURCE_SMP "smp"	/* InfiniBand: directed-route SMPs, sysfs/ib_smp.c */

struct neighbor {
	char *system;		/* the switch's system name ("leaf-r0-a"); NULL: not sent */
	/* The switch's port: the port ID where the switch sends an interface
	 * name or a locally assigned one ("Ethernet1/1", "swp7"), else the
	 * port description, else the port ID as sent; NULL: none */
	char *port;
	char *chassis_id;	/* the chassis ID's value (a MAC, usually); NULL */
	const char *source;	/* static: NEIGHBOR_SOURCE_* */
};

void neighbor_free(struct neighbor *n);	/* NULL is fine */

/* A deep copy (NULL when out of memory or n is NULL). */
struct neighbor *neighbor_dup(const struct neighbor *n);

#endif
