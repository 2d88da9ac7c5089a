#include "lib/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

bool grow(void **p, uint32_t *cap, uint64_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
	if (ncap < need)
		ncap = need;
	if (ncap > UINT32_MAX) /* a capacity past the counter: just what is needed */
		ncap = need;
	if (ncap > UINT32_MAX || ncap > SIZE_MAX / elem)
		return false;
	void *np = realloc(*p, (size_t)ncap * elem);
	if (!np)
		return false;
	*p = np;
	*cap = (uint32_t)ncap;
	return true;
}

void size_text(uint64_t v, char *buf, size_t len)
{
	static const char suf[] = "KMGT";
	int k = -1;
	while (v && v % 1024 == 0 && k < 3) {
		v /= 1024;
		k++;
	}
	if (k >= 0)
		snprintf(buf, len, "%" PRIu64 "%c", v, suf[k]);
	else
		snprintf(buf, len, "%" PRIu64, v);
}
