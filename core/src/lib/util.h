/* Small helpers shared by the parsers, the importers and the views. */
#ifndef SVZ_UTIL_H
#define SVZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's ALIGN(), ALIGN_DOWN() and DIV_ROUND_UP(). */
#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))
#define ALIGN_DOWN(x, a) ((x) / (a) * (a))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

/* The character classes of the trace parser and the importers. Inline
 * always: the wasm build compiles those files for size (-Oz), where a
 * call per character was a fifth of an import's time under Node. */
#define CHAR_CLASS static inline __attribute__((always_inline)) bool
CHAR_CLASS is_digit(char c) { return c >= '0' && c <= '9'; }
CHAR_CLASS is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
CHAR_CLASS is_ident(char c) { return is_ident_start(c) || is_digit(c); }
CHAR_CLASS is_hex_digit(char c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }
/* s begins "0x" or "0X" and has more after it (a hex number's prefix) */
static inline bool has_0x_prefix(const char *s, size_t len) { return len > 2 && s[0] == '0' && (s[1] | 0x20) == 'x'; }
/* a blank inside a line (a line's end is found before) */
CHAR_CLASS is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
#undef CHAR_CLASS

/* Format a message into err (if any): the "expected ..., got ..." errors. */
void seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Make room for `need` elements of `elem` bytes in *p (capacity *cap):
 * doubling, except that a jump past twice the capacity (the reservation for
 * a whole repeat block) takes exactly what it needs. False (nothing
 * changed) when out of memory or past UINT32_MAX elements. */
bool grow(void **p, uint32_t *cap, uint64_t need, size_t elem);
#define GROW(arr, cap, need) grow((void **)&(arr), &(cap), (need), sizeof *(arr))

/* A byte count in the v1 format's size syntax: the largest of K, M, G, T
 * (powers of 1024) that divides it exactly ("64M", "1536K"), else bare
 * digits ("1000", "0"). parse_size() in trace/ reads it back. */
void size_text(uint64_t v, char *buf, size_t len);

/* A list of names for a message, from the table that defines them:
 * name(0), name(1), ... up to the first NULL, with `sep` between two names
 * and `last` before the final one ("a, b or c"); cut to fit buf. */
void join_names(char *buf, size_t len, const char *(*name)(int), const char *sep,
		const char *last);

/* Word k (from 0) of a space-separated list ("sheaves classic") into buf;
 * false (buf "") past the end. */
bool word_at(const char *words, int k, char *buf, size_t len);

#endif
