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
	int mtu;		/* IB active MTU / RoCE netdev MTU minimum; 0 */
	int pfc_priority;	/* 0-7; -1 not judged */
	char *trust;		/* "dscp" / "pcp"; NULL not judged */
	int ecn;		/* 1 required, 0 not wanted, -1 not judged */
	int gpudirect;		/* 1 GPUDirect RDMA required, 0 no, -1 not judged */
	int gpus_per_nic;	/* most GPUs that may share one NIC; 0 not judged */
	int placement;		/* worst acceptable enum path_type to its GPU
				 * (PATH_PIX, PATH_PXB); -1 not judged */
	double bw_floor_gbps;	/* bandwidth test floor per port; 0 none */
};

/* What the NPU ports of an Ascend machine should be (docs/ascend.md). */
struct npu_spec {
	double rate_gbps;	/* per NPU port; 0 not judged */
	int pfc_priority;	/* 0-7 must have PFC on; -1 not judged */
	/* "pairs": NPU 0&4, 1&5, 2&6, 3&7 in four subnets (Atlas 800
	 * 9000/9010); "one": all in one subnet (A2); NULL not judged */
	char *subnets;
};

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

/* Pick the built-in profile that fits inv (DMI product name, GPU model and
 * count, NIC models), falling back to "generic"; reason says why, in words
 * ("DMI product 'DGXH100' matches dgx-h100"). */
const struct profile *profile_select(const struct inventory *inv, char *reason,
				     size_t reason_len);
/* The Ascend NPU rule alone (select_npu.c): NULL when no built-in's
 * match_npu fits. */
const struct profile *profile_select_npu(const struct inventory *inv, char *reason,
					 size_t reason_len);

#endif
