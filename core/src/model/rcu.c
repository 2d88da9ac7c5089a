/* Prefilled sheaves and kfree_rcu() sheaves (v6.18+).
 *
 * kmem_cache_prefill_sheaf() hands the caller a sheaf holding at least
 * `size` objects (the CPU's spare, a barn sheaf, or a new one, refilled to
 * capacity; an "oversize" one when size > sheaf_capacity);
 * kmem_cache_alloc_from_sheaf() pops from it; kmem_cache_return_sheaf()
 * makes it the CPU's spare, puts it full into the barn, or flushes it.
 *
 * kfree_rcu() of an object of a cache with sheaves pushes it onto the
 * CPU's rcu_free sheaf (__kfree_rcu_sheaf); a full rcu_free sheaf goes to
 * call_rcu(), and after the grace period rcu_free_sheaf() puts it into the
 * barn as a full sheaf (objects reusable at once) or flushes it. The model's
 * grace period ends at an `rcu_barrier` op. Objects that find no sheaf take
 * the classic kfree_rcu batching: freed with kfree() after the grace period.
 *
 *   every sheaf on world.rcu_pending has where == SH_RCU_PENDING and
 *     where_id == the CPU that call_rcu()'d it
 *   every object on world.rcu_objects has state OBJ_RCU
 *
 * rcu_free_sheaf() runs, as an RCU callback does, on the CPU that queued
 * it (callbacks not offloaded): its counters and, before v7.0, that CPU's
 * kmem_cache_cpu slab are that CPU's (frame on_cpu), whichever CPU's
 * rcu_barrier op ends the grace period.
 *
 * Differences from Linux: the grace period is explicit (rcu_barrier op);
 * kfree_rcu objects of caches without sheaves (all before v6.18) are batched
 * and kfree()d at the barrier. */
#include <stdio.h>

#include "model/engine.h"
#include "model/model.h"

#define SH(s) sheaf_r(m, (s))

/* barn_get_full_or_empty_sheaf(): prefers a full sheaf. */
#define barn  f->a      /* in */
#define taken f->x
#define full  f->flag1
int co_BARN_GET_FULL_OR_EMPTY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (barn_r(m, barn)->nr_full == 0 && barn_r(m, barn)->nr_empty == 0)
		CO_RETURN(-1);
	LOCK(LK_BARN_LOCK, barn, false);
	{
		struct barn_rec *b = barn_r(m, barn);
		struct dlist *l = b->nr_full ? &b->sheaves_full : b->nr_empty ? &b->sheaves_empty : NULL;
		taken = NIL;
		if (l) {
			taken = l->first;
			full = b->nr_full != 0;
			dlist_del(m, P_SHEAF, l, taken);
			if (full)
				b->nr_full--;
			else
				b->nr_empty--;
			sheaf_place(m, taken, SH_DETACHED, -1);
		}
	}
	if (taken != NIL)
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = taken,
		   .from = full ? LOC_BARN_FULL : LOC_BARN_EMPTY, .to = LOC_NONE,
		   .node = barn_r(m, barn)->node, .value = sheaf_size(m, taken));
	UNLOCK(LK_BARN_LOCK, barn);
	CO_RETURN(taken == NIL ? -1 : (int32_t)taken);
	CO_END;
}
#undef barn
#undef taken
#undef full

/* kmem_cache_prefill_sheaf(): returns the sheaf or -1. */
#define size      f->n
#define prefilled f->x
#define barn      f->y
int co_OP_PREFILL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (f->cache == NIL) {
		model_report(m, "trace:%u: error: cache '%s' does not exist (destroyed?)",
			     m->trace->ops[cur_op(m, cpu)].line,
			     m->trace->caches[m->trace->ops[cur_op(m, cpu)].cache].name);
		CO_RETURN(-1);
	}
	{
		const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
		if (claim_handle(m, cpu, op->sheaf))
			CO_RETURN(-1);
		size = (int32_t)op->count;
	}
	if (CLASSIC(m) && !svz_kernel_at_least(&WORLD(m)->cfg.sw, 618)) {
		/* NULL, as a failed prefill: the handle holds no sheaf */
		CHECK_EV(CHK_CLASSIC_NO_PREFILL);
		CO_RETURN(0);
	}
	prefilled = NIL;
	if ((uint32_t)size > SHEAF_CAPACITY) {
		/* oversize: kzalloc'ed (no SHEAF_ALLOC), filled by bulk allocation */
		MOVES_TO(prefilled, sheaf_new(m, f->cache, (uint32_t)size));
		sheaf_r(m, prefilled)->oversize = true;
		EV(.kind = EV_SHEAF_NEW, .fn = KFN_kmem_cache_prefill_sheaf, .sheaf = prefilled, .value = size);
		STAT(SHEAF_PREFILL_OVERSIZE, 1);
		/* __kmem_cache_alloc_bulk(), all or nothing (a cache without
		 * sheaves has capacity 0: every prefill is oversize). A failed
		 * one freed its objects itself: the sheaf is kfree'd empty. */
		CALL(CO_ALLOC_BULK_SLABS, callee->z = prefilled; callee->n = size);
		if (f->ret == 0) {
			sheaf_release(m, prefilled);
			EV(.kind = EV_SHEAF_FREE, .fn = KFN_kmem_cache_prefill_sheaf, .sheaf = prefilled);
			goto fail;
		}
		goto done;
	}
	LOCK(LK_PCS_LOCK, PCSI(cpu), false);
	if (PCS(cpu)->spare != NIL) {
		prefilled = PCS(cpu)->spare;
		PCS(cpu)->spare = NIL;
		sheaf_place(m, prefilled, SH_DETACHED, -1);
		EV(.kind = EV_MOVE_SHEAF, .fn = KFN_kmem_cache_prefill_sheaf, .sheaf = prefilled, .from = LOC_SPARE,
		   .to = LOC_USER, .value = sheaf_size(m, prefilled));
		STAT(SHEAF_PREFILL_FAST, 1);
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
	} else {
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		STAT(SHEAF_PREFILL_SLOW, 1);
		barn = get_barn(m, f->cache, cpu);
		if (barn != NIL) {
			CALL(CO_BARN_GET_FULL_OR_EMPTY, callee->a = barn);
			if (f->ret >= 0)
				prefilled = (idx_t)f->ret;
		}
		/* BARN_GET only for a sheaf with objects: an empty one, or none
		 * (no barn either), is BARN_GET_FAIL */
		if (prefilled != NIL && sheaf_size(m, prefilled))
			STAT(BARN_GET, 1);
		else
			STAT(BARN_GET_FAIL, 1);
		if (prefilled == NIL) {
			ALLOC_EMPTY_SHEAF(prefilled);
		}
	}
	if (sheaf_size(m, prefilled) < (uint32_t)size) {
		CALL(CO_REFILL_SHEAF, callee->a = prefilled);
		if (f->ret) {
			CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = prefilled);
			CALL(CO_FREE_EMPTY_SHEAF, callee->a = prefilled);
			goto fail;
		}
	}
	goto done;
fail:
	/* NULL, as kmalloc() failing: the trace goes on, the handle holds no
	 * sheaf (prefilled is not a returned object) */
	prefilled = NIL;
	handle_r(m, m->trace->ops[cur_op(m, cpu)].sheaf)->alloc_line = m->trace->ops[cur_op(m, cpu)].line;
	CO_RETURN(0);
done:
	{
		const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
		handle_r(m, op->sheaf)->sheaf = prefilled;
		handle_r(m, op->sheaf)->alloc_line = op->line;
		handle_r(m, op->sheaf)->free_line = 0;
		sheaf_place(m, prefilled, SH_PREFILLED, (int)op->sheaf);
	}
	EV(.kind = EV_MOVE_SHEAF, .fn = KFN_kmem_cache_prefill_sheaf, .sheaf = prefilled, .from = LOC_NONE,
	   .to = LOC_USER, .value = sheaf_size(m, prefilled));
	CO_RETURN(0);
	CO_END;
}
#undef size
#undef prefilled
#undef barn

static idx_t held_sheaf(struct model *m, int cpu, const char *fn)
{
	const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
	idx_t sh = handle_r(m, op->sheaf)->sheaf;
	if (sh == NIL)
		model_report(m, "trace:%u: error: %s: handle '%s' holds no prefilled sheaf", op->line, fn,
			     m->trace->handle_names[op->sheaf]);
	return sh;
}

/* kmem_cache_alloc_from_sheaf(): pop one object; none left -> NULL. */
#define held   f->x      /* the held sheaf, then the object for the RETURN event */
#define object f->y
int co_OP_ALLOC_FROM_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	held = held_sheaf(m, cpu, "kmem_cache_alloc_from_sheaf");
	if (held == NIL)
		CO_RETURN(-1);
	{
		const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
		if (claim_handle(m, cpu, op->handle))
			CO_RETURN(-1);
		handle_r(m, op->handle)->alloc_line = op->line;
		handle_r(m, op->handle)->free_line = 0;
	}
	if (sheaf_size(m, held) == 0) {
		CHECK_EV(CHK_SHEAF_EMPTY, .sheaf = held);
		CO_RETURN(0);
	}
	{
		const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
		idx_t o = sheaf_pop(m, held);
		handle_r(m, op->handle)->obj = o;
		obj_r(m, o)->state = OBJ_USER;
		obj_r(m, o)->holder = op->handle;
		obj_r(m, o)->site = op->site;
		object = o;
	}
	EV(.kind = EV_TAKE_OBJECT, .fn = KFN_kmem_cache_alloc_from_sheaf, .sheaf = held, .obj = object,
	   .from = LOC_SHEAF, .to = LOC_USER, .count = 1, .value = sheaf_size(m, held));
	held = object; /* the RETURN event names the object */
	CO_RETURN(0);
	CO_END;
}
#undef held
#undef object

/* kmem_cache_return_sheaf(): oversize -> flush and kfree; else the CPU's
 * spare (SHEAF_RETURN_FAST), or refilled into the barn (SHEAF_RETURN_SLOW,
 * BARN_PUT) unless the barn is full or the refill fails (flush, free). */
#define held f->x
#define barn f->y
int co_OP_RETURN_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	held = held_sheaf(m, cpu, "kmem_cache_return_sheaf");
	if (held == NIL)
		CO_RETURN(-1);
	{
		const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
		handle_r(m, op->sheaf)->sheaf = NIL;
		handle_r(m, op->sheaf)->free_line = op->line;
		sheaf_place(m, held, SH_DETACHED, -1);
	}
	if (sheaf_r(m, held)->oversize) {
		CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = held);
		sheaf_release(m, held);
		EV(.kind = EV_SHEAF_FREE, .fn = KFN_kmem_cache_return_sheaf, .sheaf = held);
		CO_RETURN(0);
	}
	LOCK(LK_PCS_LOCK, PCSI(cpu), false);
	if (PCS(cpu)->spare == NIL) {
		PCS(cpu)->spare = held;
		sheaf_place(m, held, SH_SPARE, cpu);
		EV(.kind = EV_MOVE_SHEAF, .fn = KFN_kmem_cache_return_sheaf, .sheaf = held, .from = LOC_USER,
		   .to = LOC_SPARE, .value = sheaf_size(m, held));
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		STAT(SHEAF_RETURN_FAST, 1);
		CO_RETURN(0);
	}
	UNLOCK(LK_PCS_LOCK, PCSI(cpu));
	STAT(SHEAF_RETURN_SLOW, 1);
	barn = get_barn(m, f->cache, cpu);
	if (barn == NIL || barn_r(m, barn)->nr_full >= MAX_FULL_SHEAVES)
		goto flush;
	CALL(CO_REFILL_SHEAF, callee->a = held);
	if (f->ret)
		goto flush;
	CALL(CO_BARN_PUT_FULL, callee->a = barn; callee->b = held);
	STAT(BARN_PUT, 1);
	CO_RETURN(0);
flush:
	CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = held);
	CALL(CO_FREE_EMPTY_SHEAF, callee->a = held);
	CO_RETURN(0);
	CO_END;
}
#undef held
#undef barn

/* __kfree_rcu_sheaf(): returns 1 if the object went into the CPU's
 * rcu_free sheaf. */
#define object    f->b      /* in: in this CPU's pending slot */
#define barn      f->y
#define rcu_sheaf f->x
int co_KFREE_RCU_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK(LK_PCS_LOCK, PCSI(cpu), true);
	if (!f->ret)
		goto fail;
	if (PCS(cpu)->rcu_free == NIL) {
		if (!cache_r(m, f->cache)->has_sheaves) {
			/* !cache_has_sheaves(): a bootstrap or debug cache */
			UNLOCK(LK_PCS_LOCK, PCSI(cpu));
			goto fail;
		}
		if (PCS(cpu)->spare != NIL && sheaf_size(m, PCS(cpu)->spare) == 0) {
			PCS(cpu)->rcu_free = PCS(cpu)->spare;
			PCS(cpu)->spare = NIL;
			sheaf_place(m, PCS(cpu)->rcu_free, SH_RCU_FREE, cpu);
			EV(.kind = EV_MOVE_SHEAF, .fn = KFN___kfree_rcu_sheaf, .sheaf = PCS(cpu)->rcu_free,
			   .from = LOC_SPARE, .to = LOC_SHEAF);
		} else {
			barn = get_barn(m, f->cache, cpu);
			if (barn == NIL) {
				UNLOCK(LK_PCS_LOCK, PCSI(cpu));
				goto fail;
			}
			CALL(CO_BARN_GET_EMPTY, callee->a = barn; callee->flag1 = true);
			if (f->ret >= 0) {
				rcu_sheaf = (idx_t)f->ret;
			} else {
				/* alloc_empty_sheaf(GFP_NOWAIT) without the lock */
				UNLOCK(LK_PCS_LOCK, PCSI(cpu));
				ALLOC_EMPTY_SHEAF(rcu_sheaf);
				LOCK(LK_PCS_LOCK, PCSI(cpu), true);
				if (!f->ret) {
					CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = rcu_sheaf);
					goto fail;
				}
				if (PCS(cpu)->rcu_free != NIL) {
					/* raced: someone installed one meanwhile */
					CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = rcu_sheaf);
					goto push;
				}
			}
			PCS(cpu)->rcu_free = rcu_sheaf;
			sheaf_place(m, rcu_sheaf, SH_RCU_FREE, cpu);
		}
	}
push:
	WORLD(m)->cpus[cpu].pending = NIL;
	sheaf_push(m, PCS(cpu)->rcu_free, object);
	EV(.kind = EV_PUT_OBJECT, .fn = KFN___kfree_rcu_sheaf, .obj = object, .sheaf = PCS(cpu)->rcu_free,
	   .from = LOC_USER, .to = LOC_SHEAF, .count = 1, .value = sheaf_size(m, PCS(cpu)->rcu_free));
	if (sheaf_size(m, PCS(cpu)->rcu_free) == SHEAF_CAPACITY) {
		/* full: call_rcu(rcu_free_sheaf), tagged with the node */
		rcu_sheaf = PCS(cpu)->rcu_free;
		PCS(cpu)->rcu_free = NIL;
		sheaf_r(m, rcu_sheaf)->node = cpu_node(m, cpu); /* numa_mem_id() == own node on x86 */
		sheaf_r(m, rcu_sheaf)->nobarn = false;
		sheaf_place(m, rcu_sheaf, SH_RCU_PENDING, cpu);
		dlist_add(m, P_SHEAF, &WORLD(m)->rcu_pending, rcu_sheaf, true);
		EV(.kind = EV_MOVE_SHEAF, .fn = KFN___kfree_rcu_sheaf, .sheaf = rcu_sheaf, .from = LOC_SHEAF,
		   .to = LOC_NONE, .value = sheaf_size(m, rcu_sheaf));
	}
	UNLOCK(LK_PCS_LOCK, PCSI(cpu));
	STAT(FREE_RCU_SHEAF, 1);
	CO_RETURN(1);
fail:
	STAT(FREE_RCU_SHEAF_FAIL, 1);
	CO_RETURN(0);
	CO_END;
}
#undef object
#undef barn
#undef rcu_sheaf

/* rcu_free_sheaf() after the grace period: into the barn of
 * sheaf->node as a full sheaf if it has room (BARN_PUT), else flush it
 * (BARN_PUT_FAIL) and keep it as an empty barn sheaf if there is room,
 * else free it. nobarn sheaves (from a flush) are flushed and freed. */
#define rcu_sheaf f->a      /* in */
#define node_barn f->y      /* the barn of sheaf->node */
int co_RCU_FREE_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	f->node = sheaf_r(m, rcu_sheaf)->node;
	node_barn = NIL;
	if (!sheaf_r(m, rcu_sheaf)->nobarn && f->node >= 0) {
		struct cnode_rec *n = cnode_r(m, cnode_idx(m, f->cache, f->node));
		if (n->exists || BARN_ON_MEMORYLESS(m))
			node_barn = n->barn;
	}
	if (sheaf_r(m, rcu_sheaf)->nobarn) {
		CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = rcu_sheaf);
		CALL(CO_FREE_EMPTY_SHEAF, callee->a = rcu_sheaf);
		CO_RETURN(0);
	}
	if (node_barn != NIL && barn_r(m, node_barn)->nr_full < MAX_FULL_SHEAVES &&
	    sheaf_size(m, rcu_sheaf) == sheaf_cap(m, rcu_sheaf)) {
		CALL(CO_BARN_PUT_FULL, callee->a = node_barn; callee->b = rcu_sheaf);
		STAT(BARN_PUT, 1);
		CO_RETURN(0);
	}
	STAT(BARN_PUT_FAIL, 1);
	CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = rcu_sheaf);
	if (node_barn != NIL && barn_r(m, node_barn)->nr_empty < MAX_EMPTY_SHEAVES) {
		CALL(CO_BARN_PUT_EMPTY, callee->a = node_barn; callee->b = rcu_sheaf);
		CO_RETURN(0);
	}
	CALL(CO_FREE_EMPTY_SHEAF, callee->a = rcu_sheaf);
	CO_RETURN(0);
	CO_END;
}
#undef rcu_sheaf
#undef node_barn

/* kfree_rcu() -> kvfree_call_rcu(): kfree_rcu_sheaf() (mm/slab_common.c)
 * offers the object to __kfree_rcu_sheaf() only if its slab is on this
 * CPU's memory node (slab_nid() == numa_mem_id()); in v7.0 every cache has
 * cpu_sheaves, so a cache without sheaves is offered too and fails there
 * (FREE_RCU_SHEAF_FAIL). Anything not taken goes to the classic batching,
 * freed at the grace period. */
#define object f->b
int co_OP_KFREE_RCU(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	{
		const struct svz_op *op = &m->trace->ops[cur_op(m, cpu)];
		struct handle_rec *h = handle_r(m, op->handle);
		if (h->obj == NIL) {
			model_report(m, h->free_line ? "BUG: kfree_rcu of an object already freed\n"
				     "trace:%u: error: double free of handle '%s'"
				     : "kfree_rcu: object is not in a slab page\n"
				       "trace:%u: error: handle '%s' holds no slab object",
				     op->line, m->trace->handle_names[op->handle]);
			CO_RETURN(-1);
		}
		object = h->obj;
		f->cache = slab_r(m, obj_r(m, object)->slab)->cache;
		h->obj = NIL;
		h->free_line = op->line;
		WORLD(m)->cpus[cpu].pending = object;
		obj_r(m, object)->state = OBJ_BULK;
		obj_r(m, object)->holder = (idx_t)cpu;
	}
	/* kfree_rcu_sheaf(): s->cpu_sheaves (every v7.0 cache; in v6.18/v6.19
	 * those created with sheaf_capacity) and a node-local object */
	if ((!CLASSIC(m) || cache_r(m, f->cache)->has_sheaves) &&
	    slab_r(m, obj_r(m, object)->slab)->node == cpu_node(m, cpu)) {
		CALL(CO_KFREE_RCU_SHEAF, callee->b = object);
		if (f->ret)
			CO_RETURN(0);
	}
	WORLD(m)->cpus[cpu].pending = NIL;
	obj_r(m, object)->state = OBJ_RCU;
	obj_r(m, object)->holder = NIL;
	obj_r(m, object)->next = WORLD(m)->rcu_objects;
	WORLD(m)->rcu_objects = object;
	CHECK_EV(CHK_RCU_FAIL, .obj = object);
	CO_RETURN(0);
	CO_END;
}
#undef object

/* A flush hands a CPU's rcu_free sheaf, if any, to call_rcu(
 * rcu_free_sheaf_nobarn): after the grace period its objects go to the
 * slabs, not the barn. */
void rcu_free_flush(struct model *m, idx_t cache, int cpu)
{
	idx_t pcs = pcs_idx(m, cache, cpu);
	idx_t r = pcs_r(m, pcs)->rcu_free;
	if (r == NIL)
		return;
	pcs_r(m, pcs)->rcu_free = NIL;
	sheaf_r(m, r)->nobarn = true;
	/* flush_all_rcu_sheaves() and pcs_flush_all() run on the sheaf's CPU */
	sheaf_place(m, r, SH_RCU_PENDING, cpu);
	dlist_add(m, P_SHEAF, &WORLD(m)->rcu_pending, r, true);
}

/* flush_rcu_sheaves_on_cache(): every CPU's rcu_free sheaf of the cache
 * to the grace period. */
static void flush_rcu_sheaves_on_cache(struct model *m, idx_t cache)
{
	for (int on = 0; on < WORLD(m)->nr_cpus; on++)
		rcu_free_flush(m, cache, on);
}

/* kvfree_rcu_barrier(), which kmem_cache_destroy() calls first since v6.12
 * (6c6c47b063b5): it flushes rcu_free sheaves, then waits for every
 * kfree_rcu() in flight, so none is reported as a leak. Which sheaves:
 *   v6.19+: kvfree_rcu_barrier_on_cache() (0f35040de593), the destroyed
 *     cache's only; another cache's rcu_free sheaf stays where it is;
 *   before: flush_all_rcu_sheaves() (v6.18), every cache with sheaves. */
int co_KVFREE_RCU_BARRIER(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (svz_kernel_at_least(&WORLD(m)->cfg.sw, 619)) {
		if (cache_r(m, f->cache)->alive && cache_r(m, f->cache)->has_sheaves)
			flush_rcu_sheaves_on_cache(m, f->cache);
	} else {
		for (uint32_t c = 0; c < WORLD(m)->nr_caches; c++)
			if (cache_r(m, c)->alive && cache_r(m, c)->has_sheaves)
				flush_rcu_sheaves_on_cache(m, c);
	}
	CALL(CO_OP_RCU_BARRIER, (void)callee);
	CO_RETURN(0);
	CO_END;
}

/* rcu_barrier(): the grace period ends: every call_rcu'd sheaf goes
 * through rcu_free_sheaf(), every batched object through kfree(). */
#define rcu_sheaf f->x
#define object    f->b
int co_OP_RCU_BARRIER(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	while (WORLD(m)->rcu_pending.first != NIL) {
		rcu_sheaf = WORLD(m)->rcu_pending.first;
		dlist_del(m, P_SHEAF, &WORLD(m)->rcu_pending, rcu_sheaf);
		f->k = sheaf_r(m, rcu_sheaf)->where_id; /* the queuing CPU: the callback's */
		sheaf_place(m, rcu_sheaf, SH_DETACHED, -1);
		f->cache = sheaf_r(m, rcu_sheaf)->cache;
		CALL(CO_RCU_FREE_SHEAF, callee->a = rcu_sheaf; callee->cache = f->cache;
		     callee->on_cpu = (int16_t)f->k);
	}
	while (WORLD(m)->rcu_objects != NIL) {
		object = WORLD(m)->rcu_objects;
		WORLD(m)->rcu_objects = obj_r(m, object)->next;
		obj_r(m, object)->next = NIL;
		obj_r(m, object)->state = OBJ_BULK;
		obj_r(m, object)->holder = (idx_t)cpu;
		WORLD(m)->cpus[cpu].pending = object;
		f->cache = slab_r(m, obj_r(m, object)->slab)->cache;
		CALL(CO_SLAB_FREE, callee->b = object; callee->cache = f->cache);
	}
	CO_RETURN(0);
	CO_END;
}
#undef rcu_sheaf
#undef object
