/* NCCL_IB_TC and NCCL_IB_SL from the ports' RoCE QoS (advice_qos.c). */
#ifndef RD_NCCL_ADVICE_QOS_H
#define RD_NCCL_ADVICE_QOS_H

#include "advice_list.h"
#include "facts.h"
#include "../profiles/profile.h"

int advice_qos(const struct nccl_facts *f, const struct profile *p, struct nccl_advice *a);

#endif
