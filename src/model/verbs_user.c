/* verbs_user.h: the pure parts (names, lookups); the reading is
 * src/sysfs/verbs_user.c. */
#include "verbs_user.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void verbs_user_free(struct verbs_user *u)
{
	if (!u)
		return;
	free(u->libdir);
	free(u->library);
	free(u->release);
	free(u->why);
	for (size_t i = 0; i < u->n_providers; i++)
		free(u->providers[i].name);
	free(u->providers);
	for (size_t i = 0; i < u->n_drivers; i++)
		free(u->drivers[i]);
	free(u->drivers);
	free(u);
}

/* Kernel driver of the RDMA device's parent -> rdma-core provider
 * (rdma-core's providers/<name>/ and the kernel drivers they match). */
static const struct {
	const char *driver, *provider;
} PROVIDERS[] = {
	{ "mlx5_core", "mlx5" }, { "mlx4_core", "mlx4" }, { "bnxt_en", "bnxt_re" },
	{ "irdma", "irdma" }, { "ice", "irdma" }, { "i40e", "irdma" }, { "efa", "efa" },
	{ "hns3", "hns" }, { "hns_roce_hw_v2", "hns" }, { "qede", "qedr" }, { "qedr", "qedr" },
	{ "rdma_rxe", "rxe" }, { "siw", "siw" }, { "erdma", "erdma" }, { "mana", "mana" },
	{ "cxgb4", "cxgb4" }, { "vmw_pvrdma", "vmw_pvrdma" }, { "ib_qib", "ipathverbs" },
	{ "hfi1", "hfi1verbs" }, { "ocrdma", "ocrdma" }, { "ib_mthca", "mthca" },
};

const char *verbs_provider_for(const char *driver)
{
	if (!driver)
		return NULL;
	for (size_t i = 0; i < sizeof(PROVIDERS) / sizeof(PROVIDERS[0]); i++)
		if (!strcmp(PROVIDERS[i].driver, driver))
			return PROVIDERS[i].provider;
	return NULL;
}

const struct verbs_provider *verbs_user_provider(const struct verbs_user *u, const char *name,
						 int pabi)
{
	for (size_t i = 0; u && i < u->n_providers; i++)
		if (u->providers[i].pabi == pabi && !strcmp(u->providers[i].name, name))
			return &u->providers[i];
	return NULL;
}

const struct verbs_provider *verbs_user_any_provider(const struct verbs_user *u,
						     const char *name)
{
	for (size_t i = 0; u && i < u->n_providers; i++)
		if (!strcmp(u->providers[i].name, name))
			return &u->providers[i];
	return NULL;
}

bool verbs_user_has_driver(const struct verbs_user *u, const char *name)
{
	for (size_t i = 0; u && i < u->n_drivers; i++)
		if (!strcmp(u->drivers[i], name))
			return true;
	return false;
}

/* A decimal number of 1 to 4 digits at s, ending at end; -1 otherwise. */
static int small_number(const char *s, const char *end)
{
	int v = 0;

	if (end <= s || end - s > 4)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

int verbs_provider_file(const char *file, char **name, int *pabi)
{
	static const char mark[] = "-rdmav";
	size_t len = strlen(file);
	const char *dash;

	*name = NULL;
	if (len < 3 + 1 + sizeof(mark) - 1 + 1 + 3 || strncmp(file, "lib", 3) ||
	    strcmp(file + len - 3, ".so"))
		return -EINVAL;
	dash = strstr(file, mark);
	if (!dash || dash == file + 3)
		return -EINVAL;
	*pabi = small_number(dash + sizeof(mark) - 1, file + len - 3);
	if (*pabi < 0)
		return -EINVAL;
	*name = strndup(file + 3, (size_t)(dash - file - 3));
	return *name ? 0 : -ENOMEM;
}

char *verbs_release_of(const char *library)
{
	static const char pre[] = "libibverbs.so.1.";
	const char *p, *dot;

	if (strncmp(library, pre, sizeof(pre) - 1))
		return NULL;
	p = library + sizeof(pre) - 1;	/* "14.44.0": soname minor, release */
	dot = strchr(p, '.');
	if (!dot || dot == p || !dot[1])
		return NULL;
	for (const char *q = p; q < dot; q++)
		if (*q < '0' || *q > '9')
			return NULL;
	return strdup(dot + 1);
}

void verbs_sets_scan(char *const *names, size_t n, int *minor, int *pabi)
{
	static const char pub[] = "IBVERBS_1.", priv[] = "IBVERBS_PRIVATE_";

	*minor = -1;
	*pabi = -1;
	for (size_t i = 0; i < n; i++) {
		const char *s = names[i];
		int v;

		if (!strncmp(s, pub, sizeof(pub) - 1)) {
			v = small_number(s + sizeof(pub) - 1, s + strlen(s));
			if (v > *minor)
				*minor = v;
		} else if (!strncmp(s, priv, sizeof(priv) - 1)) {
			v = small_number(s + sizeof(priv) - 1, s + strlen(s));
			if (v >= 0)
				*pabi = v;
		}
	}
}
