/* The reader of access_read.h. */
#include "access_read.h"
#include "access_parse.h"
#include "attr.h"
#include "fetch.h"
#include "../model/growbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

/* ---- device nodes ---- */

struct node_asker {
	struct root *r;
	const char *path;	/* "dev/infiniband/uverbs0" */
};

/* The kernel's system.posix_acl_access value (posix_acl_xattr_header, then
 * posix_acl_xattr_entry: le16 tag, le16 perm, le32 id): 0 with entries, or
 * -EINVAL. */
static int acl_decode(const unsigned char *b, size_t len, struct dev_node *d)
{
	size_t n;

	if (len < 4 || (len - 4) % 8 || (b[0] | b[1] << 8 | b[2] << 16 | (unsigned)b[3] << 24) != 2)
		return -EINVAL;
	n = (len - 4) / 8;
	d->acl = calloc(n ? n : 1, sizeof(*d->acl));
	if (!d->acl)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *e = b + 4 + 8 * i;
		struct acl_entry *a = &d->acl[i];

		a->tag = (uint16_t)(e[0] | e[1] << 8);
		a->perm = (uint16_t)((e[2] | e[3] << 8) & 7);
		a->id = (uint32_t)e[4] | (uint32_t)e[5] << 8 | (uint32_t)e[6] << 16 |
			(uint32_t)e[7] << 24;
		if (a->tag == ACL_TAG_USER || a->tag == ACL_TAG_GROUP || a->tag == ACL_TAG_MASK)
			d->has_acl = 1;
	}
	d->n_acl = n;
	return 0;
}

/* Live: stat, then the access ACL of what is there, as one record line. */
static int fetch_node(void *arg, void **data, size_t *len)
{
	struct node_asker *a = arg;
	struct dev_node d = { .present = 1 };
	struct stat st;
	char *canon = NULL, *path = NULL, *text;
	unsigned char buf[4 + 8 * 64];
	ssize_t got;
	int rc = root_stat(a->r, a->path, &st, &canon);

	if (rc == -ENOENT || rc == -ENOTDIR) {
		d.present = 0;
		goto format;
	}
	if (rc < 0)
		return rc;
	d.chr = S_ISCHR(st.st_mode);
	d.mode = st.st_mode & 07777;
	d.uid = st.st_uid;
	d.gid = st.st_gid;
	/* live roots are "/": the path found is the node's own */
	if (asprintf(&path, "/%s", canon) < 0) {
		free(canon);
		return -ENOMEM;
	}
	free(canon);
	got = lgetxattr(path, "system.posix_acl_access", buf, sizeof(buf));
	free(path);
	if (got >= 0) {
		rc = acl_decode(buf, (size_t)got, &d);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0)
			d.has_acl = -1;
	} else if (errno != ENODATA && errno != ENOTSUP) {
		d.has_acl = -1;		/* ERANGE: more entries than we take */
	}
format:
	text = devnode_record_format(&d);
	free(d.acl);
	if (!text)
		return -ENOMEM;
	*data = text;
	*len = strlen(text);
	return 0;
}

static const char *user_name(const struct accounts *a, uint32_t uid)
{
	for (size_t i = 0; i < a->n_users; i++)
		if (a->users[i].uid == uid)
			return a->users[i].name;
	return NULL;
}

static const char *group_name(const struct accounts *a, uint32_t gid)
{
	for (size_t i = 0; i < a->n_groups; i++)
		if (a->groups[i].gid == gid)
			return a->groups[i].name;
	return NULL;
}

/* One node's record, through root_fetch. */
static int read_node(struct root *r, const struct accounts *acc, struct dev_node *d)
{
	char path[PATH_MAX];
	struct node_asker a = { r, path };
	void *buf = NULL;
	size_t len;
	int rc;

	d->present = -1;
	d->has_acl = -1;
	if (!fetch_name_ok(d->name))
		return 0;
	snprintf(path, sizeof(path), "dev/infiniband/%s", d->name);
	rc = root_fetch(r, DEVNODE_FETCH_KIND, path + strlen("dev/"), 4096, fetch_node, &a, &buf,
			&len);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		if (fetch_failure_noted(r, rc))
			root_note(r, path, "cannot stat: %s", strerror(-rc));
		d->why = strdup(r->live ? strerror(-rc) : "not in the snapshot");
		return d->why ? 0 : -ENOMEM;
	}
	rc = devnode_record_parse(buf, d);
	if (rc == -EINVAL) {
		root_note(r, FETCH_DIR "/" DEVNODE_FETCH_KIND "/infiniband", "malformed '%s': \"%.60s\"",
			  d->name, (char *)buf);
		d->present = -1;
		d->why = strdup("malformed record");
		rc = d->why ? 0 : -ENOMEM;
	}
	free(buf);
	if (rc < 0)
		return rc;
	if (d->present == 1) {
		const char *u = user_name(acc, d->uid), *g = group_name(acc, d->gid);

		if ((u && !(d->owner = strdup(u))) || (g && !(d->group = strdup(g))))
			return -ENOMEM;
	}
	return 0;
}

struct node_list {
	struct dev_node *v;
	size_t n, cap;
};

static struct dev_node *add_node(struct node_list *l, const char *name, const char *nic,
				 int port)
{
	struct dev_node *v = growbuf_reserve(l->v, &l->cap, l->n + 1, sizeof(*v));
	struct dev_node *d;

	if (!v)
		return NULL;
	l->v = v;
	d = &v[l->n];
	memset(d, 0, sizeof(*d));
	d->name = strdup(name);
	d->nic = nic ? strdup(nic) : NULL;
	d->port = port;
	if (!d->name || (nic && !d->nic)) {
		free(d->name);
		free(d->nic);
		return NULL;
	}
	l->n++;
	return d;
}

struct mad_entry {
	char *name, *ibdev;
	int port;
};

/* /sys/class/infiniband_mad: umadN and issmN with their ibdev and port. */
static int read_mad(struct root *r, struct mad_entry **out, size_t *n_out)
{
	static const char class[] = "sys/class/infiniband_mad";
	struct mad_entry *v = NULL;
	char **names;
	size_t count, n = 0;
	int rc = root_list(r, class, &names, &count);

	*out = NULL;
	*n_out = 0;
	if (rc < 0)
		return rc == -ENOMEM ? rc : 0;
	v = calloc(count ? count : 1, sizeof(*v));
	if (!v) {
		root_free_list(names, count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		char dir[PATH_MAX], *port;

		if (strncmp(names[i], "umad", 4) && strncmp(names[i], "issm", 4))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", class, names[i]);
		v[n].ibdev = attr_str(r, dir, "ibdev");
		port = attr_str(r, dir, "port");
		v[n].port = port ? atoi(port) : 0;
		free(port);
		if (!v[n].ibdev)
			continue;
		v[n].name = names[i];
		names[i] = NULL;
		n++;
	}
	root_free_list(names, count);
	*out = v;
	*n_out = n;
	return 0;
}

static int read_nodes(struct root *r, const struct nic *nics, size_t n_nics,
		      struct dev_access *acc)
{
	struct node_list l = { 0 };
	struct mad_entry *mad;
	size_t n_mad;
	int rc = read_mad(r, &mad, &n_mad);

	for (size_t i = 0; rc == 0 && i < n_nics; i++) {
		if (nics[i].excluded)
			continue;	/* the site file's exclude =: not looked at */
		if (nics[i].uverbs && !add_node(&l, nics[i].uverbs, nics[i].name, 0))
			rc = -ENOMEM;
		/* umad then issm of each port, in port order */
		for (int pass = 0; rc == 0 && pass < 2; pass++)
			for (size_t k = 0; rc == 0 && k < n_mad; k++)
				if (!strcmp(mad[k].ibdev, nics[i].name) &&
				    !strncmp(mad[k].name, pass ? "issm" : "umad", 4) &&
				    !add_node(&l, mad[k].name, nics[i].name, mad[k].port))
					rc = -ENOMEM;
	}
	for (size_t k = 0; k < n_mad; k++) {
		free(mad[k].name);
		free(mad[k].ibdev);
	}
	free(mad);
	if (rc == 0 && n_nics && !add_node(&l, "rdma_cm", NULL, 0))
		rc = -ENOMEM;
	acc->nodes = l.v;
	acc->n_nodes = l.n;
	for (size_t i = 0; rc == 0 && i < l.n; i++)
		rc = read_node(r, &acc->accounts, &l.v[i]);
	return rc;
}

/* ---- files ---- */

/* Append "PATH: reason" to what could not be read. */
static int unreadable(struct job_memlock *m, const char *path, int err)
{
	char *s;

	if (asprintf(&s, "%s%s%s: %s", m->unreadable ? m->unreadable : "",
		     m->unreadable ? "; " : "", path, strerror(-err)) < 0)
		return -ENOMEM;
	free(m->unreadable);
	m->unreadable = s;
	return 0;
}

/* A file's text: 0, 1 when absent, -ENOMEM; other failures said. */
static int read_text(struct root *r, struct job_memlock *m, const char *path, char **text)
{
	int rc = root_read(r, path, text);

	if (rc == -ENOENT || rc == -ENOTDIR)
		return 1;
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		root_note(r, path, "cannot read: %s", strerror(-rc));
		return unreadable(m, path, rc) < 0 ? -ENOMEM : 1;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return strcmp(strrchr(x, '/') + 1, strrchr(y, '/') + 1);
}

/* "*.conf" of each directory, a name in an earlier directory hiding the
 * same name in a later one, sorted by name: as systemd's drop-ins and
 * pam_limits' limits.d.  *paths malloc'd. */
static int conf_files(struct root *r, const char *const *dirs, size_t n_dirs, char ***paths,
		      size_t *n)
{
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	for (size_t d = 0; d < n_dirs; d++) {
		char **names;
		size_t count;
		int rc = root_list(r, dirs[d], &names, &count);

		if (rc == -ENOMEM)
			return rc;
		if (rc < 0)
			continue;
		for (size_t i = 0; i < count; i++) {
			size_t len = strlen(names[i]);
			bool seen = false;
			char **nv;

			if (len < 6 || strcmp(names[i] + len - 5, ".conf"))
				continue;
			for (size_t k = 0; k < *n; k++)
				seen |= !strcmp(strrchr(v[k], '/') + 1, names[i]);
			if (seen)
				continue;
			nv = growbuf_reserve(v, &cap, *n + 1, sizeof(*nv));
			if (!nv || asprintf(&nv[*n], "%s/%s", dirs[d], names[i]) < 0) {
				root_free_list(names, count);
				*paths = nv ? nv : v;
				return -ENOMEM;
			}
			v = nv;
			(*n)++;
		}
		root_free_list(names, count);
	}
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	*paths = v;
	return 0;
}

static int apply_unit(struct root *r, struct job_memlock *m, const char *path,
		      const char *section, const char *key, struct unit_limit *lim)
{
	char *text;
	int bad = 0, rc = read_text(r, m, path, &text);

	if (rc != 0)
		return rc < 0 ? rc : 0;
	rc = unit_limit_parse(text, path, section, key, lim, &bad);
	free(text);
	if (rc == 0 && bad)
		root_note(r, path, "line %d: %s= that systemd refuses (ignored)", bad, key);
	return rc;
}

static void free_paths(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* systemd's unit search path for the system manager, most important first. */
static const char *const unit_dirs[] = {
	"etc/systemd/system", "run/systemd/system", "usr/local/lib/systemd/system",
	"usr/lib/systemd/system", "lib/systemd/system",
};
#define N_UNIT_DIRS (sizeof(unit_dirs) / sizeof(unit_dirs[0]))

static int read_slurmd(struct root *r, struct job_memlock *m)
{
	const char *dropdirs[N_UNIT_DIRS];
	char dirs[N_UNIT_DIRS][64], **confs = NULL;
	size_t n_confs = 0;
	int rc = 0;

	m->slurmd = 0;
	for (size_t i = 0; i < N_UNIT_DIRS && !m->slurmd_unit; i++) {
		char path[128], *text;

		snprintf(path, sizeof(path), "%s/slurmd.service", unit_dirs[i]);
		rc = read_text(r, m, path, &text);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			if (root_exists(r, path))
				m->slurmd = -1;
			continue;
		}
		free(text);
		m->slurmd = 1;
		m->slurmd_unit = strdup(path);
		if (!m->slurmd_unit)
			return -ENOMEM;
		rc = apply_unit(r, m, path, "Service", "LimitMEMLOCK", &m->slurmd_limit);
		if (rc < 0)
			return rc;
	}
	if (m->slurmd != 1)
		return 0;
	for (size_t i = 0; i < N_UNIT_DIRS; i++) {
		snprintf(dirs[i], sizeof(dirs[i]), "%s/slurmd.service.d", unit_dirs[i]);
		dropdirs[i] = dirs[i];
	}
	rc = conf_files(r, dropdirs, N_UNIT_DIRS, &confs, &n_confs);
	for (size_t i = 0; rc == 0 && i < n_confs; i++)
		rc = apply_unit(r, m, confs[i], "Service", "LimitMEMLOCK", &m->slurmd_limit);
	free_paths(confs, n_confs);
	return rc;
}

static int read_manager(struct root *r, struct job_memlock *m)
{
	static const char *const dirs[] = {
		"etc/systemd/system.conf.d", "run/systemd/system.conf.d",
		"usr/local/lib/systemd/system.conf.d", "usr/lib/systemd/system.conf.d",
		"lib/systemd/system.conf.d",
	};
	char **confs = NULL;
	size_t n_confs = 0;
	int rc = apply_unit(r, m, "etc/systemd/system.conf", "Manager", "DefaultLimitMEMLOCK",
			    &m->manager_default);

	if (rc == 0)
		rc = conf_files(r, dirs, sizeof(dirs) / sizeof(dirs[0]), &confs, &n_confs);
	for (size_t i = 0; rc == 0 && i < n_confs; i++)
		rc = apply_unit(r, m, confs[i], "Manager", "DefaultLimitMEMLOCK",
				&m->manager_default);
	free_paths(confs, n_confs);
	return rc;
}

static int read_limits(struct root *r, struct job_memlock *m)
{
	static const char *const dirs[] = { "etc/security/limits.d" };
	char **confs = NULL, *text;
	size_t n_confs = 0, cap = 0;
	int rc = read_text(r, m, "etc/security/limits.conf", &text);

	if (rc < 0)
		return rc;
	if (rc == 0) {
		m->limits_conf = true;
		rc = limits_conf_parse(text, "etc/security/limits.conf", &m->lines, &m->n_lines,
				       &cap);
		free(text);
		if (rc < 0)
			return rc;
	}
	rc = conf_files(r, dirs, 1, &confs, &n_confs);
	for (size_t i = 0; rc == 0 && i < n_confs; i++) {
		rc = read_text(r, m, confs[i], &text);
		if (rc == 1) {
			rc = 0;
			continue;
		}
		if (rc == 0) {
			rc = limits_conf_parse(text, confs[i], &m->lines, &m->n_lines, &cap);
			free(text);
		}
	}
	free_paths(confs, n_confs);
	return rc;
}

static int read_accounts(struct root *r, struct accounts *a)
{
	char *text;
	int rc = root_read(r, "etc/passwd", &text);

	if (rc == -ENOMEM)
		return rc;
	if (rc == 0) {
		a->passwd_read = true;
		rc = passwd_parse(text, a);
		free(text);
		if (rc < 0)
			return rc;
	} else if (rc != -ENOENT) {
		root_note(r, "etc/passwd", "cannot read: %s", strerror(-rc));
	}
	rc = root_read(r, "etc/group", &text);
	if (rc == -ENOMEM)
		return rc;
	if (rc == 0) {
		a->group_read = true;
		rc = group_parse(text, a);
		free(text);
		return rc;
	}
	if (rc != -ENOENT)
		root_note(r, "etc/group", "cannot read: %s", strerror(-rc));
	return 0;
}

int access_read(struct root *r, const struct nic *nics, size_t n_nics, struct dev_access **out)
{
	struct dev_access *a = calloc(1, sizeof(*a));
	int rc;

	*out = NULL;
	if (!a)
		return -ENOMEM;
	rc = read_accounts(r, &a->accounts);
	if (rc == 0)
		rc = read_nodes(r, nics, n_nics, a);
	if (rc == 0)
		rc = read_slurmd(r, &a->memlock);
	if (rc == 0)
		rc = read_manager(r, &a->memlock);
	if (rc == 0)
		rc = read_limits(r, &a->memlock);
	if (rc < 0) {
		dev_access_free(a);
		return rc;
	}
	*out = a;
	return 0;
}
