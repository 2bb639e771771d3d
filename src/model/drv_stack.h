/* The RDMA driver stack against the kernel (issue 31 item 2): for each of
 * mlx5_core, mlx5_ib, ib_core, ib_uverbs and nvidia_peermem, the module
 * loaded now (/sys/module/M: version, srcversion, the GNU build id note),
 * the file modprobe would load for the running kernel (modules.dep, the
 * .ko's .modinfo and build id), whether the kernel that boots next has it
 * (its modules.dep or a DKMS build), and /sys/module/nvidia/version.
 * Read by src/sysfs/drv_stack.c, judged by src/check/drv_stack.c
 * (driver.stale_module, driver.mixed_stack, driver.peermem_mismatch,
 * driver.next_boot).
 *
 * Where a module lives tells where it came from: kernel/ is the kernel
 * package's own (inbox), updates/ and extra/ are out of tree (MLNX_OFED,
 * DOCA, a vendor), updates/dkms/ a DKMS build. */
#ifndef RD_MODEL_DRV_STACK_H
#define RD_MODEL_DRV_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "modinfo.h"

enum { DRV_MLX5_CORE, DRV_MLX5_IB, DRV_IB_CORE, DRV_IB_UVERBS, DRV_NVIDIA_PEERMEM, DRV_COUNT };

enum drv_source { DRV_SRC_UNKNOWN, DRV_SRC_INBOX, DRV_SRC_OUT_OF_TREE, DRV_SRC_DKMS };

struct drv_module {
	const char *name;	/* static: "mlx5_core" */
	bool loaded;		/* sys/module/<name>/initstate: loaded as a module (not built in) */
	char *loaded_version, *loaded_srcversion;	/* NULL: none or unreadable */
	unsigned char loaded_id[MODINFO_BUILD_ID_MAX];	/* notes/.note.gnu.build-id */
	size_t loaded_id_len;	/* 0: none or unreadable (root only) */
	char *path;		/* modules.dep of the running kernel: "kernel/drivers/..."; NULL */
	enum drv_source source;	/* of path */
	bool disk_read;		/* disk holds the file's .modinfo */
	struct modinfo disk;
	char *disk_why;		/* why the file was not read ("compressed (xz)"); NULL */
	/* the next kernel (drv_stack.next_kernel) */
	char *next_path;	/* its modules.dep entry; NULL: none */
	char *next_dkms;	/* a DKMS build for it: "var/lib/dkms/P/V/K/A/module/M.ko"; NULL */
};

struct drv_stack {
	char *kernel;		/* the running kernel's release (proc/sys/kernel/osrelease) */
	bool dep_known;		/* lib/modules/<kernel>/modules.dep read */
	char *dep_why;		/* why not; NULL */
	char *next_kernel;	/* newest installed kernel when it is not the running one */
	bool next_dep_known;	/* lib/modules/<next_kernel>/modules.dep read */
	char *next_why;		/* why not; NULL */
	char *nvidia_version;	/* sys/module/nvidia/version; NULL */
	bool nvidia_loaded;
	struct drv_module mods[DRV_COUNT];
};

void drv_stack_free(struct drv_stack *s);
const char *drv_source_name(enum drv_source s);

/* Source of a modules.dep path ("updates/dkms/mlx5_core.ko"). */
enum drv_source drv_source_of(const char *path);
/* Whether a modules.dep path names module `name` ("kernel/.../nvme-rdma.ko"
 * names nvme_rdma; .ko, .ko.xz, .ko.zst, .ko.gz). */
bool drv_path_names(const char *path, size_t len, const char *name);
/* The compression of a module path: "xz", "zst", "gz" or NULL (plain .ko). */
const char *drv_compression(const char *path);
/* The first line of a modules.dep text (len bytes, not NUL-terminated)
 * whose module is name: its path, malloc'd, in *path (NULL: none).
 * 0 or -ENOMEM. */
int drv_dep_find(const char *text, size_t len, const char *name, char **path);
/* Two build ids / strings equal. */
bool drv_id_equal(const unsigned char *a, size_t al, const unsigned char *b, size_t bl);
/* Hex of a build id into out (2*len+1 bytes). */
void drv_id_hex(const unsigned char *id, size_t len, char *out);

#endif
