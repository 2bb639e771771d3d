/* Network per GPU by GPU class.  The figures are the one-NIC-per-GPU
 * designs of each generation: A100 / A800 boards pair every GPU with a
 * 200 Gb/s HDR NIC (DGX A100, Inspur NF5688M6), Hopper and Blackwell
 * boards with a 400 Gb/s NDR one (DGX H100 / H200 / B200, HGX H800 and
 * H20 builds), and AMD's Instinct platforms with a 400 Gb/s one.  GeForce cards have no GPUDirect RDMA and no such design. */
#include "gpu_class.h"

#include <string.h>
#include <strings.h>
#include <ctype.h>

static const struct {
	const char *word;	/* the model name starts with this word */
	double gbps;
} classes[] = {
	{ "A100", 200 }, { "A800", 200 },
	{ "H100", 400 }, { "H800", 400 }, { "H200", 400 }, { "H20", 400 }, { "B200", 400 },
	/* AMD's 8-GPU platforms pair each GPU with a 400G NIC (ServeTheHome's
	 * ASUS ESC A8A-E12U review; profile mi300x-8x400g) */
	{ "Instinct MI300X", 400 }, { "Instinct MI325X", 400 }, { "Instinct MI355X", 400 },
};

double gpu_class_gbps(const struct gpu *g)
{
	if (!g->model || g->kind != GPU_DATACENTER)
		return 0;
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		size_t n = strlen(classes[i].word);

		if (strncasecmp(g->model, classes[i].word, n) == 0 &&
		    (g->model[n] == '\0' || isspace((unsigned char)g->model[n])))
			return classes[i].gbps;
	}
	return 0;
}

double gpu_class_gbps_max(const struct inventory *inv)
{
	double best = 0;

	for (size_t i = 0; i < inv->n_gpus; i++) {
		double v = gpu_class_gbps(&inv->gpus[i]);

		if (v > best)
			best = v;
	}
	return best;
}
