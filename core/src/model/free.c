/* Freeing (v7.0): slab_free -> free_to_pcs (sheaf.c) for objects of this
 * CPU's node, else __slab_free; bulk frees via build_detached_freelist. */
#include "model/engine.h"

#define CNODE(node) cnode_r(m, cnode_idx(m, f->cache, (node)))

/* slab_free(): objects can_free_to_pcs() accepts try the sheaves first
 * (node-local ones, slab_nid == numa_mem_id(); since v7.1 any object on a
 * CPU of a memoryless node): every v7.0 cache, in v6.18/v6.19 those created
 * with sheaf_capacity. Then the slab: do_slab_free() (classic), __slab_free(). */
#define object f->b      /* in: in this CPU's pending slot */
int co_SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (CLASSIC(m) && !cache_r(m, f->cache)->has_sheaves)
		goto to_slab;
	if (can_free_to_pcs(m, cpu, obj_r(m, object)->slab)) {
		CALL_HOT(CO_FREE_TO_PCS, callee->b = object; callee->flag1 = true);
		if (f->ret)
			CO_RETURN(0);
	} else {
		CHECK_EV_HOT(CHK_REMOTE_OBJECT, .obj = object, .node = slab_r(m, obj_r(m, object)->slab)->node);
	}
to_slab:
	WORLD(m)->cpus[cpu].pending = NIL;
	obj_r(m, object)->state = OBJ_CHAIN;
	if (CLASSIC(m)) {
		obj_r(m, object)->next = NIL;
		CALL_HOT(CO_C_DO_SLAB_FREE, callee->b = obj_r(m, object)->slab; callee->x = object;
		     callee->y = object; callee->n = 1);
		CO_RETURN(0);
	}
	CALL_HOT(CO___SLAB_FREE, callee->b = obj_r(m, object)->slab; callee->x = object; callee->y = object;
	     callee->n = 1);
	if (!V619_STATS(m)) /* 17c38c88294d: __slab_free() counted it */
		STAT_HOT(FREE_SLOWPATH, 1);
	CO_RETURN(0);
	CO_END;
}
#undef object

/* __slab_free(): the chain head..tail of cnt objects back to this_slab.
 * prior, old_inuse are the {freelist, inuse} snapshot. With interleaved
 * CPUs the slab can change between the snapshot and the cmpxchg (the lock
 * acquisition is a pause point): then CMPXCHG_DOUBLE_FAIL and retry, as the
 * kernel does. */
#include "model/slab_free_frame.h"
int co___SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	/* 17c38c88294d still counts every caller here, as v6.19 did; v7.0's
	 * last patch counts only users' frees that miss the sheaves, there */
	if (V619_STATS(m))
		STAT(FREE_SLOWPATH, 1);
	if (DEBUG_SINGLE_OBJECT(m, f->cache)) {
		CALL(CO_FREE_TO_PARTIAL_LIST, callee->b = this_slab; callee->x = head; callee->y = tail;
		     callee->n = cnt);
		CO_RETURN(0);
	}
	f->node = slab_r(m, this_slab)->node;
retry:
	/* snapshot of {freelist, counters} the cmpxchg will compare against */
	prior = slab_r(m, this_slab)->freelist;
	old_inuse = (int32_t)slab_r(m, this_slab)->inuse;
	was_full = prior == NIL;
	locked = false;
	if (((uint32_t)old_inuse == (uint32_t)cnt || was_full) &&
	    !(was_full && WORLD(m)->cfg.sw.cpu_partial_free && HAS_CPU_PARTIAL(m, f->cache))) {
		/* speculative list_lock: the slab becomes empty or was full */
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		locked = true;
		on_partial = slab_r(m, this_slab)->list == LIST_PARTIAL;
		if (slab_r(m, this_slab)->freelist != prior || slab_r(m, this_slab)->inuse != (uint32_t)old_inuse) {
			/* another CPU changed the slab while we waited for the lock:
			 * the cmpxchg-double fails, drop the lock and start over */
			STAT(CMPXCHG_DOUBLE_FAIL, 1);
			UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
			goto retry;
		}
	}
	slab_push_chain(m, this_slab, head, tail, (uint32_t)cnt);
	EV_HOT(.kind = EV_CMPXCHG, .fn = f_kfn(f), .slab = this_slab, .obj = head, .node = f->node,
	   .count = -cnt, .value = slab_r(m, this_slab)->inuse);
	if (!locked && was_full && WORLD(m)->cfg.sw.cpu_partial_free && HAS_CPU_PARTIAL(m, f->cache)) {
		/* 17c38c88294d: a was-full slab goes to this CPU's partial list
		 * without list_lock, on the assumption that a full slab is on no
		 * list - which get_from_partial_node() no longer guarantees */
		CALL(CO_C_PUT_CPU_PARTIAL, callee->b = this_slab; callee->flag1 = true);
		STAT(CPU_PARTIAL_FREE, 1);
		CO_RETURN(0);
	}
	if (!locked)
		CO_RETURN(0);
	if (!was_full && !on_partial) {
		CHECK_EV(CHK_ISOLATED, .slab = this_slab);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		CO_RETURN(0);
	}
	if (slab_r(m, this_slab)->inuse == 0 && CNODE(f->node)->nr_partial >= cache_r(m, f->cache)->min_partial) {
		if (!was_full) {
			remove_partial(m, f->cache, f->node, this_slab);
			EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = this_slab, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = 0);
			STAT(FREE_REMOVE_PARTIAL, 1);
		}
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		STAT(FREE_SLAB, 1);
		CALL(CO_DISCARD_SLAB, callee->b = this_slab);
		CO_RETURN(0);
	}
	if (was_full) {
		add_partial(m, f->cache, f->node, this_slab, true);
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = this_slab, .node = f->node, .from = LOC_NONE,
		   .to = LOC_PARTIAL, .item = 1, .value = slab_r(m, this_slab)->inuse);
		STAT(FREE_ADD_PARTIAL, 1);
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(0);
	CO_END;
}
#include "model/slab_free_frame.h"

/* free_to_partial_list() (v6.1+, c7323a5ad078): a debug cache frees under
 * n->list_lock (after free_debug_processing(), not modelled): the chain back
 * to the slab, then a was-full slab goes to the partial tail
 * (FREE_ADD_PARTIAL) unless it is empty with min_partial slabs already
 * there; such an empty slab is discarded (FREE_REMOVE_PARTIAL if it was on
 * the partial list, FREE_SLAB). */
#define this_slab f->b      /* in */
#define head      f->x      /* in: the chain head..tail of cnt objects */
#define tail      f->y      /* in */
#define cnt       f->n      /* in */
#define was_full  f->flag1
#define slab_free f->flag2  /* empty, and the node keeps enough partial slabs */
int co_FREE_TO_PARTIAL_LIST(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = slab_r(m, this_slab)->node;
	LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
	was_full = slab_r(m, this_slab)->freelist == NIL;
	slab_push_chain(m, this_slab, head, tail, (uint32_t)cnt);
	slab_free = slab_r(m, this_slab)->inuse == 0 &&
		    CNODE(f->node)->nr_partial >= cache_r(m, f->cache)->min_partial;
	EV(.kind = EV_CMPXCHG, .fn = f_kfn(f), .slab = this_slab, .obj = head, .node = f->node,
	   .count = -cnt, .value = slab_r(m, this_slab)->inuse);
	if (was_full && !slab_free) {
		add_partial(m, f->cache, f->node, this_slab, true);
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = this_slab, .node = f->node, .from = LOC_NONE,
		   .to = LOC_PARTIAL, .item = 1, .value = slab_r(m, this_slab)->inuse);
		STAT(FREE_ADD_PARTIAL, 1);
	} else if (!was_full && slab_free) {
		remove_partial(m, f->cache, f->node, this_slab);
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = this_slab, .node = f->node,
		   .from = LOC_PARTIAL, .to = LOC_NONE, .value = 0);
		STAT(FREE_REMOVE_PARTIAL, 1);
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	if (slab_free) {
		STAT(FREE_SLAB, 1);
		CALL(CO_DISCARD_SLAB, callee->b = this_slab);
	}
	CO_RETURN(0);
	CO_END;
}
#undef this_slab
#undef head
#undef tail
#undef cnt
#undef was_full
#undef slab_free

/* discard_slab(): dec_slabs_node() + free_slab(). */
#define this_slab  f->b      /* in */
#define slab_order f->i
int co_DISCARD_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = slab_r(m, this_slab)->node;
	slab_order = slab_r(m, this_slab)->order;
	{
		struct cnode_rec *n = CNODE(f->node);
		n->nr_slabs--;
		n->total_objects -= slab_r(m, this_slab)->objects;
	}
	MOVES(slab_destroy(m, this_slab));
	EV(.kind = EV_DISCARD_SLAB, .fn = KFN_discard_slab, .slab = this_slab, .node = f->node, .count = slab_order);
	CO_RETURN(0);
	CO_END;
}
#undef this_slab
#undef slab_order

/* build_detached_freelist(): from the end of the bulk buffer, collect the
 * objects of the last object's slab into a chain, scanning backwards with
 * a look-ahead of 3 (the third object of another slab stops the scan;
 * matches do not use up the budget). Returns the new buffer length.
 * Since v5.19 (Muchun Song's "mm: slab: optimize memcg_slab_free_hook()")
 * matches are swapped behind `same`, which reorders the objects left.
 * Before, a match became NULL in p[] and the next call resumed after the
 * first skipped object; NULLs cost no look-ahead, so that is removing the
 * matches and keeping the rest in order. */
static uint32_t build_detached_freelist(struct model *m, int cpu, uint32_t base, idx_t *slab,
					idx_t *head, idx_t *tail, uint32_t *cnt)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	const bool swaps = svz_kernel_at_least(&WORLD(m)->cfg.sw, 519);
	uint32_t size = c->bulk_len, end = size;
	idx_t obj = *u32_at(m, c->bulk + --size);
	*slab = obj_r(m, obj)->slab;
	*head = *tail = obj;
	*cnt = 1;
	set_freepointer(m, obj, NIL);
	obj_r(m, obj)->state = OBJ_CHAIN;
	uint32_t same = size;
	int lookahead = 3;
	while (size > base) {
		idx_t o = *u32_at(m, c->bulk + --size);
		if (obj_r(m, o)->slab == *slab) {
			set_freepointer(m, o, *head);
			obj_r(m, o)->state = OBJ_CHAIN;
			*head = o;
			(*cnt)++;
			same--;
			if (!swaps)
				*u32_at(m, c->bulk + size) = NIL; /* compacted below */
			else if (size != same) {
				uint32_t t = *u32_at(m, c->bulk + size);
				*u32_at(m, c->bulk + size) = *u32_at(m, c->bulk + same);
				*u32_at(m, c->bulk + same) = t;
			}
			continue;
		}
		if (!--lookahead)
			break;
	}
	if (!swaps) {
		same = base;
		for (uint32_t i = base; i < end - 1; i++)
			if (*u32_at(m, c->bulk + i) != NIL)
				*u32_at(m, c->bulk + same++) = *u32_at(m, c->bulk + i);
	}
	return same;
}

/* __kmem_cache_free_bulk(): every object in the bulk buffer from entry
 * `base` up back to its slab, one __slab_free per detached freelist (the
 * entries below base are another array, left alone). flag1: count
 * FREE_SLOWPATH (+cnt) per chain (slab_free_bulk); internal flushes do not. */
#define this_slab      f->b
#define head           f->x
#define tail           f->y
#define nr_objs        f->n
#define base           f->k      /* in: the first entry of the array (0 by default) */
#define count_slowpath f->flag1  /* in: FREE_SLOWPATH += cnt per chain */
int co_FREE_BULK_SLABS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	while (WORLD(m)->cpus[cpu].bulk_len > (uint32_t)base) {
		{
			uint32_t cnt;
			WORLD(m)->cpus[cpu].bulk_len = build_detached_freelist(m, cpu, (uint32_t)base, &this_slab,
									       &head, &tail, &cnt);
			nr_objs = (int32_t)cnt;
		}
		EV(.kind = EV_TAKE_OBJECT, .fn = KFN_build_detached_freelist, .slab = this_slab, .obj = head,
		   .from = LOC_BULK, .to = LOC_CHAIN, .count = nr_objs,
		   .value = WORLD(m)->cpus[cpu].bulk_len);
		if (CLASSIC(m)) {
			/* do_slab_free(): the cpu slab's fast path, else __slab_free */
			CALL(CO_C_DO_SLAB_FREE, callee->b = this_slab; callee->x = head; callee->y = tail;
			     callee->n = nr_objs);
		} else {
			CALL(CO___SLAB_FREE, callee->b = this_slab; callee->x = head; callee->y = tail;
			     callee->n = nr_objs);
			if (count_slowpath && !V619_STATS(m))
				STAT(FREE_SLOWPATH, nr_objs);
		}
	}
	CO_RETURN(0);
	CO_END;
}
#undef this_slab
#undef head
#undef tail
#undef nr_objs
#undef base
#undef count_slowpath
