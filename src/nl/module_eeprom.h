/* Transceiver EEPROM over ethtool netlink (ETHTOOL_MSG_MODULE_EEPROM_GET,
 * Documentation/networking/ethtool-netlink.rst).
 *
 * module_eeprom_plan decides from the lower page which reads a module
 * needs; module_eeprom_read asks the kernel for one of them;
 * module_eeprom_parse_reply is the only code that interprets a reply.  The
 * decoding of the bytes is src/eeprom/module.h. */
#ifndef RD_NL_MODULE_EEPROM_H
#define RD_NL_MODULE_EEPROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODULE_EEPROM_READ_MAX	128	/* the kernel's limit on one read */
#define MODULE_EEPROM_PLAN_MAX	8
/* One reply: nlmsghdr + genlmsghdr + header nest + DATA, well under this;
 * a FEC_GET reply with a full histogram (link_modes.h) takes about 7 KiB. */
#define MODULE_EEPROM_REPLY_MAX	16384u

/* One read as asked of the kernel: `len` bytes at `offset` of (i2c, page,
 * bank); offset + len never crosses 128 (lower) or 256. */
struct module_eeprom_req {
	uint8_t i2c, page, bank, offset, len;
};

/* The reads after the lower page (I2C 0x50, page 0, offset 0, 128 bytes),
 * chosen by its identifier byte: SFF-8636 upper 00h and 03h; CMIS upper
 * 00h, and 01h, 02h, 11h (bank 0) unless flat memory (byte 2 bit 7);
 * SFF-8472 A0h upper half and A2h (0x51) both halves.  Returns how many
 * were written to req (at most max), 0 for an unknown identifier or too
 * short a lower page. */
size_t module_eeprom_plan(const uint8_t *lower, size_t len, struct module_eeprom_req *req,
			  size_t max);

/* Build a MODULE_EEPROM_GET request for the ethtool family `family`.
 * Returns its length, -EINVAL (bad name, len 0 or > 128, read crossing
 * 128 or 256) or -ENOSPC. */
int module_eeprom_build_request(void *buf, size_t cap, uint16_t family, const char *ifname,
				const struct module_eeprom_req *req, uint32_t seq);

/* Parse one reply (nlmsghdr + genlmsghdr + attributes) of the family
 * `family`: the DATA payload is copied into data (at most cap bytes; *dlen
 * its length).  0 on success; the kernel's error (e.g. -EPERM, -EOPNOTSUPP,
 * -ENODEV, -EINVAL) for an NLMSG_ERROR reply; -EINVAL for anything
 * malformed, another message type, or no DATA; -EMSGSIZE when DATA is
 * longer than cap. */
int module_eeprom_parse_reply(const void *msg, size_t len, uint16_t family, uint8_t *data,
			      size_t cap, size_t *dlen);

/* Parse a CTRL_CMD_NEWFAMILY reply: the family id into *id.  0, the
 * kernel's error (-ENOENT: no ethtool netlink) or -EINVAL. */
int module_eeprom_parse_family(const void *msg, size_t len, uint16_t *id);

/* A generic netlink socket with the "ethtool" family resolved (1 s receive
 * timeout on every answer). */
struct module_eeprom_sock;

/* 0, or a negative errno (-ENOENT: the kernel has no ethtool netlink). */
int module_eeprom_open(struct module_eeprom_sock **out);
void module_eeprom_close(struct module_eeprom_sock *s);

/* A socket opened at its first use, so that a replay (whose fetches are
 * never called) opens none.  Zeroed is "not tried yet". */
struct module_eeprom_lazy {
	struct module_eeprom_sock *s;
	int rc;			/* the open's result, once tried */
	bool tried;
};
/* The socket: 0 with *s, or the open's error (the same at every call). */
int module_eeprom_lazy_get(struct module_eeprom_lazy *l, struct module_eeprom_sock **s);
void module_eeprom_lazy_close(struct module_eeprom_lazy *l);

/* One read: 0 with *got bytes in buf (cap >= req->len), or a negative
 * errno (-EPERM without CAP_NET_ADMIN, -EOPNOTSUPP / -ENODEV: no module
 * access on this netdev, -EAGAIN: no answer within 1 s). */
int module_eeprom_read(struct module_eeprom_sock *s, const char *ifname,
		       const struct module_eeprom_req *req, uint8_t *buf, size_t cap, size_t *got);

/* Any other ethtool GET of one netdev on the same socket (LINKMODES_GET,
 * FEC_GET: src/nl/link_modes.h builds the request): the reply exactly as
 * the kernel sent it, an NLMSG_ERROR included, copied into buf (*got
 * bytes).  0, -EMSGSIZE (cap too small), or the socket's errno. */
int module_eeprom_get_raw(struct module_eeprom_sock *s, uint8_t cmd, const char *ifname,
			  uint32_t flags, uint8_t *buf, size_t cap, size_t *got);

/* An errno that means "this netdev has no readable module" rather than a
 * failure: EPERM, EACCES, EOPNOTSUPP, ENODEV, ENOENT, EIO, ENXIO. */
int module_eeprom_unavailable(int err);

#endif
