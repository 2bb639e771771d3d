/* `rdmadoctor labels`: a Node Feature Discovery local feature file
 * (node-feature-discovery, source/local/local.go: name=value lines, '#'
 * comments, a "# +expiry-time=RFC3339" directive; NFD prefixes a name
 * without a namespace with feature.node.kubernetes.io/).  What a job's
 * node selector asks for: how many rails are up and at what rate, the
 * link layer, GPUDirect, the RoCE v2 GID index and the verdict
 * (docs/kubernetes.md). */
#ifndef RD_OUT_NFD_LABELS_H
#define RD_OUT_NFD_LABELS_H

#include <stdio.h>
#include <time.h>

#include "check_out.h"

#define NFD_LABEL_PREFIX "rdmadoctor."

/* The file's text for a judged machine; expires (NFD drops the labels
 * after it) ttl seconds after now, none when ttl is 0: a node whose agent
 * stopped must not keep saying "pass".  0, or -ENOMEM. */
int nfd_labels_write(FILE *out, const struct check_report *rep, time_t now, long ttl,
		     const char *version);

#endif
