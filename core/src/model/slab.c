/* Slabs: pages cut into objects, the freelist threaded through them.
 *
 * Invariants (validate.c checks them after every op in test builds):
 *   inuse + |freelist| == objects
 *   every object on the freelist belongs to this slab and has state FREE
 *   list == LIST_PARTIAL  <=>  the slab is linked on its node's partial list
 * Free pointers are stored decoded (obj.next); with FREELIST_HARDENED the
 * value the kernel would store is computed on demand by freeptr_raw(). */
#include "model/engine.h"
#include "model/page_alloc.h"

static uint64_t swab64(uint64_t x) { return __builtin_bswap64(x); }

uint64_t freeptr_raw(struct model *m, idx_t o)
{
	struct obj_rec *or = obj_r(m, o);
	struct cache_rec *c = cache_r(m, slab_r(m, or->slab)->cache);
	uint64_t ptr = or->next == NIL ? 0 : obj_addr(m, or->next);
	if (!WORLD(m)->cfg.sw.freelist_hardened)
		return ptr;
	uint64_t slot = obj_addr(m, o) + c->g.offset;
	return ptr ^ c->random ^ swab64(slot);
}

void set_freepointer(struct model *m, idx_t o, idx_t next)
{
	struct obj_rec *or = obj_r(m, o);
	or->next = next;
	cache_r(m, slab_r(m, or->slab)->cache)->fp_writes++;
}

/* allocate_slab()'s page request: oo with __GFP_NOWARN|__GFP_NORETRY (and
 * with no reclaim at all, plus NOMEMALLOC, when oo is above min and the
 * caller could reclaim directly), then s->min with the caller's flags. The
 * retry counts ORDER_FALLBACK even when both orders are equal (v7.0-rc1). */
bool slab_alloc_pages(struct model *m, idx_t cache, int node, uint32_t gfp, bool *fallback,
		      int *got_node, int *order, uint64_t *pfn_out)
{
	struct cache_rec *c = cache_r(m, cache);
	uint32_t first = (gfp | __GFP_NOWARN | __GFP_NORETRY) & ~__GFP_NOFAIL;
	if ((first & __GFP_DIRECT_RECLAIM) && c->g.order > c->g.min_order)
		first = (first | __GFP_NOMEMALLOC) & ~__GFP_RECLAIM;
	*fallback = false;
	*order = (int)c->g.order;
	uint64_t pfn = page_alloc(m, node, *order, first, got_node);
	if (pfn == PFN_NONE) {
		*order = (int)c->g.min_order;
		pfn = page_alloc(m, node, *order, gfp, got_node);
		*fallback = pfn != PFN_NONE;
	}
	if (pfn == PFN_NONE)
		return false;
	*pfn_out = pfn;
	return true;
}

/* Build the slab record and its freelist: address order, or the cache's
 * random_seq walked from a random start (shuffle_freelist), skipping
 * entries beyond this slab's object count (fallback-order slabs). */
ARENA_MOVES idx_t slab_create(struct model *m, idx_t cache, int node, int order, uint64_t pfn)
{
	const struct svz_switches sw = WORLD(m)->cfg.sw;
	uint32_t objects = (uint32_t)(((uint64_t)WORLD(m)->cfg.topo.page_size << order) /
				      cache_r(m, cache)->g.size);
	idx_t s = WORLD(m)->slab_free;
	if (s != NIL)
		WORLD(m)->slab_free = slab_r(m, s)->next_free;
	else
		s = pool_alloc(m, P_SLAB, 1);
	idx_t obj0 = range_alloc(m, P_OBJ, objects);
	/* no allocation below: pointers are safe again */
	struct cache_rec *c = cache_r(m, cache);
	struct slab_rec *sr = slab_r(m, s);
	*sr = (struct slab_rec){ .cache = cache, .alive = true, .node = node, .order = (uint8_t)order,
		.list = LIST_NONE, .objects = objects, .inuse = 0, .freelist = NIL, .obj0 = obj0,
		.pfn = pfn, .lprev = NIL, .lnext = NIL, .next_partial = NIL, .next_free = NIL };
	for (uint32_t i = 0; i < objects; i++)
		*obj_r(m, obj0 + i) = (struct obj_rec){ .slab = s, .index = i, .state = OBJ_FREE,
			.next = NIL, .holder = NIL };
	c->slabs_allocated++;
	/* Seed 000 (deferred freelist construction): new_slab() no longer
	 * writes free pointers; the hand-out order is the same, so the model
	 * keeps it in the links but counts the writes only when
	 * build_slab_freelist() links the leftovers (alloc_from_new_slab). */
	bool deferred = sw.deferred_freelist;
	uint64_t writes_before = c->fp_writes;
	idx_t prev = NIL;
	if (sw.freelist_random && c->random_seq != NIL && objects >= 2) {
		uint32_t count = c->g.objects;
		uint32_t pos = (uint32_t)(model_rand(m) % count);
		for (uint32_t n = 0; n < count; n++, pos = (pos + 1) % count) {
			uint32_t idx = *u32_at(m, c->random_seq + pos);
			if (idx >= objects)
				continue;
			if (prev == NIL)
				slab_r(m, s)->freelist = obj0 + idx;
			else
				set_freepointer(m, prev, obj0 + idx);
			prev = obj0 + idx;
		}
	} else {
		for (uint32_t i = 0; i < objects; i++) {
			if (prev == NIL)
				slab_r(m, s)->freelist = obj0 + i;
			else
				set_freepointer(m, prev, obj0 + i);
			prev = obj0 + i;
		}
	}
	set_freepointer(m, prev, NIL);
	if (deferred) {
		cache_r(m, cache)->fp_writes = writes_before;
		slab_r(m, s)->deferred = true;
	}
	return s;
}

/* free_slab() after dec_slabs_node(): pages back, records reused. */
ARENA_MOVES void slab_destroy(struct model *m, idx_t s)
{
	struct slab_rec *sr = slab_r(m, s);
	int node = sr->node, order = sr->order;
	uint64_t pfn = sr->pfn;
	idx_t obj0 = sr->obj0;
	uint32_t objects = sr->objects;
	cache_r(m, sr->cache)->slabs_freed++;
	sr->alive = false;
	sr->next_free = WORLD(m)->slab_free;
	WORLD(m)->slab_free = s;
	range_free(m, P_OBJ, obj0, objects);
	page_free(m, node, order, pfn);
}

/* Take the first object off slab->freelist (inuse++). */
idx_t slab_pop_object(struct model *m, idx_t s)
{
	struct slab_rec *sr = slab_r(m, s);
	idx_t o = sr->freelist;
	if (o == NIL)
		return NIL;
	sr->freelist = obj_r(m, o)->next;
	sr->inuse++;
	obj_r(m, o)->next = NIL;
	return o;
}

/* Put a chain head..tail of cnt objects in front of slab->freelist:
 * tail->next = old freelist (one free pointer write), inuse -= cnt. */
void slab_push_chain(struct model *m, idx_t s, idx_t head, idx_t tail, uint32_t cnt)
{
	struct slab_rec *sr = slab_r(m, s);
	set_freepointer(m, tail, sr->freelist);
	sr = slab_r(m, s);
	sr->freelist = head;
	sr->inuse -= cnt;
	for (idx_t o = head; o != NIL; o = obj_r(m, o)->next) {
		obj_r(m, o)->state = OBJ_FREE;
		obj_r(m, o)->holder = NIL;
		if (o == tail)
			break;
	}
}

uint32_t freelist_len(struct model *m, idx_t s)
{
	uint32_t n = 0;
	for (idx_t o = slab_r(m, s)->freelist; o != NIL && n <= slab_r(m, s)->objects; o = obj_r(m, o)->next)
		n++;
	return n;
}

/* slab_out_of_memory(): the kernel's warning when no slab could be had. */
void slab_out_of_memory(struct model *m, idx_t cache, uint32_t gfp, int node)
{
	char g[128];
	struct cache_rec *c = cache_r(m, cache);
	svz_gfp_format(gfp, g, sizeof g);
	model_report(m, "SLUB: Unable to allocate memory on node %d, gfp=%#x(%s)\n"
		     "  cache: %s, object size: %u, buffer size: %u, default order: %u, min order: %u",
		     node, gfp, g, c->name, c->g.object_size, c->g.size, c->g.order, c->g.min_order);
}
