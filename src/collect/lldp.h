/* Who each port is cabled to, as lldpd heard it (model/neighbor.h).
 *
 * One call of `lldpcli -f json show neighbors` per collect, through
 * root_fetch(r, "lldp", "neighbors", ..) so a snapshot keeps the bytes
 * (.rdmadoctor/lldp/neighbors) or the failure (neighbors.errno), and a
 * replay never runs the tool.  lldpcli runs under tool_run's time limit;
 * it is not run at all when no port is Ethernet with a netdev.
 *
 * The NIC firmware's own LLDP agent is not a source: no driver exposes
 * what that agent received (docs/neighbors.md says what was looked at). */
#ifndef RD_COLLECT_LLDP_H
#define RD_COLLECT_LLDP_H

#include <stddef.h>

struct root;
struct nic;

#define LLDP_FETCH_KIND "lldp"
#define LLDP_FETCH_KEY "neighbors"

/* Sets every port's neighbor, or its neighbor_why (model/inventory.h);
 * a port that already has either is left alone.  0 or -ENOMEM. */
int lldp_read(struct root *r, struct nic *nics, size_t n_nics);

#endif
