/* kmem_cache_node: partial lists and the locks.
 *
 * Lock order (as mm/slub.c): the per-CPU sheaves lock (local_trylock,
 * pcs->lock) -> n->list_lock (spinlock, irqsave) ; barn->lock is never held
 * together with list_lock.
 *   pcs->lock      protects a CPU's main/spare sheaves; only ever trylocked
 *                  by the owning CPU (fails if it interrupted itself).
 *   n->list_lock   protects n->partial, nr_partial and SL_partial; taken by
 *                  refills (get_partial_node_bulk), the fallback slow path
 *                  (get_from_partial_node, one object per acquisition),
 *                  __slab_free when a slab becomes empty or was full,
 *                  alloc_from_new_slab when a fresh slab keeps free objects.
 *                  Remote nodes are only trylocked by __refill_objects_any.
 *   barn->lock     protects the barn's full/empty sheaf lists and counts.
 * Avoided: the alloc/free fast paths (alloc_from_pcs / free_to_pcs) touch no
 * spinlock at all; __slab_free of a slab that stays partially used only does
 * a cmpxchg on the slab's freelist.
 *
 * Taking a lock is co_LOCK here; its owner, node counters and the fused
 * take a LOCK() site makes itself (lock_owner(), lock_count(),
 * lock_take_fused()) are inline in engine.h, next to LOCK().
 *
 * List pointer writes are counted per list op as the kernel's list.h does
 * them: list_add 4 writes, list_del 4 (2 unlink + 2 poison),
 * list_bulk_move_tail 6, list_splice_tail 4 (seed 002 compares these). */
#include "model/engine.h"

#ifndef __wasm__
void lock_event_fused(struct model *m, int cpu, const struct frame *caller, enum lock_kind kind, idx_t rec)
{
	lock_event_put(m, cpu, caller, kind, rec);
}
#else
bool lock_take_fused_slow(struct model *m, int cpu, const struct frame *caller, enum lock_kind kind, idx_t rec)
{
	return lock_take_fused(m, cpu, caller, kind, rec);
}
#endif

/* LOCK() (engine.h): returns 1 if taken. */
#define which_lock f->k      /* in: enum lock_kind */
#define lock_rec   f->a      /* in: the cnode, barn or pcs record */
#define trylock    f->flag1  /* in */
int co_LOCK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	for (;;) {
		if (*lock_owner(m, (enum lock_kind)which_lock, lock_rec) < 0) {
			lock_take(m, cpu, f->cache, (enum lock_kind)which_lock, lock_rec);
			EV_HOT(LOCK_EV(f, which_lock, lock_rec));
			CO_RETURN(1);
		}
		/* Held (by another CPU, or by this one: a nested trylock). */
		if (trylock || *lock_owner(m, (enum lock_kind)which_lock, lock_rec) == cpu) {
			lock_count(m, f->cache, (enum lock_kind)which_lock, lock_rec, NC_LIST_LOCK_TRYFAIL);
			EV(.kind = EV_TRYLOCK_FAIL, .fn = f_kfn(f), .lock = (uint8_t)which_lock,
			   .node = lock_node(m, (enum lock_kind)which_lock, lock_rec),
			   .value = *lock_owner(m, (enum lock_kind)which_lock, lock_rec));
			CO_RETURN(0);
		}
		lock_count(m, f->cache, (enum lock_kind)which_lock, lock_rec, NC_LIST_LOCK_SPIN);
		EV(.kind = EV_SPIN, .fn = f_kfn(f), .lock = (uint8_t)which_lock,
		   .node = lock_node(m, (enum lock_kind)which_lock, lock_rec),
		   .value = *lock_owner(m, (enum lock_kind)which_lock, lock_rec));
	}
	CO_END;
}
#undef which_lock
#undef lock_rec
#undef trylock

/* One list operation under n->list_lock doing n pointer writes. */
void list_writes(struct model *m, idx_t cache, int node, uint32_t n)
{
	struct cnode_rec *cn = cnode_r(m, cnode_idx(m, cache, node));
	cn->counters[NC_LIST_WRITES] += n;
	cn->counters[NC_LIST_OPS]++;
}

/* add_partial(): nr_partial++, SL_partial set. */
void add_partial(struct model *m, idx_t cache, int node, idx_t s, bool tail)
{
	struct cnode_rec *n = cnode_r(m, cnode_idx(m, cache, node));
	dlist_add(m, P_SLAB, &n->partial, s, tail);
	n->nr_partial++;
	slab_r(m, s)->list = LIST_PARTIAL;
	list_writes(m, cache, node, 4);
}

/* remove_partial(): nr_partial--, SL_partial cleared. */
void remove_partial(struct model *m, idx_t cache, int node, idx_t s)
{
	struct cnode_rec *n = cnode_r(m, cnode_idx(m, cache, node));
	dlist_del(m, P_SLAB, &n->partial, s);
	n->nr_partial--;
	slab_r(m, s)->list = LIST_NONE;
	list_writes(m, cache, node, 4);
}

/* The zonelist of `node`: nodes with memory, nearest first. The model's
 * distance table is flat (local 10, remote 20), so remote nodes follow in
 * ring order from `node`. zonelist_next() walks it in place: *d is the
 * distance walked so far (0 to start); the next node, or -1 at the end. */
static int zonelist_next(struct model *m, int node, int *d)
{
	struct world *w = WORLD(m);
	while (*d < w->nr_nodes) {
		int x = node + (*d)++;
		if (x >= w->nr_nodes)
			x -= w->nr_nodes;
		if (node_has_memory(m, x))
			return x;
	}
	return -1;
}

int zonelist(struct model *m, int node, int *out)
{
	int n = 0;
	for (int d = 0, x; (x = zonelist_next(m, node, &d)) >= 0;)
		out[n++] = x;
	return n;
}

/* The remote_node_defrag_ratio gate of get_any_partial() and friends: skip
 * if the ratio is 0 or get_cycles() % 1024 > ratio (a seeded draw here). */
bool defrag_skip(struct model *m, idx_t cache)
{
	uint32_t ratio = cache_r(m, cache)->remote_node_defrag_ratio;
	return ratio == 0 || (model_rand(m) % 1024) > ratio;
}

/* The next node at or after zonelist position *pos (from the CPU's node)
 * that has a kmem_cache_node with nr_partial > min_partial; its position in
 * *pos. -1 when the zonelist is exhausted. */
int next_remote_candidate(struct model *m, idx_t cache, int cpu, int32_t *pos)
{
	/* the zonelist walked in place, not built (a slow path's every
	 * allocation asks); `at` is the position of the node x in it */
	uint32_t min_partial = cache_r(m, cache)->min_partial;
	int node = cpu_node(m, cpu), at = 0;
	for (int d = 0, x; (x = zonelist_next(m, node, &d)) >= 0; at++) {
		if (at < *pos)
			continue;
		*pos = at;
		struct cnode_rec *n = cnode_r(m, cnode_idx(m, cache, x));
		if (n->exists && n->nr_partial > min_partial)
			return x;
	}
	if (*pos < at)
		*pos = at;
	return -1;
}
