/* The launcher's rendezvous, through PMIx (what srun --mpi=pmix and Open
 * MPI's mpirun provide): rank, size, a key-value store and fences.  A
 * build without libpmix has the same functions, which say so.  Messages
 * go into err; nothing is printed here. */
#ifndef RD_FABRIC_PMIX_H
#define RD_FABRIC_PMIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether this process was started by a PMIx launcher (its environment
 * names a PMIx server), without touching PMIx. */
bool fab_pmix_launched(void);
/* 0, or -1 with err set. */
int fab_pmix_init(uint32_t *rank, uint32_t *size, char *err, size_t errsz);
/* This rank's host name as the launcher knows it (malloc'd), or NULL. */
char *fab_pmix_hostname(void);
/* Publish a text under key for every rank (put and commit). */
int fab_pmix_put(const char *key, const char *text, char *err, size_t errsz);
/* Wait for every live rank, exchanging what was put when collect, within
 * timeout_s (the launcher's timeout, and this side's own a little after
 * it).  A rank that died may be left out by the launcher (Open MPI needs
 * --enable-recovery for the others to go on), or make it time out. */
int fab_pmix_fence(int timeout_s, bool collect, char *err, size_t errsz);
/* Which ranks of the job the launcher knows to be gone (ended, killed,
 * failed): alive[r] false for those, true for the others.  0, or -1 when
 * the launcher does not say within 2 s (Slurm's plugin may never answer:
 * it is not asked again). */
int fab_pmix_alive(uint32_t size, bool *alive);
/* The text rank put under key (malloc'd) after a fence, or NULL when that
 * rank has none (it died or never came): never waits. */
char *fab_pmix_get(uint32_t rank, const char *key);
/* The text rank put under key (malloc'd), asked of the launcher without a
 * fence (direct modex), waiting until the rank commits it or until
 * deadline (CLOCK_MONOTONIC seconds, as bw_now()), whichever comes first.  NULL when it did not
 * come: *gone tells whether the launcher knows the rank to be gone (it
 * ended or was killed without committing key), else it never answered.
 * The wait is bounded here, whatever the launcher does with the request. */
char *fab_pmix_get_wait(uint32_t rank, const char *key, double deadline, bool *gone);
void fab_pmix_finalize(void);

#endif
