/* One counter vocabulary over every RDMA driver: what each driver's
 * hw_counters file counts, as a class the judges (src/check), watch,
 * serve and fabric --load all speak.  Pure data and lookups over it; the
 * tables, each citing the kernel source it was read from, are in
 * driver_counters.c (research: docs/research/driver-counters.md).
 *
 * A counter of a known driver that maps to no class (CTR_NONE) is shown
 * raw and never judged; a class a driver has no counter for is "not
 * available on DRIVER", never zero; a driver this table does not know
 * has no classes at all, so nothing of it is judged. */
#ifndef RD_MODEL_DRIVER_COUNTERS_H
#define RD_MODEL_DRIVER_COUNTERS_H

#include <stdbool.h>

enum ctr_class {
	CTR_NONE,		/* shown raw, never judged */
	CTR_RETRANSMIT,		/* packets sent again, or received out of sequence */
	CTR_SEQ_ERR,		/* sequence-error NAKs (a PSN gap seen by the peer) */
	CTR_RNR,		/* receiver not ready: no receive posted */
	CTR_ACK_TIMEOUT,	/* the requester's ACK timer ran out: it retransmits */
	CTR_DROP,		/* packets dropped or discarded */
	CTR_CNP_SENT,		/* DCQCN notification point: CNPs sent */
	CTR_CNP_HANDLED,	/* DCQCN reaction point: CNPs received and acted on */
	CTR_ECN_MARKED,		/* ECN-marked RoCE packets received */
	CTR_PHY_ERR,		/* corrupted on the wire (ICRC, CRC, symbol errors) */
	CTR_LINK_DOWNED,	/* the link went down */
	CTR_RETRY_EXCEEDED,	/* retries ran out: the QP went to error */
	CTR_N
};

#define CTR_BIT(c) (1u << (unsigned)(c))

/* How a row counts, beyond its class. */
enum {
	/* the echo of a retransmission counted elsewhere (a duplicate request
	 * arriving at the responder, the NAK a responder sent for a gap it
	 * also counts): the same event as the sender's own counter */
	CTR_F_ECHO = 1u << 0,
	/* counts bytes, not events: its packet counter beside it counts the
	 * same events */
	CTR_F_BYTES = 1u << 1,
	/* a device-level counter (DEV/hw_counters/NAME), not a port's */
	CTR_F_DEVICE = 1u << 2,
};

struct drv_counter {
	const char *name;		/* the file name, spaces kept (irdma GEN3) */
	unsigned char cls;		/* enum ctr_class */
	unsigned char flags;		/* CTR_F_* */
};

struct drv_table {
	const char *name;		/* "mlx5", "bnxt_re": the RDMA driver */
	/* the names nic.driver takes for it (model/inventory.h: the PCI
	 * function's driver, or rdma_rxe); NULL-terminated */
	const char *const *drivers;
	const struct drv_counter *rows;
	unsigned n;
};

/* The table of a driver as nic.driver names it ("mlx5_core", "bnxt_en",
 * "ice", "rdma_rxe", ...); NULL when the driver is unknown (or NULL). */
const struct drv_table *drv_table_of(const char *driver);
/* Every table, for walking them: *n is set to their number. */
const struct drv_table *drv_tables(unsigned *n);

/* Any driver: a lookup by name alone, for records that no longer name
 * the driver (the tables agree on every name two drivers share; a unit
 * test holds them to it). */
#define DRV_ANY "*"

/* The row of a port's hw_counters file NAME; driver DRV_ANY: the row of
 * any driver that has the name.  NULL: an unknown driver (NULL among
 * them: nic.driver not read), or a name the driver does not have. */
const struct drv_counter *drv_counter_find(const char *driver, const char *name);
/* The same for a device-level hw_counters file (DEV/hw_counters/NAME). */
const struct drv_counter *drv_device_counter_find(const char *driver, const char *name);

/* The class of a port's hw_counters file: CTR_NONE for an unknown name
 * or driver (drv_table_of tells the two apart). */
enum ctr_class counter_class(const char *driver, const char *name);
/* The classes (CTR_BIT) the driver has a port counter of, echoes and
 * byte counts included; 0 for an unknown driver.  CTR_NONE is not one. */
unsigned drv_classes(const char *driver);

/* "retransmit", "seq_err", ... "none": the names docs and JSON use. */
const char *ctr_class_name(enum ctr_class c);

#endif
