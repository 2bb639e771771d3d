/* The names a site file gives, held to what exists (site_names.h): a check
 * id the catalog lacks (`ignore = port.donw`) or an RDMA device the
 * machine lacks (`storage = mlx5_99`) would otherwise waive or label
 * nothing, in silence. */
#include "site_names.h"
#include "catalog.h"
#include "../model/nearest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A check id, or the old name of a renamed one (site_old_id). */
static bool known_id(const char *id)
{
	size_t n;
	const struct check_entry *rows = check_catalog(&n);

	if (check_catalog_find(id))
		return true;
	for (size_t i = 0; i < n; i++) {
		const char *old = site_old_id(rows[i].id);

		if (old && strcmp(old, id) == 0)
			return true;
	}
	return false;
}

static int bad_id(const char *key, const char *id, char *msg, size_t len)
{
	size_t n;
	const struct check_entry *rows = check_catalog(&n);
	const char **ids = calloc(n ? n : 1, sizeof(*ids));
	const char *near;

	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		ids[i] = rows[i].id;
	near = nearest_name(id, ids, n);
	snprintf(msg, len, "%s: '%s' is no check id (`rdmadoctor check --list` names them)%s%s%s",
		 key, id, near ? ": did you mean '" : "", near ? near : "", near ? "'?" : "");
	free(ids);
	return -EINVAL;
}

static int bad_device(const char *key, const char *dev, const struct inventory *inv,
		      char *msg, size_t len)
{
	const char **names = calloc(inv->n_nics ? inv->n_nics : 1, sizeof(*names));
	const char *near;
	size_t k = 0;

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < inv->n_nics; i++)
		if (inv->nics[i].name)
			names[k++] = inv->nics[i].name;
	near = nearest_name(dev, names, k);
	snprintf(msg, len, "%s: this machine has no RDMA device '%s' (`rdmadoctor inventory` "
		 "lists them)%s%s%s", key, dev, near ? ": did you mean '" : "", near ? near : "",
		 near ? "'?" : "");
	free(names);
	return -EINVAL;
}

static bool has_device(const struct inventory *inv, const char *dev)
{
	for (size_t i = 0; i < inv->n_nics; i++)
		if (inv->nics[i].name && strcmp(inv->nics[i].name, dev) == 0)
			return true;
	return false;
}

int check_site_names(const struct site *s, const struct inventory *inv, char *msg, size_t len)
{
	const struct { const char *key; const struct name_list *l; bool ids; } lists[] = {
		{ "ignore", &s->ignore, true },
		{ "accept_unchecked", &s->accept_unchecked, true },
		{ "rail", &s->rail, false },
		{ "storage", &s->storage, false },
	};

	for (size_t j = 0; j < sizeof(lists) / sizeof(lists[0]); j++)
		for (size_t i = 0; i < lists[j].l->n; i++) {
			const char *name = lists[j].l->v[i];

			if (lists[j].ids && !known_id(name))
				return bad_id(lists[j].key, name, msg, len);
			if (!lists[j].ids && !has_device(inv, name))
				return bad_device(lists[j].key, name, inv, msg, len);
		}
	return 0;
}
