/* HCCL's variables of a job's environment against the NPU ports' PFC
 * (hccn_tool -pfc), on an Ascend machine (env_judge_priv.h).  Huawei's
 * CANN reference (docs/nccl-hccl-sources.md): HCCL_RDMA_SL is 0-7 and
 * must equal the PFC priority of the NPU's NIC; HCCL_RDMA_TC is the RoCE
 * v2 ToS byte, 0-255 and a multiple of 4 (DSCP x 4).  The NPUs' DSCP to
 * priority map is not read, so the priority a TC lands on is not known:
 * said as not checked, never passed. */
#include "env_judge_priv.h"

#include <errno.h>
#include <stdio.h>

static struct finding *npu_finding(struct judge *j, const char *id, enum severity sev,
				   const char *why, const struct nccl_npu_port *np)
{
	struct finding *f = finding_add(j->out, id, sev, why);

	if (f && np)
		finding_set(&f->subject, "NPU %lld", (long long)np->id);
	else if (f)
		finding_set(&f->subject, "NPU ports");
	return f;
}

static int judge_hccl_sl(struct judge *j)
{
	const char *name = "HCCL_RDMA_SL", *value = nccl_env_get(j->env, name);
	char at[JUDGE_AT_LEN], on[24];
	long sl;

	if (!value)
		return 0;
	if (!judge_int(value, 0, 7, &sl))
		return judge_malformed(j, name, value, "a service level from 0 to 7",
				       "HCCL takes 0-7");
	judge_at(j->env, name, at);
	for (size_t k = 0; k < j->f->n_npu_ports; k++) {
		const struct nccl_npu_port *np = &j->f->npu_ports[k];
		struct finding *f;

		if (np->up == 0 || (np->pfc_mask >= 0 && (np->pfc_mask & (1 << sl))))
			continue;
		if (np->pfc_mask < 0) {
			f = npu_finding(j, "hccl.sl_no_pfc", SEV_INFO,
					"The NPU port's PFC could not be read (hccn_tool -pfc): "
					"whether the SL is lossless was not checked.", np);
			if (!f)
				return -ENOMEM;
			f->unchecked = true;
			finding_set(&f->observed, "%s=%s%s; the port's PFC is unknown", name, value,
				    at);
			finding_set(&f->expected, "the SL on a priority with PFC (not checked)");
			finding_set(&f->fix, "`hccn_tool -i %lld -pfc -g` on the node",
				    (long long)np->id);
		} else {
			f = npu_finding(j, "hccl.sl_no_pfc", SEV_ERROR,
					"HCCL's service level must be the priority with PFC on "
					"the NPU's NIC: on another, a congested switch drops "
					"RoCE packets and the collective slows to retransmissions.",
					np);
			if (!f)
				return -ENOMEM;
			judge_pfc_text(np->pfc_mask, on, sizeof(on));
			finding_set(&f->observed, "%s=%s%s; PFC is on for: %s", name, value, at, on);
			finding_set(&f->expected, "a priority with PFC on (%s)", on);
			finding_set(&f->fix, "set HCCL_RDMA_SL to the lossless priority (`rdmadoctor "
				    "nccl` prints it), or turn PFC on for priority %ld on NPU %lld "
				    "(hccn_tool -i %lld -pfc -s) and its switch port", sl,
				    (long long)np->id, (long long)np->id);
		}
		if (judge_done(f) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int judge_hccl_tc(struct judge *j)
{
	const char *name = "HCCL_RDMA_TC", *value = nccl_env_get(j->env, name);
	char at[JUDGE_AT_LEN];
	struct finding *f;
	long tc;

	if (!value)
		return 0;
	if (!judge_int(value, 0, 255, &tc) || tc % 4)
		return judge_malformed(j, name, value, "a multiple of 4 from 0 to 255 (DSCP x 4)",
				       "HCCL takes the ToS byte with its two low bits zero");
	if (!j->f->n_npu_ports)
		return 0;
	f = npu_finding(j, "hccl.tc_no_pfc", SEV_INFO,
			"The NPUs' DSCP-to-priority map is not read (hccn_tool -dscp_to_tc is "
			"not confirmed): the priority this TC lands on was not checked.", NULL);
	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->observed, "%s=%s%s: DSCP %ld", name, value, judge_at(j->env, name, at),
		    tc / 4);
	finding_set(&f->expected, "a DSCP the NPUs map to the priority with PFC (not checked)");
	finding_set(&f->fix, "check the NPUs' DSCP map (`hccn_tool -i N -dscp_to_tc -g`) sends "
		    "DSCP %ld to the PFC priority, or leave HCCL_RDMA_TC unset with "
		    "HCCL_RDMA_SL at 4 (HCCL's default pair 132/4)", tc / 4);
	return judge_done(f);
}

int judge_hccl(struct judge *j)
{
	int rc = judge_hccl_sl(j);

	return rc < 0 ? rc : judge_hccl_tc(j);
}
