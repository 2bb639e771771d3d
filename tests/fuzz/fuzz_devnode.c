/* libFuzzer target: any bytes as a snapshot's device-node record and as
 * etc/passwd and etc/group (src/sysfs/access_parse.c).  A record taken is
 * written back the same and read again to the same node; accounts are
 * names without ':' or a newline; the access verdict of any account is
 * one of the three. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs/access_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct dev_node d = { 0 }, e = { 0 };
	struct accounts a = { 0 };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (devnode_record_parse(text, &d) == 0) {
		char *back = devnode_record_format(&d);

		if (!back || devnode_record_parse(back, &e) != 0 || e.present != d.present ||
		    (d.present == 1 && (e.mode != d.mode || e.uid != d.uid || e.gid != d.gid ||
					e.chr != d.chr || e.n_acl != d.n_acl ||
					e.has_acl != d.has_acl)))
			abort();
		free(back);
	}
	if (passwd_parse(text, &a) < 0 || group_parse(text, &a) < 0)
		abort();
	for (size_t i = 0; i < a.n_users; i++)
		if (!a.users[i].name[0] || strpbrk(a.users[i].name, ":\n"))
			abort();
	for (size_t i = 0; i < a.n_users && i < 4; i++) {
		struct job_identity who;

		if (job_identity_resolve(&a, a.users[i].name, NULL, &who) != 0)
			abort();
		if (dev_node_rw(&d, &who) < ACCESS_UNKNOWN || dev_node_rw(&d, &who) > ACCESS_YES)
			abort();
	}
	accounts_free(&a);
	dev_node_free(&d);
	dev_node_free(&e);
	free(text);
	return 0;
}
