/* Freeing (v7.0): slab_free -> free_to_pcs (sheaf.c) for objects of this
 * CPU's node, else __slab_free; bulk frees via build_detached_freelist. */
#include "model/engine.h"

#define CNODE(node) cnode_r(m, cnode_idx(m, f->cache, (node)))

/* slab_free(): b = object (in this CPU's pending slot). Node-local objects
 * try the sheaves first (slab_nid == numa_mem_id()). */
int co_SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (CLASSIC(m)) {
		WORLD(m)->cpus[cpu].pending = NIL;
		obj_r(m, f->b)->state = OBJ_CHAIN;
		obj_r(m, f->b)->next = NIL;
		CALL(CO_C_DO_SLAB_FREE, callee->b = obj_r(m, f->b)->slab; callee->x = f->b;
		     callee->y = f->b; callee->n = 1);
		CO_RETURN(0);
	}
	if (slab_r(m, obj_r(m, f->b)->slab)->node == cpu_node(m, cpu)) {
		CALL(CO_FREE_TO_PCS, callee->b = f->b; callee->flag1 = true);
		if (f->ret)
			CO_RETURN(0);
	} else {
		CHECK_EV(CHK_REMOTE_OBJECT, .obj = f->b, .node = slab_r(m, obj_r(m, f->b)->slab)->node);
	}
	WORLD(m)->cpus[cpu].pending = NIL;
	obj_r(m, f->b)->state = OBJ_CHAIN;
	CALL(CO___SLAB_FREE, callee->b = obj_r(m, f->b)->slab; callee->x = f->b; callee->y = f->b;
	     callee->n = 1);
	STAT(FREE_SLOWPATH, 1);
	CO_RETURN(0);
	CO_END;
}

/* __slab_free(): b = slab, x..y = chain head..tail of n objects.
 * flag1 = was_full, flag2 = list_lock taken, flag3 = on node partial;
 * z, k = the {freelist, inuse} snapshot. With interleaved CPUs the slab can
 * change between the snapshot and the cmpxchg (the lock acquisition is a
 * pause point): then CMPXCHG_DOUBLE_FAIL and retry, as the kernel does. */
int co___SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = slab_r(m, f->b)->node;
retry:
	/* snapshot of {freelist, counters} the cmpxchg will compare against */
	f->z = slab_r(m, f->b)->freelist;
	f->k = (int32_t)slab_r(m, f->b)->inuse;
	f->flag1 = f->z == NIL;
	f->flag2 = false;
	if (((uint32_t)f->k == (uint32_t)f->n || f->flag1) &&
	    !(f->flag1 && WORLD(m)->cfg.sw.cpu_partial_free && HAS_CPU_PARTIAL(m, f->cache))) {
		/* speculative list_lock: the slab becomes empty or was full */
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		f->flag2 = true;
		f->flag3 = slab_r(m, f->b)->list == LIST_PARTIAL;
		if (slab_r(m, f->b)->freelist != f->z || slab_r(m, f->b)->inuse != (uint32_t)f->k) {
			/* another CPU changed the slab while we waited for the lock:
			 * the cmpxchg-double fails, drop the lock and start over */
			STAT(CMPXCHG_DOUBLE_FAIL, 1);
			UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
			goto retry;
		}
	}
	slab_push_chain(m, f->b, f->x, f->y, (uint32_t)f->n);
	EV(.kind = EV_CMPXCHG, .fn = f_kfn(f), .slab = f->b, .obj = f->x, .node = f->node,
	   .count = -f->n, .value = slab_r(m, f->b)->inuse);
	if (!f->flag2 && f->flag1 && WORLD(m)->cfg.sw.cpu_partial_free && HAS_CPU_PARTIAL(m, f->cache)) {
		/* 17c38c88294d: a was-full slab goes to this CPU's partial list
		 * without list_lock, on the assumption that a full slab is on no
		 * list - which get_from_partial_node() no longer guarantees */
		CALL(CO_C_PUT_CPU_PARTIAL, callee->b = f->b; callee->flag1 = true);
		STAT(CPU_PARTIAL_FREE, 1);
		CO_RETURN(0);
	}
	if (!f->flag2)
		CO_RETURN(0);
	if (!f->flag1 && !f->flag3) {
		CHECK_EV(CHK_ISOLATED, .slab = f->b);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		CO_RETURN(0);
	}
	if (slab_r(m, f->b)->inuse == 0 && CNODE(f->node)->nr_partial >= cache_r(m, f->cache)->min_partial) {
		if (!f->flag1) {
			remove_partial(m, f->cache, f->node, f->b);
			EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = f->b, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = 0);
			STAT(FREE_REMOVE_PARTIAL, 1);
		}
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		STAT(FREE_SLAB, 1);
		CALL(CO_DISCARD_SLAB, callee->b = f->b);
		CO_RETURN(0);
	}
	if (f->flag1) {
		add_partial(m, f->cache, f->node, f->b, true);
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = f->b, .node = f->node, .from = LOC_NONE,
		   .to = LOC_PARTIAL, .item = 1, .value = slab_r(m, f->b)->inuse);
		STAT(FREE_ADD_PARTIAL, 1);
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(0);
	CO_END;
}

/* discard_slab(): dec_slabs_node() + free_slab(); b = slab. */
int co_DISCARD_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = slab_r(m, f->b)->node;
	f->i = slab_r(m, f->b)->order;
	{
		struct cnode_rec *n = CNODE(f->node);
		n->nr_slabs--;
		n->total_objects -= slab_r(m, f->b)->objects;
	}
	MOVES(slab_destroy(m, f->b));
	EV(.kind = EV_DISCARD_SLAB, .fn = KFN_discard_slab, .slab = f->b, .node = f->node, .count = f->i);
	CO_RETURN(0);
	CO_END;
}

/* build_detached_freelist(): from the end of the bulk buffer, collect the
 * objects of the last object's slab into a chain, scanning backwards with
 * a look-ahead of 3 (the third object of another slab stops the scan;
 * matches do not use up the budget). Matches move behind `same`; returns
 * the new buffer length. */
static uint32_t build_detached_freelist(struct model *m, int cpu, idx_t *slab, idx_t *head,
					idx_t *tail, uint32_t *cnt)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	uint32_t size = c->bulk_len;
	idx_t obj = *u32_at(m, c->bulk + --size);
	*slab = obj_r(m, obj)->slab;
	*head = *tail = obj;
	*cnt = 1;
	set_freepointer(m, obj, NIL);
	obj_r(m, obj)->state = OBJ_CHAIN;
	uint32_t same = size;
	int lookahead = 3;
	while (size) {
		idx_t o = *u32_at(m, c->bulk + --size);
		if (obj_r(m, o)->slab == *slab) {
			set_freepointer(m, o, *head);
			obj_r(m, o)->state = OBJ_CHAIN;
			*head = o;
			(*cnt)++;
			same--;
			if (size != same) {
				uint32_t t = *u32_at(m, c->bulk + size);
				*u32_at(m, c->bulk + size) = *u32_at(m, c->bulk + same);
				*u32_at(m, c->bulk + same) = t;
			}
			continue;
		}
		if (!--lookahead)
			break;
	}
	return same;
}

/* __kmem_cache_free_bulk(): every object in the bulk buffer back to its
 * slab, one __slab_free per detached freelist. flag1: count FREE_SLOWPATH
 * (+cnt) per chain (slab_free_bulk); internal flushes do not. */
int co_FREE_BULK_SLABS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	while (WORLD(m)->cpus[cpu].bulk_len > 0) {
		{
			uint32_t cnt;
			WORLD(m)->cpus[cpu].bulk_len =
				build_detached_freelist(m, cpu, &f->b, &f->x, &f->y, &cnt);
			f->n = (int32_t)cnt;
		}
		EV(.kind = EV_TAKE_OBJECT, .fn = KFN_build_detached_freelist, .slab = f->b, .obj = f->x,
		   .from = LOC_BULK, .to = LOC_CHAIN, .count = f->n,
		   .value = WORLD(m)->cpus[cpu].bulk_len);
		if (CLASSIC(m)) {
			/* do_slab_free(): the cpu slab's fast path, else __slab_free */
			CALL(CO_C_DO_SLAB_FREE, callee->b = f->b; callee->x = f->x; callee->y = f->y;
			     callee->n = f->n);
		} else {
			CALL(CO___SLAB_FREE, callee->b = f->b; callee->x = f->x; callee->y = f->y;
			     callee->n = f->n);
			if (f->flag1)
				STAT(FREE_SLOWPATH, f->n);
		}
	}
	CO_RETURN(0);
	CO_END;
}
