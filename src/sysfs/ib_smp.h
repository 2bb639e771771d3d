/* Who each InfiniBand port is cabled to, asked of the fabric itself: two
 * directed-route SMPs (NodeInfo, NodeDescription) one hop down the port's
 * cable, sent through libibumad (/dev/infiniband/umadN, ib_umad).  A
 * directed route needs no subnet manager and no LIDs: it reaches the
 * switch (or HCA) at the other end of a cable whose physical link is up.
 *
 * The two 256-byte replies go through root_fetch(r, "ibsmp", "CA/PORT",
 * ..) so a snapshot keeps them (.rdmadoctor/ibsmp/mlx5_0/1) or the
 * failure (1.errno), and a replay never sends a MAD; ib_smp_parse.h reads
 * them. */
#ifndef RD_SYSFS_IB_SMP_H
#define RD_SYSFS_IB_SMP_H

#include <stddef.h>

struct root;
struct nic;

#define IB_SMP_FETCH_KIND "ibsmp"

/* Sets every InfiniBand port's neighbor or neighbor_why (model/
 * inventory.h); ports that already have either, and other link layers,
 * are left alone.  0 or -ENOMEM. */
int ib_smp_read(struct root *r, struct nic *nics, size_t n_nics);

/* The live question for one port, without a root: the two replies
 * (*data, IB_SMP_ANSWER_SIZE bytes, malloc'd) or a negative errno:
 * -ENODEV no umad device for the port (ib_umad not loaded), -EACCES its
 * /dev/infiniband/umadN not ours to use, -EIO libibumad would not open it,
 * -ETIMEDOUT no answer, -EPROTO a reply that is not ours.  For
 * ib_smp_read and the tests. */
int ib_smp_ask(const char *ca, int port, void **data, size_t *len);

#endif
