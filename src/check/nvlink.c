/* nvlink.fabric, nvlink.link_down: each NVIDIA GPU's NVLink fabric as NVML
 * reported it (model/nvlink.h, read by nvml/fabric.c).
 *
 * nvlink.fabric: a GPU whose registration with the NVLink fabric completed
 * with a status other than NVML_SUCCESS (NVML_ERROR_INSUFFICIENT_RESOURCES
 * is the one met on GB200 trays), or completed with clique id 0 or an
 * all-zero cluster UUID, is an error: its NVLink domain is not usable,
 * though nothing else fails.  A registration not started or in progress is
 * a warning.  Where NVML could not be asked, an info marked unchecked,
 * once for the node when the library itself failed, only for datacenter
 * GPUs, and never for a replay that recorded nothing (fabric.err -ENOENT).
 *
 * nvlink.link_down: a link NVML says is inactive on a GPU whose other links
 * are active, or a GPU with no active link while another GPU's are.
 *
 * Both stay quiet on a GPU whose fabric state is NOT_SUPPORTED: no NVLink
 * domain (PCIe GPUs, HGX without the fabric manager's registration), where
 * inactive links are no fault (an NVLink bridge left off). */
#include "families.h"

#include <errno.h>
#include <stdio.h>

static const char *bdf(const struct gpu *g)
{
	return g->pci.bdf ? g->pci.bdf : "?";
}

static bool in_domain(const struct gpu *g)
{
	return g->vendor == GPU_VENDOR_NVIDIA && g->fabric.err == 0 &&
	       g->fabric.state != NVLINK_FABRIC_NOT_SUPPORTED;
}

static void uuid_str(const uint8_t *u, char *buf, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < NVLINK_UUID_LEN && n + 3 <= cap; i++) {
		n += (size_t)snprintf(buf + n, cap - n, "%02x", u[i]);
		if ((i == 3 || i == 5 || i == 7 || i == 9) && n + 2 <= cap)
			buf[n++] = '-', buf[n] = '\0';
	}
}

static void status_str(unsigned rc, char *buf, size_t cap)
{
	const char *name = nvml_return_name(rc);

	if (name)
		snprintf(buf, cap, "%s", name);
	else
		snprintf(buf, cap, "NVML return %u", rc);
}

static int fabric_one(const struct check_ctx *c, struct findings *out, const struct gpu *g)
{
	const struct gpu_fabric *fb = &g->fabric;
	char st[48], uu[40];
	struct finding *f;

	if (fb->state == NVLINK_FABRIC_COMPLETED) {
		bool bad_status = fb->status != NVML_RC_SUCCESS;
		bool zero_uuid = nvlink_uuid_zero(fb->cluster);

		if (!bad_status && fb->clique != 0 && !zero_uuid)
			return 0;
		f = check_add(c, out, "nvlink.fabric", SEV_ERROR,
			      "A GPU whose NVLink fabric registration completed with an error, or "
			      "with no clique or cluster, is not part of its NVLink domain: "
			      "multi-node NVLink jobs fail or fall back, though the node looks "
			      "healthy otherwise.");
		if (!f)
			return -ENOMEM;
		status_str(fb->status, st, sizeof(st));
		uuid_str(fb->cluster, uu, sizeof(uu));
		finding_set(&f->subject, "GPU %s", bdf(g));
		finding_set(&f->observed, "fabric state COMPLETED, status %s, clique id %u, "
			    "cluster UUID %s", st, fb->clique, zero_uuid ? "all zero" : uu);
		finding_set(&f->expected, "status NVML_SUCCESS, a clique id other than 0 and a "
			    "cluster UUID");
		finding_set(&f->fix, "`nvidia-smi -q -i %s | grep -A6 Fabric`; check the "
			    "NVSwitch trays and the fabric manager (NMX), then reset the GPU or "
			    "reboot the tray", bdf(g));
		return 0;
	}
	if (fb->state != NVLINK_FABRIC_NOT_STARTED && fb->state != NVLINK_FABRIC_IN_PROGRESS) {
		/* a state this tool does not know (a newer NVML's): not
		 * checked, never taken for a healthy registration */
		f = check_add(c, out, "nvlink.fabric", SEV_INFO,
			      "The GPU's NVLink fabric state is one this tool does not know: "
			      "not checked, not found right.");
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->subject, "GPU %s", bdf(g));
		finding_set(&f->observed, "not checked: fabric state %u, which this tool does "
			    "not know", fb->state);
		finding_set(&f->expected, "fabric state COMPLETED");
		finding_set(&f->fix, "`nvidia-smi -q -i %s | grep -A6 Fabric`", bdf(g));
		return 0;
	}
	f = check_add(c, out, "nvlink.fabric", SEV_WARN,
		      "A GPU not yet registered with its NVLink fabric cannot take part in "
		      "the NVLink domain; a job started now runs without it.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "GPU %s", bdf(g));
	finding_set(&f->observed, "fabric state %s", nvlink_fabric_state_name(fb->state));
	finding_set(&f->expected, "fabric state COMPLETED");
	finding_set(&f->fix, "wait for the registration, then look again; if it stays, check "
		    "the fabric manager (NMX) and the NVSwitch trays");
	return 0;
}

/* NVML could not be asked: one info for the node when the library itself
 * failed (every GPU says the same), else one per GPU. */
static int not_checked(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	const struct gpu *lib_fail = NULL;

	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu *g = &inv->gpus[i];
		struct finding *f;

		if (g->vendor != GPU_VENDOR_NVIDIA || g->kind != GPU_DATACENTER ||
		    g->fabric.err == 0 || g->fabric.err == -ENOENT)
			continue;
		if (g->fabric.err == -ELIBACC || g->fabric.err == -ENOSYS ||
		    g->fabric.err == -EIO) {
			if (!lib_fail)
				lib_fail = g;
			continue;
		}
		f = check_add(c, out, "nvlink.fabric", SEV_INFO,
			      "The GPU's NVLink fabric could not be read: not checked, not found "
			      "right.");
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->subject, "GPU %s", bdf(g));
		finding_set(&f->observed, "not checked: %s",
			    g->fabric.why ? g->fabric.why : "NVML gave no answer");
		finding_set(&f->expected, "NVML's fabric state, status, clique and links");
		finding_set(&f->fix, "`nvidia-smi -q -i %s | grep -A6 Fabric`", bdf(g));
	}
	if (lib_fail) {
		struct finding *f = check_add(c, out, "nvlink.fabric", SEV_INFO,
					      "The GPUs' NVLink fabric could not be read: not "
					      "checked, not found right.");
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->subject, "host");
		finding_set(&f->observed, "not checked: %s", lib_fail->fabric.why);
		finding_set(&f->expected, "NVML's fabric state, status, clique and links of "
			    "each GPU");
		finding_set(&f->fix, "install the NVIDIA driver's NVML (libnvidia-ml.so.1, of "
			    "the loaded driver), or read `nvidia-smi -q | grep -A6 Fabric`");
	}
	return 0;
}

static void links_str(uint32_t mask, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < NVLINK_MAX_LINKS && n < cap; i++)
		if (mask >> i & 1) {
			int k = snprintf(buf + n, cap - n, "%s%u", n ? "," : "", i);

			if (k < 0 || (size_t)k >= cap - n)
				break;
			n += (size_t)k;
		}
}

static int link_down(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;
	bool any_active = false;

	for (size_t i = 0; i < inv->n_gpus; i++)
		if (in_domain(&inv->gpus[i]) && inv->gpus[i].fabric.active)
			any_active = true;
	if (!any_active)
		return 0;
	for (size_t i = 0; i < inv->n_gpus; i++) {
		const struct gpu *g = &inv->gpus[i];
		const struct gpu_fabric *fb = &g->fabric;
		uint32_t down = fb->answered & ~fb->active;
		char list[64];
		struct finding *f;

		if (!in_domain(g) || !down)
			continue;
		f = check_add(c, out, "nvlink.link_down", SEV_ERROR,
			      "An NVLink link that is down takes its share of the GPU's NVLink "
			      "bandwidth; with every link down the GPU's collectives fall back to "
			      "PCIe, ten to a hundred times slower, and nothing errors.");
		if (!f)
			return -ENOMEM;
		links_str(down, list, sizeof(list));
		finding_set(&f->subject, "GPU %s", bdf(g));
		finding_set(&f->observed, "%u of %u NVLink links inactive (link%s %s)",
			    (unsigned)__builtin_popcount(down), fb->n_links,
			    __builtin_popcount(down) == 1 ? "" : "s", list);
		finding_set(&f->expected, "every link active, as on the node's other links");
		finding_set(&f->fix, "`nvidia-smi nvlink -s -i %s`; reset the GPU, then check "
			    "the tray's NVLink cartridge and the NVSwitch side", bdf(g));
	}
	return 0;
}

int check_nvlink(const struct check_ctx *c, struct findings *out)
{
	for (size_t i = 0; i < c->inv->n_gpus; i++)
		if (in_domain(&c->inv->gpus[i]))
			CHECK_TRY(fabric_one(c, out, &c->inv->gpus[i]));
	CHECK_TRY(link_down(c, out));
	return not_checked(c, out);
}
