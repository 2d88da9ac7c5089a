#include "lib/sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

bool sb_reserve(struct sbuf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra < b->len || b->len + extra + 1 < extra) {
		b->oom = true;
		return false;
	}
	size_t need = b->len + extra + 1;
	if (need <= b->cap && b->s)
		return true;
	size_t cap = b->cap > 64 ? b->cap : 64;
	while (cap < need) {
		if (cap > SIZE_MAX / 2) {
			b->oom = true;
			return false;
		}
		cap *= 2;
	}
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (!sb_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_puts(struct sbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_putc(struct sbuf *b, char c) { sb_putn(b, &c, 1); }

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap, aq;

	va_start(ap, fmt);
	va_copy(aq, ap);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	/* Short texts are formatted once; a longer one again, in place. */
	if (n >= 0 && sb_reserve(b, (size_t)n)) {
		if ((size_t)n < sizeof tmp)
			memcpy(b->s + b->len, tmp, (size_t)n + 1);
		else
			vsnprintf(b->s + b->len, (size_t)n + 1, fmt, aq);
		b->len += (size_t)n;
	}
	va_end(aq);
}

void sb_putu(struct sbuf *b, uint64_t v)
{
	char buf[20]; /* UINT64_MAX has 20 digits */
	size_t i = sizeof buf;
	do
		buf[--i] = (char)('0' + v % 10);
	while (v /= 10);
	sb_putn(b, buf + i, sizeof buf - i);
}

void sb_json_str(struct sbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': sb_puts(b, "\\\""); break;
		case '\\': sb_puts(b, "\\\\"); break;
		case '\n': sb_puts(b, "\\n"); break;
		case '\r': sb_puts(b, "\\r"); break;
		case '\t': sb_puts(b, "\\t"); break;
		case '\b': sb_puts(b, "\\b"); break;
		case '\f': sb_puts(b, "\\f"); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				sb_printf(b, "\\u%04x", *p);
			else
				sb_putc(b, (char)*p);
		}
	}
	sb_putc(b, '"');
}

void sb_size(struct sbuf *b, uint64_t v)
{
	char buf[24];
	size_text(v, buf, sizeof buf);
	sb_puts(b, buf);
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	*b = (struct sbuf){ 0 };
}
