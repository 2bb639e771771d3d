/* The agent's memory judged (latch.h). */
#include "latch.h"
#include "catalog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const class_names[LATCH_CLASSES] = { "drops", "flaps", "faults" };

void latch_holds_default(struct latch_holds *h)
{
	h->s[LATCH_DROPS] = LATCH_DROPS_HOLD_S;
	h->s[LATCH_FLAPS] = 0;
	h->s[LATCH_FAULTS] = 0;
}

const char *latch_class_name(enum latch_class c)
{
	return c >= 0 && c < LATCH_CLASSES ? class_names[c] : "none";
}

enum latch_class latch_class_named(const char *name)
{
	for (int i = 0; i < LATCH_CLASSES; i++)
		if (strcmp(name, class_names[i]) == 0)
			return (enum latch_class)i;
	return LATCH_NONE;
}

enum latch_class latch_class_of(const struct finding *f, bool windowed)
{
	/* what could not be read is no event: unknown is remembered by no one */
	if (f->unchecked || f->latch.remembered)
		return LATCH_NONE;
	if (strcmp(f->id, "port.down") == 0 || strcmp(f->id, "link.flaps") == 0 ||
	    strcmp(f->id, "kmsg.link_flap") == 0)
		return LATCH_FLAPS;
	/* in a one-shot check counters.errors is a lifetime count: since
	 * when is unknown, so it is no event of this boot */
	if (strcmp(f->id, "counters.errors") == 0)
		return !windowed ? LATCH_NONE
		       : f->severity == SEV_ERROR ? LATCH_FAULTS : LATCH_DROPS;
	if (strncmp(f->id, "kmsg.", 5) == 0)
		return LATCH_FAULTS;
	/* uncorrectable blocks or a ratio past the target: a fault; a pre-FEC
	 * ratio near the FEC's limit: held as drops are */
	if (strcmp(f->id, "link.ber") == 0)
		return f->severity == SEV_ERROR ? LATCH_FAULTS : LATCH_DROPS;
	return LATCH_NONE;
}

int latch_record(struct latch_state *s, const struct findings *fs, int64_t now,
		 const struct latch_holds *h, bool windowed)
{
	int added = 0;

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		enum latch_class c = latch_class_of(f, windowed);
		bool was;
		int rc;

		if (c == LATCH_NONE || !f->subject)
			continue;
		was = latch_state_event(s, f->id, f->subject) != NULL;
		rc = latch_state_see(s, f->id, (int)f->severity, f->subject, f->observed, now,
				     h->s[c] ? now + h->s[c] : 0);
		if (rc < 0)
			return -ENOMEM;
		added += rc > 0 && !was;
	}
	return added;
}

static void utc(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "%lld s after the epoch", (long long)t);
}

static const char remembered_why[] =
	"Remembered from an earlier reading of this boot: a link that flapped and came "
	"back, a port that went down and up, counters that grew or a kernel-log fault "
	"the log has since lost are gone from a single look, but they are what breaks "
	"the next job.";

static int add_remembered(struct findings *fs, const struct latch_event *e,
			  const struct check_entry *row)
{
	char first[40], last[40], until[40];
	struct finding *f = finding_add(fs, row->id, (enum severity)e->severity, remembered_why);

	if (!f)
		return -ENOMEM;
	utc(e->first, first, sizeof(first));
	utc(e->last, last, sizeof(last));
	f->latch = (struct finding_latch){ e->first, e->last, e->count, e->expires, true };
	finding_set(&f->subject, "%s", e->subject);
	finding_set(&f->observed, "remembered, not seen in this reading: %s (seen %llu time%s, "
		    "first %s, last %s)", e->observed, (unsigned long long)e->count,
		    e->count == 1 ? "" : "s", first, last);
	if (e->expires) {
		utc(e->expires, until, sizeof(until));
		finding_set(&f->expected, "nothing to remember (held until %s)", until);
	} else {
		finding_set(&f->expected, "nothing to remember (held until cleared)");
	}
	finding_set(&f->fix, "%s; once fixed, `rdmadoctor clear %s`", row->fix, row->id);
	return f->subject && f->observed && f->expected && f->fix ? 0 : -ENOMEM;
}

/* Seen now, milder than remembered: the finding takes the remembered
 * severity and says why. */
static int take_worse(struct finding *f, const struct latch_event *e)
{
	char first[40];
	char *was = f->observed;

	utc(e->first, first, sizeof(first));
	f->observed = NULL;
	finding_set(&f->observed, "%s; remembered at %s since %s: %s", was ? was : "-",
		    severity_name((enum severity)e->severity), first, e->observed);
	free(was);
	f->severity = (enum severity)e->severity;
	return f->observed ? 0 : -ENOMEM;
}

int latch_merge(const struct latch_state *s, struct findings *fs)
{
	size_t seen_now = fs->n;

	for (size_t i = 0; i < s->n_events; i++) {
		const struct latch_event *e = &s->events[i];
		const struct check_entry *row = check_catalog_find(e->id);
		bool now = false;

		if (!row)
			continue;
		for (size_t k = 0; k < seen_now; k++) {
			struct finding *f = &fs->v[k];

			/* a value not read now is no sighting: the event stands */
			if (f->unchecked || !f->subject || strcmp(f->id, e->id) != 0 ||
			    strcmp(f->subject, e->subject) != 0)
				continue;
			f->latch = (struct finding_latch){ e->first, e->last, e->count,
							   e->expires, false };
			now = true;
			if (e->severity > (int)f->severity && take_worse(f, e) < 0)
				return -ENOMEM;
		}
		if (!now && add_remembered(fs, e, row) < 0)
			return -ENOMEM;
	}
	return 0;
}

static const char state_why[] =
	"What the agent remembers of earlier readings (a flap that healed, counters that "
	"grew, a fault the kernel log lost) is what a single look cannot see: without "
	"its memory this verdict may miss them.";

int latch_unkept(struct findings *fs, const char *path, const char *what)
{
	struct finding *f = finding_add(fs, "latch.state", SEV_WARN, state_why);

	if (!f)
		return -ENOMEM;
	f->unchecked = true;
	finding_set(&f->subject, "%s", path);
	finding_set(&f->observed, "%s", what);
	finding_set(&f->expected, "a memory read and written whole");
	finding_set(&f->fix, "look at the file named; free the disk or fix the directory's "
		    "permissions; `rdmadoctor clear all --state DIR` begins afresh");
	return f->subject && f->observed && f->expected && f->fix ? 0 : -ENOMEM;
}
