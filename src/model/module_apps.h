/* What a transceiver is built for: its rates and applications, as
 * eeprom/apps.c decodes them from the SFF-8636 compliance codes and the
 * CMIS application descriptors; and the words for a rate. */
#ifndef RD_MODEL_MODULE_APPS_H
#define RD_MODEL_MODULE_APPS_H

#include <stdbool.h>
#include <stddef.h>

#define MODULE_MAX_APPS 16
#define MODULE_APP_NAME 96

struct module_app {
	char name[MODULE_APP_NAME];	/* "100G Ethernet: 100G Base-SR4 or 25GBase-SR" */
	char kind[16];			/* "EDR", "HDR" on InfiniBand, else "100G" */
	double gbps;			/* the application's rate; 0: not a data rate */
};

struct module_apps {
	bool known;		/* the bytes were read (false: unknown, not "none") */
	size_t n;
	struct module_app app[MODULE_MAX_APPS];
	double top_gbps;	/* the highest rate of app[], 0 when none has one */
	int top;		/* index of that app, -1 none */
};

/* "EDR (100G)", "200G": the kind of a rate the way a person names the
 * port or module (InfiniBand speeds on an InfiniBand port). */
void module_rate_kind(char *buf, size_t len, double gbps, bool ib);

#endif
