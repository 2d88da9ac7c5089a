/* Allocation (v7.0): slab_alloc_node -> alloc_from_pcs (sheaf.c), else the
 * single-object slow path ___slab_alloc; sheaf refills through
 * refill_objects -> __refill_objects_node / __refill_objects_any -> new
 * slabs. Every list_lock acquisition is its own micro-step. */
#include <stdio.h>

#include "model/engine.h"

#define CNODE(node) cnode_r(m, cnode_idx(m, f->cache, (node)))
#define MIN_PARTIAL (cache_r(m, f->cache)->min_partial)

/* slab_alloc_node(): returns the object or -1. The sheaves first (every
 * v7.0 cache; in v6.18/v6.19 those created with sheaf_capacity), then the
 * slabs: v7.0's ___slab_alloc, or the classic cpu slab. */
int co_SLAB_ALLOC_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CLASSIC(m) || cache_r(m, f->cache)->has_sheaves) {
		CALL_HOT(CO_ALLOC_FROM_PCS, (void)callee);
		if (f->ret >= 0)
			CO_RETURN(f->ret);
	}
	if (CLASSIC(m)) {
		CALL_HOT(CO_C_SLAB_ALLOC_NODE, (void)callee);
		CO_RETURN(f->ret);
	}
	CALL_HOT(CO_SLAB_ALLOC, (void)callee);
	CO_RETURN(f->ret);
	CO_END;
}

/* ___slab_alloc(): one object from a node partial slab or a new slab. */
#define try_thisnode f->flag1
#define pc_flags     f->k      /* gfp of this round (__GFP_THISNODE first) */
#define new_slab     f->x
int co_SLAB_ALLOC(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	STAT_HOT(ALLOC_SLOWPATH, 1);
	/* a classic kernel (a debug cache's single-object path) has it from v6.9 */
	try_thisnode = kernel_tries_thisnode(m);
new_objects:
	pc_flags = (int32_t)f->gfp;
	if (f->node >= 0 && !(f->gfp & __GFP_THISNODE) && try_thisnode)
		pc_flags = (int32_t)(svz_gfp_allow_spinning(f->gfp) ? (GFP_NOWAIT | __GFP_THISNODE)
							      : (f->gfp | __GFP_THISNODE));
	CALL_HOT(CO_GET_FROM_PARTIAL, callee->gfp = (uint32_t)pc_flags;
	     callee->k_fn = CLASSIC(m) ? KFN_get_partial : callee->k_fn);
	if (f->ret >= 0)
		CO_RETURN(f->ret);
	NEW_SLAB_OR_RETRY(try_thisnode, pc_flags, new_objects);
	new_slab = (idx_t)f->ret;
	STAT(ALLOC_SLAB, 1);
	CALL(CO_ALLOC_FROM_NEW_SLAB, callee->b = new_slab; callee->n = 1; callee->z = NIL;
	     callee->flag1 = svz_gfp_allow_spinning(f->gfp);
	     callee->k_fn = CLASSIC(m) ? KFN_alloc_single_from_new_slab : callee->k_fn);
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
#undef try_thisnode
#undef pc_flags
#undef new_slab

/* get_from_partial() (classic debug caches: get_partial()): gfp = pc.flags.
 * A requested node is searched alone with __GFP_THISNODE, or always on a
 * classic kernel before v6.9. */
int co_GET_FROM_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	CALL_HOT(CO_GET_FROM_PARTIAL_NODE, callee->node = f->node >= 0 ? f->node : cpu_node(m, cpu);
	     callee->k_fn = CLASSIC(m) ? KFN_alloc_single_from_partial : callee->k_fn);
	if (f->ret >= 0 ||
	    (f->node >= 0 && ((f->gfp & __GFP_THISNODE) || !kernel_tries_thisnode(m))))
		CO_RETURN(f->ret);
	CALL(CO_GET_FROM_ANY_PARTIAL, callee->k_fn = CLASSIC(m) ? KFN_get_any_partial : callee->k_fn);
	CO_RETURN(f->ret);
	CO_END;
}

/* get_from_partial_node(): node = the node; one object under list_lock. */
#define partial_slab f->x
#define object       f->y
#define emptied      f->flag1  /* the cmpxchg took its last free object */
int co_GET_FROM_PARTIAL_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CNODE(f->node)->exists) {
		CHECK_EV_HOT(CHK_NO_NODE, .node = f->node);
		CO_RETURN(-1);
	}
	if (CNODE(f->node)->nr_partial == 0) {
		CHECK_EV(CHK_PARTIAL_EMPTY, .node = f->node);
		CO_RETURN(-1);
	}
	LOCK_HOT(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), !svz_gfp_allow_spinning(f->gfp));
	if (!f->ret)
		CO_RETURN(-1);
	partial_slab = slab_first(m, CNODE(f->node)->partial.first);
	object = NIL;
	if (partial_slab != NIL) {
		object = slab_pop_object(m, partial_slab);
		bulk_push(m, cpu, object);
		/* new.freelist of this cmpxchg: whether it emptied the slab is
		 * decided now, not re-read after the pause */
		emptied = slab_r(m, partial_slab)->freelist == NIL;
		EV_HOT(.kind = EV_CMPXCHG, .fn = f_kfn(f), .slab = partial_slab, .obj = object, .node = f->node,
		   .count = 1, .value = slab_r(m, partial_slab)->inuse);
		if (emptied) {
			remove_partial(m, f->cache, f->node, partial_slab);
			EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = partial_slab, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = slab_r(m, partial_slab)->inuse);
		}
	}
	UNLOCK_HOT(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(object == NIL ? -1 : (int32_t)object);
	CO_END;
}
#undef partial_slab
#undef object
#undef emptied

/* get_from_any_partial() (v7.0) / get_any_partial() (classic): the
 * remote_node_defrag_ratio gate, then the zonelist's nodes with
 * nr_partial > min_partial, each through the era's per-node function. */
#define remote_node  f->i
#define zonelist_pos f->j
int co_GET_FROM_ANY_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (defrag_skip(m, f->cache)) {
		CHECK_EV(CHK_DEFRAG_SKIP);
		CO_RETURN(-1);
	}
	for (zonelist_pos = 0; (remote_node = next_remote_candidate(m, f->cache, cpu, &zonelist_pos)) >= 0; zonelist_pos++) {
		CALL(CLASSIC(m) && !DEBUG_SINGLE_OBJECT(m, f->cache) ? CO_C_GET_PARTIAL_NODE : CO_GET_FROM_PARTIAL_NODE,
		     callee->node = remote_node;
		     callee->k_fn = CLASSIC(m) && DEBUG_SINGLE_OBJECT(m, f->cache) ? KFN_alloc_single_from_partial
										 : callee->k_fn);
		if (f->ret >= 0)
			CO_RETURN(f->ret);
	}
	CO_RETURN(-1);
	CO_END;
}
#undef remote_node
#undef zonelist_pos

/* refill_objects(): returns the number of objects delivered. */
#define dest_sheaf f->z      /* in: the sheaf to fill, NIL: the bulk buffer */
#define min_objs   f->n      /* in */
#define max_objs   f->k      /* in */
#define refilled   f->i
#define new_slab   f->x
int co_REFILL_OBJECTS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!svz_gfp_allow_spinning(f->gfp)) {
		CHECK_EV(CHK_NO_SPINNING);
		CO_RETURN(0);
	}
	refilled = 0;
	CALL(CO_REFILL_OBJECTS_NODE, callee->node = cpu_node(m, cpu); callee->z = dest_sheaf;
	     callee->n = min_objs; callee->k = max_objs; callee->flag1 = true);
	refilled += f->ret;
	if (refilled >= min_objs)
		CO_RETURN(refilled);
	CALL(CO_REFILL_OBJECTS_ANY, callee->z = dest_sheaf; callee->n = min_objs - refilled; callee->k = max_objs - refilled);
	refilled += f->ret;
	while (refilled < min_objs) {
		CALL(CO_NEW_SLAB, callee->node = cpu_node(m, cpu));
		if (f->ret < 0)
			CO_RETURN(refilled);
		new_slab = (idx_t)f->ret;
		STAT(ALLOC_SLAB, 1);
		CALL(CO_ALLOC_FROM_NEW_SLAB, callee->b = new_slab; callee->z = dest_sheaf; callee->n = max_objs - refilled;
		     callee->flag1 = true);
		refilled += f->ret;
	}
	CO_RETURN(refilled);
	CO_END;
}
#undef dest_sheaf
#undef min_objs
#undef max_objs
#undef refilled
#undef new_slab

/* __kmem_cache_alloc_bulk(s, flags, size, p): `wanted` objects, all or
 * nothing, onto the bulk buffer above its length at entry (or then moved to
 * dest_sheaf). v7.0: a debug cache (no sheaves) one ___slab_alloc() per
 * object, each counting ALLOC_SLOWPATH; any other cache refill_objects(),
 * then ALLOC_SLOWPATH += size once it got them all. v6.18/v6.19 and the
 * classic kernels: through the cpu slab. A short run is freed back, its
 * own objects only (__kmem_cache_free_bulk(s, i, p), no counter), and 0
 * returned. */
#define wanted     f->n      /* in */
#define dest_sheaf f->z      /* in: NIL to leave them in the bulk buffer */
#define got        f->i
#define base       f->k      /* the bulk buffer's length at entry */
int co_ALLOC_BULK_SLABS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	base = (int32_t)WORLD(m)->cpus[cpu].bulk_len;
	if (CLASSIC(m)) {
		CALL(CO_C_ALLOC_BULK, callee->n = wanted);
		got = f->ret;
	} else if (CACHE_DEBUG(m, f->cache)) {
		for (got = 0; got < wanted; got++) {
			CALL(CO_SLAB_ALLOC, callee->node = -1);
			if (f->ret < 0)
				break;
		}
	} else {
		CALL(CO_REFILL_OBJECTS, callee->z = NIL; callee->n = wanted; callee->k = wanted);
		got = f->ret;
	}
	if (got < wanted) {
		CALL(CO_FREE_BULK_SLABS, callee->flag1 = false; callee->k = base);
		CO_RETURN(0);
	}
	if (!V619_STATS(m) && !CACHE_DEBUG(m, f->cache)) /* v7.0's last stat patch */
		STAT(ALLOC_SLOWPATH, wanted);
	if (dest_sheaf == NIL)
		CO_RETURN(got);
	{
		struct cpu_rec *c = &WORLD(m)->cpus[cpu];
		for (uint32_t i = (uint32_t)base; i < c->bulk_len; i++)
			sheaf_push(m, dest_sheaf, *u32_at(m, c->bulk + i));
		c->bulk_len = (uint32_t)base;
	}
	EV(.kind = EV_PUT_OBJECT, .fn = f_kfn(f), .sheaf = dest_sheaf, .from = LOC_BULK, .to = LOC_SHEAF,
	   .count = got, .value = sheaf_size(m, dest_sheaf));
	CO_RETURN(got);
	CO_END;
}
#undef wanted
#undef dest_sheaf
#undef got
#undef base

/* __refill_objects_any(): remote nodes by zonelist, trylock only. */
#define dest_sheaf   f->z      /* in */
#define min_objs     f->n      /* in: still needed */
#define max_objs     f->k      /* in: still wanted */
#define refilled     f->i
#define zonelist_pos f->j
#define remote_node  f->i2
int co_REFILL_OBJECTS_ANY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (defrag_skip(m, f->cache)) {
		CHECK_EV(CHK_DEFRAG_SKIP);
		CO_RETURN(0);
	}
	refilled = 0;
	for (zonelist_pos = 0; (remote_node = next_remote_candidate(m, f->cache, cpu, &zonelist_pos)) >= 0; zonelist_pos++) {
		CALL(CO_REFILL_OBJECTS_NODE, callee->node = remote_node; callee->z = dest_sheaf;
		     callee->n = min_objs; callee->k = max_objs; callee->flag1 = false);
		refilled += f->ret;
		if (f->ret >= min_objs)
			CO_RETURN(refilled);
		min_objs -= f->ret;
		max_objs -= f->ret;
	}
	CO_RETURN(refilled);
	CO_END;
}
#undef dest_sheaf
#undef min_objs
#undef max_objs
#undef refilled
#undef zonelist_pos
#undef remote_node

/* get_partial_node_bulk(): isolate slabs from the head of n->partial onto
 * this CPU's private list (list_add: reversed) until the racy free count
 * reaches max_objs. Returns 1 if anything was isolated. */
#define min_objs   f->n      /* in */
#define max_objs   f->k      /* in */
#define allow_spin f->flag1  /* in: gfpflags_allow_spinning() */
#define total_free f->i      /* free objects isolated so far */
#define run_len    f->c      /* slabs taken (one run: adjacent on the list) */
#define cur_slab   f->x
#define next_slab  f->y
#define slab_free  f->j      /* free objects of cur_slab */
int co_GET_PARTIAL_NODE_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (CNODE(f->node)->nr_partial == 0) {
		CHECK_EV(CHK_PARTIAL_EMPTY, .node = f->node);
		CO_RETURN(0);
	}
	LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), !allow_spin);
	if (!f->ret)
		CO_RETURN(0);
	total_free = 0;
	run_len = 0; /* length of the run of adjacent slabs taken */
	cur_slab = slab_first(m, CNODE(f->node)->partial.first);
	while (cur_slab != NIL) {
		slab_free = (int32_t)(slab_r(m, cur_slab)->objects - slab_r(m, cur_slab)->inuse);
		if (total_free >= min_objs && total_free + slab_free > max_objs)
			break;
		next_slab = slab_lnext(m, cur_slab);
		if (SW.batched_partial) {
			/* seed 002: clear_node_partial_state() now, one
			 * list_bulk_move_tail() for the whole run below */
			struct cnode_rec *n = CNODE(f->node);
			dlist_del(m, P_SLAB, &n->partial, cur_slab);
			n->nr_partial--;
			dlist_add(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, cur_slab, true);
		} else {
			remove_partial(m, f->cache, f->node, cur_slab);
			dlist_add(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, cur_slab, false);
			list_writes(m, f->cache, f->node, 4);
		}
		slab_r(m, cur_slab)->list = LIST_PRIVATE;
		total_free += slab_free;
		run_len++;
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = cur_slab, .node = f->node,
		   .from = LOC_PARTIAL, .to = LOC_PRIVATE, .value = slab_r(m, cur_slab)->inuse);
		if (total_free >= max_objs)
			break;
		cur_slab = next_slab;
	}
	if (run_len) {
		struct cnode_rec *n = CNODE(f->node);
		n->counters[run_len >= 4 ? NC_RUN_4PLUS : NC_RUN_1 + (run_len - 1)]++;
		if (SW.batched_partial)
			list_writes(m, f->cache, f->node, 6); /* list_bulk_move_tail */
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(total_free > 0);
	CO_END;
}
#undef min_objs
#undef max_objs
#undef allow_spin
#undef total_free
#undef run_len
#undef cur_slab
#undef next_slab
#undef slab_free

/* __refill_objects_node(): from node's partial slabs. */
#define dest_sheaf   f->z      /* in */
#define min_objs     f->n      /* in */
#define max_objs     f->k      /* in */
#define allow_spin   f->flag1  /* in: gfpflags_allow_spinning() */
#define refilled     f->i
#define cur_slab     f->x
#define chain        f->y      /* the rest of cur_slab's detached freelist */
#define nr_objs      f->j      /* objects counted (freelist, surplus, spliced) */
#define nr_taken     f->b      /* objects taken from cur_slab */
#define surplus_tail f->c
int co_REFILL_OBJECTS_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CNODE(f->node)->exists)
		CO_RETURN(0);
	CALL(CO_GET_PARTIAL_NODE_BULK, callee->node = f->node; callee->n = min_objs; callee->k = max_objs;
	     callee->flag1 = allow_spin);
	if (!f->ret)
		CO_RETURN(0);
	refilled = 0;
	while (WORLD(m)->cpus[cpu].private_list.first != NIL) {
		cur_slab = WORLD(m)->cpus[cpu].private_list.first;
		dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, cur_slab);
		slab_r(m, cur_slab)->list = LIST_NONE;
		/* get_freelist_nofreeze(): the whole freelist, inuse = objects */
		{
			struct slab_rec *s = slab_r(m, cur_slab);
			chain = s->freelist;
			nr_objs = (int32_t)(s->objects - s->inuse);
			s->freelist = NIL;
			s->inuse = s->objects;
			for (idx_t o = chain; o != NIL; o = obj_r(m, o)->next)
				obj_r(m, o)->state = OBJ_CHAIN;
		}
		EV(.kind = EV_CMPXCHG, .fn = KFN_get_freelist_nofreeze, .slab = cur_slab,
		   .node = f->node, .count = nr_objs, .value = slab_r(m, cur_slab)->inuse);
		{
			int32_t taken = 0;
			while (chain != NIL && refilled < max_objs) {
				idx_t o = chain;
				chain = obj_r(m, o)->next;
				obj_r(m, o)->next = NIL;
				deliver(m, cpu, dest_sheaf, o);
				refilled++;
				taken++;
			}
			nr_taken = (idx_t)taken;
		}
		EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .slab = cur_slab, .sheaf = dest_sheaf,
		   .from = LOC_FREELIST, .to = dest_loc(dest_sheaf), .count = (int32_t)nr_taken,
		   .value = dest_sheaf != NIL ? (int64_t)sheaf_size(m, dest_sheaf) : refilled);
		if (chain != NIL) {
			/* surplus: back to the slab with __slab_free (it sees a full slab) */
			{
				idx_t tail = chain;
				uint32_t cnt = 1;
				while (obj_r(m, tail)->next != NIL) {
					tail = obj_r(m, tail)->next;
					cnt++;
				}
				surplus_tail = tail;
				nr_objs = (int32_t)cnt;
			}
			CHECK_EV(CHK_SURPLUS, .slab = cur_slab, .count = nr_objs);
			CALL(CO___SLAB_FREE, callee->b = cur_slab; callee->x = chain; callee->y = surplus_tail;
			     callee->n = nr_objs);
		}
		if (refilled >= max_objs)
			break;
	}
	if (WORLD(m)->cpus[cpu].private_list.first != NIL && SW.batched_partial) {
		/* seed 002: set_node_partial_state() each, one list_splice_tail() */
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		{
			struct cpu_rec *c = &WORLD(m)->cpus[cpu];
			struct cnode_rec *n = CNODE(f->node);
			nr_objs = 0;
			while (c->private_list.first != NIL) {
				idx_t s = c->private_list.first;
				dlist_del(m, P_SLAB, &c->private_list, s);
				dlist_add(m, P_SLAB, &n->partial, s, true);
				n->nr_partial++;
				slab_r(m, s)->list = LIST_PARTIAL;
				nr_objs++;
			}
			list_writes(m, f->cache, f->node, 4);
		}
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .node = f->node, .from = LOC_PRIVATE,
		   .to = LOC_PARTIAL, .item = 1, .count = nr_objs);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	}
	if (WORLD(m)->cpus[cpu].private_list.first != NIL) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		cur_slab = WORLD(m)->cpus[cpu].private_list.first;
		while (cur_slab != NIL) {
			chain = slab_lnext(m, cur_slab);
			if (!(slab_r(m, cur_slab)->inuse == 0 && CNODE(f->node)->nr_partial >= MIN_PARTIAL)) {
				dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, cur_slab);
				list_writes(m, f->cache, f->node, 4);
				add_partial(m, f->cache, f->node, cur_slab, false);
				EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = cur_slab, .node = f->node,
				   .from = LOC_PRIVATE, .to = LOC_PARTIAL, .item = 0,
				   .value = slab_r(m, cur_slab)->inuse);
			}
			cur_slab = chain;
		}
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		while (WORLD(m)->cpus[cpu].private_list.first != NIL) {
			cur_slab = WORLD(m)->cpus[cpu].private_list.first;
			dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, cur_slab);
			slab_r(m, cur_slab)->list = LIST_NONE;
			CALL(CO_DISCARD_SLAB, callee->b = cur_slab);
		}
	}
	CO_RETURN(refilled);
	CO_END;
}
#undef dest_sheaf
#undef min_objs
#undef max_objs
#undef allow_spin
#undef refilled
#undef cur_slab
#undef chain
#undef nr_objs
#undef nr_taken
#undef surplus_tail

/* new_slab() -> allocate_slab(): node = preferred node. Returns the slab
 * (on no list, not yet counted in the node) or -1. */
#define failed_order f->i
#define new_slab     f->x
#define fell_back    f->flag1  /* ORDER_FALLBACK: got min_order pages */
int co_NEW_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	{
		bool fallback;
		int got, order;
		uint64_t pfn;
		if (!slab_alloc_pages(m, f->cache, f->node, f->gfp, &fallback, &got, &order, &pfn)) {
			failed_order = (int32_t)cache_r(m, f->cache)->g.min_order;
			new_slab = NIL;
		} else {
			MOVES_TO(new_slab, slab_create(m, f->cache, got, order, pfn));
			fell_back = fallback;
		}
	}
	if (new_slab == NIL) {
		EV(.kind = EV_PAGE_ALLOC_FAIL, .fn = KFN_allocate_slab, .node = f->node, .count = failed_order);
		CO_RETURN(-1);
	}
	EV(.kind = EV_PAGE_ALLOC, .fn = KFN_allocate_slab, .slab = new_slab, .node = slab_r(m, new_slab)->node,
	   .count = slab_r(m, new_slab)->order, .value = (int64_t)slab_r(m, new_slab)->pfn);
	if (fell_back)
		STAT(ORDER_FALLBACK, 1);
	EV(.kind = EV_NEW_SLAB, .fn = KFN_new_slab, .slab = new_slab, .node = slab_r(m, new_slab)->node,
	   .item = slab_r(m, new_slab)->deferred, .count = slab_r(m, new_slab)->order,
	   .value = slab_r(m, new_slab)->objects);
	CO_RETURN((int32_t)new_slab);
	CO_END;
}
#undef failed_order
#undef new_slab
#undef fell_back

/* alloc_from_new_slab(): takes up to `wanted` objects; a slab with objects
 * left goes to the partial list head. */
#define new_slab          f->b      /* in */
#define dest_sheaf        f->z      /* in */
#define wanted            f->n      /* in */
#define allow_spin        f->flag1  /* in: gfpflags_allow_spinning() */
#define locked            f->flag2  /* list_lock taken (trylock) before the objects */
#define needs_add_partial f->flag3
#define nr_taken          f->i
int co_ALLOC_FROM_NEW_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	needs_add_partial = slab_r(m, new_slab)->objects > (uint32_t)wanted; /* needs_add_partial */
	f->node = slab_r(m, new_slab)->node;
	if (!allow_spin && needs_add_partial) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), true);
		if (!f->ret) {
			MOVES(slab_destroy(m, new_slab));
			EV(.kind = EV_DISCARD_SLAB, .fn = f_kfn(f), .slab = new_slab, .node = f->node);
			CO_RETURN(0);
		}
		locked = true;
	}
	{
		int32_t taken = 0;
		while (taken < wanted && slab_r(m, new_slab)->freelist != NIL) {
			deliver(m, cpu, dest_sheaf, slab_pop_object(m, new_slab));
			taken++;
		}
		nr_taken = taken;
		struct slab_rec *sr = slab_r(m, new_slab);
		if (sr->deferred) {
			/* build_slab_freelist(): only the objects left are linked */
			sr->deferred = false;
			cache_r(m, f->cache)->fp_writes += sr->objects - sr->inuse;
		}
		/* inc_slabs_node() */
		struct cnode_rec *n = CNODE(f->node);
		n->nr_slabs++;
		n->total_objects += slab_r(m, new_slab)->objects;
	}
	EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .slab = new_slab, .sheaf = dest_sheaf, .from = LOC_FREELIST,
	   .to = dest_loc(dest_sheaf), .count = nr_taken,
	   .value = dest_sheaf != NIL ? (int64_t)sheaf_size(m, dest_sheaf) : (int64_t)(slab_r(m, new_slab)->objects - slab_r(m, new_slab)->inuse));
	if (needs_add_partial) {
		if (!locked)
			LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		add_partial(m, f->cache, f->node, new_slab, false);
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .slab = new_slab, .node = f->node, .from = LOC_NONE,
		   .to = LOC_PARTIAL, .item = 0, .value = slab_r(m, new_slab)->inuse);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	}
	CO_RETURN(nr_taken);
	CO_END;
}
#undef new_slab
#undef dest_sheaf
#undef wanted
#undef allow_spin
#undef locked
#undef needs_add_partial
#undef nr_taken
