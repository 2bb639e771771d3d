/* FEC statistics of Ethernet links (labels device, port, netdev, pci; lane
 * for the per-lane families; low and high for the histogram), as counters:
 * Prometheus' rate() over them is the window.  The per-lane values are
 * families of their own so that summing a family never counts the total
 * twice.  A count the driver does not report is left out, never 0.  A RoCE
 * LAG's are its slaves', labelled with the slave's netdev.
 *
 *   rdmadoctor_port_fec_corrected_blocks_total          codewords corrected
 *   rdmadoctor_port_fec_uncorrectable_blocks_total      codewords lost
 *   rdmadoctor_port_fec_corrected_bit_errors_total      bits corrected
 *   rdmadoctor_port_fec_lane_..._total{lane}            the same per lane
 *   rdmadoctor_port_fec_histogram_codewords_total{low,high}
 *                 codewords with low..high symbols corrected (kernel 6.18) */
#include "families.h"

#include <stdio.h>

struct fec_at {
	const struct fec_stats *s;
	struct port_labels pl;
};

typedef void (*emit_fn)(struct expo *e, struct expo_fam *f, int k, const struct fec_at *at);

/* fn for every link with FEC statistics, in inventory order. */
static void each_link(const struct inventory *inv, emit_fn fn, struct expo *e,
		      struct expo_fam *f, int k)
{
	for (size_t i = 0; i < inv->n_nics; i++) {
		const struct nic *n = &inv->nics[i];

		for (size_t j = 0; j < n->n_ports; j++) {
			const struct port *p = &n->ports[j];
			struct fec_at at;

			if (p->link && p->link->fec_stats.have == 1) {
				port_labels_init(&at.pl, n, p);
				at.s = &p->link->fec_stats;
				fn(e, f, k, &at);
			}
			for (size_t m = 0; m < p->n_slaves; m++) {
				if (!p->slaves[m].link || p->slaves[m].link->fec_stats.have != 1)
					continue;
				port_labels_init(&at.pl, n, p);
				at.pl.l[2] = (struct expo_label){ "netdev", p->slaves[m].netdev };
				at.s = &p->slaves[m].link->fec_stats;
				fn(e, f, k, &at);
			}
		}
	}
}

static void total(struct expo *e, struct expo_fam *f, int k, const struct fec_at *at)
{
	if (at->s->c[k].n)
		expo_fam_sample_u64(e, f, at->pl.l, PORT_LABELS, at->s->c[k].v[0]);
}

static void lanes(struct expo *e, struct expo_fam *f, int k, const struct fec_at *at)
{
	for (size_t i = 1; i < at->s->c[k].n; i++) {
		struct port_labels pl = at->pl;
		char num[24];

		snprintf(num, sizeof(num), "%zu", i - 1);
		pl.l[PORT_LABELS] = (struct expo_label){ "lane", num };
		expo_fam_sample_u64(e, f, pl.l, PORT_LABELS + 1, at->s->c[k].v[i]);
	}
}

static void bins(struct expo *e, struct expo_fam *f, int k, const struct fec_at *at)
{
	(void)k;
	for (size_t i = 0; i < at->s->n_hist; i++) {
		struct port_labels pl = at->pl;
		char low[24], high[24];

		snprintf(low, sizeof(low), "%u", at->s->hist[i].low);
		snprintf(high, sizeof(high), "%u", at->s->hist[i].high);
		pl.l[PORT_LABELS] = (struct expo_label){ "low", low };
		pl.l[PORT_LABELS + 1] = (struct expo_label){ "high", high };
		expo_fam_sample_u64(e, f, pl.l, PORT_LABELS + 2, at->s->hist[i].val);
	}
}

void metrics_fec(struct expo *e, const struct inventory *inv)
{
	static const char *const names[FEC_COUNTERS][2] = {
		{ "rdmadoctor_port_fec_corrected_blocks_total",
		  "rdmadoctor_port_fec_lane_corrected_blocks_total" },
		{ "rdmadoctor_port_fec_uncorrectable_blocks_total",
		  "rdmadoctor_port_fec_lane_uncorrectable_blocks_total" },
		{ "rdmadoctor_port_fec_corrected_bit_errors_total",
		  "rdmadoctor_port_fec_lane_corrected_bit_errors_total" },
	};
	static const char *const helps[FEC_COUNTERS] = {
		"FEC codewords (blocks) corrected (ethtool -I --show-fec)",
		"FEC codewords (blocks) the FEC could not correct: errors that reached the MAC",
		"Bits the FEC corrected (over the bits carried: the pre-FEC BER)",
	};
	struct expo_fam h = { "rdmadoctor_port_fec_histogram_codewords_total", "counter",
			      "FEC codewords with low..high symbol errors corrected (one bin "
			      "of the kernel's FEC histogram; not cumulative)", false };

	for (int k = 0; k < FEC_COUNTERS; k++) {
		struct expo_fam f = { names[k][0], "counter", helps[k], false };

		each_link(inv, total, e, &f, k);
	}
	for (int k = 0; k < FEC_COUNTERS; k++) {
		struct expo_fam f = { names[k][1], "counter", helps[k], false };

		each_link(inv, lanes, e, &f, k);
	}
	each_link(inv, bins, e, &h, 0);
}
