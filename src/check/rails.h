/* The rail numbering: one order of the rail ports, which the site file's
 * rail_switch indices, check's rail.cabling, check --json's `rails` and the
 * fleet all count by, so that "rail 3" names the same port everywhere.
 *
 * Rail ports are numbered 0, 1, 2, ...: the NICs in inventory order (the
 * readers list them in name order, mlx5_2 before mlx5_10) whose role is
 * ROLE_RAIL (check_roles), and for each such NIC its ports in inventory
 * order. */
#ifndef RD_CHECK_RAILS_H
#define RD_CHECK_RAILS_H

#include <stddef.h>

#include "../model/inventory.h"
#include "../profiles/profile.h"

struct rail_port {
	size_t rail;	/* its number, the index in the returned array */
	size_t nic;	/* index into inv->nics */
	size_t port;	/* index into that NIC's ports */
};

/* The rail ports in rail order, to free; *n set.  NULL with *n = 0 when
 * there is none (errno left alone), NULL with errno = ENOMEM when out of
 * memory.  roles: one per NIC. */
struct rail_port *rail_ports(const struct inventory *inv, const enum nic_role *roles, size_t *n);

#endif
