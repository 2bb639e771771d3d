/* What the parts of the judge of a job's environment share (env_judge.c:
 * the ports a job uses, NCCL_IB_HCA and NCCL_SOCKET_IFNAME;
 * env_judge_num.c: the numbers, GID index, TC, SL and GDR level). */
#ifndef RD_NCCL_ENV_JUDGE_PRIV_H
#define RD_NCCL_ENV_JUDGE_PRIV_H

#include "env.h"
#include "facts.h"
#include "../check/finding.h"

struct judge {
	const struct nccl_facts *f;
	const struct nccl_env *env;
	struct findings *out;
	/* per port: the job's NCCL would use it (NCCL_IB_HCA's selection,
	 * or the rails when it is unset) and it is not known to be down */
	bool *used;
};

/* A finding on subject "dev port N"; NULL without memory. */
struct finding *judge_add(struct judge *j, const char *id, enum severity sev, const char *why,
			  const struct nccl_port *pt);
/* 0 when every text of f was stored, else -ENOMEM (check/finding.h: a finding
 * with a text missing is never given). */
int judge_done(const struct finding *f);
/* " (line N)" when name came from a file's line N, else "": what an
 * observed text adds after NAME=value.  buf: at least 24 bytes. */
#define JUDGE_AT_LEN 24
const char *judge_at(const struct nccl_env *env, const char *name, char *buf);
/* nccl.malformed for name's value; 0 or -ENOMEM. */
int judge_malformed(struct judge *j, const char *name, const char *value, const char *expected,
		    const char *why_text);

/* s as NCCL reads an integer (decimal, 0x hex, 0 octal) within lo..hi. */
bool judge_int(const char *s, long lo, long hi, long *out);
/* the pfc_mask's priorities as text ("3", "3 4", "none"). */
void judge_pfc_text(int mask, char *buf, size_t len);

int judge_gid_index(struct judge *j);
int judge_tc(struct judge *j);
int judge_sl(struct judge *j);
int judge_gdr_level(struct judge *j);
/* HCCL's variables against the NPU ports (env_judge_hccl.c). */
int judge_hccl(struct judge *j);

#endif
