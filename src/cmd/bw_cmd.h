/* The bw and lat commands' private parts, shared by cmd/bw.c (client,
 * server, report), cmd/bw_opts.c (the command line) and cmd/bw_rails.c
 * (which devices, NUMA nodes, GPUs a test runs on). */
#ifndef RD_CMD_BW_CMD_H
#define RD_CMD_BW_CMD_H

#include "cmd.h"
#include "pipeline.h"
#include "../bw/allow.h"
#include "../bw/params.h"
#include "../bw/report.h"
#include "../bw/session.h"

#define BW_CMD_DEFAULT_TIMEOUT_S 10.0
/* How long a server waits for a client's AUTH or next HELLO (--idle-timeout). */
#define BW_CMD_DEFAULT_IDLE_S 5.0

/* Test options given on the command line: on the server each is a check
 * of the client's request (cmd/bw.c server_constraints). */
enum {
	BW_SET_OP = 1u << 0,
	BW_SET_SIZE = 1u << 1,		/* --size or --sizes */
	BW_SET_DURATION = 1u << 2,
	BW_SET_WARMUP = 1u << 3,
	BW_SET_INTERVAL = 1u << 4,
	BW_SET_ITERS = 1u << 5,
	BW_SET_QPS = 1u << 6,
	BW_SET_TX_DEPTH = 1u << 7,
	BW_SET_POST_LIST = 1u << 8,
	BW_SET_CQ_MOD = 1u << 9,
	BW_SET_INLINE = 1u << 10,
	BW_SET_BIDIR = 1u << 11,
};

/* What the command line asked for (both sides). */
struct bw_cmd_opts {
	bool server, once;
	/* bw --loopback (cmd/bw_loopback.c): server and client on two RDMA
	 * devices of this host; the pairs as named on the command line
	 * (A B [C D]...: pointers into argv), none: each rail with its
	 * partner */
	bool loopback;
	char **lb_names;
	int n_lb_names;
	const char *host, *bind, *device, *devices, *gpu;
	uint16_t port;
	bool port_set;
	const char *cmd;		/* "bw" or "lat", for messages */
	bool transport_set, warmup_set, cq_mod_set, size_set;
	const char *server_only;	/* a --max-* option given (its name) */
	unsigned test_set;		/* BW_SET_* */
	struct bw_params p;
	uint64_t sizes[32];
	size_t n_sizes;
	int ib_port, gid_index;
	double expect_gbps, timeout_s;
	struct bw_caps caps;
	/* the door (cmd/bw.c, bw/door.h): the shared secret from --token,
	 * --token-file or RDMADOCTOR_TOKEN (NULL: none), the server's --allow
	 * list and --idle-timeout */
	const char *token, *token_arg, *token_file;
	char token_buf[BW_TOKEN_MAX + 1];
	struct bw_allow allow[BW_ALLOW_MAX];
	unsigned n_allow;
	double idle_s;
};

/* Parse argv of `bw` or `lat` into o: EXIT_OK (help printed), EXIT_USAGE
 * (said why), or -1 to go on. */
int bw_cmd_parse(struct ctx *c, const char *cmd, enum bw_mode mode, int argc, char **argv,
		 struct bw_cmd_opts *o);

/* Whether list is what --devices (and fabric's --rails) take: "all", or
 * names joined by commas, none empty ("a,,b" and "" are slips). */
bool bw_cmd_device_list_ok(const char *list);

/* The rails of a test on this side, from the inventory (verbs) or the
 * command line (tcp). */
struct bw_cmd_setup {
	struct ctx *c;
	const char *cmd;	/* "bw" or "lat", for messages */
	struct bw_cmd_opts *o;
	/* The machine as check reads it (cmd/pipeline.h): the root, the
	 * inventory, the site file, and the profile (the site file's, else
	 * the one the machine is), whose rail floor a verbs test is held to. */
	struct pipeline pl;
	bool collected;		/* bw_cmd_collect ran; collect_rc is its answer */
	int collect_rc;
	bool have_inv;		/* pl's inventory and profile are there */
	/* chosen rails: inventory NIC indices (verbs), or netdev names (tcp) */
	size_t nic[BW_RAILS_MAX];
	char *names[BW_RAILS_MAX];
	char *cpulist[BW_RAILS_MAX];	/* each verbs rail's NUMA CPU list (rail.cpulist) */
	uint32_t n;
	struct bw_report_rail rail[BW_RAILS_MAX];
	double min_rate;
};

/* The bandwidth a verbs rail must reach when --expect-gbps is not given:
 * the profile's rail bw_floor_gbps where it has one (pr may be NULL), else
 * 90% of the slowest port rate (NVIDIA's pass line), else nothing.  1 with
 * *gbps and why set, or 0. */
struct profile;
int bw_cmd_floor(const struct profile *pr, double min_rate, double *gbps, char *why,
		 size_t whysz);
/* The inventory, the site file and the profile, read once (pipeline_collect
 * and pipeline_choose, as check); EXIT_OK, or the exit code after saying
 * why: EXIT_USAGE for a broken site file or profile, as check. */
int bw_cmd_collect(struct bw_cmd_setup *s);
/* Add the inventory's NIC k, port port_num, as the next rail (its NUMA
 * node, port rate, CPUs and GPU): EXIT_OK, or EXIT_USAGE past
 * BW_RAILS_MAX (said). */
int bw_cmd_add_rail(struct bw_cmd_setup *s, size_t k, int port_num);
/* Choose the rails: EXIT_OK, or an exit code after saying why. */
int bw_cmd_verbs_rails(struct bw_cmd_setup *s);
int bw_cmd_tcp_rails(struct bw_cmd_setup *s);
void bw_cmd_setup_free(struct bw_cmd_setup *s);
/* The engine and each rail's local side; rail i of the test runs on
 * rails[i % n] (a server with fewer devices than the client asks for runs
 * several rails on one). */
void bw_cmd_fill_locals(const struct bw_cmd_opts *o, const struct bw_report_rail *rails, uint32_t n,
			enum bw_transport t, uint32_t n_rails, const char *peer,
			struct bw_rails *r);

/* The expectation of a report (cmd/bw.c): --expect-gbps for every size,
 * else for a verbs bandwidth test bw_cmd_floor under pr (NULL: none) and
 * min_rate at sizes of BW_EXPECT_MIN_BYTES and up, else none.  why holds
 * the words r->expect_why may point at. */
void bw_cmd_expectation(struct bw_report *r, const struct bw_cmd_opts *o,
			const struct profile *pr, double min_rate, char *why, size_t whysz);
/* The HELLO of one size of o's test over n_rails rails from host. */
void bw_cmd_hello(const struct bw_cmd_opts *o, uint64_t size, uint32_t n_rails,
		  const char *host, struct bw_hello *h);

/* The progress line on stderr (a terminal), the session's progress
 * callback with a struct bw_cmd_progress as its argument; end it after
 * each test. */
struct bw_cmd_progress {
	struct ctx *c;
	const char *cmd;	/* after the program's name: "bw", a pair */
	uint64_t size;
	double total;		/* seconds: warm-up and window */
	double last_t;		/* the previous call: the windowed rate */
	uint64_t last_bytes;
	bool shown;
};
void bw_cmd_show_progress(void *arg, double elapsed, uint64_t bytes);
void bw_cmd_end_progress(struct bw_cmd_progress *pg);

/* bw --loopback: every pair, one after the other (cmd/bw_loopback.c). */
int bw_cmd_loopback(struct ctx *c, struct bw_cmd_opts *o);

#endif
