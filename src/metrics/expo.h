/* The Prometheus text exposition format, version 0.0.4: a growing buffer
 * of families (# HELP, # TYPE) and their samples.  Pure: it formats, it
 * never touches the system.
 *
 * Every writer is a no-op once the buffer has failed (out of memory), so a
 * caller writes everything and checks expo_failed() once at the end. */
#ifndef RD_METRICS_EXPO_H
#define RD_METRICS_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Content-Type of what this writes. */
#define EXPO_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct expo {
	char *buf;
	size_t len, cap;
	bool failed;		/* out of memory: the text is incomplete */
};

/* A label; a NULL value is written as "" (which Prometheus reads as the
 * label being absent), so every series of a family has the same names. */
struct expo_label {
	const char *name;
	const char *value;
};

void expo_init(struct expo *e);
void expo_free(struct expo *e);
bool expo_failed(const struct expo *e);
/* Hand the text over (NUL-terminated, *len without the NUL); NULL when the
 * buffer failed.  The expo is empty afterwards. */
char *expo_take(struct expo *e, size_t *len);

/* [a-zA-Z_:][a-zA-Z0-9_:]*, what a metric name may be. */
bool expo_metric_name_ok(const char *name);

/* "# HELP name help" and "# TYPE name type" (type: "gauge", "counter",
 * "untyped"); help is escaped (backslash, newline). */
void expo_family(struct expo *e, const char *name, const char *type, const char *help);

/* One sample: name{labels} value.  Doubles are written in the shortest form
 * that reads back the same; NaN and infinities as Prometheus spells them. */
void expo_sample(struct expo *e, const char *name, const struct expo_label *labels,
		 size_t n_labels, double value);
/* A counter value, exact past 2^53. */
void expo_sample_u64(struct expo *e, const char *name, const struct expo_label *labels,
		     size_t n_labels, uint64_t value);

/* A family written on its first sample, so that a family with nothing
 * known has no lines at all. */
struct expo_fam {
	const char *name, *type, *help;
	bool begun;
};

void expo_fam_sample(struct expo *e, struct expo_fam *f, const struct expo_label *labels,
		     size_t n_labels, double value);
void expo_fam_sample_u64(struct expo *e, struct expo_fam *f, const struct expo_label *labels,
			 size_t n_labels, uint64_t value);

/* Append a label value escaped as the format wants: backslash, double quote
 * and newline escaped; bytes that are not UTF-8 become U+FFFD so that the
 * scraper, which insists on UTF-8, keeps the series. */
void expo_label_value(struct expo *e, const char *value);
/* Append a double as a sample value. */
void expo_number(struct expo *e, double v);

#endif
