/* Framing: the input, in chunks of any size, as lines (docs/import.md).
 *
 * Complete lines are handled at once, a partial last line waits in `carry`
 * (up to limits.max_line bytes). A first line may start with a UTF-8 BOM;
 * lines may end in CR; control bytes make a line bad. The format is decided
 * by the first line that is not blank or a '#' comment (unless the caller
 * names it; formats.c), and every content line then goes to that format's
 * line parser (fmt_*.c). Native v1 is kept whole for svz_trace_parse(), and
 * so is the undecided prefix, in case the text turns out to be v1. */
#include "import/importer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void svz_import_limits_default(struct svz_import_limits *l)
{
	l->max_line = 65536;
	l->max_ops = SVZ_TRACE_MAX_OPS; /* the v1 limit: what the browser can replay */
	l->max_bytes = 2ull << 30;
	l->max_errors = 20;
	l->max_caches = 4096;
}

/* Text shown in a message: at most `max` bytes, unprintable bytes as '?'. */
const char *imp_excerpt(const char *s, size_t len, size_t max, char *buf, size_t bufsize)
{
	size_t n = len < max ? len : max, o = 0;
	for (size_t i = 0; i < n && o + 4 < bufsize; i++) {
		unsigned char c = (unsigned char)s[i];
		buf[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n < len && o + 4 < bufsize) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = 0;
	return buf;
}

void imp_bad_line(struct svz_importer *im, uint64_t line, const char *fmt, ...)
{
	struct svz_import_report *r = &im->rep;
	r->bad_lines++;
	if (r->nr_errors >= im->lim.max_errors)
		return;
	if (!r->errors) {
		r->errors = calloc(im->lim.max_errors, sizeof *r->errors);
		if (!r->errors) {
			im->oom = true;
			return;
		}
	}
	struct svz_import_error *e = &r->errors[r->nr_errors++];
	va_list ap;
	e->line = line;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
}

/* Bump the count of `name` in a small name table (first SVZ_IMPORT_MAX_NAMES kept). */
void imp_count_name(struct svz_import_name_count *t, uint32_t *n, const char *s, size_t len)
{
	if (len >= sizeof t->name)
		len = sizeof t->name - 1;
	for (uint32_t i = 0; i < *n; i++)
		if (strncmp(t[i].name, s, len) == 0 && t[i].name[len] == 0) {
			t[i].count++;
			return;
		}
	if (*n >= SVZ_IMPORT_MAX_NAMES)
		return;
	memcpy(t[*n].name, s, len);
	t[*n].name[len] = 0;
	t[*n].count = 1;
	(*n)++;
}

/* "#P:4" in an ftrace header, "cpus=4" in trace-cmd's. */
void imp_header_cpus(struct svz_importer *im, const char *s, size_t n, const char *tag)
{
	size_t tl = strlen(tag);
	for (size_t i = 0; i + tl < n; i++)
		if (memcmp(s + i, tag, tl) == 0) {
			uint64_t v = 0;
			size_t k = i + tl;
			while (k < n && is_digit(s[k]) && v < 1000000)
				v = v * 10 + (uint64_t)(s[k++] - '0');
			if (k > i + tl && v > (uint64_t)im->rep.header_cpus)
				im->rep.header_cpus = v > 1000000 ? 1000000 : (int)v;
			return;
		}
}

size_t imp_tokens(const char *s, size_t n, size_t *i, struct slice *tk, size_t max, bool to_fields)
{
	size_t nt = 0;

	while (nt < max) {
		while (*i < n && is_space(s[*i]))
			(*i)++;
		if (*i >= n)
			break;
		size_t b = *i;
		while (*i < n && !is_space(s[*i]))
			(*i)++;
		tk[nt++] = (struct slice){ s + b, *i - b };
		if (to_fields && nt > 2 && memchr(tk[nt - 1].s, '=', tk[nt - 1].len))
			break;
	}
	return nt;
}

static void text_append(struct svz_importer *im, const char *s, size_t n)
{
	sb_putn(&im->text, s, n);
	im->oom |= im->text.oom;
}

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_space(s[i]))
			return false;
	return true;
}

/* Index of the first byte below 0x20 other than tab and CR, or DEL; n if
 * none. Eight bytes at a time: (x - 0x20..) & ~x & 0x80.. flags any byte
 * below 0x20, the same on x ^ 0x7f.. any 0x7f. */
static size_t control_byte(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x, d;
		memcpy(&x, s + i, 8);
		d = x ^ (ones * 0x7f);
		if (!(((x - ones * 0x20) & ~x & highs) | ((d - ones) & ~d & highs)))
			continue;
		for (size_t j = i; j < i + 8; j++) {
			unsigned char c = (unsigned char)s[j];
			if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
				return j;
		}
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return i;
	}
	return n;
}

/* A UTF-8 byte order mark (editors on Windows save one): not text. */
static size_t bom_len(const char *s, size_t n)
{
	return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

static void handle_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct svz_import_report *r = &im->rep;

	if (n && s[n - 1] == '\r')
		n--;
	/* a v1 text keeps its BOM, so the v1 parser reads what svz_open() reads */
	const char *raw = s;
	size_t rawn = n, bom = line == 1 ? bom_len(s, n) : 0;
	s += bom;
	n -= bom;
	if (im->fmt == SVZ_FMT_V1) {
		text_append(im, raw, rawn);
		text_append(im, "\n", 1);
		return;
	}
	/* control bytes (NUL, escape sequences ...) never occur in these formats */
	size_t bad = control_byte(s, n);
	if (bad < n) {
		imp_bad_line(im, line, "binary data: byte 0x%02X at column %zu", (unsigned char)s[bad],
			     bad + 1);
		if (im->fmt == SVZ_FMT_AUTO) { /* should this be v1, its parser will say */
			text_append(im, raw, rawn);
			text_append(im, "\n", 1);
		}
		return;
	}
	if (is_blank(s, n)) {
		r->blank_lines++;
		if (im->fmt == SVZ_FMT_AUTO) {
			text_append(im, raw, rawn);
			text_append(im, "\n", 1);
		}
		return;
	}
	size_t i = 0;
	while (i < n && is_space(s[i]))
		i++;
	if (s[i] == '#') {
		r->comment_lines++;
		imp_header_cpus(im, s, n, "#P:");
		if (im->fmt == SVZ_FMT_AUTO) {
			/* "# tracer: nop", "# entries-in-buffer/..." */
			for (size_t k = i; k + 7 < n; k++)
				if (memcmp(s + k, "tracer:", 7) == 0 || memcmp(s + k, "entries-", 8) == 0)
					im->ftrace_hint = true;
			/* kept in case this is v1's description (past the cap only the
			 * line breaks, so v1 line numbers stay right) */
			if (im->text.len + rawn + 1 <= UNDECIDED_MAX)
				text_append(im, raw, rawn);
			text_append(im, "\n", 1);
		}
		return;
	}
	if (im->fmt == SVZ_FMT_AUTO) {
		im->fmt = imp_detect_line(s, n, false);
		if (im->fmt == SVZ_FMT_V1) {
			text_append(im, raw, rawn);
			text_append(im, "\n", 1);
			return;
		}
		sb_free(&im->text);
	}
	import_formats[im->fmt].line(im, s, n, line);
}

struct svz_importer *svz_importer_new(enum svz_import_format fmt, const struct svz_config *base,
				      const struct svz_import_limits *lim)
{
	struct svz_importer *im = calloc(1, sizeof *im);
	if (!im)
		return NULL;
	im->fmt = (unsigned)fmt < SVZ_FMT__COUNT ? fmt : SVZ_FMT_AUTO;
	im->fmt_given = im->fmt != SVZ_FMT_AUTO;
	if (base)
		im->base = *base;
	else
		svz_config_default(&im->base);
	if (lim)
		im->lim = *lim;
	else
		svz_import_limits_default(&im->lim);
	if (!im->lim.max_line)
		im->lim.max_line = 65536;
	im->rep.max_node = -1;
	im->rep.cpus_beyond_lo = im->rep.cpus_beyond_hi = -1;
	im->rep.header_ops = -1;
	im->max_cpu = -1;
	if (strtab_intern(&im->sites, "", 0, NULL) == NONE) {
		free(im);
		return NULL;
	}
	return im;
}

uint64_t svz_importer_lines(const struct svz_importer *im) { return im ? im->rep.lines : 0; }
uint64_t svz_importer_bytes(const struct svz_importer *im) { return im ? im->rep.bytes : 0; }

static void too_long(struct svz_importer *im, uint64_t line, uint64_t len)
{
	im->rep.long_lines++;
	imp_bad_line(im, line, "line longer than the limit of %u bytes (%" PRIu64 " bytes): skipped",
		     im->lim.max_line, len);
	/* v1 keeps every line: the first long one goes to the parser as a
	 * stand-in just past its limit, so it fails there as svz_open() does */
	if (im->fmt == SVZ_FMT_V1 || im->fmt == SVZ_FMT_AUTO) {
		char pad[1024];
		memset(pad, 'x', sizeof pad);
		for (uint32_t n = im->rep.long_lines == 1 ? SVZ_TRACE_MAX_LINE + 1 : 0; n;) {
			uint32_t k = n < sizeof pad ? n : (uint32_t)sizeof pad;
			text_append(im, pad, k);
			n -= k;
		}
		text_append(im, "\n", 1);
	}
}

/* A UTF-16 byte-order mark in the input's first two bytes (Windows tools,
 * PowerShell's redirection, save UTF-16 text): every other byte of the
 * text is 0x00, so no line could be read; the import stops there. True
 * (and the import fatal) if there is one. */
static bool utf16_bom(struct svz_importer *im, const char *data, size_t len)
{
	uint64_t had = im->rep.bytes;
	for (size_t k = 0; k < len && had + k < 2; k++)
		im->head[had + k] = (unsigned char)data[k];
	if (had >= 2 || had + len < 2)
		return false;
	if (!((im->head[0] == 0xFF && im->head[1] == 0xFE) || (im->head[0] == 0xFE && im->head[1] == 0xFF)))
		return false;
	imp_set_fatal(im, "UTF-16 text (byte-order mark %02X %02X): convert it to UTF-8, e.g. "
		      "iconv -f utf-16 -t utf-8 FILE", im->head[0], im->head[1]);
	return true;
}

void svz_importer_feed(struct svz_importer *im, const char *data, size_t len)
{
	if (!im || im->rep.truncated || im->rep.fatal || !len)
		return;
	if (im->rep.bytes + len > im->lim.max_bytes) {
		len = (size_t)(im->lim.max_bytes - im->rep.bytes);
		im->rep.truncated = true;
	}
	if (utf16_bom(im, data, len)) {
		im->rep.bytes += len;
		im->carry.len = 0;
		im->carry_total = 0;
		im->carry_long = false;
		return;
	}
	im->rep.bytes += len;
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		size_t piece = end - pos;
		if (!nl) {
			/* a partial line: keep it for the next chunk */
			im->carry_total += piece;
			if (!im->carry_long && im->carry.len + piece > im->lim.max_line) {
				im->carry_long = true;
				im->carry.len = 0;
			}
			if (!im->carry_long) {
				sb_putn(&im->carry, data + pos, piece);
				im->oom |= im->carry.oom;
			}
			return;
		}
		uint64_t line = ++im->rep.lines;
		if (im->carry_long || im->carry_total + piece > im->lim.max_line) {
			too_long(im, line, im->carry_total + piece);
		} else if (im->carry.len) {
			/* finish the carried line */
			sb_putn(&im->carry, data + pos, piece);
			if ((im->oom |= im->carry.oom))
				return;
			handle_line(im, im->carry.s, im->carry.len, line);
		} else {
			handle_line(im, data + pos, piece, line);
		}
		im->carry.len = 0;
		im->carry_total = 0;
		im->carry_long = false;
		pos = end + 1;
	}
}

/* The last line, if it had no '\n': a line that cannot be read in full
 * there is where the input was cut. */
void imp_end_input(struct svz_importer *im)
{
	if (im->rep.fatal || (!im->carry_long && !im->carry_total))
		return;
	uint64_t line = ++im->rep.lines, bad = im->rep.bad_lines;
	im->at_eof = true;
	if (im->carry_long)
		too_long(im, line, im->carry_total);
	else
		handle_line(im, im->carry.s, im->carry.len, line);
	if (im->rep.bad_lines > bad)
		im->rep.cut_line = line;
	im->carry.len = 0;
	im->carry_total = 0;
	im->carry_long = false;
}

void svz_importer_free(struct svz_importer *im)
{
	if (!im)
		return;
	sb_free(&im->carry);
	sb_free(&im->text);
	free(im->ops);
	free(im->caches);
	free(im->cx);
	strtab_free(&im->cache_index, true);
	if (im->handles)
		for (uint32_t i = 0; i < im->nr_handles; i++)
			free(im->handles[i]);
	free(im->handles);
	strtab_free(&im->sites, true);
	strtab_free(&im->votes, true);
	strtab_free(&im->shown, true);
	strtab_free(&im->gfps, true);
	free(im->gfp_vals);
	free(im->ptab);
	free(im->inputs);
	free(im->rep.errors);
	free(im->rep.caches);
	free(im);
}

enum svz_import_format svz_import_detect(const char *text, size_t len)
{
	size_t pos = bom_len(text, len);
	bool hint = false;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *s = text + pos;
		size_t n = end - pos;
		pos = end + 1;
		if (n && s[n - 1] == '\r')
			n--;
		if (is_blank(s, n))
			continue;
		size_t i = 0;
		while (i < n && is_space(s[i]))
			i++;
		if (s[i] == '#') {
			for (size_t k = i; k + 7 < n; k++)
				if (memcmp(s + k, "tracer:", 7) == 0)
					hint = true;
			continue;
		}
		return imp_detect_line(s, n, true);
	}
	return hint ? SVZ_FMT_FTRACE : SVZ_FMT_AUTO;
}
