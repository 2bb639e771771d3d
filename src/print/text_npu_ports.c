/* What gids and topo say on an Ascend machine without RDMA verbs devices:
 * its network is the NPUs' own RoCE ports, which hccn_tool manages and no
 * verbs table lists, so an empty GID table or GPU x NIC matrix would look
 * like a machine without a network. */
#include "text.h"
#include "text_printf.h"

bool text_npu_only(const struct inventory *inv)
{
	return !inv->n_nics && (inv->npu.n || inv->npu.n_pci);
}

void text_npu_ports(FILE *out, const struct inventory *inv)
{
	const struct npu_inventory *ni = &inv->npu;

	fputs("no RDMA verbs devices; the NPU RoCE ports are managed by hccn_tool "
	      "(`hccn_tool -i N -ip -g`): see `rdmadoctor inventory`\n", out);
	if (!ni->n) {
		text_printf(out, "  %zu Ascend NPU PCI function%s, none listed by npu-smi\n", ni->n_pci,
			ni->n_pci == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < ni->n; i++) {
		const struct npu *n = &ni->v[i];
		const struct npu_port *p = &n->port;

		text_printf(out, "  npu%-3lld %-12s pci %-13s port %-4s", (long long)n->id,
			n->model ? n->model : "?", n->pci && n->pci->bdf ? n->pci->bdf : "?",
			!n->port_read || p->link_up < 0 ? "?" : p->link_up ? "UP" : "DOWN");
		if (p->ipaddr)
			text_printf(out, "  ip %s/%s", p->ipaddr, p->netmask ? p->netmask : "?");
		else
			fputs(p->ip_unset ? "  ip none" : "  ip ?", out);
		if (!IS_NA(n->card))
			text_printf(out, "  (NPU %lld die %lld)", (long long)n->card, (long long)n->die);
		fputc('\n', out);
	}
}
