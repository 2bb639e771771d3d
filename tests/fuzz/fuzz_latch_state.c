/* libFuzzer target: any bytes as DIR/latched (the agent's memory,
 * state/latch_state.h).  The parser must refuse them with a reason and
 * nothing kept, or keep only what the file may hold within its bounds;
 * what it keeps formats back to text it takes again, the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/latch_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void printable(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > LATCH_STATE_MAX_FIELD)
		abort();
	for (size_t i = 0; i < n; i++)
		if (s[i] < ' ' || s[i] > '~')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct latch_state s, again;
	char why[200], *text;
	int rc = latch_state_parse((const char *)data, size, &s, why, sizeof(why));

	if (rc < 0) {
		if (s.n_events || s.n_bases || s.events || s.bases || s.boot[0] || s.n_boot_bases ||
		    s.boot_bases || s.boot_taken || !why[0] ||
		    !memchr(why, '\0', sizeof(why)))
			abort();
		return 0;
	}
	if (s.n_events > LATCH_STATE_MAX_EVENTS || s.n_bases > LATCH_STATE_MAX_BASES ||
	    s.n_boot_bases > LATCH_STATE_MAX_BASES || (s.n_boot_bases && !s.boot_taken) ||
	    !latch_state_boot_ok(s.boot, strlen(s.boot)))
		abort();
	for (size_t i = 0; i < s.n_events; i++) {
		const struct latch_event *e = &s.events[i];

		printable(e->subject);
		printable(e->observed);
		if (e->severity < 0 || e->severity > 2 || e->first > e->last || !e->count ||
		    latch_state_event(&s, e->id, e->subject) != e)
			abort();
	}
	text = latch_state_format(&s);
	if (!text)
		abort();
	if (latch_state_parse(text, strlen(text), &again, why, sizeof(why)) != 0 ||
	    again.n_events != s.n_events || again.n_bases != s.n_bases ||
	    again.taken != s.taken || strcmp(again.boot, s.boot) != 0 ||
	    again.boot_taken != s.boot_taken || again.n_boot_bases != s.n_boot_bases)
		abort();
	for (size_t i = 0; i < s.n_events; i++)
		if (strcmp(again.events[i].observed, s.events[i].observed) != 0 ||
		    again.events[i].expires != s.events[i].expires)
			abort();
	for (size_t i = 0; i < s.n_bases; i++)
		if (strcmp(again.bases[i].name, s.bases[i].name) != 0 ||
		    again.bases[i].value != s.bases[i].value)
			abort();
	for (size_t i = 0; i < s.n_boot_bases; i++)
		if (strcmp(again.boot_bases[i].name, s.boot_bases[i].name) != 0 ||
		    again.boot_bases[i].value != s.boot_bases[i].value)
			abort();
	free(text);
	latch_state_free(&again);
	latch_state_free(&s);
	return 0;
}
