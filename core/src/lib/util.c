#include "lib/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void join_names(char *buf, size_t len, const char *(*name)(int), const char *sep,
		const char *last)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (int i = 0; name(i) && used < len; i++) {
		const char *between = i == 0 ? "" : name(i + 1) ? sep : last;
		int n = snprintf(buf + used, len - used, "%s%s", between, name(i));
		if (n < 0)
			return;
		used += (size_t)n;
	}
}

bool word_at(const char *words, int k, char *buf, size_t len)
{
	for (const char *w = words; *w;) {
		size_t n = strcspn(w, " ");

		if (n && k-- == 0) {
			snprintf(buf, len, "%.*s", (int)n, w);
			return true;
		}
		w += n + (w[n] == ' ');
	}
	if (len)
		buf[0] = 0;
	return false;
}
