/* Device nodes, accounts and the jobs' memlock (access.h): freeing, and the
 * two pure evaluators: open(2)'s permission check and pam_limits' choice. */
#include "access.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dev_node_free(struct dev_node *d)
{
	free(d->name);
	free(d->nic);
	free(d->owner);
	free(d->group);
	free(d->acl);
	free(d->why);
	memset(d, 0, sizeof(*d));
}

void accounts_free(struct accounts *a)
{
	for (size_t i = 0; i < a->n_users; i++)
		free(a->users[i].name);
	free(a->users);
	for (size_t i = 0; i < a->n_groups; i++) {
		free(a->groups[i].name);
		for (size_t k = 0; k < a->groups[i].n_members; k++)
			free(a->groups[i].members[k]);
		free(a->groups[i].members);
	}
	free(a->groups);
	memset(a, 0, sizeof(*a));
}

void job_memlock_free(struct job_memlock *m)
{
	free(m->slurmd_unit);
	free(m->slurmd_limit.source);
	free(m->manager_default.source);
	for (size_t i = 0; i < m->n_lines; i++) {
		free(m->lines[i].file);
		free(m->lines[i].domain);
		free(m->lines[i].value);
	}
	free(m->lines);
	free(m->unreadable);
	memset(m, 0, sizeof(*m));
}

void dev_access_free(struct dev_access *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n_nodes; i++)
		dev_node_free(&a->nodes[i]);
	free(a->nodes);
	accounts_free(&a->accounts);
	job_memlock_free(&a->memlock);
	free(a);
}

static const struct account_user *find_user(const struct accounts *a, const char *name)
{
	for (size_t i = 0; i < a->n_users; i++)
		if (strcmp(a->users[i].name, name) == 0)
			return &a->users[i];
	return NULL;
}

static const struct account_group *find_group(const struct accounts *a, const char *name)
{
	for (size_t i = 0; i < a->n_groups; i++)
		if (strcmp(a->groups[i].name, name) == 0)
			return &a->groups[i];
	return NULL;
}

static void add_gid(struct job_identity *who, uint32_t gid)
{
	for (size_t i = 0; i < who->n_gids; i++)
		if (who->gids[i] == gid)
			return;
	if (who->n_gids < sizeof(who->gids) / sizeof(who->gids[0]))
		who->gids[who->n_gids++] = gid;
}

static bool is_member(const struct account_group *g, const char *user)
{
	for (size_t k = 0; k < g->n_members; k++)
		if (strcmp(g->members[k], user) == 0)
			return true;
	return false;
}

int job_identity_resolve(const struct accounts *a, const char *user, const char *group,
			 struct job_identity *who)
{
	memset(who, 0, sizeof(*who));
	who->user = user;
	who->group = group;
	who->any = !user && !group;
	who->uid = UINT32_MAX;	/* not the owner of anything, not root */
	if (who->any) {
		who->known = true;
		return 0;
	}
	if (user) {
		const struct account_user *u = find_user(a, user);

		if (!u)
			return -ENOENT;
		who->uid = u->uid;
		add_gid(who, u->gid);
		/* supplementary groups: etc/group's member lists, as initgroups */
		for (size_t i = 0; i < a->n_groups; i++)
			if (is_member(&a->groups[i], user))
				add_gid(who, a->groups[i].gid);
	}
	if (group) {
		const struct account_group *g = find_group(a, group);

		if (!g)
			return -ENOENT;
		add_gid(who, g->gid);
	}
	who->known = true;
	return 0;
}

static bool in_gids(const struct job_identity *who, uint32_t gid)
{
	for (size_t i = 0; i < who->n_gids; i++)
		if (who->gids[i] == gid)
			return true;
	return false;
}

#define RW 6u

/* fs/posix_acl.c posix_acl_permission: owner, named users (masked), then
 * every matching group entry (masked): one granting is enough, matching
 * without granting refuses; then other. */
static enum access_verdict acl_rw(const struct dev_node *d, const struct job_identity *who)
{
	const struct acl_entry *mask = NULL, *other = NULL;
	unsigned m = 7;
	bool group_matched = false;

	for (size_t i = 0; i < d->n_acl; i++) {
		if (d->acl[i].tag == ACL_TAG_MASK)
			mask = &d->acl[i];
		else if (d->acl[i].tag == ACL_TAG_OTHER)
			other = &d->acl[i];
	}
	if (mask)
		m = mask->perm;
	if (!who->any) {
		for (size_t i = 0; i < d->n_acl; i++) {
			const struct acl_entry *e = &d->acl[i];

			if (e->tag == ACL_TAG_USER_OBJ && who->uid == d->uid)
				return (e->perm & RW) == RW ? ACCESS_YES : ACCESS_NO;
			if (e->tag == ACL_TAG_USER && e->id == who->uid)
				return (e->perm & m & RW) == RW ? ACCESS_YES : ACCESS_NO;
		}
		for (size_t i = 0; i < d->n_acl; i++) {
			const struct acl_entry *e = &d->acl[i];
			uint32_t gid = e->tag == ACL_TAG_GROUP_OBJ ? d->gid : e->id;

			if (e->tag != ACL_TAG_GROUP_OBJ && e->tag != ACL_TAG_GROUP)
				continue;
			if (!in_gids(who, gid))
				continue;
			group_matched = true;
			if ((e->perm & m & RW) == RW)
				return ACCESS_YES;
		}
		if (group_matched)
			return ACCESS_NO;
	}
	if (!other)
		return ACCESS_UNKNOWN;
	return (other->perm & RW) == RW ? ACCESS_YES : ACCESS_NO;
}

enum access_verdict dev_node_rw(const struct dev_node *d, const struct job_identity *who)
{
	unsigned bits;

	if (d->present != 1 || !d->chr || !who->known)
		return ACCESS_UNKNOWN;
	if (!who->any && who->user && who->uid == 0)
		return ACCESS_YES;	/* CAP_DAC_OVERRIDE */
	if (d->has_acl < 0)
		return ACCESS_UNKNOWN;
	if (d->has_acl > 0)
		return acl_rw(d, who);
	if (!who->any && who->user && who->uid == d->uid)
		bits = d->mode >> 6;
	else if (!who->any && in_gids(who, d->gid))
		bits = d->mode >> 3;
	else
		bits = d->mode;
	return (bits & RW) == RW ? ACCESS_YES : ACCESS_NO;
}

/* pam_limits' sources, best first (LIMITS_DEF_USER, _GROUP, _DEFAULT). */
enum { SRC_USER = 0, SRC_GROUP = 1, SRC_DEFAULT = 4, SRC_NONE = 6 };

/* "1000:", ":1000", "1000:2000" after an optional '@': -1 malformed (pam
 * skips the line), 0 not a range, 1 a range in *lo..*hi. */
static int uid_range(const char *domain, uint32_t *lo, uint32_t *hi)
{
	const char *s = domain, *colon = strchr(domain, ':');
	char *e;

	if (!colon)
		return 0;
	if (*s == '@' || *s == '%')
		s++;
	*lo = 0;
	*hi = UINT32_MAX;
	if (*s != ':') {
		unsigned long v = strtoul(s, &e, 10);

		if (e == s || *e != ':' || v > UINT32_MAX)
			return -1;
		*lo = (uint32_t)v;
	}
	if (colon[1]) {
		unsigned long v = strtoul(colon + 1, &e, 10);

		if (e == colon + 1 || *e || v > UINT32_MAX)
			return -1;
		*hi = (uint32_t)v;
		if (*s == ':')
			*lo = *hi;
	} else if (*s == ':') {
		return -1;
	}
	return 1;
}

static bool user_in_group(const struct accounts *a, const struct job_identity *who,
			  const char *name)
{
	const struct account_group *g = find_group(a, name);

	return g && in_gids(who, g->gid);
}

/* The source a line applies to who with, or SRC_NONE. */
static int line_source(const struct memlock_line *l, const struct accounts *a,
		       const struct job_identity *who)
{
	uint32_t lo, hi;
	int range = uid_range(l->domain, &lo, &hi);
	bool named = !who->any && who->user;

	if (range < 0)
		return SRC_NONE;
	if (named && strcmp(l->domain, who->user) == 0)
		return SRC_USER;
	if (l->domain[0] == '@') {
		if (who->any)
			return SRC_NONE;
		if (range == 0)
			return user_in_group(a, who, l->domain + 1) ? SRC_GROUP : SRC_NONE;
		/* a gid range: the primary group only, as pam_limits */
		if (lo == hi)
			return in_gids(who, hi) ? SRC_GROUP : SRC_NONE;
		return who->n_gids && who->gids[0] >= lo && who->gids[0] <= hi ? SRC_GROUP :
		       SRC_NONE;
	}
	if (l->domain[0] == '%')
		return SRC_NONE;	/* maxlogins only */
	if (range == 0)
		return strcmp(l->domain, "*") == 0 ? SRC_DEFAULT : SRC_NONE;
	if (!named)
		return SRC_NONE;
	return who->uid >= lo && who->uid <= hi ? SRC_USER : SRC_NONE;
}

void pam_memlock_eval(const struct memlock_line *lines, size_t n, const struct accounts *a,
		      const struct job_identity *who, struct pam_memlock *out)
{
	int src_soft = SRC_NONE, src_hard = SRC_NONE;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct memlock_line *l = &lines[i];
		int src = line_source(l, a, who);

		if (src == SRC_NONE)
			continue;
		if (l->no_limits) {
			/* "<domain> -" for "*" is no line pam takes (only a user's own,
			 * a group's or a uid range's) */
			if (src == SRC_DEFAULT)
				continue;
			memset(out, 0, sizeof(*out));
			out->no_limits = l;
			return;
		}
		/* process_limit: a worse source than the one set returns at once,
		 * before a "-" line reaches its hard half */
		if (l->soft) {
			if (src_soft < src)
				continue;
			out->soft = l;
			out->soft_bytes = l->bytes;
			src_soft = src;
		}
		if (l->hard) {
			if (src_hard < src)
				continue;
			out->hard = l;
			out->hard_bytes = l->bytes;
			src_hard = src;
		}
	}
	/* setup_limits: a soft limit above the hard one is lowered to it */
	if (out->soft && out->hard && out->soft_bytes > out->hard_bytes)
		out->soft_bytes = out->hard_bytes;
}
