/* The word for a count: "1 note", "2 notes", "0 notes".  Every printed
 * count of things takes its word from here, so that none reads "1 notes". */
#ifndef RD_OUT_PLURAL_H
#define RD_OUT_PLURAL_H

/* one when n is 1, else many */
const char *plural(unsigned long long n, const char *one, const char *many);

#endif
