/* The bandwidth and latency test: what one side of a test is asked to do,
 * and the interface every transport (tcp, verbs) implements.
 *
 * Flow (bw/client.c and bw/server.c join it all):
 *   client                              server
 *   connect control channel  ------->   accept (one test at a time)
 *   HELLO(bw_params)         ------->   validate, cap, answer OK or ERROR
 *   prepare(): endpoint bytes <------>  prepare(): endpoint bytes
 *   connect(peer endpoint)              connect(peer endpoint)
 *   GO barrier               <------->  GO barrier
 *   run() on both sides (a side that only receives runs too: it may serve
 *   RDMA read, post receives, or answer ping-pong)
 *   RESULT exchange          <------->  (so both sides print both figures)
 *
 * The control protocol (bw/proto.c) carries bw_params and the endpoint
 * bytes; it never interprets the endpoint bytes, which belong to the
 * transport (a TCP port for tcp; QPN/PSN/rkey/address/GID per QP for
 * verbs).  Each transport validates its own endpoint bytes: they come from
 * the network.
 *
 * What the runner (bw/session.c) guarantees a transport:
 *   - prepare() and run() are called in the rail's own thread, pinned to
 *     the NIC's NUMA node when it is known (allocate in prepare: first
 *     touch lands on that node); connect() is called from the main thread,
 *     rail by rail, after both sides' prepare() and the endpoint exchange
 *     (client's endpoints are sent first).
 *   - bw_local.peer_addr is the peer's numeric control address on both
 *     sides (the client: the address it reached; the server: the client's).
 *   - run() starts on both sides right after the GO barrier.  Who counts
 *     what: a side that sends (or, for RDMA read, initiates) counts the
 *     payload it completed; a side that only receives may count what it
 *     received or leave bytes 0.  The report of a one-way test uses the
 *     client's figures when its bytes are non-zero, else the server's; a
 *     bidirectional test reports each side's own sending (bw/verdict.c).
 *   - a run() that fails returns -1 with e->msg (the convention at struct
 *     bw_err); the peer hears that text.
 *   - run() ticks a bw_sampler (below); it keeps warm-up out, cuts the
 *     per-interval samples, measures CPU time and publishes live_bytes
 *     for the progress display. */
#ifndef RD_BW_ENGINE_H
#define RD_BW_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bw_transport { BW_TRANSPORT_TCP, BW_TRANSPORT_VERBS };
enum bw_op { BW_OP_WRITE, BW_OP_READ, BW_OP_SEND };
enum bw_mode { BW_MODE_BW, BW_MODE_LAT };

/* What the client asks for; sent to the server, which checks every field
 * against its caps (bw_params_validate in bw/params.c). */
struct bw_params {
	enum bw_mode mode;
	enum bw_transport transport;
	enum bw_op op;
	uint64_t size;		/* bytes per message */
	uint32_t qps;		/* verbs queue pairs, or TCP streams */
	uint32_t tx_depth;	/* outstanding work requests per QP (verbs: 0 = 128) */
	uint32_t post_list;	/* WRs chained per post call (verbs: 0 = 1) */
	uint32_t cq_mod;	/* one signaled WR in cq_mod (verbs: 0 = perftest's rule,
				 * 100 up to 8 KiB and 1 above) */
	uint32_t inline_size;	/* messages up to this many bytes go inline (capped
				 * at what the device takes; verbs: 0 = none for
				 * bw, 220 B for lat, perftest's defaults) */
	uint32_t duration_ms;	/* measured window; 0 = iterations mode */
	uint32_t warmup_ms;	/* before the window, excluded from figures */
	uint64_t iters;		/* iterations mode: messages per QP */
	uint32_t interval_ms;	/* per-interval samples (default 1000) */
	bool bidir;		/* both sides send */
};

enum bw_peermem { BW_PEERMEM_UNKNOWN = 0, BW_PEERMEM_LOADED, BW_PEERMEM_ABSENT };

/* What stays on this side (never sent): the device, its port and GID, GPU. */
struct bw_local {
	const char *device;	/* RDMA device name, or NULL: the first one */
	int ib_port;		/* 1-based */
	int gid_index;		/* -1: choose (RoCE v2 IPv4 on the netdev that reaches the peer) */
	int gpu;		/* -1: host memory; otherwise the CUDA device ordinal */
	int numa_node;		/* -1 unknown (the report; pinning follows cpulist) */
	const char *peer_addr;	/* the peer's control address (client: the HOST argument;
				 * server: the accepted client's address), for GID choice */
	/* The CPUs of the NIC's NUMA node, as the node's cpulist file says
	 * them ("0-15,32-47"), read by the caller through its root handle:
	 * the rail's threads are pinned there.  NULL: not pinned. */
	const char *cpulist;
	/* Whether nvidia_peermem is loaded (the caller's inventory): the
	 * advice when GPU memory cannot be registered. */
	enum bw_peermem peermem;
	/* A hard bound on run(), in ms from its start; 0: none beyond the
	 * params' own.  The server sets it from its --max-duration cap (in
	 * iterations mode the cap itself; bw_params_run_bound_ms), the client
	 * from its own duration, so that no peer can hold a test, and the
	 * server's one test slot, longer.  EVERY transport must honour it:
	 * run() returns -1 ("ran past its limit") once it is over, whatever
	 * the peer does, draining included. */
	uint32_t max_run_ms;
	/* tcp server: the address its data listener binds to (--bind), NULL:
	 * any; tcp client: the address its data connections leave from.  (bw_local.device binds the data sockets to that interface.) */
	const char *bind_addr;
	/* The traffic class of the test's packets, as NCCL_IB_TC sets it: the
	 * IPv4 TOS / IPv6 traffic class byte (DSCP << 2 | ECN bits) in the
	 * QPs' GRH (verbs) or on the data sockets (tcp).  The switches and the
	 * NIC map its DSCP to a priority; that priority's PFC is what a
	 * congested port uses.  0: the device's default (not set). */
	uint8_t traffic_class;
	/* verbs: the QPs' local ACK timeout, 4.096 us x 2^qp_timeout (the
	 * exponent NCCL_IB_TIMEOUT and perftest -u set); 0: perftest's 14,
	 * about 67 ms.  A retransmit after it counts as a loss in the load
	 * test's counters, so a slow machine (an emulator) needs more. */
	uint8_t qp_timeout;
};

/* One side's measurement.  Intervals are in the order they ended. */
struct bw_interval {
	double seconds;		/* length of this interval */
	uint64_t bytes;		/* payload bytes completed (sent, or read) in it */
	uint64_t msgs;
};

struct bw_result {
	/* bandwidth: the measured window only (warm-up and drain excluded) */
	double seconds;
	uint64_t bytes, msgs;
	struct bw_interval *intervals;	/* malloc'd, n_intervals */
	size_t n_intervals;
	double cpu_user_s, cpu_sys_s;	/* CPU time this side used in the window */
	/* latency: one-way samples in microseconds (round trip / 2), malloc'd */
	double *lat_usec;
	size_t n_lat;
	/* what the transport actually used, for the report (may be 0 / "") */
	uint32_t mtu;
	int gid_index;
	char gid[64];
	char device[64];
	int numa_node;
	char mem_path[16];	/* verbs: "host", or with --gpu how the GPU buffer was
				 * registered: "dma-buf" or "peer memory" */
	/* The running byte count while run() goes (warm-up included), stored
	 * by bw_sampler_tick with __atomic_store_n for the progress display in
	 * another thread; not part of the figures, not sent. */
	uint64_t live_bytes;
	/* latency: measured round trips that were not kept in lat_usec (an
	 * engine's cap on samples, e.g. 2^22), so the report can say so */
	uint64_t lat_dropped;
};

/* The error convention of all of bw/: a function returns 0 (or a count)
 * on success and a negative number on failure, with e->msg filled for
 * people (lower-case, what failed and what to do).  The number is minus an
 * enum bw_errc, for the program to decide on (never search the text): -1
 * (BW_E_FAILED) is any failure not named below, so `< 0` is the test for
 * failure and `return -1` the plain one.  bw_errf fills e->msg; bw_errc
 * fills it too and returns -code, for `return bw_errc(e, ...)`
 * (bw/err.c).  The three leaf modules below the engines that know nothing
 * of sessions (gid_pick, verbs_endpoint, gpu_mem) follow the same rule
 * with a caller's text buffer instead of a bw_err: their callers put the
 * text into e, and gpu_mem's explanations (both registration paths, the
 * memlock limit) are longer than e->msg. */
enum bw_errc {
	BW_E_FAILED = 1,	/* anything not named below */
	BW_E_TIMEOUT,		/* a deadline passed: the peer said nothing in time */
	BW_E_CLOSED,		/* the peer closed the connection */
	BW_E_PEER,		/* the peer sent ERROR: e->msg carries its text */
	BW_E_NOMEM,		/* out of memory */
	BW_E_REFUSED,		/* this side refused the peer (token, limits,
				 * idle): said to it, and e->msg says why */
	BW_E_AGAIN,		/* accepting failed for this connection (a network
				 * error pending on it, a signal): the listener
				 * is fine */
	BW_E_SHORT,		/* accepting failed for want of descriptors,
				 * buffers or memory: it may pass */
};

struct bw_err {
	char msg[256];		/* lower-case, says what failed and what to do */
};
void bw_errf(struct bw_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bw_errc(struct bw_err *e, enum bw_errc code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A transport.  Every function returns 0, or -1 with e set.  A
 * transport must honour the timeouts in the params (run() returns at the
 * latest duration + warm-up + a few seconds after it starts, even when the
 * peer vanished), bw_local.max_run_ms (even when the peer keeps the test
 * alive: a slow ping-pong, iterations that never end), and release
 * everything in destroy(). */
struct bw_engine_ops {
	const char *name;	/* "tcp", "verbs" */
	/* Allocate resources for p on this side and describe them as endpoint
	 * bytes for the peer (at most BW_ENDPOINT_MAX). */
	int (*prepare)(void **state, const struct bw_params *p, const struct bw_local *l,
		       bool is_server, uint8_t *ep, size_t *ep_len, struct bw_err *e);
	/* Take the peer's endpoint bytes (untrusted: validate them). */
	int (*connect)(void *state, const uint8_t *peer_ep, size_t peer_len, struct bw_err *e);
	/* Run the test after the GO barrier; fill *out.  verbs: the client
	 * sends (write, send) or pulls (read), the server only receives unless
	 * bidir; a side that only serves RDMA write/read measures nothing
	 * (bytes 0: the figures are the peer's, as perftest's server prints
	 * the client's) and returns once the peer says it is done; a send/recv
	 * receiver measures what arrived.  Latency: both sides return samples. */
	int (*run)(void *state, struct bw_result *out, struct bw_err *e);
	void (*destroy)(void *state);
};

#define BW_ENDPOINT_MAX 65536

extern const struct bw_engine_ops bw_tcp_engine;	/* bw/tcp_engine.c */
extern const struct bw_engine_ops bw_verbs_engine;	/* bw/verbs_engine.c */

void bw_result_free(struct bw_result *r);

/* Time sampling shared by the engines (bw/sampler.c): the loop calls
 * bw_sampler_tick with its running totals; the sampler keeps warm-up out,
 * cuts intervals, and says when the run is over. */
struct bw_sampler {
	const struct bw_params *p;
	double t0, window_start, last_cut;
	uint64_t bytes_at_start, msgs_at_start, bytes_at_cut, msgs_at_cut;
	int phase;		/* 0 warm-up, 1 measuring, 2 done */
	struct bw_result *out;
	size_t cap;
	double cpu_user_t0, cpu_sys_t0;	/* CPU time at t0 (a run that ends in the warm-up) */
	/* bw_sampler_poll: the precise clock is read only once the coarse one
	 * says the next edge (end of warm-up, interval cut, end of window)
	 * may have come; slack is the coarse clock's resolution */
	double next_edge, slack;
};
double bw_now(void);	/* CLOCK_MONOTONIC seconds */
/* CLOCK_MONOTONIC_COARSE seconds: the kernel's last tick (a few ms behind
 * bw_now at most), read without touching the clock hardware, so it never
 * becomes a system call where the clock source has no user-space reader
 * (virtual machines, HPET).  For bounds and for deciding when to read
 * bw_now, never for a figure. */
double bw_now_coarse(void);
void bw_sampler_start(struct bw_sampler *s, const struct bw_params *p, struct bw_result *out);
/* false once the window is over (the loop then drains and returns).  One
 * precise clock read per call. */
bool bw_sampler_tick(struct bw_sampler *s, uint64_t bytes, uint64_t msgs);
/* The same, for a loop's every turn: publishes live_bytes and calls tick
 * only when an edge is due by the coarse clock.  The figures stay exact:
 * each edge pairs a precise clock read with the counts of that moment;
 * only where an edge falls moves, by at most the coarse clock's tick. */
bool bw_sampler_poll(struct bw_sampler *s, uint64_t bytes, uint64_t msgs);
/* Close the window (iterations mode ends here); fills out->seconds/bytes/msgs/cpu. */
void bw_sampler_finish(struct bw_sampler *s, uint64_t bytes, uint64_t msgs);

#endif
