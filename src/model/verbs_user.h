/* The verbs userspace of the examined root against its kernel: which
 * libibverbs is installed, the verbs it exports and the provider ABI it
 * loads (its ELF version definitions), the providers beside it, the
 * /etc/libibverbs.d driver files, and the kernel's uverbs and umad ABI
 * versions.  Read by src/sysfs/verbs_user.c, judged by
 * src/check/verbs_user.c (driver.userspace) and src/check/gdr.c (DMA-BUF).
 *
 * Compatibility as rdma-core defines it (libibverbs/init.c, ibverbs.h,
 * libibumad/umad.c):
 *   - libibverbs takes a kernel uverbs ABI from 3 to 6;
 *   - libibumad wants the umad ABI 5 or later;
 *   - a provider loads only from lib<name>-rdmav<N>.so where N is the
 *     private ABI of this libibverbs (IBVERBS_PRIVATE_N), and only when a
 *     driver file in etc/libibverbs.d names it;
 *   - ibv_reg_dmabuf_mr came with the IBVERBS_1.12 set (rdma-core 34).
 * Nothing else is a mismatch: an inbox kernel with Debian's rdma-core is
 * the common case, not a fault (NHC's check fails it; this does not). */
#ifndef RD_MODEL_VERBS_USER_H
#define RD_MODEL_VERBS_USER_H

#include <stdbool.h>
#include <stddef.h>

#define VERBS_UVERBS_ABI_MIN 3
#define VERBS_UVERBS_ABI_MAX 6
#define VERBS_UMAD_ABI_MIN 5
#define VERBS_DMABUF_MINOR 12	/* IBVERBS_1.12: ibv_reg_dmabuf_mr */

struct verbs_provider {
	char *name;	/* "mlx5" of libmlx5-rdmav34.so */
	int pabi;	/* 34 */
};

struct verbs_user {
	char *libdir;		/* "usr/lib/x86_64-linux-gnu"; NULL: none found */
	char *library;		/* "libibverbs.so.1.14.44.0", libibverbs.so.1's target */
	char *release;		/* "44.0": rdma-core's release from that name; NULL */
	int verbs_minor;	/* highest N of the IBVERBS_1.N sets; -1 unknown */
	int pabi;		/* N of IBVERBS_PRIVATE_N; -1 unknown */
	char *why;		/* the library's sets unknown: why in words; else NULL */
	struct verbs_provider *providers;	/* <libdir>/libibverbs/lib*-rdmav*.so */
	size_t n_providers;
	char **drivers;		/* "mlx5" of each "driver mlx5" line in etc/libibverbs.d */
	size_t n_drivers;
	bool drivers_known;	/* etc/libibverbs.d could be listed */
	int uverbs_abi, umad_abi;	/* sys/class/infiniband_{verbs,mad}/abi_version; -1 */
};

void verbs_user_free(struct verbs_user *u);

/* The rdma-core provider that serves an RDMA device of kernel driver
 * `driver` (nic.driver: "mlx5_core" -> "mlx5"); NULL when not known. */
const char *verbs_provider_for(const char *driver);
/* The provider file of that name built for pabi, or NULL. */
const struct verbs_provider *verbs_user_provider(const struct verbs_user *u, const char *name,
						 int pabi);
/* Any provider file of that name (the first), or NULL. */
const struct verbs_provider *verbs_user_any_provider(const struct verbs_user *u,
						     const char *name);
bool verbs_user_has_driver(const struct verbs_user *u, const char *name);

/* "lib<name>-rdmav<N>.so" -> name (malloc'd) and N: 0, -EINVAL not such a
 * name, -ENOMEM. */
int verbs_provider_file(const char *file, char **name, int *pabi);
/* "libibverbs.so.1.14.44.0" -> "44.0" (malloc'd); NULL not such a name. */
char *verbs_release_of(const char *library);
/* The version sets of libibverbs: highest IBVERBS_1.N and the N of
 * IBVERBS_PRIVATE_N (-1 each when absent). */
void verbs_sets_scan(char *const *names, size_t n, int *minor, int *pabi);

#endif
