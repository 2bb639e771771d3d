/* Walking netlink attributes in a reply held as bytes, shared by the DCB
 * and module-EEPROM parsers: every length checked before it is used.
 * Errors as every reader's (src/sysfs/root.h): 0 or a negative errno. */
#ifndef RD_NL_ATTR_H
#define RD_NL_ATTR_H

#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>

/* One attribute in [*pos, end): its type (NLA_TYPE_MASK applied) and
 * payload.  1 when one was taken, 0 at the end, -EINVAL when it runs past
 * the end.  The last attribute's padding may be missing. */
int nl_next_attr(const uint8_t **pos, const uint8_t *end, uint16_t *type,
		 const uint8_t **payload, size_t *plen);

/* The header of the one netlink message in msg (len bytes) into *h, its
 * length within len: 0; the kernel's error for an NLMSG_ERROR reply (an
 * ACK, error 0, carries no data: -EINVAL, as malformed as anything else
 * where a reply is due); -EINVAL when it is not a whole message. */
int nl_msg_header(const void *msg, size_t len, struct nlmsghdr *h);

/* The attributes of a generic netlink message of family `type` (0: any
 * family, as in a snapshot taken where the kernel gave another id) and
 * command `cmd`, in [*p, *end); or the kernel's error for an NLMSG_ERROR
 * reply; -EINVAL for anything else. */
int nl_genl_body(const void *msg, size_t len, uint16_t type, uint8_t cmd, const uint8_t **p,
		 const uint8_t **end);

#endif
