/* rdmadoctor nccl: the variables a job should set on this machine, each
 * with why, and those left out with why (nothing is set that cannot be
 * justified from the facts).  Pure: NCCL's from nccl/facts.h
 * (nccl/advice.c), HCCL's on Ascend machines from the NPU model
 * (nccl/hccl_advice.c).  docs/nccl.md gives every rule and cites NCCL's
 * and HCCL's own documentation for each name and value form. */
#ifndef RD_NCCL_ADVICE_H
#define RD_NCCL_ADVICE_H

#include <stddef.h>

#include "advice_list.h"
#include "facts.h"
#include "../model/inventory.h"
#include "../profiles/profile.h"

/* NCCL's variables from the facts.  0 or -ENOMEM (*a then empty). */
int nccl_advise(const struct nccl_facts *f, const struct profile *p, struct nccl_advice *a);
/* HCCL's variables on an Ascend machine (inv->npus read).  0 or -ENOMEM. */
int hccl_advise(const struct inventory *inv, const struct profile *p, struct nccl_advice *a);

#endif
