/* The classic era (v5.10 .. v6.19): struct kmem_cache_cpu, frozen cpu slabs
 * and per-CPU partial chains. One code path; where the kernel changed a
 * branch, a switch of the preset picks the version (docs/presets.md):
 *   cpu_partial_objects  before v5.16 (b47291ef02b0): the chain is bounded
 *                        by free objects (head->pobjects > cpu_partial),
 *                        get_partial_node() by available > cpu_partial / 2
 *   frozen_partial       before v6.8 (8cd3fa428b56): slabs on c->partial are
 *                        frozen, frees to them count FREE_FROZEN, taking one
 *                        as c->slab goes through get_freelist (ALLOC_REFILL)
 *                        and unfreeze_partials() unfreezes each; since v6.8
 *                        only the cpu slab is frozen
 *   try_thisnode         v6.9+ (9198ffbd2b49): a preferred node is tried
 *                        alone first, then get_partial() may use any node
 *
 * Per CPU (pcs_rec): c->freelist (objects of c->slab that only this CPU
 * takes, lockless with tid + this_cpu_cmpxchg), c->slab (frozen), c->partial
 * (a chain through slab->next, the head's slab->slabs = chain length).
 *   c->slab frozen; every object on c->freelist belongs to c->slab
 *   for every slab: inuse + |slab->freelist| == objects (objects on
 *   c->freelist count as in use, as in the kernel)
 *   chain length of c->partial == head->slabs (drain = 0 may exceed
 *   cpu_partial_slabs, as in the kernel)
 * tid = cpu + k * TID_STEP, TID_STEP = roundup_pow_of_two(nr_cpu_ids).
 *
 * Differences from Linux: preemption and interrupts are not modelled, so
 * the per-CPU cmpxchg never fails (CMPXCHG_DOUBLE_CPU_FAIL stays 0); caches
 * that opt into sheaves in v6.18/v6.19 run the classic paths only. */
#include "model/engine.h"

#define C (pcs_r(m, pcs_idx(m, f->cache, f->on_cpu)))
#define CI (pcs_idx(m, f->cache, f->on_cpu))
#define SL(s) slab_r(m, (s))
#define CNODE(node) cnode_r(m, cnode_idx(m, f->cache, (node)))
#define MIN_PARTIAL (cache_r(m, f->cache)->min_partial)

static uint64_t tid_step(struct model *m)
{
	uint64_t step = 1;
	while (step < (uint64_t)WORLD(m)->cfg.topo.possible)
		step <<= 1;
	return step;
}

static void next_tid(struct model *m, struct pcs_rec *c) { c->tid += tid_step(m); }

/* Mark a chain head.. of objects as being on CPU cpu's c->freelist. */
static uint32_t own_freelist(struct model *m, idx_t head, int cpu)
{
	uint32_t n = 0;
	for (idx_t o = head; o != NIL; o = obj_r(m, o)->next, n++) {
		obj_r(m, o)->state = OBJ_CPU_FREELIST;
		obj_r(m, o)->holder = (idx_t)cpu;
	}
	return n;
}

/* get_freelist() / freeze_slab(): take the whole slab->freelist, inuse =
 * objects, frozen = (freelist != NULL). The objects go to c->freelist. */
static idx_t take_slab_freelist(struct model *m, idx_t s, int cpu)
{
	struct slab_rec *sr = SL(s);
	idx_t fl = sr->freelist;
	sr->freelist = NIL;
	sr->inuse = sr->objects;
	sr->frozen = fl != NIL;
	own_freelist(m, fl, cpu);
	return fl;
}

/* load_freelist: hand out the first object of chain y, the rest becomes
 * c->freelist; tid++. */
static idx_t load_freelist(struct model *m, struct frame *f, int cpu, idx_t y)
{
	struct pcs_rec *c = C;
	c->c_freelist = obj_r(m, y)->next;
	obj_r(m, y)->next = NIL;
	next_tid(m, c);
	bulk_push(m, cpu, y);
	return y;
}

void classic_init_cpu(struct model *m, idx_t pcs, int cpu)
{
	struct pcs_rec *c = pcs_r(m, pcs);
	c->c_freelist = c->c_slab = c->c_partial = NIL;
	c->tid = (uint64_t)cpu;
}

/* slab_alloc_node() fast path: pop c->freelist with this_cpu_cmpxchg of
 * (freelist, tid); otherwise ___slab_alloc. */
int co_C_SLAB_ALLOC_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->x = C->c_freelist;
	f->y = C->c_slab;
	if (f->x == NIL || f->y == NIL || (f->node >= 0 && SL(f->y)->node != f->node)) {
		CALL(CO_C_SLAB_ALLOC, (void)callee);
		CO_RETURN(f->ret);
	}
	load_freelist(m, f, cpu, f->x);
	EV(.kind = EV_CMPXCHG, .fn = KFN_slab_alloc_node, .slab = f->y, .obj = f->x, .from = LOC_CPU_FREELIST,
	   .to = LOC_USER, .count = 1, .value = (int64_t)C->tid);
	STAT(ALLOC_FASTPATH, 1);
	CO_RETURN((int32_t)f->x);
	CO_END;
}

/* ___slab_alloc(): x = slab, y = freelist, c = flush slab. */
int co_C_SLAB_ALLOC(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	STAT(ALLOC_SLOWPATH, 1);
	f->flag1 = true;
reread_slab:
	f->x = C->c_slab;
	if (f->x == NIL) {
		if (f->node >= 0 && !node_has_memory(m, f->node))
			f->node = -1;
		goto new_slab;
	}
	if (f->node >= 0 && SL(f->x)->node != f->node) {
		if (!node_has_memory(m, f->node)) {
			f->node = -1;
		} else {
			STAT(ALLOC_NODE_MISMATCH, 1);
			goto deactivate;
		}
	}
	LOCK(LK_PCS_LOCK, CI, false);
	if (C->c_slab != f->x) {
		UNLOCK(LK_PCS_LOCK, CI);
		goto reread_slab;
	}
	f->y = C->c_freelist;
	if (f->y != NIL)
		goto load;
	f->y = take_slab_freelist(m, f->x, cpu);
	EV(.kind = EV_CMPXCHG, .fn = KFN_get_freelist, .slab = f->x, .node = SL(f->x)->node,
	   .count = (int32_t)own_freelist(m, f->y, cpu), .value = SL(f->x)->inuse);
	if (f->y == NIL) {
		/* nothing freed remotely: the exhausted slab is dropped (on no list) */
		C->c_slab = NIL;
		SL(f->x)->list = LIST_NONE;
		next_tid(m, C);
		UNLOCK(LK_PCS_LOCK, CI);
		STAT(DEACTIVATE_BYPASS, 1);
		goto new_slab;
	}
	STAT(ALLOC_REFILL, 1);
load:
	load_freelist(m, f, cpu, f->y);
	EV(.kind = EV_TAKE_OBJECT, .fn = KFN____slab_alloc, .slab = C->c_slab, .obj = f->y,
	   .from = LOC_CPU_FREELIST, .to = LOC_USER, .count = 1,
	   .value = own_freelist(m, C->c_freelist, f->on_cpu));
	UNLOCK(LK_PCS_LOCK, CI);
	CO_RETURN((int32_t)f->y);
deactivate:
	LOCK(LK_PCS_LOCK, CI, false);
	if (f->x != C->c_slab) {
		UNLOCK(LK_PCS_LOCK, CI);
		goto reread_slab;
	}
	f->y = C->c_freelist;
	C->c_slab = NIL;
	C->c_freelist = NIL;
	next_tid(m, C);
	UNLOCK(LK_PCS_LOCK, CI);
	CALL(CO_C_DEACTIVATE_SLAB, callee->b = f->x; callee->y = f->y);
new_slab:
	while (C->c_partial != NIL) {
		LOCK(LK_PCS_LOCK, CI, false);
		if (C->c_slab != NIL) {
			UNLOCK(LK_PCS_LOCK, CI);
			goto reread_slab;
		}
		f->x = C->c_partial;
		if (f->x == NIL) {
			UNLOCK(LK_PCS_LOCK, CI);
			break;
		}
		C->c_partial = SL(f->x)->next_partial;
		SL(f->x)->next_partial = NIL;
		if (WORLD(m)->cfg.sw.frozen_partial) {
			/* before v6.8: the slab is already frozen; it becomes c->slab
			 * and ___slab_alloc starts over at redo (node check, then
			 * get_freelist: ALLOC_REFILL) */
			C->c_slab = f->x;
			SL(f->x)->list = LIST_CPU_SLAB;
			EV(.kind = EV_MOVE_SLAB, .fn = KFN____slab_alloc, .slab = f->x, .node = SL(f->x)->node,
			   .from = LOC_CPU_PARTIAL, .to = LOC_CPU_SLAB, .value = SL(f->x)->inuse);
			UNLOCK(LK_PCS_LOCK, CI);
			STAT(CPU_PARTIAL_ALLOC, 1);
			goto reread_slab;
		}
		if (f->node < 0 || SL(f->x)->node == f->node) {
			C->c_slab = f->x;
			SL(f->x)->list = LIST_CPU_SLAB;
			f->y = take_slab_freelist(m, f->x, cpu);
			EV(.kind = EV_MOVE_SLAB, .fn = KFN____slab_alloc, .slab = f->x, .node = SL(f->x)->node,
			   .from = LOC_CPU_PARTIAL, .to = LOC_CPU_SLAB, .value = SL(f->x)->inuse);
			STAT(CPU_PARTIAL_ALLOC, 1);
			goto load;
		}
		UNLOCK(LK_PCS_LOCK, CI);
		SL(f->x)->list = LIST_PRIVATE;
		CALL(CO_C_PUT_PARTIALS, callee->b = f->x);
	}
	/* new_objects (v6.9+: try_thisnode first asks the preferred node alone,
	 * GFP_NOWAIT | __GFP_THISNODE; k = pc.flags, flag1 = try_thisnode) */
new_objects:
	f->k = (int32_t)f->gfp;
	if (f->node >= 0 && !(f->gfp & __GFP_THISNODE) && f->flag1 && WORLD(m)->cfg.sw.try_thisnode)
		f->k = (int32_t)(GFP_NOWAIT | __GFP_THISNODE);
	CALL(CO_C_GET_PARTIAL, callee->gfp = (uint32_t)f->k);
	if (f->ret >= 0) {
		f->x = (idx_t)f->ret;
		f->y = take_slab_freelist(m, f->x, cpu);
		EV(.kind = EV_CMPXCHG, .fn = KFN_freeze_slab, .slab = f->x, .node = SL(f->x)->node,
		   .count = (int32_t)own_freelist(m, f->y, cpu), .value = SL(f->x)->inuse);
		goto retry_load_slab;
	}
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
	{
		struct slab_rec *sr = SL(f->x);
		if (sr->deferred) {
			/* seed 000: the freelist is built now, all of it goes to c->freelist */
			sr->deferred = false;
			cache_r(m, f->cache)->fp_writes += sr->objects;
		}
		f->y = take_slab_freelist(m, f->x, cpu);
		sr = SL(f->x);
		sr->frozen = true;
		struct cnode_rec *n = CNODE(sr->node);
		n->nr_slabs++;
		n->total_objects += sr->objects;
	}
retry_load_slab:
	LOCK(LK_PCS_LOCK, CI, false);
	if (C->c_slab != NIL) {
		f->c = C->c_slab;
		f->z = C->c_freelist;
		C->c_slab = NIL;
		C->c_freelist = NIL;
		next_tid(m, C);
		UNLOCK(LK_PCS_LOCK, CI);
		CALL(CO_C_DEACTIVATE_SLAB, callee->b = f->c; callee->y = f->z);
		STAT(CPUSLAB_FLUSH, 1);
		goto retry_load_slab;
	}
	C->c_slab = f->x;
	SL(f->x)->list = LIST_CPU_SLAB;
	EV(.kind = EV_MOVE_SLAB, .fn = KFN____slab_alloc, .slab = f->x, .node = SL(f->x)->node,
	   .from = LOC_NONE, .to = LOC_CPU_SLAB, .value = SL(f->x)->inuse);
	goto load;
	CO_END;
}

/* get_partial(): the requested node (or numa_mem_id()), then any node
 * unless a node was requested: before v6.9 any requested node, since
 * (9198ffbd2b49) only one requested with __GFP_THISNODE in pc.flags (gfp).
 * Returns an unfrozen slab or -1. */
int co_C_GET_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	CALL(CO_C_GET_PARTIAL_NODE, callee->node = f->node >= 0 ? f->node : cpu_node(m, cpu));
	if (f->ret >= 0 ||
	    (f->node >= 0 && (!WORLD(m)->cfg.sw.try_thisnode || (f->gfp & __GFP_THISNODE))))
		CO_RETURN(f->ret);
	CALL(CO_GET_FROM_ANY_PARTIAL, callee->k_fn = KFN_get_any_partial);
	CO_RETURN(f->ret);
	CO_END;
}

/* get_partial_node(): under list_lock take the first slab (the result,
 * ALLOC_FROM_PARTIAL) and move more to this CPU's partial chain
 * (put_cpu_partial(drain = 0), CPU_PARTIAL_NODE) until more than
 * cpu_partial_slabs / 2 were moved; before v5.16 until the free objects
 * taken, the result's included, exceed cpu_partial / 2. x = slab, y =
 * result, c = next, i = partial_slabs (or available objects). */
int co_C_GET_PARTIAL_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CNODE(f->node)->exists || CNODE(f->node)->nr_partial == 0)
		CO_RETURN(-1);
	LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
	f->y = NIL;
	f->i = 0;
	f->x = slab_first(m, CNODE(f->node)->partial.first);
	while (f->x != NIL) {
		f->c = slab_lnext(m, f->x);
		remove_partial(m, f->cache, f->node, f->x);
		if (WORLD(m)->cfg.sw.cpu_partial_objects)
			f->i += (int32_t)(SL(f->x)->objects - SL(f->x)->inuse);
		if (f->y == NIL) {
			f->y = f->x;
			/* the result: frozen and installed as c->slab by ___slab_alloc */
			EV(.kind = EV_MOVE_SLAB, .fn = KFN_get_partial_node, .slab = f->x, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = SL(f->x)->inuse);
			STAT(ALLOC_FROM_PARTIAL, 1);
		} else {
			CALL(CO_C_PUT_CPU_PARTIAL, callee->b = f->x; callee->flag1 = false; callee->flag2 = true);
			STAT(CPU_PARTIAL_NODE, 1);
			if (!WORLD(m)->cfg.sw.cpu_partial_objects)
				f->i++;
		}
		if (!HAS_CPU_PARTIAL(m, f->cache) ||
		    (uint32_t)f->i > (WORLD(m)->cfg.sw.cpu_partial_objects
				      ? cache_r(m, f->cache)->g.cpu_partial
				      : cache_r(m, f->cache)->g.cpu_partial_slabs) / 2)
			break;
		f->x = f->c;
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(f->y == NIL ? -1 : (int32_t)f->y);
	CO_END;
}

/* deactivate_slab(s, slab, freelist): b = slab, y = the cpu freelist.
 * Unfreeze, splice the cpu freelist back, then: empty and enough partial
 * slabs -> discard; free objects -> node partial (head, or tail if remote
 * frees had arrived); else full, on no list. flag1 = to tail. */
int co_C_DEACTIVATE_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = SL(f->b)->node;
	f->flag1 = SL(f->b)->freelist != NIL;
	if (f->flag1)
		STAT(DEACTIVATE_REMOTE_FREES, 1);
	{
		struct slab_rec *sr = SL(f->b);
		uint32_t delta = 0;
		idx_t tail = NIL;
		for (idx_t o = f->y; o != NIL; o = obj_r(m, o)->next) {
			tail = o;
			delta++;
			obj_r(m, o)->state = OBJ_CHAIN;
		}
		if (tail != NIL)
			slab_push_chain(m, f->b, f->y, tail, delta);
		sr = SL(f->b);
		sr->frozen = false;
		sr->list = LIST_NONE;
		f->n = (int32_t)delta;
	}
	EV(.kind = EV_CMPXCHG, .fn = KFN_deactivate_slab, .slab = f->b, .node = f->node, .count = -f->n,
	   .value = SL(f->b)->inuse);
	if (SL(f->b)->inuse == 0 && CNODE(f->node)->nr_partial >= MIN_PARTIAL) {
		STAT(DEACTIVATE_EMPTY, 1);
		CALL(CO_DISCARD_SLAB, callee->b = f->b);
		STAT(FREE_SLAB, 1);
	} else if (SL(f->b)->freelist != NIL) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		add_partial(m, f->cache, f->node, f->b, f->flag1);
		EV(.kind = EV_MOVE_SLAB, .fn = KFN_deactivate_slab, .slab = f->b, .node = f->node,
		   .from = LOC_CPU_SLAB, .to = LOC_PARTIAL, .item = f->flag1, .value = SL(f->b)->inuse);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		STAT(f->flag1 ? DEACTIVATE_TO_TAIL : DEACTIVATE_TO_HEAD, 1);
	} else {
		STAT(DEACTIVATE_FULL, 1);
	}
	CO_RETURN(0);
	CO_END;
}

/* do_slab_free(): b = slab, x..y = chain of n objects (state CHAIN). To
 * this CPU's cpu slab: link onto c->freelist (FREE_FASTPATH += n); else
 * __slab_free. */
int co_C_DO_SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (f->b == C->c_slab) {
		set_freepointer(m, f->y, C->c_freelist);
		C->c_freelist = f->x;
		next_tid(m, C);
		own_freelist(m, f->x, cpu);
		EV(.kind = EV_CMPXCHG, .fn = KFN_do_slab_free, .slab = f->b, .obj = f->x, .from = LOC_USER,
		   .to = LOC_CPU_FREELIST, .count = -f->n, .value = (int64_t)C->tid);
		STAT(FREE_FASTPATH, f->n);
		CO_RETURN(0);
	}
	CALL(CO_C___SLAB_FREE, callee->b = f->b; callee->x = f->x; callee->y = f->y; callee->n = f->n);
	CO_RETURN(0);
	CO_END;
}

/* __slab_free() of v6.8/v6.19: flag1 = was_full (prior == NULL), flag2 =
 * list_lock taken, flag3 = on node partial, i = was_frozen; z, k = the
 * {freelist, inuse} snapshot for the cmpxchg. */
int co_C___SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	STAT(FREE_SLOWPATH, 1);
	f->node = SL(f->b)->node;
retry:
	f->z = SL(f->b)->freelist;
	f->k = (int32_t)SL(f->b)->inuse;
	f->i = SL(f->b)->frozen;
	f->flag1 = f->z == NIL;
	f->flag2 = false;
	if (((uint32_t)f->k == (uint32_t)f->n || f->flag1) && !f->i &&
	    !(HAS_CPU_PARTIAL(m, f->cache) && f->flag1)) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		f->flag2 = true;
		f->flag3 = SL(f->b)->list == LIST_PARTIAL;
		if (SL(f->b)->freelist != f->z || SL(f->b)->inuse != (uint32_t)f->k) {
			STAT(CMPXCHG_DOUBLE_FAIL, 1);
			UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
			goto retry;
		}
	}
	slab_push_chain(m, f->b, f->x, f->y, (uint32_t)f->n);
	EV(.kind = EV_CMPXCHG, .fn = KFN___slab_free, .slab = f->b, .obj = f->x, .node = f->node,
	   .count = -f->n, .value = SL(f->b)->inuse);
	if (!f->flag2) {
		if (f->i) {
			STAT(FREE_FROZEN, 1);
		} else if (HAS_CPU_PARTIAL(m, f->cache) && f->flag1) {
			CALL(CO_C_PUT_CPU_PARTIAL, callee->b = f->b; callee->flag1 = true);
			STAT(CPU_PARTIAL_FREE, 1);
		}
		CO_RETURN(0);
	}
	if (!f->flag1 && !f->flag3) {
		/* on some CPU's partial chain: leave it there, even if empty */
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		CO_RETURN(0);
	}
	if (SL(f->b)->inuse == 0 && CNODE(f->node)->nr_partial >= MIN_PARTIAL) {
		if (!f->flag1) {
			remove_partial(m, f->cache, f->node, f->b);
			EV(.kind = EV_MOVE_SLAB, .fn = KFN___slab_free, .slab = f->b, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = 0);
			STAT(FREE_REMOVE_PARTIAL, 1);
		}
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		STAT(FREE_SLAB, 1);
		CALL(CO_DISCARD_SLAB, callee->b = f->b);
		CO_RETURN(0);
	}
	if (!HAS_CPU_PARTIAL(m, f->cache) && f->flag1) {
		add_partial(m, f->cache, f->node, f->b, true);
		EV(.kind = EV_MOVE_SLAB, .fn = KFN___slab_free, .slab = f->b, .node = f->node,
		   .from = LOC_NONE, .to = LOC_PARTIAL, .item = 1, .value = SL(f->b)->inuse);
		STAT(FREE_ADD_PARTIAL, 1);
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(0);
	CO_END;
}

/* put_cpu_partial(s, slab, drain): b = slab, flag1 = drain, flag2 = the slab
 * comes from the node partial list (get_partial_node). With drain and
 * a chain already cpu_partial_slabs long (before v5.16: whose pobjects
 * exceed cpu_partial), the old chain is detached and put back to the
 * nodes (CPU_PARTIAL_DRAIN). x = chain to drain. The head carries the
 * chain's slabs and, before v5.16, pobjects: the free objects each slab
 * had when it was added. Before v6.8 the slab is frozen here. */
int co_C_PUT_CPU_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK(LK_PCS_LOCK, CI, false);
	{
		struct pcs_rec *c = C;
		idx_t old = c->c_partial;
		const struct svz_switches *sw = &WORLD(m)->cfg.sw;
		const struct svz_geom *g = &cache_r(m, f->cache)->g;
		uint32_t slabs = 0, pobjects = 0;
		f->x = NIL;
		if (old != NIL) {
			if (f->flag1 && (sw->cpu_partial_objects ? SL(old)->pobjects > g->cpu_partial
							     : SL(old)->slabs >= g->cpu_partial_slabs)) {
				f->x = old;
				old = NIL;
			} else {
				slabs = SL(old)->slabs;
				pobjects = SL(old)->pobjects;
			}
		}
		struct slab_rec *sr = SL(f->b);
		sr->slabs = slabs + 1;
		sr->pobjects = sw->cpu_partial_objects ? pobjects + sr->objects - sr->inuse : 0;
		sr->frozen = sw->frozen_partial;
		sr->next_partial = old;
		sr->list = LIST_CPU_PARTIAL;
		c->c_partial = f->b;
		if (WORLD(m)->cfg.sw.cpu_partial_free) {
			/* slab->next aliases slab_list.next, slab->slabs the low half of
			 * slab_list.prev: the node-list links are overwritten */
			sr->lnext = old;
			sr->lprev = GARBAGE_IDX;
		}
		for (idx_t s = f->x; s != NIL; s = SL(s)->next_partial)
			SL(s)->list = LIST_PRIVATE;
	}
	EV(.kind = EV_MOVE_SLAB, .fn = KFN_put_cpu_partial, .slab = f->b, .node = SL(f->b)->node,
	   .from = f->flag2 ? LOC_PARTIAL : LOC_NONE, .to = LOC_CPU_PARTIAL,
	   .count = (int32_t)SL(f->b)->slabs, .value = SL(f->b)->inuse);
	UNLOCK(LK_PCS_LOCK, CI);
	if (f->x != NIL) {
		CALL(CO_C_PUT_PARTIALS, callee->b = f->x);
		STAT(CPU_PARTIAL_DRAIN, 1);
	}
	CO_RETURN(0);
	CO_END;
}

/* __put_partials() (before v6.8 unfreeze_partials(), which first unfreezes
 * each slab with a cmpxchg): every slab of the chain b to its node's
 * partial tail (FREE_ADD_PARTIAL), switching node locks as needed; empty
 * ones beyond min_partial are discarded after (DEACTIVATE_EMPTY, FREE_SLAB).
 * x = slab, y = next, j = node locked (-1), z = discard chain. */
int co_C_PUT_PARTIALS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->j = -1;
	f->z = NIL;
	for (f->x = f->b; f->x != NIL; f->x = f->y) {
		f->y = SL(f->x)->next_partial;
		if (WORLD(m)->cfg.sw.cpu_partial_free) {
			/* slab->next is slab_list.next: a list_del() that ran on this
			 * slab left LIST_POISON1 in it */
			f->y = SL(f->x)->lnext;
			if (f->y == LIST_POISON1_IDX || f->y == LIST_POISON2_IDX || f->y == GARBAGE_IDX) {
				model_report(m, "general protection fault, probably for non-canonical address 0xdead000000000110: 0000 [#1] PREEMPT SMP NOPTI\n"
					     "CPU: %d UID: 0 PID: 0 Comm: slubviz Not tainted\n"
					     "RIP: 0010:__put_partials+0x5c/0x1a0\n"
					     "RBP: dead000000000100 R14: dead000000000100\n"
					     "Call Trace:\n  put_cpu_partial\n  __slab_free\n  kmem_cache_free",
					     cpu);
				WORLD(m)->stopped = true;
				f->y = NIL;
			}
		}
		SL(f->x)->next_partial = NIL;
		if (SL(f->x)->node != f->j) {
			if (f->j >= 0)
				UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->j));
			f->j = SL(f->x)->node;
			LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->j), false);
		}
		if (SL(f->x)->frozen) {
			SL(f->x)->frozen = false;
			EV(.kind = EV_CMPXCHG, .fn = KFN___put_partials, .slab = f->x, .node = f->j,
			   .value = SL(f->x)->inuse);
		}
		if (SL(f->x)->inuse == 0 && CNODE(f->j)->nr_partial >= MIN_PARTIAL) {
			SL(f->x)->next_partial = f->z;
			f->z = f->x;
		} else {
			add_partial(m, f->cache, f->j, f->x, true);
			EV(.kind = EV_MOVE_SLAB, .fn = KFN___put_partials, .slab = f->x, .node = f->j,
			   .from = LOC_CPU_PARTIAL, .to = LOC_PARTIAL, .item = 1, .value = SL(f->x)->inuse);
			STAT(FREE_ADD_PARTIAL, 1);
		}
	}
	if (f->j >= 0)
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->j));
	while (f->z != NIL) {
		f->x = f->z;
		f->z = SL(f->x)->next_partial;
		SL(f->x)->next_partial = NIL;
		SL(f->x)->list = LIST_NONE;
		STAT(DEACTIVATE_EMPTY, 1);
		CALL(CO_DISCARD_SLAB, callee->b = f->x);
		STAT(FREE_SLAB, 1);
	}
	CO_RETURN(0);
	CO_END;
}

/* flush_slab() + put_partials() for CPU on_cpu (flush_cpu_slab). */
int co_C_FLUSH_CPU(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK(LK_PCS_LOCK, CI, false);
	f->x = C->c_slab;
	f->y = C->c_freelist;
	C->c_slab = NIL;
	C->c_freelist = NIL;
	next_tid(m, C);
	UNLOCK(LK_PCS_LOCK, CI);
	if (f->x != NIL) {
		CALL(CO_C_DEACTIVATE_SLAB, callee->b = f->x; callee->y = f->y);
		STAT(CPUSLAB_FLUSH, 1);
	}
	LOCK(LK_PCS_LOCK, CI, false);
	f->x = C->c_partial;
	C->c_partial = NIL;
	for (idx_t s = f->x; s != NIL; s = SL(s)->next_partial)
		SL(s)->list = LIST_PRIVATE;
	UNLOCK(LK_PCS_LOCK, CI);
	if (f->x != NIL)
		CALL(CO_C_PUT_PARTIALS, callee->b = f->x);
	CO_RETURN(0);
	CO_END;
}

/* kmem_cache_alloc_bulk() (classic): pop c->freelist under the local lock
 * (ALLOC_FASTPATH per object); when it runs dry, ___slab_alloc one object
 * (which loads a new cpu slab) and go on. n = wanted, i = got. */
int co_C_ALLOC_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->i = 0;
	while (f->i < f->n) {
		LOCK(LK_PCS_LOCK, CI, false);
		{
			int32_t k = 0;
			while (f->i + k < f->n && C->c_freelist != NIL) {
				load_freelist(m, f, cpu, C->c_freelist);
				k++;
			}
			f->k = k;
		}
		if (f->k) {
			EV(.kind = EV_TAKE_OBJECT, .fn = KFN_kmem_cache_alloc_bulk, .slab = C->c_slab,
			   .from = LOC_CPU_FREELIST, .to = LOC_BULK, .count = f->k,
			   .value = own_freelist(m, C->c_freelist, f->on_cpu));
		}
		UNLOCK(LK_PCS_LOCK, CI);
		if (f->k)
			STAT(ALLOC_FASTPATH, f->k);
		f->i += f->k;
		if (f->i >= f->n)
			break;
		CALL(CO_C_SLAB_ALLOC, (void)callee);
		if (f->ret < 0)
			CO_RETURN(f->i);
		f->i++;
	}
	CO_RETURN(f->i);
	CO_END;
}
