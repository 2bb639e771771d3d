/* The judge of a job's NCCL environment against the machine (env_judge.h):
 * here the ports the job's NCCL uses, NCCL_IB_HCA (nccl.hca_unknown,
 * hca_down, hca_storage, hca_missing) and NCCL_SOCKET_IFNAME
 * (nccl.ifname_down); the numbers are in env_judge_num.c.
 *
 * NCCL_IB_HCA is matched as NCCL does (nccl/if_list.c cites it): without
 * "=" each name is a prefix, so "mlx5_1" also picks mlx5_10..mlx5_19 and
 * a storage NIC can come in by a rail's name.  What the facts could not
 * say (a port state -1) is an unchecked info, never a pass.
 *
 * HCCL_RDMA_TC / HCCL_RDMA_SL (hccl.tc_no_pfc, hccl.sl_no_pfc) are not
 * judged here: struct nccl_facts carries no NPU port's PFC. */
#include "env_judge.h"
#include "env_judge_priv.h"
#include "if_list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct finding *judge_add(struct judge *j, const char *id, enum severity sev, const char *why,
			  const struct nccl_port *pt)
{
	struct finding *f = finding_add(j->out, id, sev, why);

	if (f && pt)
		finding_set(&f->subject, "%s port %d", pt->dev, pt->port);
	return f;
}

int judge_done(const struct finding *f)
{
	return f->subject && f->observed && f->expected && f->fix ? 0 : -ENOMEM;
}

const char *judge_at(const struct nccl_env *env, const char *name, char *buf)
{
	buf[0] = '\0';
	for (size_t i = 0; i < env->n; i++)
		if (strcmp(env->v[i].name, name) == 0 && env->v[i].line)
			snprintf(buf, JUDGE_AT_LEN, " (line %u)", env->v[i].line);
	return buf;
}

int judge_malformed(struct judge *j, const char *name, const char *value, const char *expected,
		    const char *why_text)
{
	char at[JUDGE_AT_LEN];
	struct finding *f = finding_add(j->out, "nccl.malformed", SEV_ERROR,
					"NCCL reads a value it cannot parse as something else "
					"(atoi's 0, the default) or stops, so the job does not "
					"run as written.");

	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", name);
	finding_set(&f->observed, "%s=%s%s: %s", name, value, judge_at(j->env, name, at),
		    why_text);
	finding_set(&f->expected, "%s", expected);
	finding_set(&f->fix, "write %s as %s, or leave it unset (`rdmadoctor nccl` prints "
		    "the value for this machine)", name, expected);
	return judge_done(f);
}

static const char *role_word(const struct nccl_port *pt)
{
	return pt->role == ROLE_RAIL ? "rail" : pt->role == ROLE_STORAGE ? "storage" : "neither rail nor storage";
}

/* The entry of l that names pt, or NULL (what hca_* findings quote). */
static const struct if_entry *naming(const struct if_list *l, const struct nccl_port *pt)
{
	for (size_t i = 0; i < l->n; i++)
		if (if_entry_matches(&l->e[i], l->exact, pt->dev, pt->port))
			return &l->e[i];
	return NULL;
}

/* "mlx5_1" or "mlx5_1:1", as written */
static void entry_text(const struct if_entry *e, char *buf, size_t len)
{
	if (e->port < 0)
		snprintf(buf, len, "%s", e->name);
	else
		snprintf(buf, len, "%s:%d", e->name, e->port);
}

/* What picked pt: the entry, and when it picked by prefix a longer name,
 * that it is a prefix. */
static void picked_by(const struct if_list *l, const struct nccl_port *pt, char *buf, size_t len)
{
	const struct if_entry *e = naming(l, pt);
	char t[IF_NAME_MAX + 16];

	if (l->exclude) {
		snprintf(buf, len, "no '^' entry excludes it");
		return;
	}
	if (!e) {
		snprintf(buf, len, "selected");
		return;
	}
	entry_text(e, t, sizeof(t));
	if (!l->exact && strcmp(e->name, pt->dev) != 0)
		snprintf(buf, len, "'%s' selects it: without a leading '=' a name is a prefix, "
			 "so '%s' also selects %s", t, e->name, pt->dev);
	else
		snprintf(buf, len, "'%s' selects it", t);
}

/* Every storage device l selects ("mlx5_1,mlx5_2"), or every rail port
 * that is up and l leaves out ("mlx5_3:1,mlx5_4:1"), comma-separated as
 * NCCL_IB_HCA takes them: the one list each such finding's fix names, so
 * that the value to type is whole in every one of them (and prints whole
 * when the text printer groups them).  malloc'd; NULL without memory. */
static char *hca_list(const struct judge *j, const struct if_list *l, bool storage)
{
	char *s = NULL;
	size_t len = 0, n = 0;
	FILE *m = open_memstream(&s, &len);

	if (!m)
		return NULL;
	for (size_t k = 0; k < j->f->n_ports; k++) {
		const struct nccl_port *pt = &j->f->ports[k];
		bool sel = if_list_selects(l, pt->dev, pt->port), seen = false;

		if (storage) {
			if (!sel || pt->role != ROLE_STORAGE)
				continue;
			for (size_t i = 0; i < k && !seen; i++)	/* a device once */
				seen = strcmp(j->f->ports[i].dev, pt->dev) == 0 &&
				       j->f->ports[i].role == ROLE_STORAGE &&
				       if_list_selects(l, j->f->ports[i].dev, j->f->ports[i].port);
			if (!seen)
				fprintf(m, "%s%s", n++ ? "," : "", pt->dev);
		} else if (!sel && pt->role == ROLE_RAIL && pt->up == 1) {
			fprintf(m, "%s%s:%d", n++ ? "," : "", pt->dev, pt->port);
		}
	}
	if (fclose(m) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

static int hca_unknown(struct judge *j, const struct if_list *l, const char *value)
{
	char at[JUDGE_AT_LEN], t[IF_NAME_MAX + 16];

	/* a "^" entry that names nothing excludes nothing: what the job
	 * then uses is judged port by port below */
	if (l->exclude)
		return 0;
	for (size_t i = 0; i < l->n; i++) {
		bool any = false;
		struct finding *f;

		for (size_t k = 0; k < j->f->n_ports && !any; k++)
			any = if_entry_matches(&l->e[i], l->exact, j->f->ports[k].dev,
					       j->f->ports[k].port);
		if (any)
			continue;
		entry_text(&l->e[i], t, sizeof(t));
		f = finding_add(j->out, "nccl.hca_unknown", SEV_ERROR,
				"NCCL skips a name that matches no device: the job runs on fewer "
				"HCAs than it names, or with none falls back to TCP sockets.");
		if (!f)
			return -ENOMEM;
		finding_set(&f->subject, "%s", t);
		finding_set(&f->observed, "NCCL_IB_HCA=%s%s names %s, which this machine does "
			    "not have", value, judge_at(j->env, "NCCL_IB_HCA", at), t);
		finding_set(&f->expected, "only devices and ports this machine has (`rdmadoctor "
			    "inventory`)");
		finding_set(&f->fix, "correct the name (devices are renamed by udev and "
			    "differ between machine models: a node image shared across them "
			    "needs the rails named per model); `rdmadoctor nccl` prints the "
			    "list for this machine");
		if (judge_done(f) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* One port the job's list selects. */
static int hca_port(struct judge *j, const struct if_list *l, const char *value,
		    const char *storage, size_t k)
{
	const struct nccl_port *pt = &j->f->ports[k];
	char at[JUDGE_AT_LEN], by[IF_NAME_MAX * 2 + 160];
	struct finding *f;

	judge_at(j->env, "NCCL_IB_HCA", at);
	picked_by(l, pt, by, sizeof(by));
	if (pt->role == ROLE_STORAGE) {
		f = judge_add(j, "nccl.hca_storage", SEV_WARN,
			      "Collective traffic on a storage NIC competes with the job's own "
			      "checkpoints and data loading, and that NIC is usually not on the "
			      "compute fabric's rail-optimised switches.", pt);
		if (!f)
			return -ENOMEM;
		finding_set(&f->observed, "NCCL_IB_HCA=%s%s: %s, a storage NIC", value, at, by);
		finding_set(&f->expected, "only rail NICs");
		finding_set(&f->fix, "name the rails with '=' and their ports (`rdmadoctor "
			    "nccl` prints them), or exclude the storage NIC%s with "
			    "NCCL_IB_HCA=^=%s", strchr(storage, ',') ? "s" : "", storage);
		if (judge_done(f) < 0)
			return -ENOMEM;
	}
	/* a port picked by a prefix or by not being excluded is one NCCL
	 * skips while it is down, as it should; one named is a mistake */
	if (pt->up == 1 || l->exclude || !naming(l, pt) ||
	    (!l->exact && strcmp(naming(l, pt)->name, pt->dev) != 0))
		return 0;
	if (pt->up < 0) {
		f = judge_add(j, "nccl.hca_down", SEV_INFO,
			      "The port's state could not be read, so whether NCCL can use it "
			      "was not checked.", pt);
		if (!f)
			return -ENOMEM;
		f->unchecked = true;
		finding_set(&f->observed, "NCCL_IB_HCA=%s%s names it; its state is unknown",
			    value, at);
		finding_set(&f->expected, "ACTIVE and LinkUp (not checked)");
		finding_set(&f->fix, "read it as root, or `ibstat %s %d`", pt->dev, pt->port);
		return judge_done(f);
	}
	f = judge_add(j, "nccl.hca_down", SEV_ERROR,
		      "NCCL uses only ACTIVE ports: a down one named in NCCL_IB_HCA leaves "
		      "the job a rail short (or, alone, without RDMA).", pt);
	if (!f)
		return -ENOMEM;
	finding_set(&f->observed, "NCCL_IB_HCA=%s%s names it; the port is down (a %s port)",
		    value, at, role_word(pt));
	finding_set(&f->expected, "ACTIVE and LinkUp");
	finding_set(&f->fix, "bring the link up (`rdmadoctor check` says why it is down), or "
		    "leave the port out of NCCL_IB_HCA until it is");
	return judge_done(f);
}

static int hca_missing(struct judge *j, const char *value, const char *missing, size_t k)
{
	const struct nccl_port *pt = &j->f->ports[k];
	char at[JUDGE_AT_LEN];
	struct finding *f = judge_add(j, "nccl.hca_missing", SEV_WARN,
				      "A rail NCCL_IB_HCA leaves out carries nothing: the job "
				      "gets that much less bandwidth, and the GPU next to it "
				      "sends through a farther NIC.", pt);

	if (!f)
		return -ENOMEM;
	finding_set(&f->observed, "NCCL_IB_HCA=%s%s does not select this rail port, which is up",
		    value, judge_at(j->env, "NCCL_IB_HCA", at));
	finding_set(&f->expected, "every rail port that is up");
	finding_set(&f->fix, "add %s to NCCL_IB_HCA (`rdmadoctor nccl` prints the whole "
		    "list)", missing);
	return judge_done(f);
}

/* NCCL_IB_HCA, and which ports the job uses (j->used). */
static int judge_hca(struct judge *j)
{
	const char *value = nccl_env_get(j->env, "NCCL_IB_HCA");
	char err[200], *storage, *missing;
	struct if_list *l;
	int rc = 0;

	if (!value || !*value) {
		for (size_t k = 0; k < j->f->n_ports; k++)
			j->used[k] = j->f->ports[k].role == ROLE_RAIL && j->f->ports[k].up != 0;
		return 0;
	}
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	if (if_list_parse(value, l, err, sizeof(err)) < 0) {
		free(l);
		for (size_t k = 0; k < j->f->n_ports; k++)
			j->used[k] = j->f->ports[k].role == ROLE_RAIL && j->f->ports[k].up != 0;
		return judge_malformed(j, "NCCL_IB_HCA", value,
				       "an optional '^' then '=', and a comma list of dev[:port]",
				       err);
	}
	storage = hca_list(j, l, true);
	missing = hca_list(j, l, false);
	rc = storage && missing ? hca_unknown(j, l, value) : -ENOMEM;
	for (size_t k = 0; k < j->f->n_ports && rc == 0; k++) {
		const struct nccl_port *pt = &j->f->ports[k];
		bool sel = if_list_selects(l, pt->dev, pt->port);

		j->used[k] = sel && pt->up != 0;
		if (sel)
			rc = hca_port(j, l, value, storage, k);
		else if (pt->role == ROLE_RAIL && pt->up == 1)
			rc = hca_missing(j, value, missing, k);
	}
	free(storage);
	free(missing);
	free(l);
	return rc;
}

/* NCCL_SOCKET_IFNAME against the host's interfaces, when they were read:
 * an entry that matches none, or only interfaces that are down, leaves
 * NCCL nothing to bootstrap on.  0, 1 (judged), or -ENOMEM. */
static int ifname_on_host(struct judge *j, const struct if_entry *e, bool exact,
			  const char *value, const char *at, const char *t)
{
	bool any = false, up = false, unknown = false;
	const char *down = NULL;
	struct finding *f;

	if (!j->f->netdevs_read)
		return 0;
	for (size_t k = 0; k < j->f->n_netdevs; k++) {
		const struct host_netdev *d = &j->f->netdevs[k];

		if (!if_entry_matches(e, exact, d->name, -1))
			continue;
		any = true;
		up |= d->up == 1;
		unknown |= d->up < 0;
		if (d->up == 0 && !down)
			down = d->name;
	}
	if (up || (any && unknown))
		return any && !up ? 0 : 1;	/* a state unknown: said below */
	f = finding_add(j->out, "nccl.ifname_down", SEV_ERROR,
			"NCCL bootstraps over the interfaces NCCL_SOCKET_IFNAME names: with "
			"none up, ranks cannot find each other and the job hangs at init.");
	if (!f)
		return -ENOMEM;
	finding_set(&f->subject, "%s", down ? down : t);
	if (down)
		finding_set(&f->observed, "NCCL_SOCKET_IFNAME=%s%s names %s, which is down",
			    value, at, down);
	else
		finding_set(&f->observed, "NCCL_SOCKET_IFNAME=%s%s names %s, which this host "
			    "does not have", value, at, t);
	finding_set(&f->expected, "an interface that is up");
	finding_set(&f->fix, "name an interface that is up and reaches the other nodes (`ip -br "
		    "link`; often the management or a bond interface), or leave "
		    "NCCL_SOCKET_IFNAME unset");
	return judge_done(f) < 0 ? -ENOMEM : 1;
}

/* NCCL_SOCKET_IFNAME: judged against the host's interfaces where they
 * were read, else against the RDMA ports' netdevs only, where a name that
 * matches none is not known to be absent. */
static int judge_ifname(struct judge *j)
{
	const char *value = nccl_env_get(j->env, "NCCL_SOCKET_IFNAME");
	char err[200], at[JUDGE_AT_LEN], t[IF_NAME_MAX + 16];
	struct if_list *l;
	int rc = 0;

	if (!value || !*value)
		return 0;
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	if (if_list_parse(value, l, err, sizeof(err)) < 0) {
		free(l);
		return judge_malformed(j, "NCCL_SOCKET_IFNAME", value,
				       "an optional '^' then '=', and a comma list of interface "
				       "names", err);
	}
	judge_at(j->env, "NCCL_SOCKET_IFNAME", at);
	/* an exclusion names what the job must not use: down is fine */
	for (size_t i = 0; i < l->n && !l->exclude && rc == 0; i++) {
		const struct nccl_port *down = NULL;
		bool up = false, known = false;
		struct finding *f;

		for (size_t k = 0; k < j->f->n_ports; k++) {
			const struct nccl_port *pt = &j->f->ports[k];

			if (!pt->netdev || !if_entry_matches(&l->e[i], l->exact, pt->netdev, -1))
				continue;
			known = true;
			if (pt->netdev_up == 1)
				up = true;
			else if (pt->netdev_up == 0)
				down = pt;
		}
		entry_text(&l->e[i], t, sizeof(t));
		rc = ifname_on_host(j, &l->e[i], l->exact, value, at, t);
		if (rc != 0) {
			rc = rc < 0 ? rc : 0;
			continue;
		}
		if (up)
			continue;
		if (!down) {
			f = finding_add(j->out, "nccl.ifname_down", SEV_INFO,
					"Only the RDMA NICs' interfaces are read, and only "
					"their state when it could be: this one was not "
					"checked.");
			if (!f) {
				rc = -ENOMEM;
				break;
			}
			f->unchecked = true;
			finding_set(&f->subject, "%s", t);
			finding_set(&f->observed, "NCCL_SOCKET_IFNAME=%s%s names %s, %s", value,
				    at, t, known ? "whose state is unknown"
						 : "not an RDMA NIC's interface");
			finding_set(&f->expected, "an interface that is up (not checked)");
			finding_set(&f->fix, "`ip -br link show` on the node: the interface must "
				    "exist and be UP with the address the job's peers reach");
			rc = judge_done(f);
			continue;
		}
		f = finding_add(j->out, "nccl.ifname_down", SEV_ERROR,
				"NCCL bootstraps over the interfaces NCCL_SOCKET_IFNAME names: "
				"with none up, ranks cannot find each other and the job hangs "
				"at init.");
		if (!f) {
			rc = -ENOMEM;
			break;
		}
		finding_set(&f->subject, "%s", down->netdev);
		finding_set(&f->observed, "NCCL_SOCKET_IFNAME=%s%s names %s, which is down",
			    value, at, down->netdev);
		finding_set(&f->expected, "an interface that is up");
		finding_set(&f->fix, "name an interface that is up and reaches the other nodes "
			    "(often the management or a bond interface), or leave "
			    "NCCL_SOCKET_IFNAME unset; `ip link set dev %s up` if it should be",
			    down->netdev);
		rc = judge_done(f);
	}
	free(l);
	return rc;
}

int nccl_env_judge(const struct nccl_facts *f, const struct nccl_env *env,
		   struct findings *out)
{
	struct judge j = { .f = f, .env = env, .out = out };
	int rc;

	j.used = calloc(f->n_ports + 1, sizeof(*j.used));
	if (!j.used)
		return -ENOMEM;
	rc = judge_hca(&j);
	if (rc == 0)
		rc = judge_gid_index(&j);
	if (rc == 0)
		rc = judge_tc(&j);
	if (rc == 0)
		rc = judge_sl(&j);
	if (rc == 0)
		rc = judge_ifname(&j);
	if (rc == 0)
		rc = judge_gdr_level(&j);
	if (rc == 0)
		rc = judge_hccl(&j);
	free(j.used);
	return rc;
}
