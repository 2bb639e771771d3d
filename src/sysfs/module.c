#include "module.h"
#include "tape.h"
#include "../eeprom/module.h"
#include "../nl/module_eeprom.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pages read, each at most one half page. */
struct pagebuf {
	size_t n;
	struct module_eeprom_req req[MODULE_MAX_PAGES];
	size_t len[MODULE_MAX_PAGES];
	uint8_t data[MODULE_MAX_PAGES][MODULE_EEPROM_READ_MAX];
};

static bool plain_ifname(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 16 && !strchr(s, '/') && strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

static void page_name(char *buf, size_t len, const struct module_eeprom_req *q)
{
	snprintf(buf, len, "%02x-%02x-%x-%03x", q->i2c, q->page, q->bank, q->offset);
}

/* "50-00-0-000" back into a request; false for any other name. */
static bool parse_name(const char *s, struct module_eeprom_req *q)
{
	unsigned i2c, page, bank, off;
	int end = 0;

	if (strlen(s) != 11 ||
	    sscanf(s, "%2x-%2x-%1x-%3x%n", &i2c, &page, &bank, &off, &end) != 4 || end != 11)
		return false;
	if (i2c > 0x7f || off > 255)
		return false;
	*q = (struct module_eeprom_req){ .i2c = (uint8_t)i2c, .page = (uint8_t)page,
					 .bank = (uint8_t)bank, .offset = (uint8_t)off };
	return true;
}

/* Live: the lower page, then what its identifier calls for.  0 with pb
 * holding at least the lower page, or a negative errno (noted). */
static int read_live(struct root *r, const char *ifname, const char *dir, struct pagebuf *pb)
{
	struct module_eeprom_sock *s = NULL;
	struct module_eeprom_req plan[MODULE_EEPROM_PLAN_MAX];
	struct module_eeprom_req lower = { .i2c = 0x50, .len = 128 };
	size_t np;
	int rc;

	rc = module_eeprom_open(&s);
	if (rc < 0) {
		root_note(r, dir, "ethtool netlink unavailable (%s): transceiver not read",
			  strerror(-rc));
		return rc;
	}
	rc = module_eeprom_read(s, ifname, &lower, pb->data[0], MODULE_EEPROM_READ_MAX,
				&pb->len[0]);
	if (rc < 0) {
		root_note(r, dir, "%s transceiver EEPROM not readable: %s%s", ifname,
			  strerror(-rc), rc == -EPERM ? " (needs CAP_NET_ADMIN)" : "");
		module_eeprom_close(s);
		return rc;
	}
	pb->req[0] = lower;
	pb->n = 1;
	np = module_eeprom_plan(pb->data[0], pb->len[0], plan, MODULE_EEPROM_PLAN_MAX);
	for (size_t i = 0; i < np && pb->n < MODULE_MAX_PAGES; i++) {
		rc = module_eeprom_read(s, ifname, &plan[i], pb->data[pb->n],
					MODULE_EEPROM_READ_MAX, &pb->len[pb->n]);
		if (rc < 0) {
			char name[16];

			page_name(name, sizeof(name), &plan[i]);
			root_note(r, dir, "%s page %s not readable: %s", ifname, name,
				  strerror(-rc));
			continue;
		}
		pb->req[pb->n++] = plan[i];
	}
	module_eeprom_close(s);
	return 0;
}

static int tape_pages(struct root *r, const char *dir, const struct pagebuf *pb)
{
	char path[96], name[16];

	if (!r->tape)
		return 0;
	for (size_t i = 0; i < pb->n; i++) {
		page_name(name, sizeof(name), &pb->req[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (tape_file(r->tape, path, (const char *)pb->data[i], pb->len[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Replay: every well-named file of dir.  0 (possibly with none), or
 * -ENOMEM. */
static int read_replay(struct root *r, const char *dir, struct pagebuf *pb)
{
	char **names = NULL, path[96];
	size_t n = 0;
	int rc;

	if (!root_is_dir(r, dir))
		return 0;
	rc = root_list(r, dir, &names, &n);
	if (rc < 0)
		return rc == -ENOMEM ? rc : 0;
	for (size_t i = 0; i < n && pb->n < MODULE_MAX_PAGES; i++) {
		struct module_eeprom_req q;
		size_t len = 0;

		if (!parse_name(names[i], &q)) {
			root_note(r, dir, "unexpected file %s: ignored", names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = root_read_bin(r, path, pb->data[pb->n], MODULE_EEPROM_READ_MAX, &len);
		if (rc == -ENOMEM)
			break;
		if (rc < 0 || len == 0)
			continue;
		q.len = (uint8_t)len;
		pb->req[pb->n] = q;
		pb->len[pb->n++] = len;
	}
	root_free_list(names, n);
	return rc == -ENOMEM ? rc : 0;
}

int module_read_port(struct root *r, struct port *p)
{
	char dir[64];
	struct pagebuf *pb;
	struct module_pages pages;
	struct module_info info;
	int rc;

	if (!p->netdev || p->module)
		return 0;
	if (!plain_ifname(p->netdev)) {
		root_note(r, p->netdev, "netdev name unusable for the module EEPROM: not read");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/%s", MODULE_SNAPSHOT_DIR, p->netdev);
	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return -ENOMEM;
	if (r->live) {
		rc = read_live(r, p->netdev, dir, pb);
		if (rc == 0)
			rc = tape_pages(r, dir, pb);
	} else {
		rc = read_replay(r, dir, pb);
	}
	if (rc == -ENOMEM || pb->n == 0)
		goto out;
	module_pages_init(&pages);
	for (size_t i = 0; i < pb->n; i++)
		if (module_pages_add(&pages, pb->req[i].i2c, pb->req[i].page, pb->req[i].bank,
				     pb->req[i].offset, pb->data[i], pb->len[i]) < 0)
			root_note(r, dir, "module page %zu ignored", i);
	rc = module_decode(NULL, 0, &pages, &info);
	if (rc < 0) {
		root_note(r, dir, "%s transceiver not decoded: %s", p->netdev, strerror(-rc));
		rc = 0;
		goto out;
	}
	p->module = malloc(sizeof(*p->module));
	rc = p->module ? 0 : -ENOMEM;
	if (p->module)
		*p->module = info;
out:
	free(pb);
	return rc == -ENOMEM ? rc : 0;
}
