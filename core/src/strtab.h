/* Interned strings: names[id] with an open-addressing index (FNV-1a) of
 * id + 1. Shared by the trace parser and the importers. */
#ifndef SVZ_STRTAB_H
#define SVZ_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STRTAB_NONE UINT32_MAX

struct strtab {
	char **names;
	uint32_t n, cap;
	uint32_t *slots;
	uint32_t nslots; /* power of two, or 0 */
};

/* Id of s[0..len), or STRTAB_NONE. */
uint32_t strtab_find(const struct strtab *st, const char *s, size_t len);
/* Id of s, added if new; STRTAB_NONE when out of memory. *added (may be
 * NULL) tells whether it was new. */
uint32_t strtab_intern(struct strtab *st, const char *s, size_t len, bool *added);
/* Frees the index, and the names too unless they were handed on. */
void strtab_free(struct strtab *st, bool names_too);

#endif
