/* A port's state as the kernel names it, and the one rule for "is it up".
 *
 * sysfs ports/N/state and phys_state read "4: ACTIVE", "5: LinkUp": the
 * numbers are enum ib_port_state and the IBTA PortPhysicalState, the same
 * for InfiniBand and RoCE ports. */
#ifndef RD_MODEL_PORT_STATE_H
#define RD_MODEL_PORT_STATE_H

#include <stdbool.h>

struct port;

enum port_state {		/* ports/N/state */
	PORT_STATE_DOWN = 1,
	PORT_STATE_INIT = 2,	/* IB: link up, no subnet manager has set it up */
	PORT_STATE_ARMED = 3,
	PORT_STATE_ACTIVE = 4,
	PORT_STATE_ACTIVE_DEFER = 5,
};

enum port_phys_state {		/* ports/N/phys_state */
	PORT_PHYS_SLEEP = 1,
	PORT_PHYS_POLLING = 2,
	PORT_PHYS_DISABLED = 3,
	PORT_PHYS_TRAINING = 4,
	PORT_PHYS_LINKUP = 5,
	PORT_PHYS_ERROR_RECOVERY = 6,
	PORT_PHYS_TEST = 7,
};

enum port_link {
	PORT_LINK_UP,		/* ACTIVE, and LinkUp or the physical state unknown */
	PORT_LINK_DOWN,		/* a state that was read says it is not up */
	PORT_LINK_UNKNOWN,	/* neither could be read, or only "LinkUp" */
};

enum port_link port_link(const struct port *p);

/* Whether the port carries traffic: port_link() says PORT_LINK_UP. */
bool port_is_up(const struct port *p);

#endif
