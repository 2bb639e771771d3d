/* A STAND-IN for NVIDIA's NVML (libnvidia-ml.so.1), built by the tests:
 * not NVML, and nothing of NVIDIA's code.  It answers the five calls
 * rdmadoctor's reader makes (src/nvml/fabric.c) from recorded values in a
 * text file that RDMADOCTOR_NVML_STANDIN names, one GPU a line:
 *
 *   # bus-id       state status clique cluster-uuid (32 hex)             links
 *   0000:1b:00.0   3     0      32766  0123456789abcdef0123456789abcdef  111111111111111111
 *
 * state, status and clique are NVML's numbers (nvmlGpuFabricState_t,
 * nvmlReturn_t); links one character per link: '1' active, '0' inactive;
 * past the last, NVML_ERROR_INVALID_ARGUMENT as NVML answers.  state "-"
 * makes nvmlDeviceGetGpuFabricInfo answer NVML_ERROR_NOT_SUPPORTED (a GPU
 * without the fabric call's support).  No file, or one it cannot read:
 * nvmlInit_v2 fails with NVML_ERROR_DRIVER_NOT_LOADED.
 *
 * The structure it fills keeps the layout of nvmlGpuFabricInfo_t as
 * NVIDIA's published nvml.h defines it (the facts: a 16-byte cluster UUID,
 * the status as an int-sized nvmlReturn_t, the clique id as an unsigned
 * int, the state as an unsigned char). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OK = 0, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, NOT_FOUND = 6, DRIVER_NOT_LOADED = 9 };

struct fabric_info {
	unsigned char cluster_uuid[16];
	int status;
	unsigned int clique_id;
	unsigned char state;
};

struct standin_gpu {
	unsigned dom, bus, dev, fn;
	int no_fabric;
	unsigned state, status, clique;
	unsigned char uuid[16];
	char links[19];
};

/* the library's exports, as the reader resolves them */
int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, void **device);
int nvmlDeviceGetGpuFabricInfo(void *device, struct fabric_info *info);
int nvmlDeviceGetNvLinkState(void *device, unsigned int link, int *is_active);

static struct standin_gpu gpus[64];
static int n_gpus, started;

static int parse_bdf(const char *s, unsigned *d, unsigned *b, unsigned *v, unsigned *f)
{
	return sscanf(s, "%x:%x:%x.%x", d, b, v, f) == 4 ? 0 : -1;
}

int nvmlInit_v2(void)
{
	const char *path = getenv("RDMADOCTOR_NVML_STANDIN");
	char line[256];
	FILE *fp;

	n_gpus = 0;
	if (!path || !(fp = fopen(path, "r")))
		return DRIVER_NOT_LOADED;
	while (fgets(line, sizeof(line), fp) && n_gpus < 64) {
		struct standin_gpu *g = &gpus[n_gpus];
		char bdf[32], state[8], uuid[40];

		if (line[0] == '#' || line[0] == '\n')
			continue;
		memset(g, 0, sizeof(*g));
		if (sscanf(line, "%31s %7s %u %u %39s %18s", bdf, state, &g->status, &g->clique,
			   uuid, g->links) < 5 || parse_bdf(bdf, &g->dom, &g->bus, &g->dev, &g->fn))
			continue;
		g->no_fabric = state[0] == '-';
		g->state = (unsigned)atoi(state);
		for (int i = 0; i < 16 && strlen(uuid) == 32; i++)
			sscanf(uuid + 2 * i, "%2hhx", &g->uuid[i]);
		n_gpus++;
	}
	fclose(fp);
	started = 1;
	return OK;
}

int nvmlShutdown(void)
{
	started = 0;
	return OK;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, void **device)
{
	unsigned d, b, v, f;

	if (!started || !bus_id || !device || parse_bdf(bus_id, &d, &b, &v, &f))
		return INVALID_ARGUMENT;
	for (int i = 0; i < n_gpus; i++)
		if (gpus[i].dom == d && gpus[i].bus == b && gpus[i].dev == v && gpus[i].fn == f) {
			*device = &gpus[i];
			return OK;
		}
	return NOT_FOUND;
}

int nvmlDeviceGetGpuFabricInfo(void *device, struct fabric_info *info)
{
	struct standin_gpu *g = device;

	if (!g || !info)
		return INVALID_ARGUMENT;
	if (g->no_fabric)
		return NOT_SUPPORTED;
	memcpy(info->cluster_uuid, g->uuid, 16);
	info->status = (int)g->status;
	info->clique_id = g->clique;
	info->state = (unsigned char)g->state;
	return OK;
}

int nvmlDeviceGetNvLinkState(void *device, unsigned int link, int *is_active)
{
	struct standin_gpu *g = device;

	if (!g || !is_active)
		return INVALID_ARGUMENT;
	if (link >= strlen(g->links))
		return g->links[0] ? INVALID_ARGUMENT : NOT_SUPPORTED;
	*is_active = g->links[link] == '1';
	return OK;
}
