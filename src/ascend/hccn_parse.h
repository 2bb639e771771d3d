/* Parsers of `hccn_tool -i N -<option> -g` stdout, one per option, each a
 * pure function over the bytes into the NPU's port (model/npu.h).  The
 * formats are those docs/ascend.md lists; values in a format that is not
 * confirmed (-mtu) keep their raw text.
 *
 * Each returns 0 when it recognised something, -ENODATA when the output
 * holds nothing it knows (the port keeps "unknown"), -ENOMEM.  A parser
 * may run again on the same port: it replaces what it set before. */
#ifndef RD_ASCEND_HCCN_PARSE_H
#define RD_ASCEND_HCCN_PARSE_H

#include <stddef.h>

#include "../model/inventory.h"

typedef int (*hccn_parse_fn)(const char *buf, size_t len, struct npu_port *p);

struct hccn_option {
	const char *name;	/* the option without its '-': "link_stat" */
	const char *flag;	/* as hccn_tool takes it: "-link_stat" */
	hccn_parse_fn parse;
};

/* Every option the reader asks, in the order it asks them. */
extern const struct hccn_option hccn_options[];
extern const size_t hccn_n_options;

int hccn_parse_link(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_speed(const char *buf, size_t len, struct npu_port *p);
/* IPv4 and IPv6 lines alike (`-ip -g`, `-ip -inet6 -g`); a value that is
 * not an address leaves its family unknown and the line in ip_malformed /
 * ip6_malformed. */
int hccn_parse_ip(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_net_health(const char *buf, size_t len, struct npu_port *p);
/* Link downs are counted against the tool's own "current time", so a
 * replay counts the same as the live run did. */
int hccn_parse_link_stat(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_optical(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_stat(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_fec(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_pfc(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_lldp(const char *buf, size_t len, struct npu_port *p);
int hccn_parse_mtu(const char *buf, size_t len, struct npu_port *p);

#endif
