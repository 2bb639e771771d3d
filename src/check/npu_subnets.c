/* npu.subnets: the NPU ports' addresses against the subnet plan (the
 * profile's npu_subnets, docs/profiles.md):
 *   pairs  NPU 0&4, 1&5, 2&6, 3&7 share a subnet, four different ones
 *          (Atlas 800 model 9000 / 9010)
 *   one    every port in one subnet (Atlas 800T A2)
 *   dies   the two dies of an NPU in different subnets (Atlas A3; also
 *          wherever npu-smi lists two-die NPUs, unless the profile plans
 *          otherwise)
 * The finding names only the ports at fault and the subnet each should be
 * in: the one most of its peers share (the whole machine's, or that of the
 * other NPUs' same die).  Sixteen addresses of which two are wrong hide
 * the two. */
#include "families.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct net {
	uint32_t net, mask;	/* host order */
};

/* The subnet of a port's address; false when not known. */
static bool subnet_of(const struct npu *n, struct net *out)
{
	struct in_addr a, m;

	if (!n->port.ipaddr || !n->port.netmask || inet_pton(AF_INET, n->port.ipaddr, &a) != 1 ||
	    inet_pton(AF_INET, n->port.netmask, &m) != 1)
		return false;
	out->mask = ntohl(m.s_addr);
	out->net = ntohl(a.s_addr) & out->mask;
	return true;
}

static bool same_net(struct net a, struct net b)
{
	return a.net == b.net && a.mask == b.mask;
}

/* "10.21.0.0/24", or "10.21.0.0/255.255.0.255" for a mask with holes. */
static void net_str(char *buf, size_t len, struct net n)
{
	struct in_addr a = { htonl(n.net) }, m = { htonl(n.mask) };
	char addr[INET_ADDRSTRLEN], mask[INET_ADDRSTRLEN];
	int bits = __builtin_popcount(n.mask);

	inet_ntop(AF_INET, &a, addr, sizeof(addr));
	if (bits == 32 || n.mask == ~(UINT32_MAX >> bits)) {
		snprintf(buf, len, "%s/%d", addr, bits);
		return;
	}
	inet_ntop(AF_INET, &m, mask, sizeof(mask));
	snprintf(buf, len, "%s/%s", addr, mask);
}

/* The subnet most ports share, of the NPUs with die index die (NA: all);
 * of two as common, the first seen.  How many ports are in it (0: no
 * port's subnet is known). */
static size_t majority(const struct npu_inventory *ni, int64_t die, struct net *out)
{
	size_t best = 0;

	for (size_t i = 0; i < ni->n; i++) {
		struct net a, b;
		size_t k = 0;

		if ((!IS_NA(die) && ni->v[i].die != die) || !subnet_of(&ni->v[i], &a))
			continue;
		for (size_t j = 0; j < ni->n; j++)
			if ((IS_NA(die) || ni->v[j].die == die) && subnet_of(&ni->v[j], &b) &&
			    same_net(a, b))
				k++;
		if (k > best) {
			best = k;
			*out = a;
		}
	}
	return best;
}

static const struct npu *npu_by_id(const struct npu_inventory *ni, int64_t id)
{
	for (size_t i = 0; i < ni->n; i++)
		if (ni->v[i].id == id)
			return &ni->v[i];
	return NULL;
}

/* "npu7 10.20.0.57/255.255.255.0" */
static void say_port(struct check_buf *b, const char *sep, const struct npu *n)
{
	check_buf_printf(b, "%snpu%lld %s/%s", sep, (long long)n->id, n->port.ipaddr,
			 n->port.netmask ? n->port.netmask : "?");
}

#define SUBNETS_WHY "HCCL pairs NPU ports by their subnet plan: a port in the wrong " \
		    "subnet cannot reach its peers on the other machines."
#define DIES_WHY "Huawei's rule for two-die NPUs: with both dies of an NPU in one " \
		 "subnet their ports cannot reach their peers (hccn_tool's ping fails)."

static int finding(const struct check_ctx *c, struct findings *out, struct check_buf *obs,
		   struct check_buf *exp, const char *why)
{
	struct finding *f = check_add(c, out, "npu.subnets", SEV_ERROR, why);

	if (!f) {
		check_buf_free(obs);
		check_buf_free(exp);
		return -ENOMEM;
	}
	finding_set(&f->subject, "NPUs");
	check_buf_take(obs, &f->observed);
	check_buf_take(exp, &f->expected);
	finding_set(&f->fix, "give each NPU named the address of the plan with `hccn_tool -i N "
		    "-ip -s address A netmask M` and write the same into /etc/hccn.conf");
	return 0;
}

/* one: the ports outside the subnet most of them are in */
static int one_subnet(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	struct check_buf obs = { 0 }, exp = { 0 };
	struct net most, a;
	char want[48];
	size_t odd = 0, in = majority(ni, NA, &most);

	if (!in)
		return 0;
	net_str(want, sizeof(want), most);
	for (size_t i = 0; i < ni->n; i++)
		if (subnet_of(&ni->v[i], &a) && !same_net(a, most))
			say_port(&obs, odd++ ? ", " : "more than one subnet: ", &ni->v[i]);
	if (!odd)
		return 0;
	check_buf_printf(&obs, " outside %s (where %zu NPU port%s)", want, in,
			 in == 1 ? " is" : "s are");
	check_buf_printf(&exp, "every NPU port in one subnet (%s, where most are)", want);
	return finding(c, out, &obs, &exp, SUBNETS_WHY);
}

/* pairs: NPU i and i+4 share a subnet, the four pairs in four */
static int pair_subnets(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	struct check_buf obs = { 0 }, exp = { 0 };
	struct net nets[4];
	bool known[4] = { false };
	char na_s[48], nb_s[48];

	for (int64_t i = 0; i < 4; i++) {
		const struct npu *a = npu_by_id(ni, i), *b = npu_by_id(ni, i + 4);
		struct net na, nb;

		if (!a || !b || !subnet_of(a, &na) || !subnet_of(b, &nb))
			continue;
		if (!same_net(na, nb)) {
			net_str(na_s, sizeof(na_s), na);
			net_str(nb_s, sizeof(nb_s), nb);
			check_buf_printf(&obs, "%snpu%lld and npu%lld in different subnets (%s, %s)",
					 obs.len ? "; " : "", (long long)i, (long long)(i + 4),
					 na_s, nb_s);
		}
		nets[i] = na;
		known[i] = true;
	}
	for (int i = 0; i < 4; i++)
		for (int k = i + 1; k < 4; k++)
			if (known[i] && known[k] && same_net(nets[i], nets[k])) {
				net_str(na_s, sizeof(na_s), nets[i]);
				check_buf_printf(&obs, "%spairs %d&%d and %d&%d share a subnet (%s)",
						 obs.len ? "; " : "", i, i + 4, k, k + 4, na_s);
			}
	if (!obs.len && !obs.nomem)
		return 0;
	check_buf_printf(&exp, "four subnets: NPU 0&4, 1&5, 2&6, 3&7 each in its own");
	return finding(c, out, &obs, &exp, SUBNETS_WHY);
}

/* dies: an NPU whose two dies share a subnet; of its dies, those outside
 * the subnet most NPUs' same die is in are the ones to move */
static int die_subnets(const struct check_ctx *c, struct findings *out)
{
	const struct npu_inventory *ni = &c->inv->npu;
	struct check_buf obs = { 0 }, exp = { 0 }, odd = { 0 };
	struct net dies[2];
	bool known[2];
	char want[48];

	for (int d = 0; d < 2; d++)
		known[d] = majority(ni, d, &dies[d]);
	for (size_t i = 0; i < ni->n; i++) {
		const struct npu *a = &ni->v[i];
		struct net na, nb;

		if (IS_NA(a->card) || !subnet_of(a, &na))
			continue;
		for (size_t k = i + 1; k < ni->n; k++) {
			const struct npu *b = &ni->v[k];

			if (b->card != a->card || !subnet_of(b, &nb) || !same_net(na, nb))
				continue;
			check_buf_printf(&obs, "%snpu%lld and npu%lld (NPU %lld, dies %lld and %lld) "
					 "in one subnet", obs.len ? "; " : "", (long long)a->id,
					 (long long)b->id, (long long)a->card, (long long)a->die,
					 (long long)b->die);
			/* the die out of its place: named with where it belongs */
			for (const struct npu *n = a; n; n = n == a ? b : NULL) {
				if (n->die < 0 || n->die > 1 || !known[n->die] ||
				    same_net(n == a ? na : nb, dies[n->die]))
					continue;
				net_str(want, sizeof(want), dies[n->die]);
				say_port(&odd, odd.len ? ", " : "", n);
				check_buf_printf(&odd, " (die %lld belongs in %s)", (long long)n->die,
						 want);
			}
		}
	}
	if (!obs.len && !obs.nomem) {
		check_buf_free(&odd);
		return 0;
	}
	if (odd.len)
		check_buf_printf(&obs, ": %s", check_buf_str(&odd));
	check_buf_free(&odd);
	check_buf_printf(&exp, "the two dies of each NPU in different subnets");
	for (int d = 0, said = 0; d < 2; d++) {
		if (!known[d])
			continue;
		net_str(want, sizeof(want), dies[d]);
		check_buf_printf(&exp, "%s die %d in %s", said++ ? "," : " (as most NPUs have them:",
				 d, want);
	}
	if (known[0] || known[1])
		check_buf_printf(&exp, ")");
	return finding(c, out, &obs, &exp, DIES_WHY);
}

static bool has_dies(const struct npu_inventory *ni)
{
	for (size_t i = 0; i < ni->n; i++)
		if (!IS_NA(ni->v[i].card))
			return true;
	return false;
}

int check_npu_subnets(const struct check_ctx *c, struct findings *out)
{
	const struct npu_spec *spec = c->p ? &c->p->npu : NULL;
	const char *plan = spec ? spec->subnets : NULL;

	/* the die rule is the hardware's, so it holds unless the profile
	 * plans the subnets otherwise */
	if (plan && strcmp(plan, "one") == 0)
		return one_subnet(c, out);
	if (plan && strcmp(plan, "pairs") == 0)
		return pair_subnets(c, out);
	if (plan || has_dies(&c->inv->npu))
		return die_subnets(c, out);
	return 0;
}
