/* What a fabric run says beside its report (fabric_progress.h). */
#include "fabric_progress.h"
#include "plural.h"

void fab_round_done_print(FILE *out, const char *prog, bool retest, size_t k,
			  const struct fab_schedule *s, double slot_s)
{
	fprintf(out, "%s fabric: %sround %zu/%zu done (%zu %s), %.0f s left\n", prog,
		retest ? "retest " : "", k + 1, s->n_rounds, s->rounds[k].n_pairs,
		plural(s->rounds[k].n_pairs, "pair", "pairs"),
		(double)(s->n_rounds - k - 1) * slot_s);
	fflush(out);
}

void fab_retest_print(FILE *out, const char *prog, const struct fab_schedule *s,
		      char *const *names)
{
	size_t pairs = fab_schedule_pairs(s);

	fprintf(out, "%s fabric: retest: %zu %s in %zu %s\n", prog, pairs,
		plural(pairs, "pair", "pairs"), s->n_rounds, plural(s->n_rounds, "round", "rounds"));
	for (size_t k = 0; k < s->n_rounds; k++) {
		fprintf(out, "%s fabric: retest round %zu:", prog, k + 1);
		for (size_t p = 0; p < s->rounds[k].n_pairs; p++)
			fprintf(out, " %s-%s", names[s->rounds[k].pairs[p].a],
				names[s->rounds[k].pairs[p].b]);
		fputc('\n', out);
	}
}

void fab_launch_hint_print(FILE *out, const char *prog)
{
	fprintf(out,
		"%s fabric: not started by a PMIx launcher: start one task per node,\n"
		"  srun -N NODES --ntasks-per-node=1 --mpi=pmix %s fabric ...\n"
		"  mpirun -np NODES --map-by ppr:1:node --enable-recovery %s fabric ...\n"
		"(see `%s fabric --help`)\n", prog, prog, prog, prog);
}
