/* The arena: every record of the model in one block, addressed by index.
 *
 * Layout: struct world at offset 0, then one region per pool. Growing a pool
 * reallocates the block: indices stay valid, raw pointers (the world, any
 * record, a coroutine's frame) do not. The rule that follows is stated in
 * types.h ("The arena rule"): every function that can allocate here is
 * marked ARENA_MOVES, and no pointer into the block is used after one.
 * arena_reserve() makes room at each micro-step boundary so that moves
 * inside a step are rare, but the code never relies on it: builds with
 * SVZ_ARENA_ALWAYS_MOVE move the block on every allocation, so that ASan
 * reports any pointer kept across one. */
#include <stdlib.h>
#include <string.h>

#include "model/types.h"

static const uint32_t pool_esize[P__COUNT] = {
	[P_CACHE] = sizeof(struct cache_rec), [P_CNODE] = sizeof(struct cnode_rec),
	[P_BARN] = sizeof(struct barn_rec),   [P_PCS] = sizeof(struct pcs_rec),
	[P_SHEAF] = sizeof(struct sheaf_rec), [P_SLAB] = sizeof(struct slab_rec),
	[P_OBJ] = sizeof(struct obj_rec),     [P_HANDLE] = sizeof(struct handle_rec),
	[P_LARGE] = sizeof(struct large_rec), [P_U32] = sizeof(uint32_t),
	[P_U64] = sizeof(uint64_t),           [P_FRAME] = sizeof(struct frame),
};

static size_t align16(size_t x) { return (x + 15) & ~(size_t)15; }

/* m->pool_base from m->mem and the pools' offsets: after anything that
 * moves the block or lays its pools out anew. */
static void arena_rebase(struct model *m)
{
	for (int p = 0; p < P__COUNT; p++)
		m->pool_base[p] = m->mem ? m->mem + WORLD(m)->pools[p].off : NULL;
}

size_t arena_used(const struct model *m)
{
	const struct world *w = (const struct world *)m->mem;
	const struct pool_desc *last = &w->pools[P__COUNT - 1];
	return last->off + (size_t)last->cap * last->esize;
}

/* A checkpoint of a small run was mostly empty capacity: basics' 15 were
 * 2 MB each (65,536 objects reserved) for 0.2 MB of records, 31 MB copied
 * and faulted in by the page's first open (issue 14, cold load). */
size_t arena_packed_size(const struct model *m)
{
	const struct world *w = (const struct world *)m->mem;
	size_t size = w->pools[0].off;
	for (int p = 0; p < P__COUNT; p++)
		size += (size_t)w->pools[p].len * w->pools[p].esize;
	return size;
}

void arena_pack(const struct model *m, uint8_t *dst)
{
	const struct world *w = (const struct world *)m->mem;
	size_t head = w->pools[0].off;
	memcpy(dst, m->mem, head);
	dst += head;
	for (int p = 0; p < P__COUNT; p++) {
		size_t n = (size_t)w->pools[p].len * w->pools[p].esize;
		memcpy(dst, m->mem + w->pools[p].off, n);
		dst += n;
	}
}

int arena_unpack(struct model *m, const uint8_t *src)
{
	const struct world *w = (const struct world *)src; /* packed first */
	const struct pool_desc *last = &w->pools[P__COUNT - 1];
	size_t used = last->off + (size_t)last->cap * last->esize;
	if (m->cap < used) {
		uint8_t *mem = realloc(m->mem, used);
		if (!mem)
			return -1;
		m->mem = mem;
		m->cap = used;
	}
	size_t head = w->pools[0].off, at = head;
	memcpy(m->mem, src, head);
	for (int p = 0; p < P__COUNT; p++) {
		/* the pools lie in order (arena_relayout()); each one's records,
		 * then zeros to the next */
		const struct pool_desc *d = &w->pools[p];
		size_t n = (size_t)d->len * d->esize;
		size_t end = p + 1 < P__COUNT ? w->pools[p + 1].off : used;
		memcpy(m->mem + d->off, src + at, n);
		memset(m->mem + d->off + n, 0, end - d->off - n);
		at += n;
	}
	arena_rebase(m);
	return 0;
}

#ifdef SVZ_ARENA_ALWAYS_MOVE
#define ALWAYS_MOVE 1
#else
#define ALWAYS_MOVE 0
#endif

/* Rebuild the block with new capacities (caps[p] >= current). The old block
 * is freed: every pointer into it is dead. */
static ARENA_MOVES int arena_relayout(struct model *m, const uint32_t *caps)
{
	struct world *w = WORLD(m);
	size_t off = align16(sizeof(struct world));
	size_t offs[P__COUNT];
	for (int p = 0; p < P__COUNT; p++) {
		offs[p] = off;
		off = align16(off + (size_t)caps[p] * pool_esize[p]);
	}
	uint8_t *mem = calloc(1, off);
	if (!mem)
		return -1;
	memcpy(mem, m->mem, sizeof(struct world));
	struct world *nw = (struct world *)mem;
	for (int p = 0; p < P__COUNT; p++) {
		memcpy(mem + offs[p], m->mem + w->pools[p].off,
		       (size_t)w->pools[p].len * pool_esize[p]);
		nw->pools[p].off = offs[p];
		nw->pools[p].cap = caps[p];
	}
	free(m->mem);
	m->mem = mem;
	m->cap = off;
	arena_rebase(m);
	return 0;
}

ARENA_MOVES int arena_init(struct model *m, const struct svz_config *cfg, uint32_t nr_handles)
{
	m->mem = calloc(1, align16(sizeof(struct world)));
	if (!m->mem)
		return -1;
	struct world *w = WORLD(m);
	for (int p = 0; p < P__COUNT; p++) {
		w->pools[p].esize = pool_esize[p];
		w->pools[p].off = align16(sizeof(struct world));
	}
	w->cfg = *cfg;
	w->slab_free = w->sheaf_free = w->large_free = NIL;
	_Static_assert(NIL == UINT32_MAX, "NIL is all ones: memset() makes it");
	memset(w->kmalloc_caches, 0xff, sizeof w->kmalloc_caches); /* all NIL */
	uint32_t caps[P__COUNT];
	for (int p = 0; p < P__COUNT; p++)
		caps[p] = 64;
	caps[P_OBJ] = 1u << 16;
	caps[P_U32] = 1u << 16;
	caps[P_U64] = 1u << 14;
	caps[P_HANDLE] = nr_handles + 16;
	caps[P_FRAME] = (uint32_t)cfg->topo.nr_cpus * FRAME_DEPTH;
	if (arena_relayout(m, caps))
		return -1;
	/* frames are a fixed array: mark them all in use so relayouts copy them */
	return pool_alloc(m, P_FRAME, caps[P_FRAME]) == NIL ? -1 : 0;
}

void arena_free(struct model *m)
{
	free(m->mem);
	m->mem = NULL;
	arena_rebase(m);
}

/* The same capacities, a fresh block (SVZ_ARENA_ALWAYS_MOVE). */
static ARENA_MOVES int arena_move(struct model *m)
{
	uint32_t caps[P__COUNT];
	for (int q = 0; q < P__COUNT; q++)
		caps[q] = WORLD(m)->pools[q].cap;
	return arena_relayout(m, caps);
}

ARENA_MOVES idx_t pool_alloc(struct model *m, enum pool_id p, uint32_t n)
{
	struct pool_desc *d = &WORLD(m)->pools[p];
	if (d->len + n > d->cap || ALWAYS_MOVE) {
		uint32_t caps[P__COUNT];
		for (int q = 0; q < P__COUNT; q++)
			caps[q] = WORLD(m)->pools[q].cap;
		while (caps[p] < d->len + n)
			caps[p] = caps[p] * 2 + n;
		if (arena_relayout(m, caps))
			return NIL;
		d = &WORLD(m)->pools[p];
	}
	idx_t i = d->len;
	d->len += n;
	WORLD(m)->room = false;
	m->fuse_steps = FUSE_NO;
	memset((uint8_t *)m->pool_base[p] + (size_t)i * d->esize, 0, (size_t)n * d->esize);
	return i;
}

/* Ranges of P_OBJ / P_U32 are reused by exact length: slabs of one cache
 * mostly share one object count, sheaves one capacity. The first record of a
 * free range stores the next free range's index. */
static struct range_free *range_classes(struct model *m, enum pool_id p)
{
	return p == P_OBJ ? WORLD(m)->obj_free : WORLD(m)->u32_free;
}

ARENA_MOVES idx_t range_alloc(struct model *m, enum pool_id p, uint32_t n)
{
	if (ALWAYS_MOVE && arena_move(m))
		return NIL;
	struct range_free *rc = range_classes(m, p);
	for (int i = 0; i < RANGE_CLASSES; i++) {
		if (rc[i].n == n && rc[i].head != NIL) {
			idx_t r = rc[i].head;
			uint8_t *rec = (uint8_t *)m->pool_base[p] + (size_t)r * pool_esize[p];
			memcpy(&rc[i].head, rec, sizeof(idx_t));
			memset(rec, 0, (size_t)n * pool_esize[p]);
			return r;
		}
	}
	return pool_alloc(m, p, n);
}

void range_free(struct model *m, enum pool_id p, idx_t first, uint32_t n)
{
	struct range_free *rc = range_classes(m, p);
	int slot = -1;
	for (int i = 0; i < RANGE_CLASSES; i++) {
		if (rc[i].n == n) { slot = i; break; }
		if (slot < 0 && (rc[i].n == 0 || rc[i].head == NIL))
			slot = i;
	}
	if (slot < 0)
		return; /* too many distinct sizes: leave the range unused */
	if (rc[slot].n != n) {
		rc[slot].n = n;
		rc[slot].head = NIL;
	}
	uint8_t *rec = (uint8_t *)m->pool_base[p] + (size_t)first * pool_esize[p];
	memcpy(rec, &rc[slot].head, sizeof(idx_t));
	rc[slot].head = first;
}

/* One micro-step creates at most one slab (its objects), one sheaf (its
 * slots) and one large allocation; the largest of each is kept in the world
 * when caches are created. An oversize prefilled sheaf can need more: then
 * pool_alloc() grows the block inside the step, which the arena rule makes
 * safe. (Not moved when there is room, even with SVZ_ARENA_ALWAYS_MOVE: it
 * runs at every micro-step, and a move per step would make the checking
 * build too slow to run every scenario; pool_alloc()'s moves catch
 * pointers kept across steps as well.)
 * Only pool_alloc() takes room (capacities only grow, and the largest
 * slab and sheaf are set when caches are made, which allocates): once the
 * check passes it holds until the next pool_alloc(), so most steps only
 * read w->room (arena_reserve(), types.h). The flag is in the world, so
 * a checkpoint carries it with the pools it describes. */
ARENA_MOVES int arena_reserve_pools(struct model *m)
{
	struct world *w = WORLD(m);
	const struct pool_desc *pd = w->pools;
	/* the common case, checked first: room everywhere */
	if (pd[P_SLAB].len + 2 <= pd[P_SLAB].cap &&
	    pd[P_OBJ].len + w->max_slab_objects + 1 <= pd[P_OBJ].cap &&
	    pd[P_SHEAF].len + 2 <= pd[P_SHEAF].cap &&
	    pd[P_U32].len + 2 * w->max_sheaf_capacity + 2 <= pd[P_U32].cap &&
	    pd[P_LARGE].len + 2 <= pd[P_LARGE].cap && pd[P_U64].len + 8 <= pd[P_U64].cap) {
		w->room = true;
		return 0;
	}
	uint32_t need[P__COUNT] = {0};
	need[P_SLAB] = 2;
	need[P_OBJ] = w->max_slab_objects + 1;
	need[P_SHEAF] = 2;
	need[P_U32] = 2 * w->max_sheaf_capacity + 2;
	need[P_LARGE] = 2;
	need[P_U64] = 8;   /* page_free() records a freed block */
	bool grow = false;
	uint32_t caps[P__COUNT];
	for (int p = 0; p < P__COUNT; p++) {
		caps[p] = w->pools[p].cap;
		if (w->pools[p].len + need[p] > caps[p]) {
			while (w->pools[p].len + need[p] > caps[p])
				caps[p] = caps[p] * 2 + need[p];
			grow = true;
		}
	}
	if (grow && arena_relayout(m, caps))
		return -1;
	WORLD(m)->room = true;
	return 0;
}

uint64_t model_rand(struct model *m)
{
	uint64_t z = (WORLD(m)->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* list_add / list_add_tail / list_del, for any record with lprev/lnext
 * (slabs on slab_list, sheaves on barn_list). */
static idx_t *dlink(struct model *m, enum pool_id p, idx_t i)
{
	size_t off = p == P_SLAB ? offsetof(struct slab_rec, lprev)
				 : offsetof(struct sheaf_rec, lprev);
	return (idx_t *)((uint8_t *)m->pool_base[p] + (size_t)i * pool_esize[p] + off);
}
#define PREV(i) dlink(m, p, (i))[0]
#define NEXT(i) dlink(m, p, (i))[1]

void dlist_add(struct model *m, enum pool_id p, struct dlist *l, idx_t i, bool tail)
{
	uint32_t len = WORLD(m)->pools[p].len;
	/* a head corrupted by the cpu_partial_free race may point nowhere:
	 * the kernel writes through it, the model does not */
	if (tail) {
		PREV(i) = l->last;
		NEXT(i) = NIL;
		if (l->last == NIL)
			l->first = i;
		else if (l->last < len)
			NEXT(l->last) = i;
		l->last = i;
	} else {
		NEXT(i) = l->first;
		PREV(i) = NIL;
		if (l->first == NIL)
			l->last = i;
		else if (l->first < len)
			PREV(l->first) = i;
		l->first = i;
	}
	l->len++;
}

void dlist_del(struct model *m, enum pool_id p, struct dlist *l, idx_t i)
{
	idx_t prev = PREV(i), next = NEXT(i);
	uint32_t len = WORLD(m)->pools[p].len;
	/* __list_del(): with a clobbered link the kernel writes through a bad
	 * pointer; the model writes only to real records and to the head */
	if (prev == NIL)
		l->first = next;
	else if (prev < len)
		NEXT(prev) = next;
	if (next == NIL)
		l->last = prev;
	else if (next < len)
		PREV(next) = prev;
	if (p == P_SLAB && WORLD(m)->cfg.sw.cpu_partial_free) {
		NEXT(i) = LIST_POISON1_IDX;
		PREV(i) = LIST_POISON2_IDX;
	} else {
		PREV(i) = NEXT(i) = NIL;
	}
	l->len--;
}
#undef PREV
#undef NEXT

uint64_t slab_base(struct model *m, idx_t s)
{
	return DIRECT_MAP_BASE + slab_r(m, s)->pfn * WORLD(m)->cfg.topo.page_size;
}

uint64_t slab_addr(struct model *m, idx_t s)
{
	return VMEMMAP_BASE + slab_r(m, s)->pfn * 64; /* sizeof(struct page) */
}

/* The object pointer: its stride in the slab, past the left red zone of a
 * RED_ZONE cache (fixup_red_left()). */
uint64_t obj_addr(struct model *m, idx_t o)
{
	struct obj_rec *or = obj_r(m, o);
	struct slab_rec *sr = slab_r(m, or->slab);
	const struct svz_geom *g = &cache_r(m, sr->cache)->g;
	return slab_base(m, or->slab) + (uint64_t)or->index * g->size + g->red_left_pad;
}
