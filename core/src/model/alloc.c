/* Allocation (v7.0): slab_alloc_node -> alloc_from_pcs (sheaf.c), else the
 * single-object slow path ___slab_alloc; sheaf refills through
 * refill_objects -> __refill_objects_node / __refill_objects_any -> new
 * slabs. Every list_lock acquisition is its own micro-step. */
#include <stdio.h>

#include "model/engine.h"

#define SW (WORLD(m)->cfg.sw)
#define CNODE(node) cnode_r(m, cnode_idx(m, f->cache, (node)))
#define MIN_PARTIAL (cache_r(m, f->cache)->min_partial)

/* slab_alloc_node(): returns the object or -1. */
int co_SLAB_ALLOC_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (CLASSIC(m)) {
		CALL(CO_C_SLAB_ALLOC_NODE, (void)callee);
		CO_RETURN(f->ret);
	}
	CALL(CO_ALLOC_FROM_PCS, (void)callee);
	if (f->ret >= 0)
		CO_RETURN(f->ret);
	CALL(CO_SLAB_ALLOC, (void)callee);
	CO_RETURN(f->ret);
	CO_END;
}

/* ___slab_alloc(): one object from a node partial slab or a new slab.
 * flag1 = try_thisnode, k = pc.flags. */
int co_SLAB_ALLOC(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	STAT(ALLOC_SLOWPATH, 1);
	f->flag1 = true;
new_objects:
	f->k = (int32_t)f->gfp;
	if (f->node >= 0 && !(f->gfp & __GFP_THISNODE) && f->flag1)
		f->k = (int32_t)(svz_gfp_allow_spinning(f->gfp) ? (GFP_NOWAIT | __GFP_THISNODE)
							      : (f->gfp | __GFP_THISNODE));
	CALL(CO_GET_FROM_PARTIAL, callee->gfp = (uint32_t)f->k);
	if (f->ret >= 0)
		CO_RETURN(f->ret);
	CALL(CO_NEW_SLAB, callee->gfp = (uint32_t)f->k; callee->node = f->node >= 0 ? f->node : cpu_node(m, cpu));
	if (f->ret < 0) {
		if (f->flag1 && (uint32_t)f->k != f->gfp) {
			f->flag1 = false;
			goto new_objects;
		}
		slab_out_of_memory(m, f->cache, f->gfp, f->node);
		CHECK_EV(CHK_OUT_OF_MEMORY);
		CO_RETURN(-1);
	}
	f->x = (idx_t)f->ret;
	STAT(ALLOC_SLAB, 1);
	CALL(CO_ALLOC_FROM_NEW_SLAB, callee->b = f->x; callee->n = 1; callee->z = NIL;
	     callee->flag1 = svz_gfp_allow_spinning(f->gfp));
	if (f->ret == 0) {
		if (svz_gfp_allow_spinning(f->gfp))
			goto new_objects;
		CO_RETURN(-1);
	}
	{
		struct cpu_rec *c = &WORLD(m)->cpus[cpu];
		CO_RETURN((int32_t)*u32_at(m, c->bulk + c->bulk_len - 1));
	}
	CO_END;
}

/* get_from_partial(): gfp = pc.flags. */
int co_GET_FROM_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	CALL(CO_GET_FROM_PARTIAL_NODE, callee->node = f->node >= 0 ? f->node : cpu_node(m, cpu));
	if (f->ret >= 0 || (f->node >= 0 && (f->gfp & __GFP_THISNODE)))
		CO_RETURN(f->ret);
	CALL(CO_GET_FROM_ANY_PARTIAL, (void)callee);
	CO_RETURN(f->ret);
	CO_END;
}

/* get_from_partial_node(): node = the node; one object under list_lock. */
int co_GET_FROM_PARTIAL_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CNODE(f->node)->exists) {
		CHECK_EV(CHK_NO_NODE, .node = f->node);
		CO_RETURN(-1);
	}
	if (CNODE(f->node)->nr_partial == 0) {
		CHECK_EV(CHK_PARTIAL_EMPTY, .node = f->node);
		CO_RETURN(-1);
	}
	LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), !svz_gfp_allow_spinning(f->gfp));
	if (!f->ret)
		CO_RETURN(-1);
	f->x = slab_first(m, CNODE(f->node)->partial.first);
	f->y = NIL;
	if (f->x != NIL) {
		f->y = slab_pop_object(m, f->x);
		bulk_push(m, cpu, f->y);
		/* new.freelist of this cmpxchg: whether it emptied the slab is
		 * decided now, not re-read after the pause */
		f->flag1 = slab_r(m, f->x)->freelist == NIL;
		EV(.kind = EV_CMPXCHG, .fn = f_kfn(f), .slab = f->x, .obj = f->y, .node = f->node,
		   .count = 1, .value = slab_r(m, f->x)->inuse);
		if (f->flag1) {
			remove_partial(m, f->cache, f->node, f->x);
			EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = f->x, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = slab_r(m, f->x)->inuse);
		}
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(f->y == NIL ? -1 : (int32_t)f->y);
	CO_END;
}

/* get_from_any_partial() (v7.0) / get_any_partial() (classic): the
 * remote_node_defrag_ratio gate, then the zonelist's nodes with
 * nr_partial > min_partial, each through the era's per-node function. */
int co_GET_FROM_ANY_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (defrag_skip(m, f->cache)) {
		CHECK_EV(CHK_DEFRAG_SKIP);
		CO_RETURN(-1);
	}
	for (f->j = 0; (f->i = next_remote_candidate(m, f->cache, cpu, &f->j)) >= 0; f->j++) {
		CALL(CLASSIC(m) ? CO_C_GET_PARTIAL_NODE : CO_GET_FROM_PARTIAL_NODE, callee->node = f->i);
		if (f->ret >= 0)
			CO_RETURN(f->ret);
	}
	CO_RETURN(-1);
	CO_END;
}

/* refill_objects(): z = destination sheaf (NIL: bulk buffer), n = min,
 * k = max. i = refilled. Returns the number of objects delivered. */
int co_REFILL_OBJECTS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!svz_gfp_allow_spinning(f->gfp)) {
		CHECK_EV(CHK_NO_SPINNING);
		CO_RETURN(0);
	}
	f->i = 0;
	CALL(CO_REFILL_OBJECTS_NODE, callee->node = cpu_node(m, cpu); callee->z = f->z;
	     callee->n = f->n; callee->k = f->k; callee->flag1 = true);
	f->i += f->ret;
	if (f->i >= f->n)
		CO_RETURN(f->i);
	CALL(CO_REFILL_OBJECTS_ANY, callee->z = f->z; callee->n = f->n - f->i; callee->k = f->k - f->i);
	f->i += f->ret;
	while (f->i < f->n) {
		CALL(CO_NEW_SLAB, callee->node = cpu_node(m, cpu));
		if (f->ret < 0)
			CO_RETURN(f->i);
		f->x = (idx_t)f->ret;
		STAT(ALLOC_SLAB, 1);
		CALL(CO_ALLOC_FROM_NEW_SLAB, callee->b = f->x; callee->z = f->z; callee->n = f->k - f->i;
		     callee->flag1 = true);
		f->i += f->ret;
	}
	CO_RETURN(f->i);
	CO_END;
}

/* __refill_objects_any(): remote nodes by zonelist, trylock only.
 * n = remaining min, k = remaining max, i = refilled. */
int co_REFILL_OBJECTS_ANY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (defrag_skip(m, f->cache)) {
		CHECK_EV(CHK_DEFRAG_SKIP);
		CO_RETURN(0);
	}
	f->i = 0;
	for (f->j = 0; (f->i2 = next_remote_candidate(m, f->cache, cpu, &f->j)) >= 0; f->j++) {
		CALL(CO_REFILL_OBJECTS_NODE, callee->node = f->i2; callee->z = f->z;
		     callee->n = f->n; callee->k = f->k; callee->flag1 = false);
		f->i += f->ret;
		if (f->ret >= f->n)
			CO_RETURN(f->i);
		f->n -= f->ret;
		f->k -= f->ret;
	}
	CO_RETURN(f->i);
	CO_END;
}

/* get_partial_node_bulk(): isolate slabs from the head of n->partial onto
 * this CPU's private list (list_add: reversed) until the racy free count
 * reaches max. node, n = min, k = max, flag1 = allow_spin. Returns 1 if
 * anything was isolated. */
int co_GET_PARTIAL_NODE_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (CNODE(f->node)->nr_partial == 0) {
		CHECK_EV(CHK_PARTIAL_EMPTY, .node = f->node);
		CO_RETURN(0);
	}
	LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), !f->flag1);
	if (!f->ret)
		CO_RETURN(0);
	f->i = 0;
	f->c = 0; /* length of the run of adjacent slabs taken */
	f->x = slab_first(m, CNODE(f->node)->partial.first);
	while (f->x != NIL) {
		f->j = (int32_t)(slab_r(m, f->x)->objects - slab_r(m, f->x)->inuse);
		if (f->i >= f->n && f->i + f->j > f->k)
			break;
		f->y = slab_lnext(m, f->x);
		if (SW.batched_partial) {
			/* seed 002: clear_node_partial_state() now, one
			 * list_bulk_move_tail() for the whole run below */
			struct cnode_rec *n = CNODE(f->node);
			dlist_del(m, P_SLAB, &n->partial, f->x);
			n->nr_partial--;
			dlist_add(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, f->x, true);
		} else {
			remove_partial(m, f->cache, f->node, f->x);
			dlist_add(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, f->x, false);
			list_writes(m, f->cache, f->node, 4);
		}
		slab_r(m, f->x)->list = LIST_PRIVATE;
		f->i += f->j;
		f->c++;
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = f->x, .node = f->node,
		   .from = LOC_PARTIAL, .to = LOC_PRIVATE, .value = slab_r(m, f->x)->inuse);
		if (f->i >= f->k)
			break;
		f->x = f->y;
	}
	if (f->c) {
		struct cnode_rec *n = CNODE(f->node);
		n->counters[f->c >= 4 ? NC_RUN_4PLUS : NC_RUN_1 + (f->c - 1)]++;
		if (SW.batched_partial)
			list_writes(m, f->cache, f->node, 6); /* list_bulk_move_tail */
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(f->i > 0);
	CO_END;
}

/* __refill_objects_node(): node, z = dest, n = min, k = max, flag1 =
 * allow_spin. x = current slab, i = refilled. */
int co_REFILL_OBJECTS_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CNODE(f->node)->exists)
		CO_RETURN(0);
	CALL(CO_GET_PARTIAL_NODE_BULK, callee->node = f->node; callee->n = f->n; callee->k = f->k;
	     callee->flag1 = f->flag1);
	if (!f->ret)
		CO_RETURN(0);
	f->i = 0;
	while (WORLD(m)->cpus[cpu].private_list.first != NIL) {
		f->x = WORLD(m)->cpus[cpu].private_list.first;
		dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, f->x);
		slab_r(m, f->x)->list = LIST_NONE;
		/* get_freelist_nofreeze(): the whole freelist, inuse = objects */
		{
			struct slab_rec *s = slab_r(m, f->x);
			f->y = s->freelist;
			f->j = (int32_t)(s->objects - s->inuse);
			s->freelist = NIL;
			s->inuse = s->objects;
			for (idx_t o = f->y; o != NIL; o = obj_r(m, o)->next)
				obj_r(m, o)->state = OBJ_CHAIN;
		}
		EV(.kind = EV_CMPXCHG, .fn = KFN_get_freelist_nofreeze, .slab = f->x,
		   .node = f->node, .count = f->j, .value = slab_r(m, f->x)->inuse);
		{
			int32_t taken = 0;
			while (f->y != NIL && f->i < f->k) {
				idx_t o = f->y;
				f->y = obj_r(m, o)->next;
				obj_r(m, o)->next = NIL;
				deliver(m, cpu, f->z, o);
				f->i++;
				taken++;
			}
			f->b = (idx_t)taken;
		}
		EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .slab = f->x, .sheaf = f->z,
		   .from = LOC_FREELIST, .to = dest_loc(f->z), .count = (int32_t)f->b,
		   .value = f->z != NIL ? (int64_t)sheaf_size(m, f->z) : f->i);
		if (f->y != NIL) {
			/* surplus: back to the slab with __slab_free (it sees a full slab) */
			{
				idx_t tail = f->y;
				uint32_t cnt = 1;
				while (obj_r(m, tail)->next != NIL) {
					tail = obj_r(m, tail)->next;
					cnt++;
				}
				f->c = tail;
				f->j = (int32_t)cnt;
			}
			CHECK_EV(CHK_SURPLUS, .slab = f->x, .count = f->j);
			CALL(CO___SLAB_FREE, callee->b = f->x; callee->x = f->y; callee->y = f->c;
			     callee->n = f->j);
		}
		if (f->i >= f->k)
			break;
	}
	if (WORLD(m)->cpus[cpu].private_list.first != NIL && SW.batched_partial) {
		/* seed 002: set_node_partial_state() each, one list_splice_tail() */
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		{
			struct cpu_rec *c = &WORLD(m)->cpus[cpu];
			struct cnode_rec *n = CNODE(f->node);
			f->j = 0;
			while (c->private_list.first != NIL) {
				idx_t s = c->private_list.first;
				dlist_del(m, P_SLAB, &c->private_list, s);
				dlist_add(m, P_SLAB, &n->partial, s, true);
				n->nr_partial++;
				slab_r(m, s)->list = LIST_PARTIAL;
				f->j++;
			}
			list_writes(m, f->cache, f->node, 4);
		}
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .node = f->node, .from = LOC_PRIVATE,
		   .to = LOC_PARTIAL, .item = 1, .count = f->j);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	}
	if (WORLD(m)->cpus[cpu].private_list.first != NIL) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		f->x = WORLD(m)->cpus[cpu].private_list.first;
		while (f->x != NIL) {
			f->y = slab_lnext(m, f->x);
			if (!(slab_r(m, f->x)->inuse == 0 && CNODE(f->node)->nr_partial >= MIN_PARTIAL)) {
				dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, f->x);
				list_writes(m, f->cache, f->node, 4);
				add_partial(m, f->cache, f->node, f->x, false);
				EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = f->x, .node = f->node,
				   .from = LOC_PRIVATE, .to = LOC_PARTIAL, .item = 0,
				   .value = slab_r(m, f->x)->inuse);
			}
			f->x = f->y;
		}
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		while (WORLD(m)->cpus[cpu].private_list.first != NIL) {
			f->x = WORLD(m)->cpus[cpu].private_list.first;
			dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, f->x);
			slab_r(m, f->x)->list = LIST_NONE;
			CALL(CO_DISCARD_SLAB, callee->b = f->x);
		}
	}
	CO_RETURN(f->i);
	CO_END;
}

/* new_slab() -> allocate_slab(): node = preferred node. Returns the slab
 * (on no list, not yet counted in the node) or -1. */
int co_NEW_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	{
		bool fallback;
		int got, order;
		uint64_t pfn;
		if (!slab_alloc_pages(m, f->cache, f->node, f->gfp, &fallback, &got, &order, &pfn)) {
			f->i = (int32_t)cache_r(m, f->cache)->g.min_order;
			f->x = NIL;
		} else {
			MOVES_TO(f->x, slab_create(m, f->cache, got, order, pfn));
			f->flag1 = fallback;
		}
	}
	if (f->x == NIL) {
		EV(.kind = EV_PAGE_ALLOC_FAIL, .fn = KFN_allocate_slab, .node = f->node, .count = f->i);
		CO_RETURN(-1);
	}
	EV(.kind = EV_PAGE_ALLOC, .fn = KFN_allocate_slab, .slab = f->x, .node = slab_r(m, f->x)->node,
	   .count = slab_r(m, f->x)->order, .value = (int64_t)slab_r(m, f->x)->pfn);
	if (f->flag1)
		STAT(ORDER_FALLBACK, 1);
	EV(.kind = EV_NEW_SLAB, .fn = KFN_new_slab, .slab = f->x, .node = slab_r(m, f->x)->node,
	   .item = slab_r(m, f->x)->deferred, .count = slab_r(m, f->x)->order,
	   .value = slab_r(m, f->x)->objects);
	CO_RETURN((int32_t)f->x);
	CO_END;
}

/* alloc_from_new_slab(): b = slab, z = dest, n = count, flag1 = allow_spin.
 * Takes up to count objects; a slab with objects left goes to the partial
 * list head. flag2 = list_lock held. */
int co_ALLOC_FROM_NEW_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->flag3 = slab_r(m, f->b)->objects > (uint32_t)f->n; /* needs_add_partial */
	f->node = slab_r(m, f->b)->node;
	if (!f->flag1 && f->flag3) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), true);
		if (!f->ret) {
			MOVES(slab_destroy(m, f->b));
			EV(.kind = EV_DISCARD_SLAB, .fn = f_kfn(f), .slab = f->b, .node = f->node);
			CO_RETURN(0);
		}
		f->flag2 = true;
	}
	{
		int32_t taken = 0;
		while (taken < f->n && slab_r(m, f->b)->freelist != NIL) {
			deliver(m, cpu, f->z, slab_pop_object(m, f->b));
			taken++;
		}
		f->i = taken;
		struct slab_rec *sr = slab_r(m, f->b);
		if (sr->deferred) {
			/* build_slab_freelist(): only the objects left are linked */
			sr->deferred = false;
			cache_r(m, f->cache)->fp_writes += sr->objects - sr->inuse;
		}
		/* inc_slabs_node() */
		struct cnode_rec *n = CNODE(f->node);
		n->nr_slabs++;
		n->total_objects += slab_r(m, f->b)->objects;
	}
	EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .slab = f->b, .sheaf = f->z, .from = LOC_FREELIST,
	   .to = dest_loc(f->z), .count = f->i,
	   .value = f->z != NIL ? (int64_t)sheaf_size(m, f->z) : (int64_t)(slab_r(m, f->b)->objects - slab_r(m, f->b)->inuse));
	if (f->flag3) {
		if (!f->flag2)
			LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		add_partial(m, f->cache, f->node, f->b, false);
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = f->b, .node = f->node, .from = LOC_NONE,
		   .to = LOC_PARTIAL, .item = 0, .value = slab_r(m, f->b)->inuse);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	}
	CO_RETURN(f->i);
	CO_END;
}
