/* Small helpers shared by the parsers and sizing code. */
#ifndef SVZ_UTIL_H
#define SVZ_UTIL_H

#include <stddef.h>

/* Format a message into err (if any): the "expected ..., got ..." errors. */
void seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
