/* The word for a count (plural.h). */
#include "plural.h"

const char *plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
