/* The v1 parser's lexer (parser.h): lines into tokens, numbers, and the
 * error reporting every part of the parser uses. */
#include "trace/parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"

/* ---- errors -------------------------------------------------------------- */

static int vfail(struct parser *P, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
	if (P->failed || P->quiet)
		return -1;
	P->failed = true;
	P->err->line = line;
	P->err->col = col;
	vsnprintf(P->err->msg, sizeof P->err->msg, fmt, ap);
	return -1;
}

int fail(struct parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(P, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int fail_tok(struct parser *P, uint32_t line, const struct tok *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(P, line, t->col, fmt, ap);
	va_end(ap);
	return -1;
}

int oom(struct parser *P, uint32_t line)
{
	return fail(P, line, 0, "out of memory");
}

const char *quote(struct parser *P, const char *s, size_t len)
{
	char *buf = P->quoted[P->qnext++ & 3];

	if (len < 40)
		snprintf(buf, 48, "%.*s", (int)len, s);
	else
		snprintf(buf, 48, "%.36s...", s);
	return buf;
}

const char *qtok(struct parser *P, const struct tok *t) { return quote(P, t->s, t->len); }

/* ---- numbers ------------------------------------------------------------- */

bool parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t x = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (!is_digit(s[i]) || x > (max - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*out = x;
	return true;
}

bool parse_size(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	unsigned shift = 0;
	uint64_t x;

	if (len > 1) {
		switch (s[len - 1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		}
	}
	if (!parse_uint(s, shift ? len - 1 : len, max, &x) || (x << shift) >> shift != x ||
	    (x << shift) > max)
		return false;
	*out = x << shift;
	return true;
}

/* ---- lexing -------------------------------------------------------------- */

int next_line(struct parser *P)
{
	size_t start = P->pos, end, i;

	if (P->pos >= P->len)
		return 0;
	end = start;
	while (end < P->len && P->text[end] != '\n')
		end++;
	P->pos = end < P->len ? end + 1 : end;
	P->line++;
	P->ntoks = 0;
	/* The importers cut lines at the same length (a longer v1 line reaches
	 * this parser as SVZ_TRACE_MAX_LINE + 1 bytes), so every entry point
	 * reports it alike. */
	if (end - start > SVZ_TRACE_MAX_LINE)
		return fail(P, P->line, SVZ_TRACE_MAX_LINE + 1,
			    "expected lines of at most %u bytes, got a longer line", SVZ_TRACE_MAX_LINE);
	/* a UTF-8 byte order mark (editors on Windows write one) opens the text,
	 * not a token */
	i = start;
	if (start == 0 && end >= 3 && memcmp(P->text, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	for (; i < end; i++) {
		unsigned char c = (unsigned char)P->text[i];
		size_t j;

		if (c == '#')
			break;
		if (c == ' ' || c == '\t' || c == '\r')
			continue;
		if (c < 0x21 || c > 0x7e)
			return fail(P, P->line, (uint32_t)(i - start + 1),
				    "expected printable ASCII text, got byte 0x%02X", c);
		for (j = i; j < end && P->text[j] > 0x20 && P->text[j] < 0x7f && P->text[j] != '#'; j++)
			;
		if (!GROW(P->toks, P->ctoks, P->ntoks + 1))
			return oom(P, P->line);
		P->toks[P->ntoks++] = (struct tok){ P->text + i, (uint32_t)(j - i),
						    (uint32_t)(i - start + 1) };
		i = j - 1;
	}
	return 1;
}

void eof_pos(const struct parser *P, uint32_t *line, uint32_t *col)
{
	uint32_t l = 1;
	size_t last_nl = 0;
	bool any_nl = false;

	for (size_t i = 0; i < P->len; i++) {
		if (P->text[i] == '\n') {
			l++;
			last_nl = i;
			any_nl = true;
		}
	}
	*line = l;
	*col = (uint32_t)(P->len - (any_nl ? last_nl + 1 : 0)) + 1;
}

char *read_description(const char *text, size_t len)
{
	size_t pos = 0, out = 0;
	char *desc = malloc(len + 1);

	if (!desc)
		return NULL;
	while (pos < len) {
		size_t end;

		while (pos < len && (text[pos] == ' ' || text[pos] == '\t'))
			pos++;
		if (pos >= len || text[pos] != '#')
			break;
		pos++;
		if (pos < len && text[pos] == ' ')
			pos++;
		end = pos;
		while (end < len && text[end] != '\n')
			end++;
		if (out)
			desc[out++] = '\n';
		size_t n = end - pos;
		if (n && text[end - 1] == '\r')
			n--;
		memcpy(desc + out, text + pos, n);
		out += n;
		pos = end < len ? end + 1 : end;
	}
	desc[out] = 0;
	return desc;
}

