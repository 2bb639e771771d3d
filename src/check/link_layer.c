/* port.link_layer: a rail port, or a card in a rail's place, that runs the
 * other link layer than the profile's [rail] link_layer.  On VPI cards the
 * link layer is a firmware setting (mlxconfig LINK_TYPE_P<n>), and a card
 * left in the wrong one is a classic acceptance fault: roles.c does not
 * count it as a rail, so nic.count shows the rail missing and this finding
 * says why. */
#include "families.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* What mlxconfig's -d takes for the card: the PCI address of its function
 * 0, where the firmware settings of every port live; without a PCI address
 * the RDMA device name, which mlxconfig takes as well. */
static void card_address(char *buf, size_t len, const struct nic *n)
{
	const char *dot = n->has_pci && n->pci.bdf ? strrchr(n->pci.bdf, '.') : NULL;

	if (dot)
		snprintf(buf, len, "%.*s.0", (int)(dot - n->pci.bdf), n->pci.bdf);
	else if (n->has_pci && n->pci.bdf)
		snprintf(buf, len, "%s", n->pci.bdf);
	else
		snprintf(buf, len, "%s", n->name);
}

/* The card's port that LINK_TYPE_P<n> names: a function with several ports
 * (mlx4) numbers them itself; a single-port function (mlx5) is the card's
 * port (function + 1), as a dual-port card's functions .0 and .1 are its
 * ports 1 and 2. */
static int card_port(const struct nic *n, const struct port *pt)
{
	const char *dot = n->has_pci && n->pci.bdf ? strrchr(n->pci.bdf, '.') : NULL;

	if (n->n_ports > 1 || !dot || dot[1] < '0' || dot[1] > '7' || dot[2])
		return pt->num;
	return dot[1] - '0' + 1;
}

static int wrong_port(const struct check_ctx *c, struct findings *out, size_t i,
		      const struct port *pt, const char *want)
{
	const struct nic *n = &c->inv->nics[i];
	bool ib = strcasecmp(want, "InfiniBand") == 0;
	char card[64];
	struct finding *f;

	f = check_add(c, out, "port.link_layer", SEV_ERROR,
		      "A rail in the other link layer cannot join the rail fabric: NCCL has no "
		      "path to the other machines through it, so its GPU's traffic crowds onto "
		      "another NIC, or the job fails.");
	if (!f)
		return -ENOMEM;
	card_address(card, sizeof(card), n);
	finding_set(&f->subject, "%s port %d", n->name, pt->num);
	finding_set(&f->observed, "link layer %s%s", pt->link_layer,
		    check_is_rail(c, i) ? "" : "; not counted as a rail");
	finding_set(&f->expected, "link layer %s, as the profile's rails", want);
	finding_set(&f->fix,
		    "set the port to %s in the card's firmware: `mlxconfig -d %s set "
		    "LINK_TYPE_P%d=%d` (1 InfiniBand, 2 Ethernet), then `mlxfwreset -d %s reset` "
		    "or a cold reboot; `ibv_devinfo -d %s` then shows link_layer: %s (a card "
		    "whose mlxconfig has no LINK_TYPE is not VPI: replace it with one of %s)",
		    want, card, card_port(n, pt), ib ? 1 : 2, card, n->name, want, want);
	return 0;
}

int check_link_layer(const struct check_ctx *c, struct findings *out)
{
	const struct inventory *inv = c->inv;

	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		if (check_nic_is_software(n))
			continue;
		for (size_t p = 0; p < n->n_ports; p++)
			if (check_port_wrong_link(c, i, &n->ports[p]))
				CHECK_TRY(wrong_port(c, out, i, &n->ports[p],
						     c->p->role[ROLE_RAIL].link_layer));
	}
	return 0;
}
