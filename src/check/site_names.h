/* The site file's names against the catalog and the machine: every id in
 * ignore and accept_unchecked a check id (or a renamed one's old id),
 * every device in rail and storage an RDMA device of the machine. */
#ifndef RD_CHECK_SITE_NAMES_H
#define RD_CHECK_SITE_NAMES_H

#include <stddef.h>

#include "../model/inventory.h"
#include "../profiles/site.h"

/* 0; or -EINVAL with msg "KEY: 'NAME' is no check id ...: did you mean
 * 'ID'?" (or "... no RDMA device ..."); or -ENOMEM. */
int check_site_names(const struct site *s, const struct inventory *inv, char *msg, size_t len);

#endif
