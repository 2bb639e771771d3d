/* Bandwidth figures for the fleet report, taken from the `bw --json`
 * documents kept in each record's "bw" array (docs/fleet.md):
 *   a host's rail  = rails[].gbps.avg of the largest-size result of each of
 *                    the host's client documents, averaged over documents;
 *   a pair (a, b)  = total.gbps.avg of that result in a's client documents
 *                    whose remote is b, averaged over documents.
 * A document's host is its local.host where that is a string, else the
 * host of the record carrying it; its rails and its pair both go to it.
 * Server documents and figures that are not numbers from 0 to
 * FLEET_BW_MAX_GBPS are left out; a missing name reads as FLEET_MISSING.
 * Strings are borrowed from the records, which must outlive the figures. */
#ifndef RD_OUT_FLEET_BW_H
#define RD_OUT_FLEET_BW_H

#include <jansson.h>
#include <stddef.h>

/* A petabit per second: no link measures more; beyond is a broken document. */
#define FLEET_BW_MAX_GBPS 1e6

struct fleet_rail_bw {
	const char *host;
	const char *device;
	long long port;		/* -1: unknown */
	double gbps;		/* mean over documents */
	size_t n;		/* documents averaged */
};

struct fleet_pair_bw {
	const char *src;	/* the client (local.host) */
	const char *dst;	/* the server (remote.host) */
	double gbps;
	size_t n;
};

struct fleet_bw {
	struct fleet_rail_bw *rails;	/* sorted by host, device, port */
	size_t n_rails;
	struct fleet_pair_bw *pairs;	/* sorted by src, dst */
	size_t n_pairs;
};

/* The record's host, or FLEET_MISSING when it has none (any odd record). */
const char *fleet_record_host(const json_t *record);

/* 0, or -ENOMEM (bw is then empty). */
int fleet_bw_collect(const json_t *records, struct fleet_bw *bw);
void fleet_bw_free(struct fleet_bw *bw);

#endif
