/* What the command line of bw and lat asked for, and the rules between its
 * options that are not the option table's (cmd/bw_opts.c parses into this
 * and calls these).  Errors: 0, or -EINVAL with why filled (the words after
 * "rdmadoctor bw: "). */
#ifndef RD_BW_OPTS_H
#define RD_BW_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "allow.h"
#include "params.h"
#include "proto.h"

#define BW_OPTS_DEFAULT_TIMEOUT_S 10.0
/* How long a server waits for a client's AUTH or next HELLO (--idle-timeout). */
#define BW_OPTS_DEFAULT_IDLE_S 5.0

/* Test options given on the command line: on the server each is a check
 * of the client's request (bw_opts_admit). */
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
struct bw_opts {
	bool server, once;
	/* server: --open, listening beyond loopback with neither a token nor
	 * --allow, as perftest does (bw_opts_exposure) */
	bool open;
	/* bw --loopback (bw/loopback.c): server and client on two RDMA
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
	char token_warning[256];	/* "": none (a token file others can read) */
	struct bw_allow allow[BW_ALLOW_MAX];
	unsigned n_allow;
	double idle_s;
};

/* Every field as no option was given, for the test cmd ("bw", "lat"). */
void bw_opts_defaults(struct bw_opts *o, const char *cmd, enum bw_mode mode);
/* The shared secret: --token, else --token-file, else env (the value of
 * RDMADOCTOR_TOKEN; NULL: none, empty: an error); o->token then points at
 * o->token_buf, and o->token_warning says what the caller should say of
 * a token file that others can read. */
int bw_opts_token(struct bw_opts *o, const char *env, char *why, size_t whysz);
/* A server that anyone who reaches it could use (no token, no --allow)
 * listens beyond loopback only when --open says so: 0, or -EINVAL with
 * why. */
int bw_opts_exposure(const struct bw_opts *o, char *why, size_t whysz);
/* bw --loopback's operands argv[1..n] (device pairs) and the options that
 * do not apply to it; prog names the program in the advice. */
int bw_opts_loopback(struct bw_opts *o, enum bw_mode mode, int n, char **argv,
		     const char *prog, char *why, size_t whysz);
/* The test options together, once all are read: the exclusions, and the
 * sweep's sizes (o->sizes[0] becomes p.size). */
int bw_opts_finish(struct bw_opts *o, enum bw_mode mode, char *why, size_t whysz);
/* The HELLO of one size of o's test over n_rails rails from host. */
void bw_opts_hello(const struct bw_opts *o, uint64_t size, uint32_t n_rails,
		   const char *host, struct bw_hello *h);
/* The server's own test options are checks of the client's request q (the
 * same command line on both ends, as perftest compares its parameters):
 * 0, or -1 with e naming the option and both values. */
int bw_opts_admit(const struct bw_opts *o, const struct bw_params *q, struct bw_err *e);

#endif
