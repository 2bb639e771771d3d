/* Port attributes that only the verbs API knows (ibv_query_port): the
 * active MTU above all.  Live machines only: src/sysfs/ib.c asks through
 * root_fetch, so a snapshot keeps them under .rdmadoctor/verbs/ (see
 * docs/snapshot.md).  Errors as every reader's (src/sysfs/root.h). */
#ifndef RD_VERBS_PORT_ATTR_H
#define RD_VERBS_PORT_ATTR_H

#include <stdint.h>

struct verbs_session;

struct verbs_port {
	int64_t active_mtu, max_mtu;	/* bytes; NA when unknown */
};

/* NULL when libibverbs finds no device; never fails otherwise. */
struct verbs_session *verbs_open(void);
void verbs_close(struct verbs_session *s);

/* 0, -ENODEV (no such verbs device) or -errno from the device. */
int verbs_query_port(struct verbs_session *s, const char *ibdev, int port,
		     struct verbs_port *out);

/* The verbs MTU enum (IBV_MTU_256 = 1 ... IBV_MTU_4096 = 5) in bytes. */
int64_t verbs_mtu_bytes(int mtu_enum);

#endif
