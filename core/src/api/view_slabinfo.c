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

/* The kmalloc caches in the order create_kmalloc_caches() makes them at
 * boot (its kmalloc_caches[type][index] slots, the model's types: 0
 * normal, 1 cg, 2 rcl, 3 dma), as far as a trace has used them:
 *  - types: NORMAL, CGROUP (v5.14, 494c1dfe855e), RECLAIM in the main
 *    loop, then DMA in a loop of its own after slab_state = UP, until
 *    33647783deb6 (v5.19) made DMA one more type of the loop; from
 *    2f7c1c1396b5 (v6.2) the enum is NORMAL, RECLAIM, DMA, CGROUP;
 *  - sizes: 96 made right after 64 and 192 after 128 (size order), until
 *    306c4ac9896b (v6.10) made 96 and 192 first, then 8, 16...: index
 *    order, as the old DMA loop (i from 0) already had. */
static void boot_slot(struct model *m, int type, unsigned index, idx_t *out, uint32_t *n)
{
	idx_t c = WORLD(m)->kmalloc_caches[type][index];
	if (c != NIL && cache_r(m, c)->alive)
		out[(*n)++] = c;
}
static uint32_t kmalloc_boot_order(struct model *m, idx_t out[KMALLOC_TYPES * KMALLOC_INDICES])
{
	const struct svz_switches *sw = &WORLD(m)->cfg.sw;
	const bool dma_in_loop = svz_kernel_at_least(sw, 519), cg_last = svz_kernel_at_least(sw, 602);
	const bool index_order = svz_kernel_at_least(sw, 610);
	static const int old_types[KMALLOC_TYPES] = { 0, 1, 2, 3 }, new_types[KMALLOC_TYPES] = { 0, 2, 3, 1 };
	uint32_t n = 0;
	for (int t = 0; t < KMALLOC_TYPES; t++) {
		const int type = (cg_last ? new_types : old_types)[t];
		const bool by_index = index_order || (type == 3 && !dma_in_loop);
		for (unsigned i = 0; i < KMALLOC_INDICES; i++) {
			if (!by_index && (i == 1 || i == 2))
				continue; /* made after 64 and 128 */
			boot_slot(m, type, i, out, &n);
			if (!by_index && (i == 6 || i == 7))
				boot_slot(m, type, i - 5, out, &n); /* 96 after 64, 192 after 128 */
		}
	}
	return n;
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
	idx_t boot[KMALLOC_TYPES * KMALLOC_INDICES];
	for (uint32_t n = kmalloc_boot_order(m, boot); n-- > 0;)
		slabinfo_row(m, boot[n], b);
}
