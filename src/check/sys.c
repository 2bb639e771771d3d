/* sys.memlock: RLIMIT_MEMLOCK not unlimited.
 * sys.uverbs: a NIC's /dev/infiniband/uverbsN missing or not accessible. */
#include "families.h"

#include <string.h>

/* A limit that could not be read was not checked, not found unlimited. */
static int memlock_unknown(const struct check_ctx *c, struct findings *out)
{
	struct finding *f = check_add(c, out, "sys.memlock", SEV_INFO,
				      "RDMA pins every buffer it registers; a limit that could not "
				      "be read was not checked, not found unlimited.");

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "not checked: /proc/self/limits could not be read or names "
		    "no \"Max locked memory\" (`rdmadoctor -v` says which)");
	finding_set(&f->expected, "unlimited");
	finding_set(&f->fix, "`grep 'locked memory' /proc/self/limits` in the job's "
		    "environment (slurmd unit, container)");
	return 0;
}

static int memlock(const struct check_ctx *c, struct findings *out)
{
	const struct host *h = &c->inv->host;
	struct finding *f;

	if (h->memlock_unlimited < 0 && c->inv->n_nics)
		return memlock_unknown(c, out);
	if (h->memlock_unlimited != 0)
		return 0;
	f = check_add(c, out, "sys.memlock", SEV_WARN,
		      "RDMA pins every buffer it registers: under a memlock limit large "
		      "registrations fail (ibv_reg_mr: Cannot allocate memory) and NCCL aborts "
		      "or falls back to slower paths.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "host");
	if (!IS_NA(h->memlock_bytes))
		finding_set(&f->observed, "RLIMIT_MEMLOCK is %lld bytes", (long long)h->memlock_bytes);
	else
		finding_set(&f->observed, "RLIMIT_MEMLOCK is limited");
	finding_set(&f->expected, "unlimited");
	finding_set(&f->fix,
		    "ulimit -l unlimited / LimitMEMLOCK=infinity in the slurmd unit / "
		    "--ulimit memlock=-1 for containers");
	return 0;
}

static int uverbs(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	struct check_buf unknown = { 0 };
	struct finding *f;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];
		const char *dev = n->uverbs ? n->uverbs : "uverbs?";
		bool missing;

		if (!n->uverbs_dev) {
			check_buf_printf(&unknown, "%s%s", unknown.len ? " " : "", n->name);
			continue;
		}
		missing = strcmp(n->uverbs_dev, "missing") == 0;
		if (!missing && strcmp(n->uverbs_dev, "no access") != 0)
			continue;
		f = check_add(c, out, "sys.uverbs", SEV_ERROR,
			      "Applications reach an RDMA device only through its "
			      "/dev/infiniband/uverbs node: without it the NIC is invisible to "
			      "NCCL and every verbs program.");
		if (!f)
			break;
		finding_set(&f->subject, "%s", n->name);
		finding_set(&f->observed, "/dev/infiniband/%s %s", dev,
			    missing ? "missing" : "not accessible");
		finding_set(&f->expected, "/dev/infiniband/%s present and readable and writable",
			    dev);
		if (missing)
			finding_set(&f->fix,
				    "`modprobe ib_uverbs` (and load it at boot); in a container "
				    "pass the device in (`--device=/dev/infiniband/%s`, or the "
				    "RDMA device plugin in Kubernetes)",
				    dev);
		else
			finding_set(&f->fix,
				    "rdma-core's udev rules give /dev/infiniband/uverbs* mode 0666: "
				    "check they are installed and not overridden (`ls -l "
				    "/dev/infiniband`), or add the user to the group that owns it");
	}
	if (!unknown.len || unknown.nomem) {
		bool lost = unknown.nomem;

		check_buf_free(&unknown);
		return lost ? -ENOMEM : 0;
	}
	f = check_add(c, out, "sys.uverbs", SEV_INFO,
		      "Applications reach an RDMA device only through its /dev/infiniband/uverbs "
		      "node; whether it is there could not be read.");
	if (!f) {
		check_buf_free(&unknown);
		return -ENOMEM;
	}
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "/dev/infiniband not checked for %s", check_buf_str(&unknown));
	finding_set(&f->expected, "a readable and writable uverbs node for every RDMA device");
	finding_set(&f->fix, "run the check on the live host (a snapshot does not hold /dev), "
			     "or look with `ls -l /dev/infiniband`");
	check_buf_free(&unknown);
	return 0;
}

int check_sys(const struct check_ctx *c, struct findings *out)
{
	CHECK_TRY(memlock(c, out));
	CHECK_TRY(uverbs(c, out));
	return 0;
}
