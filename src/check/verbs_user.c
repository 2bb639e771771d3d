/* driver.userspace: the host's verbs userspace against its kernel and its
 * NICs, judged only as rdma-core defines compatibility
 * (model/verbs_user.h): the kernel's uverbs ABI in libibverbs' range, the
 * umad ABI libibumad takes, and for each provider the NICs need, its file
 * built for this libibverbs' private ABI and a driver file naming it.
 * No libibverbs on the host is no finding: jobs in containers bring their
 * own (docs/checks.md). */
#include "families.h"

#include <stdio.h>
#include <string.h>

static const char WHY[] =
	"libibverbs loads a provider only when its file name carries libibverbs' own "
	"private ABI number and a file in /etc/libibverbs.d names it; without it the "
	"NICs are invisible to verbs (ibv_devices lists nothing, NCCL falls back to "
	"TCP sockets).";

static int unreadable(const struct check_ctx *c, struct findings *out,
		      const struct verbs_user *u)
{
	struct finding *f = check_add(c, out, "driver.userspace", SEV_INFO,
				      "Whether the verbs userspace can drive these NICs is "
				      "known only from its library; what could not be read "
				      "was not checked, not found right.");

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "not checked: %s", u->why);
	finding_set(&f->expected, "libibverbs with its IBVERBS_1.N and IBVERBS_PRIVATE_N "
		    "version sets (`readelf -V`)");
	finding_set(&f->fix, "readelf -V %s/%s; reinstall rdma-core's libibverbs",
		    u->libdir, u->library);
	return 0;
}

static int kernel_abi(const struct check_ctx *c, struct findings *out,
		      const struct verbs_user *u)
{
	struct finding *f;

	if (u->uverbs_abi >= 0 &&
	    (u->uverbs_abi < VERBS_UVERBS_ABI_MIN || u->uverbs_abi > VERBS_UVERBS_ABI_MAX)) {
		f = check_add(c, out, "driver.userspace", SEV_ERROR,
			      "libibverbs refuses a kernel whose uverbs ABI is outside its "
			      "range: no verbs program starts.");
		if (!f)
			return -ENOMEM;
		finding_set(&f->subject, "host");
		finding_set(&f->observed, "kernel uverbs ABI %d", u->uverbs_abi);
		finding_set(&f->expected, "uverbs ABI %d to %d (libibverbs' range)",
			    VERBS_UVERBS_ABI_MIN, VERBS_UVERBS_ABI_MAX);
		finding_set(&f->fix, "run a kernel and an rdma-core of the same generation "
			    "(the distribution's pair, or one MLNX_OFED install)");
	}
	if (u->umad_abi >= 0 && u->umad_abi < VERBS_UMAD_ABI_MIN) {
		f = check_add(c, out, "driver.userspace", SEV_WARN,
			      "libibumad refuses an older umad ABI: ibstat, the subnet "
			      "manager and every MAD tool fail.");
		if (!f)
			return -ENOMEM;
		finding_set(&f->subject, "host");
		finding_set(&f->observed, "kernel umad ABI %d", u->umad_abi);
		finding_set(&f->expected, "umad ABI %d or later (libibumad)", VERBS_UMAD_ABI_MIN);
		finding_set(&f->fix, "run a kernel and an rdma-core of the same generation");
	}
	return 0;
}

/* etc/libibverbs.d could not be listed: whether libibverbs is told to
 * load the provider is not known, which is not a pass. */
static int drivers_unknown(const struct check_ctx *c, struct findings *out,
			   const struct verbs_user *u, const char *name)
{
	struct finding *f = check_add(c, out, "driver.userspace", SEV_INFO, WHY);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "not checked: etc/libibverbs.d could not be listed, so whether "
		    "it names lib%s-rdmav%d.so is unknown", name, u->pabi);
	finding_set(&f->expected, "etc/libibverbs.d/%s.driver saying 'driver %s'", name, name);
	finding_set(&f->fix, "ls /etc/libibverbs.d; reinstall the providers (ibverbs-providers) "
		    "if it is missing");
	return 0;
}

/* One provider's NICs, when its file or its driver file is missing. */
static int provider(const struct check_ctx *c, struct findings *out,
		    const struct verbs_user *u, const char *name)
{
	const struct inventory *inv = c->inv;
	const struct verbs_provider *any = verbs_user_any_provider(u, name);
	bool file_ok = verbs_user_provider(u, name, u->pabi) != NULL;
	bool conf_ok = u->drivers_known && verbs_user_has_driver(u, name);
	enum severity sev = SEV_WARN;
	struct check_buf nics = { 0 };
	struct finding *f;

	if (file_ok && conf_ok)
		return 0;
	if (file_ok && !u->drivers_known)
		return drivers_unknown(c, out, u, name);
	for (size_t i = 0; i < inv->n_nics; i++) {
		const char *p = verbs_provider_for(inv->nics[i].driver);

		if (!p || strcmp(p, name))
			continue;
		check_buf_printf(&nics, "%s%s", nics.s ? " " : "", inv->nics[i].name);
		if (check_is_rail(c, i))
			sev = SEV_ERROR;
	}
	f = check_add(c, out, "driver.userspace", sev, WHY);
	if (!f) {
		check_buf_free(&nics);
		return -ENOMEM;
	}
	check_buf_take(&nics, &f->subject);
	if (!file_ok && any)
		finding_set(&f->observed, "%s (rdma-core %s) loads providers of private ABI %d; "
			    "lib%s-rdmav%d.so here is built for %d",
			    u->library, u->release ? u->release : "?", u->pabi, name, any->pabi,
			    any->pabi);
	else if (!file_ok)
		finding_set(&f->observed, "no lib%s-rdmav*.so in %s/libibverbs", name, u->libdir);
	else
		finding_set(&f->observed, "no etc/libibverbs.d/*.driver says 'driver %s'", name);
	finding_set(&f->expected, "%s/libibverbs/lib%s-rdmav%d.so and etc/libibverbs.d/%s.driver",
		    u->libdir, name, u->pabi, name);
	finding_set(&f->fix, "install the providers of the same rdma-core as libibverbs "
		    "(Debian and Ubuntu: ibverbs-providers; RHEL: libibverbs; MLNX_OFED or "
		    "DOCA: reinstall the whole stack, never a mix), then `ibv_devices` lists "
		    "the NICs");
	return 0;
}

int check_verbs_user(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	const struct verbs_user *u = inv->host.verbs_user;
	const char *done[32];
	size_t n_done = 0;

	if (!u || !inv->n_nics || !u->libdir)
		return 0;
	CHECK_TRY(kernel_abi(c, out, u));
	if (u->why)
		return unreadable(c, out, u);
	for (size_t i = 0; i < inv->n_nics && n_done < sizeof(done) / sizeof(done[0]); i++) {
		const char *p = verbs_provider_for(inv->nics[i].driver);
		bool seen = false;

		for (size_t k = 0; p && k < n_done; k++)
			seen |= !strcmp(done[k], p);
		if (!p || seen)
			continue;
		done[n_done++] = p;
		CHECK_TRY(provider(c, out, u, p));
	}
	return 0;
}
