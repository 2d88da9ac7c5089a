/* Cache geometry: calculate_alignment(), calculate_sizes(), calculate_order()
 * in its two historical forms, min_partial, set_cpu_partial(),
 * calculate_sheaf_capacity() and the kmalloc size classes.
 *
 * Written from the behaviour of mm/slub.c and mm/slab_common.c (v5.12 ..
 * v7.0); every
 * function is pure. Sizes are computed in 64 bits so absurd inputs fail
 * cleanly instead of wrapping the way the kernel's unsigned ints would. */
#include "lib/util.h"
#include "slubviz/sizing.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WORD 8u                   /* sizeof(void *) on the 64-bit targets modelled */
#define ARCH_SLAB_MINALIGN 8u     /* __alignof__(unsigned long long) */
#define ARCH_KMALLOC_MINALIGN 8u  /* x86-64; arm64 since v6.5 (DMA bouncing) */




/* PAGE_SHIFT for the three page sizes the model supports, -1 otherwise. */
static int page_shift(uint32_t page_size)
{
	switch (page_size) {
	case 4096: return 12;
	case 16384: return 14;
	case 65536: return 16;
	default: return -1;
	}
}

/* fls(): 1-based index of the most significant set bit, 0 for 0. */
static unsigned fls32(uint32_t x)
{
	unsigned r = 0;

	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

/* ilog2(): floor(log2(x)), x > 0. */
static unsigned ilog2_32(uint32_t x)
{
	return fls32(x) - 1;
}

static bool is_power_of_2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* ---- flag names ------------------------------------------------------- */

static const struct {
	const char *name;
	uint32_t flag;
} flag_names[] = {
#define FLAG(name) { #name, SLAB_##name }
	FLAG(CONSISTENCY_CHECKS),
	FLAG(RED_ZONE),
	FLAG(POISON),
	FLAG(KMALLOC),
	FLAG(HWCACHE_ALIGN),
	FLAG(CACHE_DMA),
	FLAG(CACHE_DMA32),
	FLAG(STORE_USER),
	FLAG(PANIC),
	FLAG(TYPESAFE_BY_RCU),
	FLAG(TRACE),
	FLAG(NOLEAKTRACE),
	FLAG(NO_MERGE),
	FLAG(ACCOUNT),
	FLAG(NO_USER_FLAGS),
	FLAG(RECLAIM_ACCOUNT),
	FLAG(NO_OBJ_EXT),
#undef FLAG
};
#define NR_FLAG_NAMES (sizeof(flag_names) / sizeof(flag_names[0]))

/* Case-insensitive compare of a (ptr, len) token with a NUL-terminated name. */
static bool token_is(const char *tok, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!name[i] || toupper((unsigned char)tok[i]) != name[i])
			return false;
	return name[len] == 0;
}

/* Tokens split on ',' or '|', blanks around them ignored, "SLAB_" optional. */
int svz_slab_flags_parse(const char *s, uint32_t *out, char *err, size_t errlen)
{
	uint32_t flags = 0;
	const char *p = s ? s : "";

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || (p[0] == '0' && !p[1 + strspn(p + 1, " \t")])) {
		*out = 0;
		return 0;
	}
	for (;;) {
		const char *tok, *end;
		size_t len, i;

		while (isspace((unsigned char)*p))
			p++;
		tok = p;
		end = tok + strcspn(tok, ",|");
		p = end;
		while (end > tok && isspace((unsigned char)end[-1]))
			end--;
		len = (size_t)(end - tok);
		if (len == 0) {
			seterr(err, errlen, "empty slab flag name in '%s' (expected names "
			       "separated by ',' or '|', e.g. HWCACHE_ALIGN,TYPESAFE_BY_RCU)", s);
			return -1;
		}
		const char *name = tok;
		size_t nlen = len;
		if (nlen > 5 && token_is(name, 5, "SLAB_")) {
			name += 5;
			nlen -= 5;
		}
		for (i = 0; i < NR_FLAG_NAMES; i++)
			if (token_is(name, nlen, flag_names[i].name))
				break;
		if (i == NR_FLAG_NAMES) {
			seterr(err, errlen, "unknown slab flag '%.*s' (expected a kernel name "
			       "such as HWCACHE_ALIGN, TYPESAFE_BY_RCU)", (int)len, tok);
			return -1;
		}
		flags |= flag_names[i].flag;
		if (!*p)
			break;
		p++; /* the separator */
	}
	*out = flags;
	return 0;
}

void svz_slab_flags_format(uint32_t flags, char *buf, size_t len)
{
	size_t used = 0, i;
	uint32_t rest = flags;

	if (!buf || !len)
		return;
	buf[0] = 0;
	if (!flags) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < NR_FLAG_NAMES; i++) {
		if (!(flags & flag_names[i].flag))
			continue;
		rest &= ~flag_names[i].flag;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "|" : "",
				 flag_names[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return; /* truncated, still NUL-terminated */
		used += (size_t)n;
	}
	if (rest) /* bits without a name: show them rather than drop them */
		snprintf(buf + used, len - used, "%s0x%x", used ? "|" : "", rest);
}

/* ---- page and kmalloc arithmetic ---------------------------------------- */

/* get_order(size): smallest order with PAGE_SIZE << order >= size.
 * (The kernel leaves get_order(0) undefined; we return 0.) */
unsigned svz_get_order(uint64_t size, uint32_t page_size)
{
	unsigned order = 0;

	if (!page_size)
		return 0;
	while (order < 63 && ((uint64_t)page_size << order) < size)
		order++;
	return order;
}

/* order_objects(order, size) = (PAGE_SIZE << order) / size */
unsigned svz_order_objects(unsigned order, uint32_t size, uint32_t page_size)
{
	if (!size || order > 31)
		return 0;
	return (unsigned)(((uint64_t)page_size << order) / size);
}

/* KMALLOC_MAX_CACHE_SIZE = 1 << KMALLOC_SHIFT_HIGH, KMALLOC_SHIFT_HIGH =
 * PAGE_SHIFT + 1 under SLUB: kmalloc-8k on 4 KiB pages, -32k on 16 KiB. */
uint32_t svz_kmalloc_max_cache_size(uint32_t page_size)
{
	int shift = page_shift(page_size);

	return shift < 0 ? 0 : 1u << (shift + 1);
}

/* kmalloc_index(): size_index[(size - 1) / 8] up to 192 (this is where
 * kmalloc-96 and kmalloc-192 come in), 1 << fls(size - 1) above. Assumes
 * KMALLOC_MIN_SIZE 8 (x86-64, arm64 >= v6.5), so all of 8..192 exist. */
uint32_t svz_kmalloc_bucket(uint32_t size, uint32_t page_size)
{
	static const uint16_t size_index[24] = {
		8, 16, 32, 32, 64, 64, 64, 64,
		96, 96, 96, 96, 128, 128, 128, 128,
		192, 192, 192, 192, 192, 192, 192, 192,
	};
	uint32_t max = svz_kmalloc_max_cache_size(page_size);

	if (!size || !max || size > max)
		return 0;
	if (size <= 192)
		return size_index[(size - 1) / 8];
	return 1u << fls32(size - 1);
}

/* kmalloc_size_roundup(): 0 -> 0; <= KMALLOC_MAX_CACHE_SIZE -> the bucket's
 * object size; <= KMALLOC_MAX_SIZE (PAGE_SIZE << MAX_PAGE_ORDER) -> whole
 * pages, PAGE_SIZE << get_order(n); larger -> n (kmalloc would fail). */
uint64_t svz_kmalloc_size_roundup(uint64_t n, uint32_t page_size)
{
	uint32_t max = svz_kmalloc_max_cache_size(page_size);

	if (!n || !max)
		return n;
	if (n <= max)
		return svz_kmalloc_bucket((uint32_t)n, page_size);
	if (n <= ((uint64_t)page_size << SVZ_MAX_PAGE_ORDER))
		return (uint64_t)page_size << svz_get_order(n, page_size);
	return n;
}

/* ---- CPU count and calculate_order ---------------------------------------- */

/* nr_cpu_ids: possible CPUs (we assume contiguous ids), at least 1. */
static unsigned nr_cpu_ids(const struct svz_topology *t)
{
	int n = t->possible > 0 ? t->possible : t->nr_cpus;

	return n > 0 ? (unsigned)n : 1;
}

/* online:   v5.11-rc1..rc7 num_online_cpus() at the time the cache is created. The
 *           early-boot caches (kmalloc-*) saw only the boot CPU, so we use
 *           boot_online when set (normally 1) - seed 001's regression.
 * present:  v5.11+ (3286222fc609) num_present_cpus(), or nr_cpu_ids when that is <= 1
 *           (arm64 only marks CPUs present as it onlines them).
 * possible: <= v5.10 nr_cpu_ids. */
unsigned svz_order_cpus(const struct svz_topology *t, enum svz_cpu_source src)
{
	switch (src) {
	case SVZ_CPUS_ONLINE:
		if (t->boot_online > 0)
			return (unsigned)t->boot_online;
		return t->online > 0 ? (unsigned)t->online : 1;
	case SVZ_CPUS_PRESENT:
		if (t->present > 1)
			return (unsigned)t->present;
		return nr_cpu_ids(t);
	case SVZ_CPUS_POSSIBLE:
	default:
		return nr_cpu_ids(t);
	}
}

/* min_objects = 4 * (fls(nr_cpus) + 1): 8 for 1 CPU, 16 for 4-7, 32 for 64-127. */
unsigned svz_min_objects(unsigned nr_cpus)
{
	return 4 * (fls32(nr_cpus) + 1);
}

/* The MAX_OBJS_PER_PAGE escape shared by both forms (slub_min_order = 0):
 * objects is a 15-bit field, so a slab must not hold more than 32767.
 * Returns get_order(size * MAX_OBJS_PER_PAGE) - 1, which is -1 (failure)
 * whenever that order is 0; only reachable for sizes below 8. */
static int max_objs_escape(uint32_t size, uint32_t page_size)
{
	return (int)svz_get_order((uint64_t)size * SVZ_MAX_OBJS_PER_PAGE, page_size) - 1;
}

/* Loop form (v5.12 .. v6.6) calc_slab_order(): the first order from
 * get_order(min_objects * size) up to max_order whose leftover
 * (PAGE_SIZE << order) % size is <= (PAGE_SIZE << order) / fract;
 * max_order + 1 if none. */
static int calc_slab_order_loop(uint32_t size, unsigned min_objects,
				unsigned max_order, unsigned fract, uint32_t page_size)
{
	unsigned order;

	if (svz_order_objects(0, size, page_size) > SVZ_MAX_OBJS_PER_PAGE)
		return max_objs_escape(size, page_size);
	for (order = svz_get_order((uint64_t)min_objects * size, page_size);
	     order <= max_order; order++) {
		uint64_t slab_size = (uint64_t)page_size << order;

		if (slab_size % size <= slab_size / fract)
			break;
	}
	return (int)order;
}

/* Loop form calculate_order(): try waste 1/16, 1/8, 1/4 within
 * SLUB_MAX_ORDER; if none fits, lower min_objects by one and retry, down to
 * 2. Then any waste within SLUB_MAX_ORDER with one object, then any order up
 * to MAX_PAGE_ORDER. */
static int calculate_order_loop(uint32_t size, uint32_t page_size, unsigned nr_cpus)
{
	unsigned min_objects = svz_min_objects(nr_cpus);
	unsigned max_objects = svz_order_objects(SVZ_SLUB_MAX_ORDER, size, page_size);
	int order;

	if (min_objects > max_objects)
		min_objects = max_objects; /* may become 0: skips the loop */
	while (min_objects > 1) {
		for (unsigned fract = 16; fract >= 4; fract /= 2) {
			order = calc_slab_order_loop(size, min_objects, SVZ_SLUB_MAX_ORDER,
						     fract, page_size);
			if (order >= 0 && order <= SVZ_SLUB_MAX_ORDER)
				return order;
		}
		min_objects--;
	}
	order = calc_slab_order_loop(size, 1, SVZ_SLUB_MAX_ORDER, 1, page_size);
	if (order >= 0 && order <= SVZ_SLUB_MAX_ORDER)
		return order;
	order = calc_slab_order_loop(size, 1, SVZ_MAX_PAGE_ORDER, 1, page_size);
	if (order >= 0 && order <= SVZ_MAX_PAGE_ORDER)
		return order;
	return -1;
}

/* Fraction form (v6.7+) calc_slab_order(): first order in
 * [min_order, max_order] with leftover <= slab_size / fract. */
static unsigned calc_slab_order(uint32_t size, unsigned min_order, unsigned max_order,
				unsigned fract, uint32_t page_size)
{
	unsigned order;

	for (order = min_order; order <= max_order; order++) {
		uint64_t slab_size = (uint64_t)page_size << order;

		if (slab_size % size <= slab_size / fract)
			break;
	}
	return order;
}

/* Fraction form calculate_order(): min_objects stays fixed (clamped to
 * max(order_objects(SLUB_MAX_ORDER), 1)); min_order = get_order(min_objects *
 * size); accept waste 1/16, 1/8, 1/4, 1/2 in turn; else get_order(size). */
static int calculate_order_fraction(uint32_t size, uint32_t page_size, unsigned nr_cpus)
{
	unsigned min_objects = svz_min_objects(nr_cpus);
	unsigned max_objects = svz_order_objects(SVZ_SLUB_MAX_ORDER, size, page_size);
	unsigned min_order, order;

	if (max_objects < 1)
		max_objects = 1;
	if (min_objects > max_objects)
		min_objects = max_objects;
	min_order = svz_get_order((uint64_t)min_objects * size, page_size);
	if (svz_order_objects(min_order, size, page_size) > SVZ_MAX_OBJS_PER_PAGE)
		return max_objs_escape(size, page_size);
	for (unsigned fract = 16; fract > 1; fract /= 2) {
		order = calc_slab_order(size, min_order, SVZ_SLUB_MAX_ORDER, fract, page_size);
		if (order <= SVZ_SLUB_MAX_ORDER)
			return (int)order;
	}
	order = svz_get_order(size, page_size);
	return order <= SVZ_MAX_PAGE_ORDER ? (int)order : -1;
}

int svz_calculate_order(uint32_t size, uint32_t page_size, unsigned nr_cpus,
			enum svz_order_form form)
{
	if (!size || page_shift(page_size) < 0)
		return -1;
	if (form == SVZ_ORDER_LOOP)
		return calculate_order_loop(size, page_size, nr_cpus);
	return calculate_order_fraction(size, page_size, nr_cpus);
}

/* ---- calculate_alignment / calculate_sizes and the per-cache limits ---- */

/* calculate_alignment(): with HWCACHE_ALIGN start from the cache line and
 * halve while the object fits in half of it (24 B -> 32, 40 B -> 64); then
 * max(align, ARCH_SLAB_MINALIGN), rounded up to a word. */
uint32_t svz_calculate_alignment(uint32_t flags, uint32_t align, uint32_t object_size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		uint32_t ralign = SVZ_CACHE_LINE;

		while (object_size <= ralign / 2)
			ralign /= 2;
		if (align < ralign)
			align = ralign;
	}
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	return (uint32_t)ALIGN_UP((uint64_t)align, WORD);
}

/* calculate_sheaf_capacity() (v6.18+/v7.0): none for debug, boot
 * (NO_OBJ_EXT) and kmemleak (NOLEAKTRACE) caches; else about half the old
 * cpu_partial objects (two sheaves per CPU) - 4/12/26/60 by size - grown so
 * the sheaf (32-byte header + capacity pointers) exactly fills its kmalloc
 * bucket; an explicit request wins if larger. kmalloc-normal caches get the
 * same value later from bootstrap_cache_sheaves() with empty args. */
static unsigned calculate_sheaf_capacity(uint32_t size, uint32_t flags,
					 unsigned requested, uint32_t page_size)
{
	unsigned capacity;
	uint64_t bytes;

	if (flags & (SLAB_DEBUG_FLAGS | SLAB_NO_OBJ_EXT | SLAB_NOLEAKTRACE))
		return 0;
	if (size >= page_size)
		capacity = 4;
	else if (size >= 1024)
		capacity = 12;
	else if (size >= 256)
		capacity = 26;
	else
		capacity = 60;
	bytes = SVZ_SHEAF_HEADER + (uint64_t)capacity * WORD;
	bytes = svz_kmalloc_size_roundup(bytes, page_size);
	capacity = (unsigned)((bytes - SVZ_SHEAF_HEADER) / WORD);
	return capacity > requested ? capacity : requested;
}

/* set_cpu_partial() (classic era): cpu_partial objects by size, 0 for debug
 * caches. Since v5.16 (b47291ef02b0 with 23e98ad1ce89 "increase default cpu
 * partial list sizes") 6/24/52/120, and the list is bounded in slabs:
 * cpu_partial_slabs = DIV_ROUND_UP(cpu_partial * 2, objects), assuming half
 * full slabs. Before, 2/6/13/30 bounded the free objects themselves
 * (put_cpu_partial()'s pobjects) and there is no cpu_partial_slabs. */
static void set_cpu_partial(struct svz_geom *g, uint32_t flags, uint32_t page_size, bool objects)
{
	static const unsigned by_size[2][4] = { { 6, 24, 52, 120 }, { 2, 6, 13, 30 } };
	const unsigned *t = by_size[objects];
	unsigned nr_objects;

	if (flags & SLAB_DEBUG_FLAGS)
		nr_objects = 0;
	else if (g->size >= page_size)
		nr_objects = t[0];
	else if (g->size >= 1024)
		nr_objects = t[1];
	else if (g->size >= 256)
		nr_objects = t[2];
	else
		nr_objects = t[3];
	g->cpu_partial = nr_objects;
	g->cpu_partial_slabs = objects || !g->objects ? 0 : DIV_ROUND_UP(nr_objects * 2, g->objects);
}

static int check_common(const struct svz_geom_in *in, char *err, size_t errlen)
{
	if (page_shift(in->page_size) < 0) {
		seterr(err, errlen, "page size %u not supported (expected 4096, 16384 or 65536)",
		       in->page_size);
		return -1;
	}
	if (in->nr_cpus < 1) {
		seterr(err, errlen, "CPU count 0 (expected at least 1)");
		return -1;
	}
	return 0;
}

/* Everything after s->size is known: order (s->oo), the get_order(size)
 * fallback (s->min), min_partial = clamp(ilog2(size) / 2, 5, 10),
 * cpu_partial and sheaf_capacity (none for debug caches). */
static int finish_geometry(uint32_t size, const struct svz_geom_in *in,
			   struct svz_geom *g, char *err, size_t errlen)
{
	int order = svz_calculate_order(size, in->page_size, in->nr_cpus, in->form);
	unsigned mp;

	if (order < 0 || !svz_order_objects((unsigned)order, size, in->page_size)) {
		seterr(err, errlen, "slab size %u too large: no slab order up to %u "
		       "(%llu bytes with %u-byte pages) holds one object",
		       size, SVZ_MAX_PAGE_ORDER,
		       (unsigned long long)in->page_size << SVZ_MAX_PAGE_ORDER, in->page_size);
		return -1;
	}
	g->size = size;
	g->order = (unsigned)order;
	g->objects = svz_order_objects(g->order, size, in->page_size);
	g->min_order = svz_get_order(size, in->page_size);
	g->min_objects = svz_order_objects(g->min_order, size, in->page_size);
	mp = ilog2_32(size) / 2;
	g->min_partial = mp < SVZ_MIN_PARTIAL ? SVZ_MIN_PARTIAL :
			 mp > SVZ_MAX_PARTIAL ? SVZ_MAX_PARTIAL : mp;
	set_cpu_partial(g, in->flags, in->page_size, in->cpu_partial_objects);
	g->sheaf_capacity = calculate_sheaf_capacity(size, in->flags, in->sheaf_capacity,
						     in->page_size);
	return 0;
}

/* sizeof(struct track) on 64-bit: since v5.17 (788691464c29, stack depot)
 * addr, a depot handle, cpu, pid and when: 8 + 4 + 4 + 4 (+ 4 padding) + 8
 * = 32; before, addr, TRACK_ADDRS_COUNT (16) return addresses, cpu, pid,
 * when: 8 + 16 * 8 + 4 + 4 + 8 = 152 (CONFIG_STACKTRACE, as distributions
 * build). kernel 0 means the newest. */
static unsigned track_size(unsigned kernel)
{
	return kernel && kernel < 517 ? 152 : 32; /* 0: the newest */
}

/* slub_debug_orig_size() (v6.1+): kmalloc caches with SLAB_STORE_USER keep
 * each request's size after the tracks. */
static bool debug_orig_size(const struct svz_geom_in *in)
{
	return (in->flags & SLAB_STORE_USER) && in->is_kmalloc && (!in->kernel || in->kernel >= 601);
}

/* calculate_sizes(): size = ALIGN(object_size, 8), plus a word of right red
 * zone if RED_ZONE left no slack; inuse = size; the free pointer goes after
 * that (offset = size, size += 8) when the object must stay intact while
 * free (TYPESAFE_BY_RCU, POISON, a constructor, or a red zone around an
 * object smaller than a word or followed by orig_size), else in the middle
 * at ALIGN_DOWN(object_size / 2, 8); STORE_USER adds two struct track (and
 * orig_size); RED_ZONE adds a word of padding and red_left_pad = ALIGN(8,
 * align) in front; finally size = ALIGN(size, align).
 * kmalloc caches (create_boot_cache) start from ARCH_KMALLOC_MINALIGN and
 * power-of-two sizes are naturally aligned. */
int svz_calculate_geometry(const struct svz_geom_in *in, struct svz_geom *out,
			   char *err, size_t errlen)
{
	struct svz_geom g;
	uint32_t align = in->align;
	uint64_t size;

	memset(&g, 0, sizeof(g));
	if (check_common(in, err, errlen))
		return -1;
	if (in->object_size == 0) {
		seterr(err, errlen, "object size 0 (expected at least 1 byte)");
		return -1;
	}
	if (align && !is_power_of_2(align)) {
		seterr(err, errlen, "alignment %u is not a power of two", align);
		return -1;
	}
	if (in->is_kmalloc) {
		if (align < ARCH_KMALLOC_MINALIGN)
			align = ARCH_KMALLOC_MINALIGN;
		if (is_power_of_2(in->object_size) && align < in->object_size)
			align = in->object_size;
	}
	g.object_size = in->object_size;
	g.align = svz_calculate_alignment(in->flags, align, in->object_size);

	size = ALIGN_UP((uint64_t)in->object_size, WORD);
	/* a right red zone needs at least a word after the object */
	if ((in->flags & SLAB_RED_ZONE) && size == in->object_size)
		size += WORD;
	g.inuse = (uint32_t)size;
	const bool orig_size = debug_orig_size(in);
	if ((in->flags & (SLAB_TYPESAFE_BY_RCU | SLAB_POISON)) || in->ctor ||
	    ((in->flags & SLAB_RED_ZONE) && (in->object_size < WORD || orig_size))) {
		g.offset = (uint32_t)size;
		g.fp_outside = true;
		size += WORD;
	} else {
		g.offset = ALIGN_DOWN(in->object_size / 2, WORD);
	}
	if (in->flags & SLAB_STORE_USER) {
		size += 2 * (uint64_t)track_size(in->kernel);
		if (orig_size)
			size += 4; /* unsigned int orig_size */
	}
	if (in->flags & SLAB_RED_ZONE) {
		size += WORD; /* padding that catches overwrites from the object before */
		g.red_left_pad = (uint32_t)ALIGN_UP((uint64_t)WORD, (uint64_t)g.align);
		size += g.red_left_pad;
	}
	size = ALIGN_UP(size, (uint64_t)g.align);
	if (size > ((uint64_t)in->page_size << SVZ_MAX_PAGE_ORDER)) {
		seterr(err, errlen, "object size %u (slab size %llu) too large: the largest "
		       "slab, order %u with %u-byte pages, is %llu bytes",
		       in->object_size, (unsigned long long)size, SVZ_MAX_PAGE_ORDER,
		       in->page_size, (unsigned long long)in->page_size << SVZ_MAX_PAGE_ORDER);
		return -1;
	}
	if (finish_geometry((uint32_t)size, in, &g, err, errlen))
		return -1;
	*out = g;
	return 0;
}

int svz_geometry_for_size(uint32_t size, const struct svz_geom_in *in,
			  struct svz_geom *out, char *err, size_t errlen)
{
	struct svz_geom g;

	memset(&g, 0, sizeof(g));
	if (check_common(in, err, errlen))
		return -1;
	if (size == 0 || size % WORD) {
		seterr(err, errlen, "slab size %u (expected a non-zero multiple of 8)", size);
		return -1;
	}
	if (finish_geometry(size, in, &g, err, errlen))
		return -1;
	/* Layout fields as if a plain object filled the whole stride. */
	g.object_size = size;
	g.inuse = size;
	g.align = svz_calculate_alignment(in->flags, 0, size);
	g.offset = ALIGN_DOWN(size / 2, WORD);
	*out = g;
	return 0;
}
