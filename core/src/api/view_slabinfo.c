/* /proc/slabinfo (views.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/views.h"

/* slab->objects - slab->inuse as the kernel's count_free() computes it:
 * int arithmetic, then added into an unsigned long. */
static uint64_t count_free(struct slab_rec *s)
{
	return (uint64_t)(int64_t)(int32_t)(s->objects - s->inuse);
}

uint64_t count_partial(struct model *m, struct cnode_rec *n, int what)
{
	uint64_t x = 0;
	uint32_t guard = pool_len(m, P_SLAB);
	for (idx_t s = list_first(m, P_SLAB, n->partial.first); s != NIL && guard--;
	     s = slab_next(m, s)) {
		struct slab_rec *sr = slab_r(m, s);
		x += what == 0 ? count_free(sr) : what == 1 ? (uint64_t)sr->inuse : (uint64_t)sr->objects;
	}
	return x;
}

#define MAX_PARTIAL_TO_SCAN 10000

/* count_partial_free_approx() (v6.10+, 046f4c69090c): exact up to
 * MAX_PARTIAL_TO_SCAN partial slabs; above, 5000 from the head and 5000
 * from the tail, scaled by nr_partial / scanned (mult_frac) and capped at
 * node_nr_objs. Before v6.10 get_slabinfo() counted every partial slab
 * (count_partial(n, count_free)). */
static uint64_t count_partial_free_approx(struct model *m, struct cnode_rec *n)
{
	if (n->nr_partial <= MAX_PARTIAL_TO_SCAN || !svz_kernel_at_least(&WORLD(m)->cfg.sw, 610))
		return count_partial(m, n, 0);
	uint64_t x = 0, scanned = 0;
	for (idx_t s = list_first(m, P_SLAB, n->partial.first); s != NIL; s = slab_next(m, s)) {
		x += count_free(slab_r(m, s));
		if (++scanned == MAX_PARTIAL_TO_SCAN / 2)
			break;
	}
	for (idx_t s = list_first(m, P_SLAB, n->partial.last); s != NIL; s = slab_prev(m, s)) {
		x += count_free(slab_r(m, s));
		if (++scanned == MAX_PARTIAL_TO_SCAN)
			break;
	}
	if (scanned) {
		uint64_t d = scanned, q = x / d, r = x % d;
		x = q * n->nr_partial + r * n->nr_partial / d; /* mult_frac */
	}
	return x < n->total_objects ? x : n->total_objects;
}

/* ---- /proc/slabinfo -------------------------------------------------------- */

/* One /proc/slabinfo row (cache_show()). */
static void slabinfo_row(struct model *m, idx_t ci, struct sbuf *b)
{
	struct world *w = WORLD(m);
	uint64_t nr_slabs = 0, nr_objs = 0, nr_free = 0;
	for (int node = 0; node < w->nr_nodes; node++) {
		struct cnode_rec *n = get_node(m, ci, node);
		if (!n)
			continue;
		nr_slabs += n->nr_slabs;
		nr_objs += n->total_objects;
		nr_free += count_partial_free_approx(m, n);
	}
	struct cache_rec *c = cache_r(m, ci);
	sb_printf(b, "%-17s %6" PRIu64 " %6" PRIu64 " %6u %4u %4d : tunables %4u %4u %4u"
		  " : slabdata %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "\n",
		  c->name, nr_objs - nr_free, nr_objs, c->g.size, c->g.objects,
		  1 << c->g.order, 0u, 0u, 0u, nr_slabs, nr_slabs, (uint64_t)0);
}

/* Where a kmalloc cache stands among the boot caches: create_kmalloc_caches()
 * makes them type by type from KMALLOC_NORMAL, each type from its smallest
 * size up, so, newest first, the normal ones come last and larger sizes
 * before smaller. Unique per cache (its index breaks ties). */
static uint64_t kmalloc_boot_key(const struct cache_rec *c, idx_t ci)
{
	unsigned type = (c->flags & SLAB_CACHE_DMA) ? 3 : (c->flags & SLAB_RECLAIM_ACCOUNT) ? 2
			: (c->flags & SLAB_ACCOUNT) ? 1 : 0;
	return (uint64_t)type << 56 | (uint64_t)c->g.object_size << 24 | ci;
}

/* slab_caches is list_add'ed at the head on creation and slab_show() walks it
 * from the head: the newest cache first, the kmalloc caches, made at boot
 * before any other, last (the model makes them on first use, so they go
 * after the trace's caches here, in their boot order reversed). slab_show()
 * prints print_slabinfo_header() with the first entry, and a kernel's list
 * is never empty (kmem_cache, kmem_cache_node and the kmalloc caches exist
 * from boot), so /proc/slabinfo always starts with its two header lines;
 * the model creates caches lazily, so it prints them even with no cache
 * yet. */
void view_slabinfo(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);

	sb_puts(b, "slabinfo - version: 2.1\n"
		   "# name            <active_objs> <num_objs> <objsize> <objperslab> "
		   "<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
		   "slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	for (uint32_t ci = w->nr_caches; ci-- > 0;)
		if (cache_r(m, ci)->alive && !cache_r(m, ci)->is_kmalloc)
			slabinfo_row(m, ci, b);
	for (uint64_t below = UINT64_MAX;;) {
		idx_t next = NIL;
		uint64_t best = 0;
		for (uint32_t ci = 0; ci < w->nr_caches; ci++) {
			const struct cache_rec *c = cache_r(m, ci);
			if (!c->alive || !c->is_kmalloc)
				continue;
			uint64_t key = kmalloc_boot_key(c, ci);
			if (key < below && (next == NIL || key > best)) {
				next = ci;
				best = key;
			}
		}
		if (next == NIL)
			break;
		slabinfo_row(m, next, b);
		below = best;
	}
}
