/* fabric --load's port counters: which counter tells what (fab_ckind),
 * one port's deltas around a round (fab_port_load), and what they add up
 * to, per kind, with the same frames counted once where two sources count
 * them (the larger, never the sum).  Pure; used by the judge (load.c) and
 * tested through it. */
#ifndef RD_FABRIC_LOAD_COUNTERS_H
#define RD_FABRIC_LOAD_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a port counter tells under load.  Counter names carry where they
 * were read as a prefix: "hw:" the RDMA device's hw_counters (mlx5:
 * np_cnp_sent, out_of_sequence, ...; rxe: rcvd_seq_err,
 * retry_exceeded_err, ...), "eth:" the netdev's `ethtool -S` (mlx5:
 * rx_prio3_pause, rx_discards_phy, ...), "net:" the netdev's statistics/
 * (rx_dropped, ...), "dcb:" DCB netlink's PFC counters
 * ("dcb:tx_pause_prio3", "dcb:rx_pause_prio3").  The same frames may be
 * counted by two sources (dcb: and eth: pauses; hw:out_of_buffer and
 * eth:rx_out_of_buffer): totals take the larger of such a pair, never the
 * sum. */
enum fab_ckind {
	FAB_CK_NONE,		/* not one the load test judges by */
	FAB_CK_PAUSE_TX,	/* PFC pause frames sent: this port paused its peer */
	FAB_CK_PAUSE_RX,	/* PFC pause frames received: this port was paused */
	FAB_CK_DROP,		/* packets dropped or discarded */
	FAB_CK_RETRANS,		/* retransmits, sequence errors, retry timeouts */
	FAB_CK_CNP_SENT,	/* CNPs sent (notification point) */
	FAB_CK_CNP_HANDLED,	/* CNPs handled (reaction point) */
	FAB_CK_ECN_MARKED,	/* ECN-marked RoCE packets received */
};

/* The kind of the counter with that prefixed name; *prio the priority of
 * a per-priority counter (0-7), else -1.  A hw: name's kind is its class
 * in the RDMA driver's vocabulary (model/driver_counters.h): of driver
 * (nic.driver; NULL or unknown: none) where the port is read, of any
 * driver where it arrives over the wire without one (the tables agree on
 * every shared name). */
enum fab_ckind fab_counter_kind_of(const char *driver, const char *name, int *prio);
enum fab_ckind fab_counter_kind(const char *name, int *prio);
const char *fab_ckind_name(enum fab_ckind k);

/* How one counter changed over a round. */
struct fab_cdelta {
	const char *name;	/* prefixed, as above */
	uint64_t delta;
	bool reset;		/* it went down (cleared): delta 0, growth unknown */
};

/* One rank's port of one rail around one round. */
struct fab_port_load {
	uint32_t rank, rail, round;
	double rate_gbps;	/* the port's line rate; NAN unknown */
	int pfc_mask;		/* bit p: PFC on for priority p; -1 unknown */
	const char *unread;	/* why its counters could not be read; NULL: read */
	const struct fab_cdelta *c;	/* only counters with a kind (FAB_CK_*) */
	size_t n;
};

struct fab_port_sum {
	uint64_t k[FAB_CK_ECN_MARKED + 1];	/* saturating at UINT64_MAX */
	bool known[FAB_CK_ECN_MARKED + 1];	/* a counter of that kind was read, not reset */
	bool any_reset_loss;			/* a drop or retransmit counter was reset */
	uint8_t pause_prios;			/* bit p: pauses grew on priority p */
};

/* The totals of p's counters; counters of no kind and reset ones (neither
 * growth nor zero) are left out. */
void fab_port_sum(const struct fab_port_load *p, struct fab_port_sum *s);

#endif
