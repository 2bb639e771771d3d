/* Machine profiles: what a machine model should have (docs/profiles.md).  Built-in ones ship inside the binary; users
 * write their own in a small INI file (libinih) and may base it on a
 * built-in one, overriding a few values.
 *
 * A value of 0 / NULL / -1 (as each field says) means "not judged": the
 * generic profile judges only what needs no expectation.
 *
 * Errors: 0 or a negative errno (-EINVAL: the text is not a valid profile,
 * -ENOMEM, or the file's own errno), with struct profile_error saying
 * where and what for the user; nothing here prints (src/cmd does). */
#ifndef RD_PROFILES_PROFILE_H
#define RD_PROFILES_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../model/inventory.h"

enum nic_role { ROLE_RAIL, ROLE_STORAGE, ROLE_COUNT };

struct role_spec {
	bool defined;		/* the profile has a [rail] / [storage] section */
	int count;		/* NICs (RDMA devices) of this role; -1 any */
	char *model_family;	/* "ConnectX-7": prefix of nic->model; NULL any */
	char *link_layer;	/* "InfiniBand" or "Ethernet"; NULL any */
	double rate_gbps;	/* per port; 0 not judged */
	int pcie_gen;		/* 0 not judged */
	int pcie_width;		/* 0 not judged */
	int pcie_mrrs;		/* smallest MaxReadReq, bytes; 0 not judged */
	bool pcie_relaxed_ordering;	/* RlxdOrd must be on; false not judged */
	int mtu;		/* IB active MTU / RoCE netdev MTU minimum; 0 */
	int pfc_priority;	/* 0-7; -1 not judged */
	char *trust;		/* "dscp" / "pcp"; NULL not judged */
	int ecn;		/* 1 required, 0 not wanted, -1 not judged */
	int gpudirect;		/* 1 GPUDirect RDMA required, 0 no, -1 not judged */
	int gpus_per_nic;	/* most GPUs that may share one NIC; 0 not judged */
	int placement;		/* worst acceptable enum path_type to its GPU
				 * (PATH_PIX, PATH_PXB); -1 not judged */
	double bw_floor_gbps;	/* bandwidth test floor per port; 0 none */
	/* [rail]: network per GPU the machine is built for, in Gb/s (the
	 * rails' total port rate over the GPUs); 0: what the GPU class is
	 * built for (profiles/gpu_class.h) */
	double gpu_gbps;
	/* [rail] only: each rail port of the node reaches a different switch
	 * (rail-optimised cabling; check's rail.cabling): 1 yes, 0 no, -1
	 * not judged */
	int distinct_switches;
};

/* What the NPU ports of an Ascend machine should be (docs/ascend.md). */
struct npu_spec {
	double rate_gbps;	/* per NPU port; 0 not judged */
	int pfc_priority;	/* 0-7 must have PFC on; -1 not judged */
	/* "pairs": NPU 0&4, 1&5, 2&6, 3&7 in four subnets (Atlas 800
	 * 9000/9010); "one": all in one subnet (A2); "dies": the two dies
	 * of an NPU in different subnets (A3); NULL: only the die rule,
	 * which holds wherever npu-smi lists two-die NPUs */
	char *subnets;
};

/* Error ratios over a window (check's link.ber; docs/checks.md names the
 * source of each default).  0: not judged. */
struct ber_spec {
	double max;		/* post-FEC / link bit error ratio target */
	double pre_fec_kr4;	/* pre-FEC limit of RS(528,514) */
	double pre_fec_kp4;	/* pre-FEC limit of RS(544,514) */
	double near;		/* warn at this fraction of the pre-FEC limit */
	double ib_symbol_per_hour;	/* InfiniBand symbol errors per hour */
	double ib_recovery_per_hour;	/* InfiniBand link error recoveries per hour */
};

/* What every profile has unless it says otherwise. */
#define BER_MAX_DEFAULT 1e-12
#define BER_PRE_FEC_KR4_DEFAULT 5e-5
#define BER_PRE_FEC_KP4_DEFAULT 2.4e-4
#define BER_NEAR_DEFAULT 0.5

struct profile {
	char *name;
	char *description;
	char *based_on;		/* a built-in profile's name, or NULL */
	/* how `check` recognises the machine; NULL / 0 = any */
	char *match_dmi;	/* in the DMI product name, case and blanks ignored */
	char *match_gpu;	/* in the GPU model name ("H100") */
	int match_gpu_count;
	char *match_nic;	/* rail NIC model family */
	bool grace;		/* Grace tray: no PCIe placement rule */
	char *match_npu;	/* every NPU's model is one of these ("Ascend 910") */
	int match_npu_count;	/* exactly this many NPUs; 0 any */
	struct npu_spec npu;
	/* fewer rails than GPUs on purpose (a budget build): picked for
	 * datacenter GPUs only when named (--profile, the site file), and
	 * nic.bandwidth_per_gpu then warns instead of failing */
	bool fewer_rails;
	struct ber_spec ber;
	struct role_spec role[ROLE_COUNT];
};

struct profile_error {
	char file[256];		/* where: a path, or "built-in NAME" */
	int line;		/* 1-based; 0 when not about a line */
	char message[256];	/* what was expected */
};

/* Built-in profiles, in a fixed order; "generic" is always there. */
size_t profile_builtin_count(void);
const struct profile *profile_builtin_at(size_t i);
const struct profile *profile_builtin(const char *name);
/* The built-in name closest to name ("did you mean"), or NULL. */
const char *profile_builtin_nearest(const char *name);

/* Profile text is at most this long. */
#define PROFILE_MAX_TEXT (64u << 10)

/* Where based_on is looked up (the built-ins, for a user's profile). */
struct profile_bases {
	const struct profile *(*find)(const char *name);	/* NULL: none */
	const struct profile *(*at)(size_t i);
	size_t (*count)(void);
};

/* Parse profile text (the INI format) with based_on looked up in bases
 * (NULL: based_on is refused), profile.c.  On error returns a negative
 * errno (-EINVAL for bad content) and fills err. */
int profile_parse_bases(const char *text, size_t len, const char *origin,
			const struct profile_bases *bases, struct profile *out,
			struct profile_error *err);
/* The same, based_on looked up in the built-ins; and a file (load.c). */
int profile_parse(const char *text, size_t len, const char *origin,
		  struct profile *out, struct profile_error *err);
int profile_load_file(const char *path, struct profile *out, struct profile_error *err);
void profile_free(struct profile *p);

/* Write p in the file format, so it can be copied, edited and loaded. */
int profile_write(FILE *out, const struct profile *p);

/* Where a profile came from, for `check` to say. */
enum profile_source {
	PROFILE_FROM_OPTION,	/* --profile */
	PROFILE_FROM_SITE,	/* the site file's profile = */
	PROFILE_FROM_DMI,	/* the DMI product name */
	PROFILE_FROM_GPUS,	/* the GPU model and count */
	PROFILE_FROM_NPUS,	/* the Ascend NPU model and count */
	PROFILE_FROM_DEFAULT,	/* nothing matched: generic */
};

/* "--profile", "site file", "DMI", "GPUs", "NPUs", "default". */
const char *profile_source_name(enum profile_source s);

/* Pick the built-in profile that fits inv, from what the machine is (DMI
 * product name, then GPU model and count; the NICs only choose between
 * variants that expect no less), falling back to "generic"; reason says
 * why, in words ("DMI product 'DGXH100' matches dgx-h100").  source may be
 * NULL.  NULL only without memory. */
const struct profile *profile_pick(const struct inventory *inv, enum profile_source *source,
				   char *reason, size_t reason_len);
const struct profile *profile_select(const struct inventory *inv, char *reason,
				     size_t reason_len);
/* The built-in budget build (fewer_rails) whose GPUs and rail NICs this
 * machine has, by the NIC fit of the variants (select.c); NULL: none.
 * Never picked by itself, so check names it where it fits. */
const struct profile *profile_budget_fit(const struct inventory *inv);
/* The Ascend NPU rule alone (select_npu.c): NULL when no built-in's
 * match_npu fits. */
const struct profile *profile_select_npu(const struct inventory *inv, char *reason,
					 size_t reason_len);

#endif
