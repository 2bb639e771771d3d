/* bw_params: defaults, the server's caps, and the check of a request
 * against them (a HELLO is untrusted). */
#ifndef RD_BW_PARAMS_H
#define RD_BW_PARAMS_H

#include "engine.h"

/* What a server accepts; a request over any of them gets an ERROR naming it. */
struct bw_caps {
	uint64_t max_size;		/* bytes per message */
	uint32_t max_qps;		/* QPs or streams per rail */
	uint32_t max_duration_ms;	/* warm-up + measured window */
	uint64_t max_memory;		/* buffers over all rails */
	uint32_t max_rails;
	bool has_verbs;			/* this build and host can run verbs */
};

void bw_params_defaults(struct bw_params *p, enum bw_mode mode);
void bw_caps_defaults(struct bw_caps *c);
/* The memory one side needs for the buffers of a test (an estimate both
 * sides compute the same way). */
uint64_t bw_params_memory(const struct bw_params *p, uint32_t n_rails);
/* 0, or -1 with a message saying which field and what the bound is.
 * Structural checks (sane ranges) always; caps when c is not NULL. */
int bw_params_check(const struct bw_params *p, uint32_t n_rails, const struct bw_caps *c,
		    struct bw_err *e);

const char *bw_op_name(enum bw_op op);
const char *bw_transport_name(enum bw_transport t);

#endif
