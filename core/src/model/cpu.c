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
 * the per-CPU cmpxchg never fails (CMPXCHG_DOUBLE_CPU_FAIL stays 0).
 *
 * v6.18/v6.19 caches created with sheaf_capacity (2d517aa09bbc) have
 * sheaves in front of all this (sheaf.c): slab_alloc_node() and slab_free()
 * try them first; their refills come from here (__kmem_cache_alloc_bulk,
 * C_ALLOC_BULK) and their flushes go to do_slab_free(). */
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
#define object   f->x
#define cpu_slab f->y
int co_C_SLAB_ALLOC_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	object = C->c_freelist;
	cpu_slab = C->c_slab;
	if (object == NIL || cpu_slab == NIL || (f->node >= 0 && SL(cpu_slab)->node != f->node)) {
		CALL(CO_C_SLAB_ALLOC, (void)callee);
		CO_RETURN(f->ret);
	}
	load_freelist(m, f, cpu, object);
	EV_HOT(.kind = EV_CMPXCHG, .fn = KFN_slab_alloc_node, .slab = cpu_slab, .obj = object, .from = LOC_CPU_FREELIST,
	   .to = LOC_USER, .count = 1, .value = (int64_t)C->tid);
	STAT_HOT(ALLOC_FASTPATH, 1);
	CO_RETURN((int32_t)object);
	CO_END;
}
#undef object
#undef cpu_slab

/* gfpflags_allow_spinning() as ___slab_alloc() and get_partial_node()
 * heed it since v6.18 (af92793e52c3 "slab: Introduce kmalloc_nolock() and
 * kfree_nolock()"); before, every caller could spin. */
static bool may_spin(const struct model *m, const struct frame *f)
{
	return svz_gfp_allow_spinning(f->gfp) || !svz_kernel_at_least(&WORLD(m)->cfg.sw, 618);
}

/* ___slab_alloc() */
#define cur_slab       f->x
#define chain          f->y      /* the freelist being loaded */
#define flush_slab     f->c      /* the cpu slab a new slab replaces */
#define flush_freelist f->z
#define try_thisnode   f->flag1
#define pc_flags       f->k      /* the gfp get_partial() and new_slab() see */
int co_C_SLAB_ALLOC(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (DEBUG_SINGLE_OBJECT(m, f->cache)) {
		/* v6.1+: a debug cache never uses the cpu slab (alloc.c) */
		CALL(CO_SLAB_ALLOC, (void)callee);
		CO_RETURN(f->ret);
	}
	STAT(ALLOC_SLOWPATH, 1);
	try_thisnode = true;
reread_slab:
	cur_slab = C->c_slab;
	if (cur_slab == NIL) {
		if (f->node >= 0 && !node_has_memory(m, f->node))
			f->node = -1;
		goto new_slab;
	}
	if (f->node >= 0 && SL(cur_slab)->node != f->node) {
		/* v6.18+ (kmalloc_nolock()): without spinning the cpu slab
		 * cannot be deactivated: any node will do */
		if (!node_has_memory(m, f->node) || !may_spin(m, f)) {
			f->node = -1;
		} else {
			STAT(ALLOC_NODE_MISMATCH, 1);
			goto deactivate;
		}
	}
	LOCK(LK_CPU_SLAB_LOCK, CI, false);
	if (C->c_slab != cur_slab) {
		UNLOCK(LK_CPU_SLAB_LOCK, CI);
		goto reread_slab;
	}
	chain = C->c_freelist;
	if (chain != NIL)
		goto load;
	chain = take_slab_freelist(m, cur_slab, cpu);
	EV(.kind = EV_CMPXCHG, .fn = KFN_get_freelist, .slab = cur_slab, .node = SL(cur_slab)->node,
	   .count = (int32_t)own_freelist(m, chain, cpu), .value = SL(cur_slab)->inuse);
	if (chain == NIL) {
		/* nothing freed remotely: the exhausted slab is dropped (on no
		 * list), unless another CPU's free has since put the unfrozen
		 * slab on its partial list */
		C->c_slab = NIL;
		if (SL(cur_slab)->list == LIST_CPU_SLAB)
			SL(cur_slab)->list = LIST_NONE;
		next_tid(m, C);
		UNLOCK(LK_CPU_SLAB_LOCK, CI);
		STAT(DEACTIVATE_BYPASS, 1);
		goto new_slab;
	}
	STAT(ALLOC_REFILL, 1);
load:
	load_freelist(m, f, cpu, chain);
	EV(.kind = EV_TAKE_OBJECT, .fn = KFN____slab_alloc, .slab = C->c_slab, .obj = chain,
	   .from = LOC_CPU_FREELIST, .to = LOC_USER, .count = 1,
	   .value = own_freelist(m, C->c_freelist, f->on_cpu));
	UNLOCK(LK_CPU_SLAB_LOCK, CI);
	if (CACHE_DEBUG(m, f->cache)) {
		/* before v6.1 a debug cache hands out this one object and gives
		 * the slab up at once: deactivate_slab(s, slab, the rest) */
		flush_slab = C->c_slab;
		flush_freelist = C->c_freelist;
		C->c_slab = NIL;
		C->c_freelist = NIL;
		next_tid(m, C);
		CALL(CO_C_DEACTIVATE_SLAB, callee->b = flush_slab; callee->y = flush_freelist);
	}
	CO_RETURN((int32_t)chain);
deactivate:
	LOCK(LK_CPU_SLAB_LOCK, CI, false);
	if (cur_slab != C->c_slab) {
		UNLOCK(LK_CPU_SLAB_LOCK, CI);
		goto reread_slab;
	}
	chain = C->c_freelist;
	C->c_slab = NIL;
	C->c_freelist = NIL;
	next_tid(m, C);
	UNLOCK(LK_CPU_SLAB_LOCK, CI);
	CALL(CO_C_DEACTIVATE_SLAB, callee->b = cur_slab; callee->y = chain);
new_slab:
	while (C->c_partial != NIL) {
		LOCK(LK_CPU_SLAB_LOCK, CI, false);
		if (C->c_slab != NIL) {
			UNLOCK(LK_CPU_SLAB_LOCK, CI);
			goto reread_slab;
		}
		cur_slab = C->c_partial;
		if (cur_slab == NIL) {
			UNLOCK(LK_CPU_SLAB_LOCK, CI);
			break;
		}
		C->c_partial = SL(cur_slab)->next_partial;
		SL(cur_slab)->next_partial = NIL;
		if (WORLD(m)->cfg.sw.frozen_partial) {
			/* before v6.8: the slab is already frozen; it becomes c->slab
			 * and ___slab_alloc starts over at redo (node check, then
			 * get_freelist: ALLOC_REFILL) */
			C->c_slab = cur_slab;
			SL(cur_slab)->list = LIST_CPU_SLAB;
			EV(.kind = EV_MOVE_SLAB, .fn = KFN____slab_alloc, .slab = cur_slab, .node = SL(cur_slab)->node,
			   .from = LOC_CPU_PARTIAL, .to = LOC_CPU_SLAB, .value = SL(cur_slab)->inuse);
			UNLOCK(LK_CPU_SLAB_LOCK, CI);
			STAT(CPU_PARTIAL_ALLOC, 1);
			goto reread_slab;
		}
		/* v6.18+: nor can a wrong-node slab go back (__put_partials()) */
		if (f->node < 0 || SL(cur_slab)->node == f->node || !may_spin(m, f)) {
			C->c_slab = cur_slab;
			SL(cur_slab)->list = LIST_CPU_SLAB;
			chain = take_slab_freelist(m, cur_slab, cpu);
			EV(.kind = EV_MOVE_SLAB, .fn = KFN____slab_alloc, .slab = cur_slab, .node = SL(cur_slab)->node,
			   .from = LOC_CPU_PARTIAL, .to = LOC_CPU_SLAB, .value = SL(cur_slab)->inuse);
			STAT(CPU_PARTIAL_ALLOC, 1);
			goto load;
		}
		UNLOCK(LK_CPU_SLAB_LOCK, CI);
		/* v6.8 counts every slab it pops, before the node check; v6.9
		 * ("directly load freelist from cpu partial slab in the likely
		 * case") only the one it loads */
		if (!svz_kernel_at_least(&WORLD(m)->cfg.sw, 609))
			STAT(CPU_PARTIAL_ALLOC, 1);
		SL(cur_slab)->list = LIST_PRIVATE;
		CALL(CO_C_PUT_PARTIALS, callee->b = cur_slab);
	}
	/* new_objects (v6.9+: try_thisnode first asks the preferred node alone,
	 * with GFP_NOWAIT | __GFP_THISNODE) */
new_objects:
	pc_flags = (int32_t)f->gfp;
	if (f->node >= 0 && !(f->gfp & __GFP_THISNODE) && try_thisnode && kernel_tries_thisnode(m))
		pc_flags = (int32_t)(may_spin(m, f) ? (GFP_NOWAIT | __GFP_THISNODE) : (f->gfp | __GFP_THISNODE));
	CALL(CO_C_GET_PARTIAL, callee->gfp = (uint32_t)pc_flags);
	if (f->ret >= 0) {
		cur_slab = (idx_t)f->ret;
		chain = take_slab_freelist(m, cur_slab, cpu);
		EV(.kind = EV_CMPXCHG, .fn = KFN_freeze_slab, .slab = cur_slab, .node = SL(cur_slab)->node,
		   .count = (int32_t)own_freelist(m, chain, cpu), .value = SL(cur_slab)->inuse);
		goto retry_load_slab;
	}
	NEW_SLAB_OR_RETRY(try_thisnode, pc_flags, new_objects);
	cur_slab = (idx_t)f->ret;
	STAT(ALLOC_SLAB, 1);
	{
		struct slab_rec *sr = SL(cur_slab);
		if (sr->deferred) {
			/* seed 000: the freelist is built now, all of it goes to c->freelist */
			sr->deferred = false;
			cache_r(m, f->cache)->fp_writes += sr->objects;
		}
		chain = take_slab_freelist(m, cur_slab, cpu);
		sr = SL(cur_slab);
		sr->frozen = true;
		struct cnode_rec *n = CNODE(sr->node);
		n->nr_slabs++;
		n->total_objects += sr->objects;
	}
retry_load_slab:
	LOCK(LK_CPU_SLAB_LOCK, CI, false);
	if (C->c_slab != NIL) {
		flush_slab = C->c_slab;
		flush_freelist = C->c_freelist;
		C->c_slab = NIL;
		C->c_freelist = NIL;
		next_tid(m, C);
		UNLOCK(LK_CPU_SLAB_LOCK, CI);
		CALL(CO_C_DEACTIVATE_SLAB, callee->b = flush_slab; callee->y = flush_freelist);
		STAT(CPUSLAB_FLUSH, 1);
		goto retry_load_slab;
	}
	C->c_slab = cur_slab;
	SL(cur_slab)->list = LIST_CPU_SLAB;
	EV(.kind = EV_MOVE_SLAB, .fn = KFN____slab_alloc, .slab = cur_slab, .node = SL(cur_slab)->node,
	   .from = LOC_NONE, .to = LOC_CPU_SLAB, .value = SL(cur_slab)->inuse);
	goto load;
	CO_END;
}
#undef cur_slab
#undef chain
#undef flush_slab
#undef flush_freelist
#undef try_thisnode
#undef pc_flags

/* get_partial(): the requested node (or numa_mem_id()), then any node
 * unless a node was requested: before v6.9 any requested node, since
 * (9198ffbd2b49) only one requested with __GFP_THISNODE in pc.flags (gfp).
 * Returns an unfrozen slab or -1. */
int co_C_GET_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	CALL(CO_C_GET_PARTIAL_NODE, callee->node = f->node >= 0 ? f->node : cpu_node(m, cpu));
	if (f->ret >= 0 ||
	    (f->node >= 0 && (!kernel_tries_thisnode(m) || (f->gfp & __GFP_THISNODE))))
		CO_RETURN(f->ret);
	CALL(CO_GET_FROM_ANY_PARTIAL, callee->k_fn = KFN_get_any_partial);
	CO_RETURN(f->ret);
	CO_END;
}

/* get_partial_node(): under list_lock take the first slab (the result,
 * ALLOC_FROM_PARTIAL) and move more to this CPU's partial chain
 * (put_cpu_partial(drain = 0), CPU_PARTIAL_NODE) until more than
 * cpu_partial_slabs / 2 were moved; before v5.16 until the free objects
 * taken, the result's included, exceed cpu_partial / 2. */
#define cur_slab      f->x
#define got_slab      f->y      /* the result (ALLOC_FROM_PARTIAL) */
#define next_slab     f->c
#define partial_slabs f->i
#define available     f->k      /* before v5.16: free objects taken */
int co_C_GET_PARTIAL_NODE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!CNODE(f->node)->exists || CNODE(f->node)->nr_partial == 0)
		CO_RETURN(-1);
	LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), !may_spin(m, f));
	if (!f->ret)
		CO_RETURN(-1);
	got_slab = NIL;
	partial_slabs = 0;
	available = 0;
	cur_slab = slab_first(m, CNODE(f->node)->partial.first);
	while (cur_slab != NIL) {
		next_slab = slab_lnext(m, cur_slab);
		remove_partial(m, f->cache, f->node, cur_slab);
		available += (int32_t)(SL(cur_slab)->objects - SL(cur_slab)->inuse);
		if (got_slab == NIL) {
			got_slab = cur_slab;
			/* the result: frozen and installed as c->slab by ___slab_alloc */
			EV(.kind = EV_MOVE_SLAB, .fn = KFN_get_partial_node, .slab = cur_slab, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = SL(cur_slab)->inuse);
			STAT(ALLOC_FROM_PARTIAL, 1);
		} else {
			CALL(CO_C_PUT_CPU_PARTIAL, callee->b = cur_slab; callee->flag1 = false; callee->flag2 = true);
			STAT(CPU_PARTIAL_NODE, 1);
			partial_slabs++;
		}
		if (!HAS_CPU_PARTIAL(m, f->cache) ||
		    (WORLD(m)->cfg.sw.cpu_partial_objects
		     ? (uint32_t)available > cache_r(m, f->cache)->g.cpu_partial / 2
		     : (uint32_t)partial_slabs > cache_r(m, f->cache)->g.cpu_partial_slabs / 2))
			break;
		cur_slab = next_slab;
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(got_slab == NIL ? -1 : (int32_t)got_slab);
	CO_END;
}
#undef cur_slab
#undef got_slab
#undef next_slab
#undef partial_slabs
#undef available

/* deactivate_slab(s, slab, freelist): unfreeze, splice the cpu freelist back, then: empty and enough partial
 * slabs -> discard; free objects -> node partial (head, or tail if remote
 * frees had arrived); else full, on no list. */
#define this_slab    f->b      /* in */
#define cpu_freelist f->y      /* in */
#define to_tail      f->flag1
#define spliced      f->n
int co_C_DEACTIVATE_SLAB(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = SL(this_slab)->node;
	to_tail = SL(this_slab)->freelist != NIL;
	if (to_tail)
		STAT(DEACTIVATE_REMOTE_FREES, 1);
	{
		struct slab_rec *sr = SL(this_slab);
		uint32_t delta = 0;
		idx_t tail = NIL;
		for (idx_t o = cpu_freelist; o != NIL; o = obj_r(m, o)->next) {
			tail = o;
			delta++;
			obj_r(m, o)->state = OBJ_CHAIN;
		}
		if (tail != NIL)
			slab_push_chain(m, this_slab, cpu_freelist, tail, delta);
		sr = SL(this_slab);
		sr->frozen = false;
		sr->list = LIST_NONE;
		spliced = (int32_t)delta;
	}
	EV(.kind = EV_CMPXCHG, .fn = KFN_deactivate_slab, .slab = this_slab, .node = f->node, .count = -spliced,
	   .value = SL(this_slab)->inuse);
	if (SL(this_slab)->inuse == 0 && CNODE(f->node)->nr_partial >= MIN_PARTIAL) {
		STAT(DEACTIVATE_EMPTY, 1);
		CALL(CO_DISCARD_SLAB, callee->b = this_slab);
		STAT(FREE_SLAB, 1);
	} else if (SL(this_slab)->freelist != NIL) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		add_partial(m, f->cache, f->node, this_slab, to_tail);
		EV(.kind = EV_MOVE_SLAB, .fn = KFN_deactivate_slab, .slab = this_slab, .node = f->node,
		   .from = LOC_CPU_SLAB, .to = LOC_PARTIAL, .item = to_tail, .value = SL(this_slab)->inuse);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		STAT(to_tail ? DEACTIVATE_TO_TAIL : DEACTIVATE_TO_HEAD, 1);
	} else {
		STAT(DEACTIVATE_FULL, 1);
	}
	CO_RETURN(0);
	CO_END;
}
#undef this_slab
#undef cpu_freelist
#undef to_tail
#undef spliced

/* do_slab_free(): the chain head..tail of cnt objects (state CHAIN) to
 * this CPU's cpu slab: link onto c->freelist (FREE_FASTPATH += cnt); else
 * __slab_free. Before v6.8 a bulk free's chain counted one FREE_FASTPATH
 * (stat(), not stat_add(): 6f3dd2c31d7d "mm/slub: fix bulk alloc and free
 * stats"). */
#define this_slab f->b      /* in */
#define head      f->x      /* in */
#define tail      f->y      /* in */
#define cnt       f->n      /* in */
int co_C_DO_SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (this_slab == C->c_slab) {
		set_freepointer(m, tail, C->c_freelist);
		C->c_freelist = head;
		next_tid(m, C);
		own_freelist(m, head, cpu);
		EV_HOT(.kind = EV_CMPXCHG, .fn = KFN_do_slab_free, .slab = this_slab, .obj = head, .from = LOC_USER,
		   .to = LOC_CPU_FREELIST, .count = -cnt, .value = (int64_t)C->tid);
		STAT_HOT(FREE_FASTPATH, cnt > 1 && !svz_kernel_at_least(&WORLD(m)->cfg.sw, 608) ? 1 : cnt);
		CO_RETURN(0);
	}
	CALL(CO_C___SLAB_FREE, callee->b = this_slab; callee->x = head; callee->y = tail; callee->n = cnt);
	CO_RETURN(0);
	CO_END;
}
#undef this_slab
#undef head
#undef tail
#undef cnt

/* __slab_free() of v6.8/v6.19 (its frame: slab_free_frame.h). */
#include "model/slab_free_frame.h"
#define was_frozen f->i
int co_C___SLAB_FREE(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	STAT(FREE_SLOWPATH, 1);
	if (DEBUG_SINGLE_OBJECT(m, f->cache)) {
		CALL(CO_FREE_TO_PARTIAL_LIST, callee->b = this_slab; callee->x = head; callee->y = tail;
		     callee->n = cnt);
		CO_RETURN(0);
	}
	f->node = SL(this_slab)->node;
retry:
	prior = SL(this_slab)->freelist;
	old_inuse = (int32_t)SL(this_slab)->inuse;
	was_frozen = SL(this_slab)->frozen;
	was_full = prior == NIL;
	locked = false;
	if (((uint32_t)old_inuse == (uint32_t)cnt || was_full) && !was_frozen &&
	    !(HAS_CPU_PARTIAL(m, f->cache) && was_full)) {
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node), false);
		locked = true;
		on_partial = SL(this_slab)->list == LIST_PARTIAL;
		if (SL(this_slab)->freelist != prior || SL(this_slab)->inuse != (uint32_t)old_inuse) {
			STAT(CMPXCHG_DOUBLE_FAIL, 1);
			UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
			goto retry;
		}
	}
	slab_push_chain(m, this_slab, head, tail, (uint32_t)cnt);
	EV(.kind = EV_CMPXCHG, .fn = KFN___slab_free, .slab = this_slab, .obj = head, .node = f->node,
	   .count = -cnt, .value = SL(this_slab)->inuse);
	if (!locked) {
		if (was_frozen) {
			STAT(FREE_FROZEN, 1);
		} else if (HAS_CPU_PARTIAL(m, f->cache) && was_full) {
			CALL(CO_C_PUT_CPU_PARTIAL, callee->b = this_slab; callee->flag1 = true);
			STAT(CPU_PARTIAL_FREE, 1);
		}
		CO_RETURN(0);
	}
	if (!was_full && !on_partial) {
		/* on some CPU's partial chain: leave it there, even if empty */
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		CO_RETURN(0);
	}
	if (SL(this_slab)->inuse == 0 && CNODE(f->node)->nr_partial >= MIN_PARTIAL) {
		if (!was_full) {
			remove_partial(m, f->cache, f->node, this_slab);
			EV(.kind = EV_MOVE_SLAB, .fn = KFN___slab_free, .slab = this_slab, .node = f->node,
			   .from = LOC_PARTIAL, .to = LOC_NONE, .value = 0);
			STAT(FREE_REMOVE_PARTIAL, 1);
		}
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
		STAT(FREE_SLAB, 1);
		CALL(CO_DISCARD_SLAB, callee->b = this_slab);
		CO_RETURN(0);
	}
	if (!HAS_CPU_PARTIAL(m, f->cache) && was_full) {
		add_partial(m, f->cache, f->node, this_slab, true);
		EV(.kind = EV_MOVE_SLAB, .fn = KFN___slab_free, .slab = this_slab, .node = f->node,
		   .from = LOC_NONE, .to = LOC_PARTIAL, .item = 1, .value = SL(this_slab)->inuse);
		STAT(FREE_ADD_PARTIAL, 1);
	}
	UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, f->node));
	CO_RETURN(0);
	CO_END;
}
#include "model/slab_free_frame.h"
#undef was_frozen

/* put_cpu_partial(s, slab, drain): with drain and
 * a chain already cpu_partial_slabs long, the old chain is detached and
 * put back to the nodes (CPU_PARTIAL_DRAIN). */
#define this_slab         f->b      /* in */
#define drain             f->flag1  /* in */
#define from_node_partial f->flag2  /* in: get_partial_node() took it off n->partial */
#define slab_to_put       f->x
int co_C_PUT_CPU_PARTIAL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK(LK_CPU_SLAB_LOCK, CI, false);
	{
		struct pcs_rec *c = C;
		idx_t old = c->c_partial;
		const struct svz_switches *sw = &WORLD(m)->cfg.sw;
		const struct svz_geom *g = &cache_r(m, f->cache)->g;
		uint32_t slabs = 0, pobjects = 0;
		slab_to_put = NIL;
		if (old != NIL) {
			if (drain && (sw->cpu_partial_objects ? SL(old)->pobjects > g->cpu_partial
							      : SL(old)->slabs >= g->cpu_partial_slabs)) {
				slab_to_put = old;
				old = NIL;
			} else {
				slabs = SL(old)->slabs;
				pobjects = SL(old)->pobjects;
			}
		}
		struct slab_rec *sr = SL(this_slab);
		sr->slabs = slabs + 1;
		sr->pobjects = sw->cpu_partial_objects ? pobjects + sr->objects - sr->inuse : 0;
		sr->frozen = sw->frozen_partial;
		sr->next_partial = old;
		sr->list = LIST_CPU_PARTIAL;
		c->c_partial = this_slab;
		if (WORLD(m)->cfg.sw.cpu_partial_free) {
			/* slab->next aliases slab_list.next, slab->slabs the low half of
			 * slab_list.prev: the node-list links are overwritten */
			sr->lnext = old;
			sr->lprev = GARBAGE_IDX;
		}
		for (idx_t s = slab_to_put; s != NIL; s = SL(s)->next_partial)
			SL(s)->list = LIST_PRIVATE;
	}
	EV(.kind = EV_MOVE_SLAB, .fn = KFN_put_cpu_partial, .slab = this_slab, .node = SL(this_slab)->node,
	   .from = from_node_partial ? LOC_PARTIAL : LOC_NONE, .to = LOC_CPU_PARTIAL,
	   .count = (int32_t)SL(this_slab)->slabs, .value = SL(this_slab)->inuse);
	UNLOCK(LK_CPU_SLAB_LOCK, CI);
	if (slab_to_put != NIL) {
		CALL(CO_C_PUT_PARTIALS, callee->b = slab_to_put);
		STAT(CPU_PARTIAL_DRAIN, 1);
	}
	CO_RETURN(0);
	CO_END;
}
#undef this_slab
#undef drain
#undef from_node_partial
#undef slab_to_put

/* __put_partials(): every slab of the chain to its node's partial tail
 * (FREE_ADD_PARTIAL), switching node locks as needed; empty ones beyond
 * min_partial are discarded after (DEACTIVATE_EMPTY, FREE_SLAB). */
#define partial_chain   f->b      /* in */
#define cur_slab        f->x
#define next_slab       f->y
#define locked_node     f->j      /* -1: none */
#define slab_to_discard f->z
int co_C_PUT_PARTIALS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	locked_node = -1;
	slab_to_discard = NIL;
	for (cur_slab = partial_chain; cur_slab != NIL; cur_slab = next_slab) {
		next_slab = SL(cur_slab)->next_partial;
		if (WORLD(m)->cfg.sw.cpu_partial_free) {
			/* slab->next is slab_list.next: a list_del() that ran on this
			 * slab left LIST_POISON1 in it */
			next_slab = SL(cur_slab)->lnext;
			if (next_slab == LIST_POISON1_IDX || next_slab == LIST_POISON2_IDX || next_slab == GARBAGE_IDX) {
				model_report(m, "general protection fault, probably for non-canonical address 0xdead000000000110: 0000 [#1] PREEMPT SMP NOPTI\n"
					     "CPU: %d UID: 0 PID: 0 Comm: slubviz Not tainted\n"
					     "RIP: 0010:__put_partials+0x5c/0x1a0\n"
					     "RBP: dead000000000100 R14: dead000000000100\n"
					     "Call Trace:\n  put_cpu_partial\n  __slab_free\n  kmem_cache_free",
					     cpu);
				model_stop(m);
				next_slab = NIL;
			}
		}
		SL(cur_slab)->next_partial = NIL;
		if (SL(cur_slab)->node != locked_node) {
			if (locked_node >= 0)
				UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, locked_node));
			locked_node = SL(cur_slab)->node;
			LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, locked_node), false);
		}
		if (SL(cur_slab)->frozen) {
			SL(cur_slab)->frozen = false;
			EV(.kind = EV_CMPXCHG, .fn = KFN___put_partials, .slab = cur_slab, .node = locked_node,
			   .value = SL(cur_slab)->inuse);
		}
		if (SL(cur_slab)->inuse == 0 && CNODE(locked_node)->nr_partial >= MIN_PARTIAL) {
			SL(cur_slab)->next_partial = slab_to_discard;
			slab_to_discard = cur_slab;
		} else {
			add_partial(m, f->cache, locked_node, cur_slab, true);
			EV(.kind = EV_MOVE_SLAB, .fn = KFN___put_partials, .slab = cur_slab, .node = locked_node,
			   .from = LOC_CPU_PARTIAL, .to = LOC_PARTIAL, .item = 1, .value = SL(cur_slab)->inuse);
			STAT(FREE_ADD_PARTIAL, 1);
		}
	}
	if (locked_node >= 0)
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, locked_node));
	while (slab_to_discard != NIL) {
		cur_slab = slab_to_discard;
		slab_to_discard = SL(cur_slab)->next_partial;
		SL(cur_slab)->next_partial = NIL;
		SL(cur_slab)->list = LIST_NONE;
		STAT(DEACTIVATE_EMPTY, 1);
		CALL(CO_DISCARD_SLAB, callee->b = cur_slab);
		STAT(FREE_SLAB, 1);
	}
	CO_RETURN(0);
	CO_END;
}
#undef partial_chain
#undef cur_slab
#undef next_slab
#undef locked_node
#undef slab_to_discard

/* flush_slab() + put_partials() for CPU on_cpu (flush_cpu_slab). */
#define flushed      f->x      /* c->slab, then the c->partial chain */
#define cpu_freelist f->y
int co_C_FLUSH_CPU(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK(LK_CPU_SLAB_LOCK, CI, false);
	flushed = C->c_slab;
	cpu_freelist = C->c_freelist;
	C->c_slab = NIL;
	C->c_freelist = NIL;
	next_tid(m, C);
	UNLOCK(LK_CPU_SLAB_LOCK, CI);
	if (flushed != NIL) {
		CALL(CO_C_DEACTIVATE_SLAB, callee->b = flushed; callee->y = cpu_freelist);
		STAT(CPUSLAB_FLUSH, 1);
	}
	LOCK(LK_CPU_SLAB_LOCK, CI, false);
	flushed = C->c_partial;
	C->c_partial = NIL;
	for (idx_t s = flushed; s != NIL; s = SL(s)->next_partial)
		SL(s)->list = LIST_PRIVATE;
	UNLOCK(LK_CPU_SLAB_LOCK, CI);
	if (flushed != NIL)
		CALL(CO_C_PUT_PARTIALS, callee->b = flushed);
	CO_RETURN(0);
	CO_END;
}
#undef flushed
#undef cpu_freelist

/* __kmem_cache_alloc_bulk()'s loop (classic): pop c->freelist under the
 * local lock (ALLOC_FASTPATH per object since v6.8, 6f3dd2c31d7d; none
 * before it); when it runs dry, ___slab_alloc one object (which loads a
 * new cpu slab) and go on. Onto the bulk buffer; returns how many it got
 * (co_ALLOC_BULK_SLABS frees a short run back). */
#define wanted     f->n      /* in */
#define got        f->i
#define batch      f->k
int co_C_ALLOC_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	got = 0;
	while (got < wanted) {
		LOCK(LK_CPU_SLAB_LOCK, CI, false);
		{
			int32_t k = 0;
			while (got + k < wanted && C->c_freelist != NIL) {
				load_freelist(m, f, cpu, C->c_freelist);
				k++;
			}
			batch = k;
		}
		if (batch) {
			EV(.kind = EV_TAKE_OBJECT, .fn = KFN_kmem_cache_alloc_bulk, .slab = C->c_slab,
			   .from = LOC_CPU_FREELIST, .to = LOC_BULK, .count = batch,
			   .value = own_freelist(m, C->c_freelist, f->on_cpu));
		}
		UNLOCK(LK_CPU_SLAB_LOCK, CI);
		if (batch && svz_kernel_at_least(&WORLD(m)->cfg.sw, 608))
			STAT(ALLOC_FASTPATH, batch);
		got += batch;
		if (got >= wanted)
			break;
		CALL(CO_C_SLAB_ALLOC, (void)callee);
		if (f->ret < 0)
			break;
		got++;
	}
	CO_RETURN(got);
	CO_END;
}
#undef wanted
#undef got
#undef batch
