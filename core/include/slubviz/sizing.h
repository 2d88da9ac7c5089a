/* Cache geometry exactly as the kernel computes it: calculate_alignment(),
 * calculate_sizes(), calculate_order() (both forms), min_partial,
 * cpu_partial / cpu_partial_slabs, calculate_sheaf_capacity(), and the
 * kmalloc size classes. Pure functions: no model state. */
#ifndef SLUBVIZ_SIZING_H
#define SLUBVIZ_SIZING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slubviz/config.h"

/* Cache flags by kernel name (include/linux/slab.h); values are our own. */
#define SLAB_CONSISTENCY_CHECKS 0x0001u
#define SLAB_RED_ZONE           0x0002u
#define SLAB_POISON             0x0004u
#define SLAB_KMALLOC            0x0008u
#define SLAB_HWCACHE_ALIGN      0x0010u
#define SLAB_CACHE_DMA          0x0020u
#define SLAB_CACHE_DMA32        0x0040u
#define SLAB_STORE_USER         0x0080u
#define SLAB_PANIC              0x0100u
#define SLAB_TYPESAFE_BY_RCU    0x0200u
#define SLAB_TRACE              0x0400u
#define SLAB_NOLEAKTRACE        0x0800u
#define SLAB_NO_MERGE           0x1000u
#define SLAB_ACCOUNT            0x2000u
#define SLAB_NO_USER_FLAGS      0x4000u
#define SLAB_RECLAIM_ACCOUNT    0x8000u
#define SLAB_NO_OBJ_EXT         0x10000u
#define SLAB_DEBUG_FLAGS (SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER | \
			  SLAB_TRACE | SLAB_CONSISTENCY_CHECKS)
/* mm/slab_common.c: flags that keep a cache from ever merging, and flags
 * two caches must share to merge. */
#define SLAB_NEVER_MERGE (SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER | SLAB_TRACE | \
			  SLAB_TYPESAFE_BY_RCU | SLAB_NOLEAKTRACE | SLAB_NO_MERGE)
#define SLAB_MERGE_SAME (SLAB_RECLAIM_ACCOUNT | SLAB_CACHE_DMA | SLAB_CACHE_DMA32 | SLAB_ACCOUNT)

#define SVZ_OO_SHIFT 16
#define SVZ_MAX_OBJS_PER_PAGE 32767
#define SVZ_MIN_PARTIAL 5
#define SVZ_MAX_PARTIAL 10
#define SVZ_SLUB_MAX_ORDER 3     /* PAGE_ALLOC_COSTLY_ORDER */
#define SVZ_MAX_PAGE_ORDER 10
#define SVZ_CACHE_LINE 64        /* cache_line_size() on x86-64 */
#define SVZ_SHEAF_HEADER 32      /* struct slab_sheaf without objects[], 64-bit */

/* Parse "HWCACHE_ALIGN,TYPESAFE_BY_RCU" or "SLAB_HWCACHE_ALIGN|SLAB_ACCOUNT"
 * (',' or '|' separated, SLAB_ prefix optional, "0" or "" = none).
 * Returns 0 or -1 naming the unknown flag in err. */
int svz_slab_flags_parse(const char *s, uint32_t *out, char *err, size_t errlen);
/* "HWCACHE_ALIGN|TYPESAFE_BY_RCU" (no prefix), "0" if none. */
void svz_slab_flags_format(uint32_t flags, char *buf, size_t len);

struct svz_geom_in {
	uint32_t object_size;
	uint32_t align;          /* requested alignment (0 = none) */
	uint32_t flags;          /* SLAB_* */
	bool ctor;               /* has a constructor: free pointer goes outside */
	bool is_kmalloc;         /* created by create_kmalloc_caches() */
	uint32_t sheaf_capacity; /* kmem_cache_args.sheaf_capacity (0 = auto) */
	uint32_t page_size;
	unsigned nr_cpus;        /* the CPU count calculate_order uses (see svz_order_cpus) */
	enum svz_order_form form;
	enum svz_era era;        /* classic: cpu_partial counts; sheaves: sheaf_capacity */
	bool cpu_partial_objects; /* before v5.16: set_cpu_partial()'s object table */
	unsigned kernel;         /* release modelled (619 = v6.19; 0 = newest): the
				    size of struct track, whether orig_size is kept */
};

struct svz_geom {
	uint32_t object_size, size, align;
	uint32_t inuse;          /* offset where metadata begins */
	uint32_t offset;         /* free pointer offset within the object stride */
	bool fp_outside;         /* free pointer stored after the object */
	uint32_t red_left_pad;   /* left red zone before each object (RED_ZONE) */
	unsigned order, objects;         /* s->oo */
	unsigned min_order, min_objects; /* s->min (fallback order) */
	unsigned min_partial;
	unsigned cpu_partial, cpu_partial_slabs; /* as set_cpu_partial(); classic era semantics;
						   cpu_partial_slabs is 0 before v5.16 */
	unsigned sheaf_capacity; /* calculate_sheaf_capacity(); computed in both eras */
};

/* calculate_sizes() + order/objects + min_partial + cpu_partial + sheaf capacity.
 * Returns 0, or -1 with a message (e.g. object too large for any order). */
int svz_calculate_geometry(const struct svz_geom_in *in, struct svz_geom *out,
			   char *err, size_t errlen);

/* Like svz_calculate_geometry(), but for a cache whose stride s->size is
 * already known (e.g. a /proc/slabinfo objsize): in->object_size, align and
 * ctor are ignored, size must be a non-zero multiple of 8. */
int svz_geometry_for_size(uint32_t size, const struct svz_geom_in *in,
			  struct svz_geom *out, char *err, size_t errlen);

/* calculate_alignment(): HWCACHE_ALIGN halving from SVZ_CACHE_LINE, then at
 * least ARCH_SLAB_MINALIGN (8), rounded up to a multiple of 8. */
uint32_t svz_calculate_alignment(uint32_t flags, uint32_t align, uint32_t object_size);

/* min_objects = 4 * (fls(nr_cpus) + 1), before clamping to max_objects. */
unsigned svz_min_objects(unsigned nr_cpus);

/* The CPU count that calculate_order() sees for a given source. */
unsigned svz_order_cpus(const struct svz_topology *t, enum svz_cpu_source src);

/* calculate_order(size) in either form; -1 if impossible (-ENOSYS). */
int svz_calculate_order(uint32_t size, uint32_t page_size, unsigned nr_cpus,
			enum svz_order_form form);
/* order_objects(order, size) = (PAGE_SIZE << order) / size */
unsigned svz_order_objects(unsigned order, uint32_t size, uint32_t page_size);
/* get_order(size): smallest order whose span covers size. */
unsigned svz_get_order(uint64_t size, uint32_t page_size);

/* kmalloc size classes (KMALLOC_MIN_SIZE 8). */
uint32_t svz_kmalloc_max_cache_size(uint32_t page_size); /* 1 << (PAGE_SHIFT + 1) */
/* Object size of the kmalloc bucket serving `size`, 0 for size 0, or 0 if
 * size > KMALLOC_MAX_CACHE_SIZE (a large kmalloc). */
uint32_t svz_kmalloc_bucket(uint32_t size, uint32_t page_size);
/* kmalloc_size_roundup(): bucket size, or PAGE_SIZE << get_order(n) when large. */
uint64_t svz_kmalloc_size_roundup(uint64_t n, uint32_t page_size);

#endif
