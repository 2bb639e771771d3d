/* struct modinfo's memory (modinfo.h). */
#include "modinfo.h"

#include <stdlib.h>

void modinfo_free(struct modinfo *mi)
{
	free(mi->version);
	free(mi->srcversion);
	free(mi->vermagic);
	mi->version = mi->srcversion = mi->vermagic = NULL;
}
