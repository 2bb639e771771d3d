/* gdr.missing: datacenter / workstation GPUs without a peer-memory path
 * (NVIDIA: nvidia_peermem or DMA-BUF; AMD: DMA-BUF or amdkfd's peer).
 * gdr.unsupported: GeForce GPUs, which have no GPUDirect RDMA (info). */
#include "families.h"
#include "gpudirect.h"

#include <stdio.h>
#include <string.h>

static const char *first_model(const struct inventory *inv, bool geforce)
{
	for (size_t g = 0; g < inv->n_gpus; g++) {
		const struct gpu *gp = &inv->gpus[g];

		if ((gp->kind == GPU_GEFORCE) == geforce && gp->kind != GPU_UNKNOWN && gp->model)
			return gp->model;
	}
	return NULL;
}

/* ERROR when the profile requires GPUDirect RDMA, WARN where nothing says
 * (generic, or a profile that leaves it unjudged), none where the profile
 * says this machine does without it. */
static bool gdr_severity(const struct check_ctx *c, enum severity *sev)
{
	int want = c->generic || !c->p ? -1 : c->p->role[ROLE_RAIL].gpudirect;

	if (want == 0)
		return false;
	*sev = want == 1 ? SEV_ERROR : SEV_WARN;
	return true;
}

static int missing(const struct check_ctx *c, struct findings *out, size_t n)
{
	const struct host *h = &c->inv->host;
	const char *model = first_model(c->inv, false);
	const struct module_state *pm = &h->modules[MOD_NVIDIA_PEERMEM];
	enum severity sev;
	struct finding *f;

	if (!gdr_severity(c, &sev))
		return 0;
	f = check_add(c, out, "gdr.missing", sev,
		      "Without a peer-memory path the NIC cannot read GPU memory directly: "
		      "every transfer is staged through host memory, at a fraction of the "
		      "bandwidth and with extra latency.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "host");
	if (pm->initstate)
		finding_set(&f->observed, "%zu %s GPU%s; nvidia_peermem is '%s', not live; "
			    "no nv_peer_mem, no OFED memory peer",
			    n, model ? model : "datacenter", n == 1 ? "" : "s", pm->initstate);
	else
		finding_set(&f->observed, "%zu %s GPU%s; no nvidia_peermem or nv_peer_mem "
			    "loaded, no OFED memory peer",
			    n, model ? model : "datacenter", n == 1 ? "" : "s");
	finding_set(&f->expected, "nvidia_peermem loaded, or DMA-BUF (NVIDIA's open "
		    "kernel modules on kernel 5.12 or later)");
	/* nvidia_peermem needs MLNX_OFED's PeerDirect API: on the in-kernel
	 * stack modprobe fails with EINVAL, and DMA-BUF is the way */
	if (c->inv->host.stack && strcmp(c->inv->host.stack, "inbox") == 0)
		finding_set(&f->fix,
			    "on the in-kernel RDMA stack use DMA-BUF: install NVIDIA's open "
			    "kernel modules (kernel 5.12 or later; NCCL and perftest use it "
			    "on their own); nvidia_peermem would need MLNX_OFED");
	else
		finding_set(&f->fix,
			    "modprobe nvidia_peermem; if that fails with 'Invalid argument', "
			    "rebuild it against the running kernel and MLNX_OFED (it must be "
			    "rebuilt after every kernel update), or use DMA-BUF (kernel 5.12 "
			    "or later with NVIDIA's open kernel modules)");
	return 0;
}

/* No module list to look in: a peer-memory module may well be loaded. */
static int modules_unknown(const struct check_ctx *c, struct findings *out)
{
	enum severity sev;
	struct finding *f;

	if (!gdr_severity(c, &sev))
		return 0;
	f = check_add(c, out, "gdr.missing", SEV_INFO,
		      "Without a peer-memory path the NIC cannot read GPU memory directly; "
		      "what could not be read was not checked, not found right.");
	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	f->required = sev == SEV_ERROR;	/* the profile says gpudirect = 1 */
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "not checked: neither /proc/modules nor /sys/module could "
		    "be read, so whether nvidia_peermem is loaded is unknown");
	finding_set(&f->expected, "nvidia_peermem loaded, or DMA-BUF (NVIDIA's open kernel "
		    "modules on kernel 5.12 or later)");
	finding_set(&f->fix, "read it by hand: `lsmod | grep -e nvidia_peermem -e nv_peer_mem`");
	return 0;
}

static int unsupported(const struct check_ctx *c, struct findings *out, size_t n)
{
	const char *model = first_model(c->inv, true);
	struct finding *f = check_add(c, out, "gdr.unsupported", SEV_INFO,
				      "GPUDirect RDMA is not available on GeForce GPUs: RDMA "
				      "traffic is staged through host memory, which is expected "
				      "here, not a fault.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "%zu %s GPU%s", n, model ? model : "GeForce", n == 1 ? "" : "s");
	finding_set(&f->expected, "RDMA through host memory (no GPUDirect RDMA on GeForce)");
	finding_set(&f->fix,
		    "nothing to fix; keep NCCL_NET_GDR_LEVEL unset and size for host-staged "
		    "bandwidth, or use datacenter or workstation GPUs where GPUDirect RDMA "
		    "is needed");
	return 0;
}

/* The DMA-BUF path with kernel and GPU driver ready, but a libibverbs
 * without ibv_reg_dmabuf_mr (no IBVERBS_1.12 set): NCCL and perftest find
 * no symbol to register GPU memory with, so nothing reaches the GPU. */
static int dmabuf_userspace_old(const struct check_ctx *c, struct findings *out, size_t n)
{
	const struct verbs_user *u = c->inv->host.verbs_user;
	enum severity sev;
	struct finding *f;

	if (!gdr_severity(c, &sev))
		return 0;
	f = check_add(c, out, "gdr.missing", sev,
		      "DMA-BUF needs ibv_reg_dmabuf_mr in libibverbs as well as the kernel's "
		      "and the GPU driver's support: without it every transfer is staged "
		      "through host memory.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "%zu GPU%s on DMA-BUF (open kernel modules, kernel %s), but "
		    "%s (rdma-core %s) stops at IBVERBS_1.%d: no ibv_reg_dmabuf_mr",
		    n, n == 1 ? "" : "s", c->inv->host.kernel, u->library,
		    u->release ? u->release : "?", u->verbs_minor);
	finding_set(&f->expected, "libibverbs with the IBVERBS_1.%d set (rdma-core 34 or later), "
		    "or nvidia_peermem loaded", VERBS_DMABUF_MINOR);
	finding_set(&f->fix, "install rdma-core 34 or later (the distribution's, or MLNX_OFED "
		    "5.4 or later), or load nvidia_peermem");
	return 0;
}

/* AMD Instinct GPUs: what gpudirect_amd says is missing, or could not be
 * read (an info, "not checked", never a pass). */
static int amd_missing(const struct check_ctx *c, struct findings *out, size_t n)
{
	const struct host *h = &c->inv->host;
	const char *model = NULL;
	struct gd_judgement j;
	enum severity sev;
	struct finding *f;

	if (gpudirect_amd(h, &j) || !gdr_severity(c, &sev))
		return 0;
	for (size_t g = 0; g < c->inv->n_gpus && !model; g++)
		if (c->inv->gpus[g].vendor == GPU_VENDOR_AMD)
			model = c->inv->gpus[g].model;
	f = check_add(c, out, "gdr.missing", j.state == GD_UNKNOWN ? SEV_INFO : sev,
		      j.state == GD_UNKNOWN ?
		      "Without DMA-BUF or ROCm's memory peer the NIC cannot read GPU memory "
		      "directly; what could not be read was not checked, not found right." :
		      "Without DMA-BUF or ROCm's memory peer the NIC cannot read GPU memory "
		      "directly: every transfer is staged through host memory, at a fraction "
		      "of the bandwidth and with extra latency.");
	if (!f)
		return -ENOMEM;
	if (j.state == GD_UNKNOWN) {
		f->unchecked = true;
		f->required = sev == SEV_ERROR;
	}
	finding_set(&f->subject, "host");
	finding_set(&f->observed, "%s%zu AMD %s GPU%s: %s", j.state == GD_UNKNOWN ?
		    "not checked: " : "", n, model ? model : "Instinct", n == 1 ? "" : "s", j.why);
	finding_set(&f->expected, "DMA-BUF (amdgpu loaded, kernel 5.12 or later, libibverbs "
		    "with ibv_reg_dmabuf_mr), or ROCm's amdkfd memory peer "
		    "(/sys/kernel/mm/memory_peers/amdkfd)");
	if (j.state == GD_UNKNOWN)
		finding_set(&f->fix, "read it by hand: `lsmod | grep amdgpu; uname -r; ls "
			    "/sys/kernel/mm/memory_peers`");
	else
		finding_set(&f->fix, "load amdgpu from the ROCm release the job uses (`modprobe "
			    "amdgpu`) on kernel 5.12 or later with rdma-core 34 or later; on an "
			    "older kernel, ROCm's PeerDirect needs MLNX_OFED's ib_peer_mem");
	return 0;
}

int check_gdr(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	const struct host *h = &inv->host;
	size_t dc = 0, geforce = 0, amd = 0;

	for (size_t g = 0; g < inv->n_gpus; g++) {
		bool big = inv->gpus[g].kind == GPU_DATACENTER ||
			   inv->gpus[g].kind == GPU_WORKSTATION;

		/* AMD's are judged by their own path (amd_missing) */
		if (big && inv->gpus[g].vendor == GPU_VENDOR_AMD)
			amd++;
		else if (big)
			dc++;
		else if (inv->gpus[g].kind == GPU_GEFORCE)
			geforce++;
	}
	/* DMA-BUF: the open kernel modules export GPU memory, kernel 5.12+
	 * imports it (ib_umem_dmabuf); no peer-memory module needed */
	bool peer = gpudirect_peer(h);
	bool dmabuf = gpudirect_dmabuf(h);

	if (dc && !peer && !dmabuf)
		CHECK_TRY(h->modules_known ? missing(c, out, dc) : modules_unknown(c, out));
	/* a host libibverbs known too old; none on the host (containers) or
	 * not readable says nothing here */
	else if (dc && !peer && h->modules_known && h->verbs_user &&
		 h->verbs_user->verbs_minor >= 0 &&
		 h->verbs_user->verbs_minor < VERBS_DMABUF_MINOR)
		CHECK_TRY(dmabuf_userspace_old(c, out, dc));
	if (amd)
		CHECK_TRY(amd_missing(c, out, amd));
	if (geforce)
		CHECK_TRY(unsupported(c, out, geforce));
	return 0;
}
