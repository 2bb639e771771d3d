/* Why a port trained below its rate, in the field guide's order (faults
 * seen in the field, "Link up but rate wrong"): the module's rate set,
 * then what the link partner advertises, then the NIC's own modes, and
 * only when all three could be read and reach the rate, the cable.
 * port.rate_low carries the cause in its observed text and fits its fix
 * to it: one cause, one finding. */
#ifndef RD_CHECK_RATE_CAUSE_H
#define RD_CHECK_RATE_CAUSE_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/inventory.h"

enum rate_cause {
	RATE_CAUSE_MODULE,	/* the module's top rate is below the port's */
	RATE_CAUSE_PARTNER,	/* the link partner advertises less */
	RATE_CAUSE_NIC,		/* the NIC's own supported modes stop below */
	RATE_CAUSE_CABLE,	/* all three reach the rate: the cable */
	RATE_CAUSE_UNKNOWN,	/* a piece could not be read: said so */
};

/* The cause for a port that should run at want_gbps, in words into buf
 * ("MMA1B00-E100 is an EDR (100G) module on an HDR (200G) port"). */
enum rate_cause rate_cause(const struct port *pt, double want_gbps, bool ib, char *buf,
			   size_t len);

/* The netdev whose module rate_cause read: the port's, or on a RoCE LAG
 * the slave's (`ethtool -m` of a bond reads nothing); NULL none. */
const char *rate_cause_module_netdev(const struct port *pt);

/* The fastest speed mode in a link-mode set, in Gb/s (0: none). */
double rate_cause_top_mode(const uint32_t *set);

#endif
