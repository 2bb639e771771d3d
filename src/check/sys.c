/* sys.job_memlock: the memlock limit jobs get (this process's, slurmd's
 * unit, pam_limits' files for the job's user) not unlimited.  It was
 * sys.memlock, which judged this process's limit alone.
 * sys.device_access: a NIC's /dev/infiniband/uverbsN, or rdma_cm, missing
 * or not openable by the job's user (site file job_user / job_group; any
 * user when neither).  It was sys.uverbs, which asked only whether this
 * process could open uverbsN.  `ignore` takes the old ids (site.c). */
#include "families.h"
#include "../profiles/site.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char memlock_why[] =
	"RDMA pins every buffer it registers: under a memlock limit large registrations "
	"fail (ibv_reg_mr: Cannot allocate memory) and NCCL aborts or falls back to "
	"slower paths.";

static const char access_why[] =
	"Applications reach an RDMA device only through /dev/infiniband: verbs through "
	"its uverbs node, librdmacm (UCX, Open MPI, NVMe-oF) through rdma_cm; a node "
	"missing or closed to the job's user makes the NIC invisible to the job.";

/* "64 KiB", "8 MiB", "unlimited", or bytes when not a whole KiB. */
static void size_text(char *buf, size_t len, uint64_t b)
{
	if (b == MEMLOCK_INFINITY)
		snprintf(buf, len, "unlimited");
	else if (b && b % (1u << 30) == 0)
		snprintf(buf, len, "%" PRIu64 " GiB", b >> 30);
	else if (b && b % (1u << 20) == 0)
		snprintf(buf, len, "%" PRIu64 " MiB", b >> 20);
	else if (b && b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 " KiB", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", b);
}

static const char *job_who(const struct check_ctx *c, char *buf, size_t len)
{
	const char *u = c->site ? c->site->job_user : NULL, *g = c->site ? c->site->job_group : NULL;

	if (u && g)
		snprintf(buf, len, "job user %s (group %s)", u, g);
	else if (u)
		snprintf(buf, len, "job user %s", u);
	else if (g)
		snprintf(buf, len, "job group %s", g);
	else
		snprintf(buf, len, "any user");
	return buf;
}

static int unchecked(const struct check_ctx *c, struct findings *out, const char *id,
		     const char *why, const char *observed, const char *expected, const char *fix)
{
	struct finding *f = check_add(c, out, id, SEV_INFO, why);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "not checked: %s", observed);
	finding_set(&f->expected, "%s", expected);
	finding_set(&f->fix, "%s", fix);
	return 0;
}

static int memlock_warn(const struct check_ctx *c, struct findings *out, const char *observed,
			const char *fix)
{
	struct finding *f = check_add(c, out, "sys.job_memlock", SEV_WARN, memlock_why);

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "%s", observed);
	finding_set(&f->expected, "unlimited");
	finding_set(&f->fix, "%s", fix);
	return 0;
}

/* This process's own limit (proc/self/limits): the job's when the check
 * runs inside one (a prolog, srun). */
static int memlock_self(const struct check_ctx *c, struct findings *out)
{
	const struct host *h = &c->inv->host;
	char obs[128];

	if (h->memlock_unlimited < 0 && c->inv->n_nics)
		return unchecked(c, out, "sys.job_memlock", memlock_why,
				 "/proc/self/limits could not be read or names no \"Max locked "
				 "memory\" (`rdmadoctor -v` says which)", "unlimited",
				 "`grep 'locked memory' /proc/self/limits` in the job's environment "
				 "(slurmd unit, container)");
	if (h->memlock_unlimited != 0)
		return 0;
	if (!IS_NA(h->memlock_bytes))
		snprintf(obs, sizeof(obs), "this process's RLIMIT_MEMLOCK is %lld bytes",
			 (long long)h->memlock_bytes);
	else
		snprintf(obs, sizeof(obs), "this process's RLIMIT_MEMLOCK is limited");
	return memlock_warn(c, out, obs, "ulimit -l unlimited / LimitMEMLOCK=infinity in the "
			    "slurmd unit / --ulimit memlock=-1 for containers");
}

static int memlock_slurmd(const struct check_ctx *c, struct findings *out,
			  const struct job_memlock *m)
{
	const struct unit_limit *l = &m->slurmd_limit;
	char obs[512], soft[32], hard[32];

	if (m->slurmd != 1)
		return 0;
	if (!l->set) {
		const struct unit_limit *d = &m->manager_default;

		if (d->set && d->soft == MEMLOCK_INFINITY && d->hard == MEMLOCK_INFINITY)
			return 0;
		if (d->set) {
			size_text(soft, sizeof(soft), d->soft);
			size_text(hard, sizeof(hard), d->hard);
			snprintf(obs, sizeof(obs), "%s sets no LimitMEMLOCK: slurmd and its jobs get "
				 "DefaultLimitMEMLOCK=%s:%s (%s)", m->slurmd_unit, soft, hard,
				 d->source);
		} else {
			snprintf(obs, sizeof(obs), "%s sets no LimitMEMLOCK: slurmd and its jobs get "
				 "systemd's default (8 MiB since systemd 253, 64 KiB before)",
				 m->slurmd_unit);
		}
	} else {
		if (l->soft == MEMLOCK_INFINITY && l->hard == MEMLOCK_INFINITY)
			return 0;
		size_text(soft, sizeof(soft), l->soft);
		size_text(hard, sizeof(hard), l->hard);
		snprintf(obs, sizeof(obs), "slurmd's LimitMEMLOCK is %s soft, %s hard (%s): its jobs "
			 "get no more", soft, hard, l->source);
	}
	return memlock_warn(c, out, obs, "`systemctl edit slurmd`: [Service] "
			    "LimitMEMLOCK=infinity, then `systemctl restart slurmd`");
}

/* pam_limits' files: what an ssh or su session of the job's user gets. */
static int memlock_pam(const struct check_ctx *c, struct findings *out,
		       const struct dev_access *a, const struct job_identity *who)
{
	struct pam_memlock pm;
	char obs[768], soft[32], hard[32], w[96];
	int n = 0;

	pam_memlock_eval(a->memlock.lines, a->memlock.n_lines, &a->accounts, who, &pm);
	if (pm.no_limits)
		return 0;
	if ((!pm.soft || pm.soft_bytes == MEMLOCK_INFINITY) &&
	    (!pm.hard || pm.hard_bytes == MEMLOCK_INFINITY))
		return 0;
	size_text(soft, sizeof(soft), pm.soft_bytes);
	size_text(hard, sizeof(hard), pm.hard_bytes);
	n = snprintf(obs, sizeof(obs), "pam_limits gives %s", job_who(c, w, sizeof(w)));
	if (pm.soft && pm.soft_bytes != MEMLOCK_INFINITY)
		n += snprintf(obs + n, sizeof(obs) - (size_t)n, " a soft memlock of %s (%s:%d, "
			      "\"%s soft\")", soft, pm.soft->file, pm.soft->line, pm.soft->domain);
	if (pm.hard && pm.hard_bytes != MEMLOCK_INFINITY && n > 0 && (size_t)n < sizeof(obs))
		snprintf(obs + n, sizeof(obs) - (size_t)n, "%s a hard memlock of %s (%s:%d, "
			 "\"%s hard\")",
			 pm.soft && pm.soft_bytes != MEMLOCK_INFINITY ? " and" : "", hard,
			 pm.hard->file, pm.hard->line, pm.hard->domain);
	return memlock_warn(c, out, obs, "a line `* - memlock unlimited` (or for the job's user "
			    "or @group) in /etc/security/limits.d/, replacing the one named");
}

static int memlock(const struct check_ctx *c, struct findings *out, const struct dev_access *a,
		   const struct job_identity *who)
{
	CHECK_TRY(memlock_self(c, out));
	if (!a || !c->inv->n_nics)
		return 0;
	CHECK_TRY(memlock_slurmd(c, out, &a->memlock));
	if (who->known)
		CHECK_TRY(memlock_pam(c, out, a, who));
	if (a->memlock.unreadable)
		CHECK_TRY(unchecked(c, out, "sys.job_memlock", memlock_why, a->memlock.unreadable,
				    "unlimited for jobs", "run the check as root, or read the files "
				    "named (`systemctl show slurmd -p LimitMEMLOCK`)"));
	return 0;
}

static const struct dev_node *node_named(const struct dev_access *a, const char *name)
{
	for (size_t i = 0; a && name && i < a->n_nodes; i++)
		if (strcmp(a->nodes[i].name, name) == 0)
			return &a->nodes[i];
	return NULL;
}

/* "crw-rw---- root:rdma" of a node, with "+" when it has an ACL. */
static void node_text(const struct dev_node *d, char *buf, size_t len)
{
	static const char rwx[] = "rwxrwxrwx";
	char bits[10], own[32], grp[32];

	for (int i = 0; i < 9; i++)
		bits[i] = d->mode & (1u << (8 - i)) ? rwx[i] : '-';
	bits[9] = '\0';
	if (d->owner)
		snprintf(own, sizeof(own), "%s", d->owner);
	else
		snprintf(own, sizeof(own), "%" PRIu32, d->uid);
	if (d->group)
		snprintf(grp, sizeof(grp), "%s", d->group);
	else
		snprintf(grp, sizeof(grp), "%" PRIu32, d->gid);
	snprintf(buf, len, "%c%s%s %s:%s", d->chr ? 'c' : '?', bits, d->has_acl > 0 ? "+" : "",
		 own, grp);
}

static int closed(const struct check_ctx *c, struct findings *out, enum severity sev,
		  const char *subject, const struct dev_node *d, const char *who)
{
	struct finding *f = check_add(c, out, "sys.device_access", sev, access_why);
	char desc[96];

	if (!f)
		return -ENOMEM;
	node_text(d, desc, sizeof(desc));
	finding_set(&f->subject, "%s", subject);
	finding_set(&f->observed, "/dev/infiniband/%s is %s: %s cannot open it for reading and "
		    "writing", d->name, desc, who);
	finding_set(&f->expected, "/dev/infiniband/%s readable and writable by %s", d->name, who);
	finding_set(&f->fix, "rdma-core's udev rules give uverbs and rdma_cm mode 0666: find the "
		    "rule that overrides them (`udevadm test $(udevadm info -q path -n "
		    "/dev/infiniband/%s)`), or put the job's user in group %s%s", d->name,
		    d->group ? d->group : "that owns it",
		    d->has_acl > 0 ? " (the node has an ACL: `getfacl` it)" : "");
	return 0;
}

static int missing(const struct check_ctx *c, struct findings *out, enum severity sev,
		   const char *subject, const char *name)
{
	struct finding *f = check_add(c, out, "sys.device_access", sev, access_why);
	bool cm = strcmp(name, "rdma_cm") == 0;

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", subject);
	finding_set(&f->observed, "/dev/infiniband/%s missing", name);
	finding_set(&f->expected, "/dev/infiniband/%s present", name);
	finding_set(&f->fix, "`modprobe %s` (and load it at boot); in a container pass the device "
		    "in (`--device=/dev/infiniband/%s`, or the RDMA device plugin in Kubernetes)",
		    cm ? "rdma_ucm" : "ib_uverbs", name);
	return 0;
}

static enum severity nic_sev(const struct check_ctx *c, size_t i)
{
	return c->generic || check_is_rail(c, i) ? SEV_ERROR : SEV_WARN;
}

/* The old probe (this process's access) where no record of the node is
 * there: a snapshot taken before records were kept. */
static int uverbs_word(const struct check_ctx *c, struct findings *out, size_t i,
		       struct check_buf *unknown, struct check_buf *unrecorded)
{
	const struct nic *n = &c->inv->nics[i];
	struct finding *f;

	if (!n->uverbs_dev) {
		check_buf_printf(unknown, "%s%s", unknown->len ? ", " : "", n->name);
		return 0;
	}
	if (strcmp(n->uverbs_dev, "missing") == 0)
		return missing(c, out, nic_sev(c, i), n->name, n->uverbs ? n->uverbs : "uverbs?");
	if (strcmp(n->uverbs_dev, "no access") != 0) {
		/* there, but its mode and owner are not known: said when the
		 * nodes were read (a model built without them judges as before) */
		if (c->inv->host.access)
			check_buf_printf(unrecorded, "%s%s", unrecorded->len ? " " : "", n->name);
		return 0;
	}
	f = check_add(c, out, "sys.device_access", nic_sev(c, i), access_why);
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", n->name);
	finding_set(&f->observed, "/dev/infiniband/%s not accessible to this check", n->uverbs);
	finding_set(&f->expected, "/dev/infiniband/%s present and readable and writable",
		    n->uverbs);
	finding_set(&f->fix, "rdma-core's udev rules give /dev/infiniband/uverbs* mode 0666: "
		    "check they are installed and not overridden (`ls -l /dev/infiniband`), or "
		    "add the user to the group that owns it");
	return 0;
}

/* One node against the job's identity; its name goes to unknown when the
 * verdict cannot be reached. */
static int judge_node(const struct check_ctx *c, struct findings *out, enum severity sev,
		      const char *subject, const struct dev_node *d, const struct job_identity *who,
		      struct check_buf *unknown)
{
	char w[96];

	if (d->present == 0)
		return missing(c, out, sev, subject, d->name);
	switch (dev_node_rw(d, who)) {
	case ACCESS_NO:
		return closed(c, out, sev, subject, d, job_who(c, w, sizeof(w)));
	case ACCESS_YES:
		return 0;
	default:
		break;
	}
	if (!who->known)
		return 0;	/* said once, for the host */
	check_buf_printf(unknown, "%s%s (%s)", unknown->len ? ", " : "", d->name,
			 d->present < 0 ? (d->why ? d->why : "not read") :
			 !d->chr ? "not a character device" : "its ACL could not be read");
	return 0;
}

static int device_access(const struct check_ctx *c, struct findings *out,
			 const struct dev_access *a, const struct job_identity *who)
{
	const struct inventory *inv = c->inv;
	struct check_buf unknown = { 0 }, unrecorded = { 0 };
	bool any_rail = false;
	int rc = 0;

	for (size_t i = 0; i < inv->n_nics && rc == 0; i++) {
		const struct nic *n = &inv->nics[i];
		const struct dev_node *d = node_named(a, n->uverbs);

		if (n->excluded)
			continue;	/* not looked at: nic.excluded says so */
		any_rail |= nic_sev(c, i) == SEV_ERROR;
		if (!d || d->present < 0)
			rc = uverbs_word(c, out, i, &unknown, &unrecorded);
		else
			rc = judge_node(c, out, nic_sev(c, i), n->name, d, who, &unknown);
	}
	if (rc == 0 && inv->n_nics) {
		const struct dev_node *cm = node_named(a, "rdma_cm");

		/* rdma_cm comes with rdma_ucm: missing is a warning (NCCL does not
		 * need it); closed to the jobs is as bad as a closed uverbs */
		if (cm && cm->present == 0)
			rc = missing(c, out, SEV_WARN, "host", "rdma_cm");
		else if (cm)
			rc = judge_node(c, out, any_rail ? SEV_ERROR : SEV_WARN, "host", cm, who,
					&unknown);
	}
	if (rc == 0 && !who->known) {
		char obs[256];

		snprintf(obs, sizeof(obs), "the site file's %s '%s' is not in the machine's "
			 "etc/%s (accounts from LDAP or SSSD are not read)",
			 who->user ? "job_user" : "job_group", who->user ? who->user : who->group,
			 who->user ? "passwd" : "group");
		rc = unchecked(c, out, "sys.device_access", access_why, obs,
			       "the job's user able to open uverbs and rdma_cm",
			       "`sudo -u USER test -r /dev/infiniband/uverbs0 -a -w "
			       "/dev/infiniband/uverbs0 && echo ok` as the job's user");
	}
	if (rc == 0 && unrecorded.len && !unrecorded.nomem)
		check_buf_printf(&unknown, "%s%s (there; owner and mode not recorded)",
				 unknown.len ? ", " : "", check_buf_str(&unrecorded));
	if (rc == 0 && unknown.len && !unknown.nomem) {
		char obs[1024];

		snprintf(obs, sizeof(obs), "/dev/infiniband for %s", check_buf_str(&unknown));
		rc = unchecked(c, out, "sys.device_access", access_why, obs,
			       "a uverbs node for every RDMA device, and rdma_cm, that the job's "
			       "user can open",
			       "run the check on the live host, or look with `ls -l "
			       "/dev/infiniband` and `getfacl /dev/infiniband/*`");
	}
	if (unknown.nomem || unrecorded.nomem)
		rc = -ENOMEM;
	check_buf_free(&unknown);
	check_buf_free(&unrecorded);
	return rc;
}

int check_sys(const struct check_ctx *c, struct findings *out)
{
	const struct dev_access *a = c->inv->host.access;
	static const struct accounts none;
	struct job_identity who;

	job_identity_resolve(a ? &a->accounts : &none, c->site ? c->site->job_user : NULL,
			     c->site ? c->site->job_group : NULL, &who);
	CHECK_TRY(memlock(c, out, a, &who));
	CHECK_TRY(device_access(c, out, a, &who));
	return 0;
}
