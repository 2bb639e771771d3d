#include "module.h"
#include "fetch.h"
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

static void page_name(char *buf, size_t len, const struct module_eeprom_req *q)
{
	snprintf(buf, len, "%02x-%02x-%x-%03x", q->i2c, q->page, q->bank, q->offset);
}

/* One socket for every page of a netdev, opened at the first live fetch. */
struct asker {
	const char *ifname;
	const struct module_eeprom_req *req;
	struct module_eeprom_lazy sock;
};

static int fetch_page(void *arg, void **data, size_t *len)
{
	struct asker *a = arg;
	struct module_eeprom_sock *s;
	uint8_t *buf;
	int rc = module_eeprom_lazy_get(&a->sock, &s);

	if (rc < 0)
		return rc;
	buf = malloc(MODULE_EEPROM_READ_MAX);
	if (!buf)
		return -ENOMEM;
	rc = module_eeprom_read(s, a->ifname, a->req, buf, MODULE_EEPROM_READ_MAX, len);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*data = buf;
	return 0;
}

/* One page through root_fetch into pb.  0 (read or not), -ENOMEM; *err
 * the fetch's own result. */
static int get_page(struct root *r, struct asker *a, const struct module_eeprom_req *q,
		    struct pagebuf *pb, int *err)
{
	char name[16], *key;
	void *data = NULL;
	size_t len = 0;

	page_name(name, sizeof(name), q);
	if (asprintf(&key, "%s/%s", a->ifname, name) < 0)
		return *err = -ENOMEM;
	a->req = q;
	*err = root_fetch(r, MODULE_FETCH_KIND, key, MODULE_EEPROM_READ_MAX, fetch_page, a,
			  &data, &len);
	free(key);
	if (*err == -ENOMEM)
		return *err;
	if (*err == 0 && len > 0) {
		memcpy(pb->data[pb->n], data, len);
		pb->req[pb->n] = *q;
		pb->req[pb->n].len = (uint8_t)len;
		pb->len[pb->n++] = len;
	} else if (*err == 0) {
		*err = -ENODATA;
	}
	free(data);
	if (fetch_failure_noted(r, *err))
		root_note(r, a->ifname, "%s transceiver page %s not read: %s%s", a->ifname, name,
			  strerror(-*err), *err == -EPERM ? " (needs CAP_NET_ADMIN)" : "");
	return 0;
}

/* The lower page, then what its identifier calls for: the reads a live
 * run makes, and the files a replay reads.  0 or -ENOMEM. */
static int read_pages(struct root *r, const char *ifname, struct pagebuf *pb)
{
	static const struct module_eeprom_req lower = { .i2c = 0x50, .len = 128 };
	struct module_eeprom_req plan[MODULE_EEPROM_PLAN_MAX];
	struct asker a = { .ifname = ifname };
	size_t np;
	int rc, err;

	rc = get_page(r, &a, &lower, pb, &err);
	if (rc == 0 && pb->n == 1) {
		np = module_eeprom_plan(pb->data[0], pb->len[0], plan, MODULE_EEPROM_PLAN_MAX);
		for (size_t i = 0; i < np && pb->n < MODULE_MAX_PAGES && rc == 0; i++)
			rc = get_page(r, &a, &plan[i], pb, &err);
	}
	module_eeprom_lazy_close(&a.sock);
	return rc;
}

int module_read_port(struct root *r, struct port *p)
{
	const char *dir = p->netdev;	/* what the notes are about */
	struct pagebuf *pb;
	struct module_pages pages;
	struct module_info info;
	int rc;

	if (!p->netdev || p->module)
		return 0;
	if (!fetch_name_ok(p->netdev)) {
		root_note(r, p->netdev, "netdev name unusable for the module EEPROM: not read");
		return 0;
	}
	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return -ENOMEM;
	rc = read_pages(r, p->netdev, pb);
	if (rc == -ENOMEM || pb->n == 0)
		goto out;
	module_pages_init(&pages);
	for (size_t i = 0; i < pb->n; i++)
		if (module_pages_add(&pages, pb->req[i].i2c, pb->req[i].page, pb->req[i].bank,
				     pb->req[i].offset, pb->data[i], pb->len[i]) < 0)
			root_note(r, dir, "module page %zu ignored", i);
	rc = module_decode(NULL, 0, &pages, &info);
	if (rc == -EBADMSG) {
		root_note(r, dir, "%s transceiver lower page is %zu bytes, shorter than its "
			  "128-byte layout: unusable, no DOM facts taken from it", p->netdev,
			  pb->len[0]);
		rc = 0;
		goto out;
	}
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
