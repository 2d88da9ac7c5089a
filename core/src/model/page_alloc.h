#ifndef SVZ_PAGE_ALLOC_H
#define SVZ_PAGE_ALLOC_H
#include "model/types.h"
#define PFN_NONE UINT64_MAX
/* alloc_pages_node(): pfn or PFN_NONE; *got_node = where it came from. */
uint64_t page_alloc(struct model *m, int node, int order, uint32_t gfp, int *got_node);
ARENA_MOVES void page_free(struct model *m, int node, int order, uint64_t pfn);
#endif
