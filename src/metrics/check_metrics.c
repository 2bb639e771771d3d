/* The check: its verdict under the profile and its findings, counted. */
#include "families.h"

#include <stdio.h>
#include <string.h>

static const char *const verdicts[] = { "pass", "warn", "fail" };
static const enum severity severities[] = { SEV_ERROR, SEV_WARN, SEV_INFO };

static void verdict(struct expo *e, const struct findings *fs, const char *profile)
{
	struct expo_fam f = { "rdmadoctor_check_verdict", "gauge",
			      "1 for the verdict of the last check (pass, warn, fail), "
			      "0 for the others", false };
	const char *v = check_verdict(fs);

	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		struct expo_label l[] = { { "profile", profile }, { "verdict", verdicts[i] } };

		expo_fam_sample(e, &f, l, 2, strcmp(v, verdicts[i]) == 0);
	}
}

/* Every severity, 0 included, so that an alert can say "> 0". */
static void by_severity(struct expo *e, const struct findings *fs)
{
	struct expo_fam f = { "rdmadoctor_findings_by_severity", "gauge",
			      "Findings of the last check at each severity", false };

	for (size_t i = 0; i < sizeof(severities) / sizeof(severities[0]); i++) {
		struct expo_label l[] = { { "severity", severity_name(severities[i]) } };
		size_t count = 0;

		/* waived by the site file: not what an alert on "> 0" is for */
		for (size_t k = 0; k < fs->n; k++)
			count += fs->v[k].severity == severities[i] && !fs->v[k].waived;
		expo_fam_sample(e, &f, l, 1, (double)count);
	}
}

/* What the check expected but could not read ("not checked"), the same
 * count as `check --json`'s unchecked: an alert on "> 0" sees a node whose
 * PASS or WARN rests on something nobody read. */
static void unchecked(struct expo *e, const struct findings *fs)
{
	struct expo_fam f = { "rdmadoctor_check_unchecked", "gauge",
			      "What the last check expected but could not read (not checked), as "
			      "check --json's unchecked", false };

	expo_fam_sample(e, &f, NULL, 0, (double)check_unchecked(fs));
}

static bool same(const struct finding *a, const struct finding *b)
{
	return a->severity == b->severity && strcmp(a->id, b->id) == 0;
}

/* One series per id and severity found, in the check's order. */
static void by_id(struct expo *e, const struct findings *fs)
{
	struct expo_fam f = { "rdmadoctor_findings", "gauge",
			      "Findings of the last check with this id and severity, those the "
			      "site file waives left out (`rdmadoctor check` tells which subjects)",
			      false };

	for (size_t i = 0; i < fs->n; i++) {
		struct expo_label l[] = { { "id", fs->v[i].id },
					  { "severity", severity_name(fs->v[i].severity) } };
		size_t count = 0;
		bool seen = false;

		if (fs->v[i].waived)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = !fs->v[k].waived && same(&fs->v[k], &fs->v[i]);
		if (seen)
			continue;
		for (size_t k = i; k < fs->n; k++)
			count += !fs->v[k].waived && same(&fs->v[k], &fs->v[i]);
		expo_fam_sample(e, &f, l, 2, (double)count);
	}
}

/* A subject that starts with a NIC's name ("mlx5_0 port 1 (enp24s0np0)
 * lane 3", "mlx5_6 via bridge ...") names that device, and its port when
 * " port N" follows; any other ("GPU 0000:1b:00.0", "rail NICs", "host")
 * names neither and stays whole in the subject label. */
static void subject_parts(const struct inventory *inv, const char *subject, char *dev,
			  size_t dev_len, char *port, size_t port_len)
{
	size_t word = strcspn(subject, " ");
	unsigned num;

	dev[0] = port[0] = '\0';
	for (size_t i = 0; inv && i < inv->n_nics; i++) {
		const char *name = inv->nics[i].name;

		if (name && strlen(name) == word && strncmp(subject, name, word) == 0 &&
		    word < dev_len) {
			snprintf(dev, dev_len, "%s", name);
			if (sscanf(subject + word, " port %u", &num) == 1)
				snprintf(port, port_len, "%u", num);
			return;
		}
	}
}

/* One series per finding, labelled with what it is about, so that an alert
 * can name the device and port. */
static void each(struct expo *e, const struct findings *fs, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_finding", "gauge",
			      "A finding of the last check, always 1: its id, severity and "
			      "subject (device and port where it is about one) in labels; "
			      "the site file's waived ones left out", false };

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *x = &fs->v[i];
		char dev[64], port[16];
		struct expo_label l[5];

		/* waived by the site file: as for the counts, no series */
		if (x->waived)
			continue;

		subject_parts(inv, x->subject ? x->subject : "", dev, sizeof(dev), port, sizeof(port));
		l[0] = (struct expo_label){ "id", x->id };
		l[1] = (struct expo_label){ "severity", severity_name(x->severity) };
		l[2] = (struct expo_label){ "device", dev };
		l[3] = (struct expo_label){ "port", port };
		l[4] = (struct expo_label){ "subject", x->subject };
		expo_fam_sample(e, &f, l, 5, 1);
	}
}

/* The findings the agent's memory holds (serve --state, docs/state.md):
 * since when, with the labels of rdmadoctor_finding, so that an alert can
 * tell a fault seen now from one remembered. */
static void latched(struct expo *e, const struct findings *fs, const struct inventory *inv)
{
	struct expo_fam f = { "rdmadoctor_finding_latched_since_seconds", "gauge",
			      "When a finding the agent remembers was first seen (seconds since "
			      "the epoch), with rdmadoctor_finding's labels and remembered=\"true\" "
			      "when it was not seen in the last reading; kept until it expires or "
			      "`rdmadoctor clear`", false };

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *x = &fs->v[i];
		char dev[64], port[16];
		struct expo_label l[6];

		if (x->waived || !x->latch.since)
			continue;
		subject_parts(inv, x->subject ? x->subject : "", dev, sizeof(dev), port, sizeof(port));
		l[0] = (struct expo_label){ "id", x->id };
		l[1] = (struct expo_label){ "severity", severity_name(x->severity) };
		l[2] = (struct expo_label){ "device", dev };
		l[3] = (struct expo_label){ "port", port };
		l[4] = (struct expo_label){ "subject", x->subject };
		l[5] = (struct expo_label){ "remembered", x->latch.remembered ? "true" : "false" };
		expo_fam_sample(e, &f, l, 6, (double)x->latch.since);
	}
}

void metrics_findings(struct expo *e, const struct findings *fs, const char *profile,
		      const struct inventory *inv)
{
	verdict(e, fs, profile);
	by_severity(e, fs);
	unchecked(e, fs);
	by_id(e, fs);
	each(e, fs, inv);
	latched(e, fs, inv);
}
