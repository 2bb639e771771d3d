/* Sending and receiving the control protocol's frames (bw/proto.h) and
 * raw bytes on any socket, each step within a deadline.  bw/proto_io.c. */
#ifndef RD_BW_PROTO_IO_H
#define RD_BW_PROTO_IO_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

/* Sockets: whole messages with a deadline on every step (poll), never
 * SIGPIPE.  timeout_ms bounds the whole call.  Failures (engine.h's
 * convention): -BW_E_TIMEOUT when the deadline passed, -BW_E_CLOSED when
 * the peer closed, -BW_E_NOMEM, else -1. */
int bw_send_msg(int fd, uint16_t type, const uint8_t *payload, size_t len, int timeout_ms,
		struct bw_err *e);
/* Receives one message of at most max_len payload bytes into *payload
 * (malloc'd; free it).  `what` names the expected message in errors. */
int bw_recv_msg(int fd, uint16_t *type, uint8_t **payload, uint32_t *len, uint32_t max_len,
		int timeout_ms, const char *what, struct bw_err *e);

/* The same steps on any socket (tcp data connections too), in the
 * caller's deadline (bw_now() seconds): wait for events (1 ready, 0 timed
 * out, -1 error); send or receive exactly n bytes (0, or -1 with e set;
 * `what` names the awaited data in errors). */
int bw_wait_fd(int fd, short events, double deadline);
int bw_write_all(int fd, const uint8_t *p, size_t n, double deadline, struct bw_err *e);
int bw_read_all(int fd, uint8_t *p, size_t n, double deadline, const char *what,
		struct bw_err *e);
#endif
