/* Interned strings: names[id] with an open-addressing index (FNV-1a) of
 * id + 1. Shared by the trace parser and the importers. */
#ifndef SVZ_STRTAB_H
#define SVZ_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STRTAB_NONE UINT32_MAX

/* Names copied one after another into 64 KiB blocks and freed together: a
 * name costs its bytes, not a malloc chunk each (the v1 parser's handles,
 * millions of short names). */
struct strpool {
	struct strblock *blocks; /* newest first */
};

struct strtab {
	char **names;
	uint32_t n, cap;
	uint32_t *slots;
	uint32_t nslots; /* power of two, or 0 */
	struct strpool *pool; /* NULL: each name is its own malloc */
};

/* Id of s[0..len), or STRTAB_NONE. */
uint32_t strtab_find(const struct strtab *st, const char *s, size_t len);
/* Id of s, added if new; STRTAB_NONE when out of memory. *added (may be
 * NULL) tells whether it was new. */
uint32_t strtab_intern(struct strtab *st, const char *s, size_t len, bool *added);
/* Frees the index, and the names too unless they were handed on (pooled
 * names stay in their pool either way). */
void strtab_free(struct strtab *st, bool names_too);
/* Frees a pool's blocks (strpool.blocks, possibly handed on). */
void strpool_free(struct strblock *blocks);

#endif
