/* The advice (struct nccl_advice) and what its rule files (nccl/advice*.c,
 * hccl_advice.c) share: adding a variable, a warning or an error to it,
 * and naming ports.  Every string
 * handed in is malloc'd and taken; NULL where one was due is -ENOMEM. */
#ifndef RD_NCCL_ADVICE_LIST_H
#define RD_NCCL_ADVICE_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "facts.h"

struct nccl_var {
	const char *name;		/* static: "NCCL_IB_HCA" */
	char *value;			/* malloc'd; NULL: left out (why says why) */
	char *why;			/* malloc'd, one line */
};

struct nccl_advice {
	const char *library;		/* "nccl", "rccl" (AMD GPUs) or "hccl" */
	struct nccl_var *v;		/* set ones first, in a fixed order, then left out */
	size_t n, cap;
	char **warnings;		/* the machine is not ready for a job (nothing
					 * lossless, no rail up...), malloc'd */
	size_t n_warnings, cap_warnings;
	char **errors;			/* a value could not be derived (rails disagree) */
	size_t n_errors, cap_errors;
};

void nccl_advice_free(struct nccl_advice *a);

/* printf into a new string; NULL without memory. */
char *advice_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* name = value, for why. */
int advice_set(struct nccl_advice *a, const char *name, char *value, char *why);
/* name left out, for why. */
int advice_leave(struct nccl_advice *a, const char *name, char *why);
int advice_warn(struct nccl_advice *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int advice_error(struct nccl_advice *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A rail port NCCL should use: a compute rail that is up. */
bool advice_rail_up(const struct nccl_port *p);
/* "mlx5_0:1, mlx5_1:1" of the ports keep says yes to, joined by sep;
 * "" when none; NULL without memory. */
char *advice_ports(const struct nccl_facts *f, bool (*keep)(const struct nccl_port *),
		   const char *sep);

#endif
