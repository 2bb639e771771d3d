/* Who can use the RDMA devices: the /dev/infiniband nodes with their owner,
 * group, mode and POSIX ACL; the accounts of the examined root (etc/passwd,
 * etc/group) that names and the job's user are resolved through; and the
 * memlock limit jobs get (slurmd's unit, pam_limits' files).  Plain data,
 * read by src/sysfs/access_read.c and judged by src/check/sys.c; the two
 * evaluators below are pure, so that tests put them against the kernel's
 * open(2) and pam_limits' own result. */
#ifndef RD_MODEL_ACCESS_H
#define RD_MODEL_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* POSIX ACL tags and permission bits as the kernel stores them in the
 * system.posix_acl_access attribute (include/uapi/linux/posix_acl.h). */
enum {
	ACL_TAG_USER_OBJ = 0x01, ACL_TAG_USER = 0x02, ACL_TAG_GROUP_OBJ = 0x04,
	ACL_TAG_GROUP = 0x08, ACL_TAG_MASK = 0x10, ACL_TAG_OTHER = 0x20,
};

struct acl_entry {
	uint16_t tag, perm;	/* perm: 4 read, 2 write, 1 execute */
	uint32_t id;		/* uid or gid of ACL_TAG_USER / ACL_TAG_GROUP */
};

/* One node under /dev/infiniband. */
struct dev_node {
	char *name;		/* "uverbs0", "umad0", "issm0", "rdma_cm" */
	char *nic;		/* its RDMA device; NULL for rdma_cm */
	int port;		/* umad/issm: the device's port; 0 otherwise */
	int present;		/* 1 there, 0 missing, -1 unknown */
	bool chr;		/* a character device (else something else sits there) */
	unsigned mode;		/* permission bits, 07777 */
	uint32_t uid, gid;
	char *owner, *group;	/* names from the root's etc/passwd, etc/group; NULL none */
	int has_acl;		/* 1 an extended POSIX ACL, 0 none, -1 unknown */
	struct acl_entry *acl;	/* has_acl: its entries */
	size_t n_acl;
	char *why;		/* present < 0: why it is not known */
};

struct account_user {
	char *name;
	uint32_t uid, gid;
};

struct account_group {
	char *name;
	uint32_t gid;
	char **members;
	size_t n_members;
};

struct accounts {
	bool passwd_read, group_read;	/* etc/passwd, etc/group were read */
	struct account_user *users;
	size_t n_users;
	struct account_group *groups;
	size_t n_groups;
};

#define MEMLOCK_INFINITY UINT64_MAX

/* One memlock line of /etc/security/limits.conf or limits.d/<name>.conf, as
 * pam_limits reads it (its value is KiB; the bytes are computed). */
struct memlock_line {
	char *file;		/* "etc/security/limits.d/90-rdma.conf" */
	int line;
	char *domain;		/* "*", "@rdma", "alice", "1000:", "@500:600" */
	bool soft, hard;	/* "soft", "hard" or both ("-") */
	bool no_limits;		/* a "<domain> -" line: pam_limits sets nothing */
	uint64_t bytes;		/* MEMLOCK_INFINITY for unlimited */
	char *value;		/* as written */
};

/* A LimitMEMLOCK= (or DefaultLimitMEMLOCK=) after every file systemd reads
 * for it, the last assignment winning. */
struct unit_limit {
	bool set;
	uint64_t soft, hard;	/* bytes; MEMLOCK_INFINITY */
	char *source;		/* "etc/systemd/system/slurmd.service.d/x.conf:3" */
};

struct job_memlock {
	int slurmd;		/* slurmd's unit file: 1 found, 0 none, -1 not readable */
	char *slurmd_unit;	/* the unit file systemd uses */
	struct unit_limit slurmd_limit;	/* LimitMEMLOCK= of the unit and drop-ins */
	struct unit_limit manager_default;	/* DefaultLimitMEMLOCK= of system.conf */
	bool limits_conf;	/* etc/security/limits.conf was there */
	struct memlock_line *lines;	/* limits.conf, then limits.d in name order */
	size_t n_lines;
	char *unreadable;	/* "FILE: reason; ..." of what could not be read; NULL */
};

struct dev_access {
	struct dev_node *nodes;	/* per NIC: uverbs, then umad and issm of each port; then rdma_cm */
	size_t n_nodes;
	struct accounts accounts;
	struct job_memlock memlock;
};

void dev_access_free(struct dev_access *a);
void dev_node_free(struct dev_node *d);
void accounts_free(struct accounts *a);
void job_memlock_free(struct job_memlock *m);

/* Whom a job runs as: site file job_user and job_group; neither: any user. */
struct job_identity {
	bool any;		/* no job user or group named: any user */
	bool known;		/* user (and group) found in the accounts */
	const char *user, *group;	/* as the site file names them, NULL */
	uint32_t uid;
	uint32_t gids[64];	/* primary, supplementary, and job_group */
	size_t n_gids;
};

/* Resolve the site's job_user/job_group through the accounts: 0; -ENOENT
 * when a name is not in them (who->known false). */
int job_identity_resolve(const struct accounts *a, const char *user, const char *group,
			 struct job_identity *who);

enum access_verdict { ACCESS_NO = 0, ACCESS_YES = 1, ACCESS_UNKNOWN = -1 };

/* Whether who may open the node for reading and writing, as the kernel's
 * generic_permission decides it (owner, ACL named users, owning and named
 * groups masked, other); root (uid 0) always may.  Unknown when the node
 * is not known or not there. */
enum access_verdict dev_node_rw(const struct dev_node *d, const struct job_identity *who);

/* What pam_limits sets for a user: soft and hard, each with the line that
 * set it (NULL: no line did: the limit is inherited from the process that
 * opens the session).  no_limits: a "<domain> -" line stopped it. */
struct pam_memlock {
	const struct memlock_line *soft, *hard;
	uint64_t soft_bytes, hard_bytes;
	const struct memlock_line *no_limits;
};

/* pam_limits' process_limit precedence: a user's own line over a group's
 * over "*"; among equals, the later line.  user NULL: a user in none of the
 * named users or groups (only "*" applies). */
void pam_memlock_eval(const struct memlock_line *lines, size_t n, const struct accounts *a,
		      const struct job_identity *who, struct pam_memlock *out);

#endif
