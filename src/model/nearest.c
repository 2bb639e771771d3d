/* The closest name (nearest.h). */
#include "nearest.h"

#include <string.h>

/* Optimal string alignment distance (typos: a letter wrong, missing,
 * extra, or two swapped); capped: words past 63 letters are far. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[64][64];

	if (la > 63 || lb > 63)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *nearest_name(const char *word, const char *const *candidates, size_t n)
{
	size_t len = strlen(word), best = (size_t)-1, limit = len < 6 ? 1 : 2;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t dist = edit_distance(word, candidates[i]);

		if (len >= 3 && strncmp(candidates[i], word, len) == 0)
			dist = 1;	/* a prefix: "inv" for "inventory" */
		if (dist <= limit && dist < best) {
			best = dist;
			pick = candidates[i];
		}
	}
	return pick;
}
