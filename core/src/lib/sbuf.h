/* A growable, always NUL-terminated string: the one string builder of the
 * core (views, the manifest, the event log, the v1 exporter). */
#ifndef SVZ_SBUF_H
#define SVZ_SBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Zero-initialise ({0}); sb_free() when done. After a failed allocation
 * `oom` is set and every later append is dropped, so the text is a prefix
 * of what was asked and the caller checks `oom` once at the end. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

/* Room for `extra` more bytes plus the NUL; false (and oom) if not. */
bool sb_reserve(struct sbuf *b, size_t extra);
void sb_putn(struct sbuf *b, const char *s, size_t n);
void sb_puts(struct sbuf *b, const char *s);
void sb_putc(struct sbuf *b, char c);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An unsigned decimal, as "%llu" writes it, without printf's format
 * parsing (the v1 exporter writes a few per op line). */
void sb_putu(struct sbuf *b, uint64_t v);
/* A JSON string literal: quotes, backslashes and control characters
 * escaped; other bytes (UTF-8) pass through. */
void sb_json_str(struct sbuf *b, const char *s);
/* A byte count as the v1 format writes it (size_text()). */
void sb_size(struct sbuf *b, uint64_t v);
void sb_free(struct sbuf *b);

#endif
