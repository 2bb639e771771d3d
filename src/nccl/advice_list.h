/* What the advice's rule files (nccl/advice*.c) share: adding a variable,
 * a warning or an error to the advice, and naming ports.  Every string
 * handed in is malloc'd and taken; NULL where one was due is -ENOMEM. */
#ifndef RD_NCCL_ADVICE_PRIV_H
#define RD_NCCL_ADVICE_PRIV_H

#include <stdbool.h>

#include "advice.h"

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

/* NCCL_IB_TC and NCCL_IB_SL (nccl/advice_qos.c). */
int advice_qos(const struct nccl_facts *f, const struct profile *p, struct nccl_advice *a);

#endif
