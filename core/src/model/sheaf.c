/* Per-CPU sheaves (v7.0; v6.18/v6.19 for caches created with
 * sheaf_capacity): main and spare stacks of object pointers.
 *
 *   main != NIL for a cache with sheaves; NIL stands for the static
 *   bootstrap sheaf (capacity 0) of caches without sheaves, which is both
 *   "empty" and "full", so the fast paths fall into the replace helpers
 *   and they back off to the slab paths.
 *   0 <= size <= capacity for every sheaf
 *   spare is NIL, empty or full (never partially filled when both are used)
 * Objects in a sheaf are allocated from the slab's point of view (counted in
 * the slab's inuse). */
#include "model/engine.h"

#define HAS_SHEAVES (cache_r(m, f->cache)->has_sheaves)

ARENA_MOVES idx_t sheaf_new(struct model *m, idx_t cache, uint32_t capacity)
{
	struct world *w = WORLD(m);
	idx_t prev = NIL, sh = w->sheaf_free;
	while (sh != NIL && sheaf_r(m, sh)->capacity != capacity) {
		prev = sh;
		sh = sheaf_r(m, sh)->next_free;
	}
	idx_t slots;
	if (sh != NIL) {
		if (prev == NIL)
			w->sheaf_free = sheaf_r(m, sh)->next_free;
		else
			sheaf_r(m, prev)->next_free = sheaf_r(m, sh)->next_free;
		slots = sheaf_r(m, sh)->slots;
	} else {
		sh = pool_alloc(m, P_SHEAF, 1);
		slots = range_alloc(m, P_U32, capacity ? capacity : 1);
	}
	*sheaf_r(m, sh) = (struct sheaf_rec){ .cache = cache, .alive = true, .size = 0,
		.capacity = capacity, .node = -1, .slots = slots, .lprev = NIL, .lnext = NIL,
		.where = SH_DETACHED, .where_id = -1, .next_free = NIL };
	return sh;
}

void sheaf_release(struct model *m, idx_t sh)
{
	struct sheaf_rec *r = sheaf_r(m, sh);
	r->alive = false;
	r->where = SH_NONE;
	r->next_free = WORLD(m)->sheaf_free;
	WORLD(m)->sheaf_free = sh;
}

void sheaf_place(struct model *m, idx_t sh, enum sheaf_where w, int id)
{
	if (sh == NIL)
		return;
	sheaf_r(m, sh)->where = (uint8_t)w;
	sheaf_r(m, sh)->where_id = id;
}

void sheaf_push(struct model *m, idx_t sh, idx_t obj)
{
	struct sheaf_rec *r = sheaf_r(m, sh);
	*u32_at(m, r->slots + r->size++) = obj;
	obj_r(m, obj)->state = OBJ_SHEAF;
	obj_r(m, obj)->holder = sh;
}

idx_t sheaf_pop(struct model *m, idx_t sh)
{
	struct sheaf_rec *r = sheaf_r(m, sh);
	return *u32_at(m, r->slots + --r->size);
}

idx_t get_barn(struct model *m, idx_t cache, int cpu)
{
	int node = cpu_node(m, cpu);
	struct cnode_rec *n = cnode_r(m, cnode_idx(m, cache, node));
	if (!cache_r(m, cache)->has_sheaves)
		return NIL;
	/* rc1: get_node(numa_mem_id()) is NULL on a memoryless node (x86). */
	if (!n->exists && !BARN_ON_MEMORYLESS(m))
		return NIL;
	return n->barn;
}

void deliver(struct model *m, int cpu, idx_t dest, idx_t obj)
{
	if (dest != NIL)
		sheaf_push(m, dest, obj);
	else
		bulk_push(m, cpu, obj);
}

enum loc dest_loc(idx_t dest) { return dest != NIL ? LOC_SHEAF : LOC_BULK; }

static void set_main(struct model *m, idx_t pcs, int cpu, idx_t sh)
{
	pcs_r(m, pcs)->main = sh;
	sheaf_place(m, sh, SH_MAIN, cpu);
}

static void set_spare(struct model *m, idx_t pcs, int cpu, idx_t sh)
{
	pcs_r(m, pcs)->spare = sh;
	sheaf_place(m, sh, SH_SPARE, cpu);
}

static void swap_main_spare(struct model *m, idx_t pcs, int cpu)
{
	idx_t mn = pcs_r(m, pcs)->main, sp = pcs_r(m, pcs)->spare;
	set_main(m, pcs, cpu, sp);
	set_spare(m, pcs, cpu, mn);
}

/* alloc_from_pcs(s, gfp, node): cache, gfp, node. Returns the object (now in
 * this CPU's bulk buffer, on its way to the caller) or -1. */
#define object f->x
int co_ALLOC_FROM_PCS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	/* both mismatch counts came with v7.0's stat items (the "sheaves for
	 * all" series' last patch); v6.18/v6.19 and 17c38c88294d return NULL
	 * uncounted */
	if (f->node >= 0 && f->node != cpu_node(m, cpu)) {
		if (!V619_STATS(m))
			STAT(ALLOC_NODE_MISMATCH, 1);
		CO_RETURN(-1);
	}
	LOCK_HOT(LK_PCS_LOCK, PCSI(cpu), true);
	if (!f->ret)
		CO_RETURN(-1);
	if (sheaf_size(m, PCS(cpu)->main) == 0) {
		CALL_HOT(CO_PCS_REPLACE_EMPTY_MAIN, (void)callee);
		if (!f->ret)
			CO_RETURN(-1);
	}
	object = *u32_at(m, sheaf_r(m, PCS(cpu)->main)->slots + sheaf_size(m, PCS(cpu)->main) - 1);
	if (f->node >= 0 && slab_r(m, obj_r(m, object)->slab)->node != f->node) {
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		if (!V619_STATS(m))
			STAT(ALLOC_NODE_MISMATCH, 1);
		CO_RETURN(-1);
	}
	{
		/* main looked up once, not again for the event after the
		 * stores (which may alias the arena's records) */
		const idx_t main = PCS(cpu)->main;
		sheaf_pop(m, main);
		bulk_push(m, cpu, object);
		EV_HOT(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .obj = object, .sheaf = main,
		   .from = LOC_MAIN, .to = LOC_USER, .count = 1, .value = sheaf_r(m, main)->size);
	}
	UNLOCK_HOT(LK_PCS_LOCK, PCSI(cpu));
	STAT_HOT(PCS_ALLOC_STAT(m), 1);
	CO_RETURN((int32_t)object);
	CO_END;
}
#undef object

/* __pcs_replace_empty_main(): entered with the pcs lock held and main
 * empty. Returns 1 with the lock held and a non-empty main, or 0 unlocked. */
#define barn      f->x
#define empty     f->y      /* the sheaf to refill */
#define full      f->z      /* the sheaf to install */
#define can_alloc f->flag2
int co_PCS_REPLACE_EMPTY_MAIN(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!HAS_SHEAVES) {
		CHECK_EV(CHK_NO_SHEAVES);
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		CO_RETURN(0);
	}
	if (sheaf_size(m, PCS(cpu)->spare) > 0) {
		swap_main_spare(m, PCSI(cpu), cpu);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = PCS(cpu)->main, .from = LOC_SPARE,
		   .to = LOC_MAIN, .value = sheaf_size(m, PCS(cpu)->main));
		CO_RETURN(1);
	}
	barn = get_barn(m, f->cache, cpu);
	if (barn == NIL) {
		CHECK_EV_HOT(CHK_NO_BARN, .node = cpu_node(m, cpu));
		UNLOCK_HOT(LK_PCS_LOCK, PCSI(cpu));
		CO_RETURN(0);
	}
	CALL(CO_BARN_REPLACE_EMPTY, callee->a = barn; callee->b = PCS(cpu)->main;
	     callee->flag1 = svz_gfp_allow_spinning(f->gfp));
	if (f->ret >= 0) {
		set_main(m, PCSI(cpu), cpu, (idx_t)f->ret);
		STAT(BARN_GET, 1);
		CO_RETURN(1);
	}
	STAT(BARN_GET_FAIL, 1);
	/* rc1: refill only if the caller may block; fix 1 (fb1091febd66): if it
	 * may spin. mempool's first try has neither __GFP_DIRECT_RECLAIM... */
	can_alloc = SW.refill_on_spin ? svz_gfp_allow_spinning(f->gfp) : svz_gfp_allow_blocking(f->gfp);
	empty = NIL;
	if (can_alloc) {
		if (PCS(cpu)->spare != NIL) {
			empty = PCS(cpu)->spare;
			PCS(cpu)->spare = NIL;
			sheaf_place(m, empty, SH_DETACHED, -1);
			EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = empty, .from = LOC_SPARE,
			   .to = LOC_NONE);
		} else {
			CALL(CO_BARN_GET_EMPTY, callee->a = barn; callee->flag1 = true);
			empty = f->ret >= 0 ? (idx_t)f->ret : NIL;
		}
	}
	UNLOCK(LK_PCS_LOCK, PCSI(cpu));
	if (!can_alloc) {
		CHECK_EV(CHK_NO_BLOCKING);
		CO_RETURN(0);
	}
	/* v7.1, 69d73421b76e "slab: remove alloc_full_sheaf()": with no empty
	 * sheaf at hand, one is allocated here and refilled as one from the
	 * spare or the barn is (v7.0 calls alloc_full_sheaf() below). */
	if (empty == NIL && svz_kernel_at_least(&SW, 701)) {
		ALLOC_EMPTY_SHEAF(empty);
	}
	if (empty != NIL) {
		CALL(CO_REFILL_SHEAF, callee->a = empty; callee->gfp = f->gfp | __GFP_NOMEMALLOC);
		if (f->ret) {
			if (svz_kernel_at_least(&SW, 701)) {
				/* v7.1 (the same commit): the objects the short
				 * refill got go back to their slabs first */
				CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = empty);
			} else {
				/* v7.0 frees the partly filled sheaf without a
				 * flush: its objects leak (v6.18/v6.19's bulk
				 * refill is all or nothing) */
				for (uint32_t i = 0; i < sheaf_size(m, empty); i++)
					obj_r(m, *u32_at(m, sheaf_r(m, empty)->slots + i))->state = OBJ_LOST;
				sheaf_r(m, empty)->size = 0;
			}
			CALL(CO_FREE_EMPTY_SHEAF, callee->a = empty);
			CO_RETURN(0);
		}
		full = empty;
	} else {
		CALL(CO_ALLOC_FULL_SHEAF, (void)callee);
		if (f->ret < 0)
			CO_RETURN(0);
		full = (idx_t)f->ret;
	}
	/* rc1 re-takes the lock with local_lock(); fix 1 with local_trylock()
	 * (the path may now run where blocking is not allowed). */
	LOCK(LK_PCS_LOCK, PCSI(cpu), SW.refill_on_spin);
	if (!f->ret) {
		CALL(CO_BARN_PUT_FULL, callee->a = barn; callee->b = full);
		STAT(BARN_PUT, 1);
		CO_RETURN(0);
	}
	if (sheaf_size(m, PCS(cpu)->main) == 0) {
		if (PCS(cpu)->spare == NIL) {
			set_spare(m, PCSI(cpu), cpu, PCS(cpu)->main);
		} else {
			CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = PCS(cpu)->main);
		}
		set_main(m, PCSI(cpu), cpu, full);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = full, .from = LOC_NONE,
		   .to = LOC_MAIN, .value = sheaf_size(m, full));
	} else if (PCS(cpu)->spare == NIL) {
		set_spare(m, PCSI(cpu), cpu, full);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = full, .from = LOC_NONE,
		   .to = LOC_SPARE, .value = sheaf_size(m, full));
	} else if (sheaf_size(m, PCS(cpu)->spare) == 0) {
		CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = PCS(cpu)->spare);
		set_spare(m, PCSI(cpu), cpu, full);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = full, .from = LOC_NONE,
		   .to = LOC_SPARE, .value = sheaf_size(m, full));
	} else {
		CALL(CO_BARN_PUT_FULL, callee->a = barn; callee->b = full);
		STAT(BARN_PUT, 1);
	}
	CO_RETURN(1);
	CO_END;
}
#undef barn
#undef empty
#undef full
#undef can_alloc

/* alloc_empty_sheaf() + refill_sheaf(), up to v7.0 (v7.1 removed it). On a
 * short refill the objects it got leak, as in __pcs_replace_empty_main().
 * Returns the full sheaf or -1. */
#define new_sheaf f->x
int co_ALLOC_FULL_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	ALLOC_EMPTY_SHEAF(new_sheaf);
	CALL(CO_REFILL_SHEAF, callee->a = new_sheaf; callee->gfp = f->gfp | __GFP_NOMEMALLOC);
	if (f->ret) {
		for (uint32_t i = 0; i < sheaf_size(m, new_sheaf); i++)
			obj_r(m, *u32_at(m, sheaf_r(m, new_sheaf)->slots + i))->state = OBJ_LOST;
		sheaf_r(m, new_sheaf)->size = 0;
		CALL(CO_FREE_EMPTY_SHEAF, callee->a = new_sheaf);
		CO_RETURN(-1);
	}
	CO_RETURN((int32_t)new_sheaf);
	CO_END;
}
#undef new_sheaf

/* free_empty_sheaf() */
#define empty f->a      /* in */
int co_FREE_EMPTY_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	sheaf_release(m, empty);
	EV(.kind = EV_SHEAF_FREE, .fn = KFN_free_empty_sheaf, .sheaf = empty);
	STAT(SHEAF_FREE, 1);
	CO_RETURN(0);
	CO_END;
}
#undef empty

/* refill_sheaf(): 0, or -ENOMEM after a short refill (the objects it did
 * get stay in the sheaf and are counted). */
#define target  f->a      /* in: the sheaf to fill */
#define to_fill f->n
#define filled  f->i
int co_REFILL_SHEAF(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	to_fill = (int32_t)(sheaf_r(m, target)->capacity - sheaf_r(m, target)->size);
	if (to_fill == 0)
		CO_RETURN(0);
	if (CLASSIC(m)) {
		/* v6.18/v6.19: __kmem_cache_alloc_bulk(), through the cpu slab */
		CALL(CO_ALLOC_BULK_SLABS, callee->z = target; callee->n = to_fill);
	} else {
		CALL(CO_REFILL_OBJECTS, callee->z = target; callee->n = to_fill; callee->k = to_fill);
	}
	filled = f->ret;
	if (filled > 0)
		STAT(SHEAF_REFILL, filled);
	if (filled < to_fill) {
		CHECK_EV(CHK_SHORT_REFILL, .count = filled);
		CO_RETURN(-ENOMEM_);
	}
	CO_RETURN(0);
	CO_END;
}
#undef target
#undef to_fill
#undef filled

/* free_to_pcs(s, object, allow_spin): returns 1 if the object went into
 * main. */
#define object     f->b      /* in: in this CPU's pending slot */
#define allow_spin f->flag1  /* in: gfpflags_allow_spinning() */
int co_FREE_TO_PCS(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK_HOT(LK_PCS_LOCK, PCSI(cpu), true);
	if (!f->ret)
		CO_RETURN(0);
	if (sheaf_size(m, PCS(cpu)->main) == sheaf_cap(m, PCS(cpu)->main)) {
		CALL(CO_PCS_REPLACE_FULL_MAIN, callee->flag1 = allow_spin);
		if (!f->ret)
			CO_RETURN(0);
	}
	WORLD(m)->cpus[cpu].pending = NIL;
	{
		const idx_t main = PCS(cpu)->main; /* once, as in alloc_from_pcs() */
		sheaf_push(m, main, object);
		EV_HOT(.kind = EV_PUT_OBJECT, .fn = f_kfn(f), .obj = object, .sheaf = main,
		   .from = LOC_USER, .to = LOC_MAIN, .count = 1, .value = sheaf_r(m, main)->size);
	}
	UNLOCK_HOT(LK_PCS_LOCK, PCSI(cpu));
	STAT_HOT(PCS_FREE_STAT(m), 1);
	CO_RETURN(1);
	CO_END;
}
#undef object
#undef allow_spin

/* __pcs_replace_full_main(): lock held, main full. 1 = locked with room in
 * main, 0 = unlocked (the caller frees to the slab). */
#define allow_spin f->flag1  /* in: gfpflags_allow_spinning() */
#define barn       f->x
#define empty      f->y
#define put_fail   f->flag2
int co_PCS_REPLACE_FULL_MAIN(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!HAS_SHEAVES) {
		CHECK_EV(CHK_NO_SHEAVES);
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		CO_RETURN(0);
	}
	barn = get_barn(m, f->cache, cpu);
	if (barn == NIL) {
		CHECK_EV(CHK_NO_BARN, .node = cpu_node(m, cpu));
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		CO_RETURN(0);
	}
	put_fail = false;
	if (PCS(cpu)->spare == NIL) {
		CALL(CO_BARN_GET_EMPTY, callee->a = barn; callee->flag1 = allow_spin);
		if (f->ret >= 0) {
			set_spare(m, PCSI(cpu), cpu, PCS(cpu)->main);
			set_main(m, PCSI(cpu), cpu, (idx_t)f->ret);
			EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = PCS(cpu)->spare,
			   .from = LOC_MAIN, .to = LOC_SPARE, .value = sheaf_size(m, PCS(cpu)->spare));
			CO_RETURN(1);
		}
		goto alloc_empty;
	}
	if (sheaf_size(m, PCS(cpu)->spare) < SHEAF_CAPACITY) {
		swap_main_spare(m, PCSI(cpu), cpu);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = PCS(cpu)->main, .from = LOC_SPARE,
		   .to = LOC_MAIN, .value = sheaf_size(m, PCS(cpu)->main));
		CO_RETURN(1);
	}
	CALL(CO_BARN_REPLACE_FULL, callee->a = barn; callee->b = PCS(cpu)->main;
	     callee->flag1 = allow_spin);
	if (f->ret >= 0) {
		set_main(m, PCSI(cpu), cpu, (idx_t)f->ret);
		STAT(BARN_PUT, 1);
		CO_RETURN(1);
	}
	if (f->ret == -E2BIG_ && allow_spin) {
		STAT(BARN_PUT_FAIL, 1);
		empty = PCS(cpu)->spare;
		PCS(cpu)->spare = NIL;
		sheaf_place(m, empty, SH_DETACHED, -1);
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = empty);
		goto got_empty;
	}
	put_fail = true;
alloc_empty:
	UNLOCK(LK_PCS_LOCK, PCSI(cpu));
	if (!allow_spin)
		CO_RETURN(0);
	/* alloc_empty_sheaf(s, GFP_NOWAIT): sheaf structs never fail here
	 * (they are not allocated from kmalloc caches in the model). */
	ALLOC_EMPTY_SHEAF(empty);
got_empty:
	LOCK(LK_PCS_LOCK, PCSI(cpu), true);
	if (!f->ret) {
		CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = empty);
		CO_RETURN(0);
	}
	CALL(CO_PCS_INSTALL_EMPTY, callee->a = empty; callee->x = barn);
	CO_RETURN(1);
	CO_END;
}
#undef allow_spin
#undef barn
#undef empty
#undef put_fail

/* __pcs_install_empty_sheaf(): lock held. */
#define empty f->a      /* in */
#define barn  f->x      /* in */
#define full  f->y      /* the old main */
int co_PCS_INSTALL_EMPTY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (PCS(cpu)->spare == NIL) {
		set_spare(m, PCSI(cpu), cpu, PCS(cpu)->main);
		set_main(m, PCSI(cpu), cpu, empty);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = empty, .from = LOC_NONE, .to = LOC_MAIN);
		CO_RETURN(0);
	}
	if (sheaf_size(m, PCS(cpu)->main) < SHEAF_CAPACITY) {
		CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = empty);
		CO_RETURN(0);
	}
	if (sheaf_size(m, PCS(cpu)->spare) < SHEAF_CAPACITY) {
		swap_main_spare(m, PCSI(cpu), cpu);
		EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = PCS(cpu)->main, .from = LOC_SPARE,
		   .to = LOC_MAIN, .value = sheaf_size(m, PCS(cpu)->main));
		CALL(CO_BARN_PUT_EMPTY, callee->a = barn; callee->b = empty);
		CO_RETURN(0);
	}
	/* barn_put_full_sheaf(barn, pcs->main); pcs->main = empty: main
	 * names the old sheaf until then, under the CPU's pcs->lock */
	full = PCS(cpu)->main;
	CALL(CO_BARN_PUT_FULL, callee->a = barn; callee->b = full);
	STAT(BARN_PUT, 1);
	set_main(m, PCSI(cpu), cpu, empty);
	EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = empty, .from = LOC_NONE, .to = LOC_MAIN);
	CO_RETURN(0);
	CO_END;
}
#undef empty
#undef barn
#undef full

/* Move n objects from the top of sheaf sh into the CPU's bulk buffer, in
 * array order (objects[size-n .. size-1]). */
static void sheaf_to_bulk(struct model *m, int cpu, idx_t sh, uint32_t n)
{
	struct sheaf_rec *r = sheaf_r(m, sh);
	uint32_t from = r->size - n;
	for (uint32_t i = 0; i < n; i++)
		bulk_push(m, cpu, *u32_at(m, sheaf_r(m, sh)->slots + from + i));
	sheaf_r(m, sh)->size = from;
}

/* sheaf_flush_unused() */
#define target  f->a      /* in: installed nowhere */
#define flushed f->n
int co_SHEAF_FLUSH_UNUSED(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (sheaf_size(m, target) == 0)
		CO_RETURN(0);
	flushed = (int32_t)sheaf_size(m, target);
	STAT_CPU(f->on_cpu, SHEAF_FLUSH, flushed);
	sheaf_to_bulk(m, cpu, target, (uint32_t)flushed);
	EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .sheaf = target, .from = LOC_SHEAF, .to = LOC_BULK,
	   .count = flushed, .value = 0);
	CALL(CO_FREE_BULK_SLABS, callee->flag1 = false);
	CO_RETURN(0);
	CO_END;
}
#undef target
#undef flushed

/* sheaf_flush_main(): main of CPU on_cpu, in batches of PCS_BATCH_MAX, each
 * copied out under the trylock and freed unlocked. */
#define batch     f->n
#define remaining f->k      /* objects left in main after this batch */
#define flushed   f->i      /* a batch went (the return value once the trylock fails) */
int co_SHEAF_FLUSH_MAIN(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	do {
		LOCK(LK_PCS_LOCK, PCSI(f->on_cpu), true);
		if (!f->ret)
			CO_RETURN(flushed);
		batch = (int32_t)sheaf_size(m, PCS(f->on_cpu)->main);
		if (batch > PCS_BATCH_MAX)
			batch = PCS_BATCH_MAX;
		if (batch) {
			sheaf_to_bulk(m, cpu, PCS(f->on_cpu)->main, (uint32_t)batch);
			EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .sheaf = PCS(f->on_cpu)->main,
			   .from = LOC_MAIN, .to = LOC_BULK, .count = batch,
			   .value = sheaf_size(m, PCS(f->on_cpu)->main));
		}
		remaining = (int32_t)sheaf_size(m, PCS(f->on_cpu)->main);
		UNLOCK(LK_PCS_LOCK, PCSI(f->on_cpu));
		if (batch) {
			CALL(CO_FREE_BULK_SLABS, callee->flag1 = false);
			STAT_CPU(f->on_cpu, SHEAF_FLUSH, batch);
		}
		flushed = 1;
	} while (remaining);
	CO_RETURN(1);
	CO_END;
}
#undef batch
#undef remaining
#undef flushed

/* pcs_flush_all() for CPU on_cpu: spare flushed and freed, main flushed. */
#define old_spare f->y
int co_PCS_FLUSH(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (!HAS_SHEAVES)
		goto partials;
	LOCK(LK_PCS_LOCK, PCSI(f->on_cpu), false);
	old_spare = PCS(f->on_cpu)->spare;
	PCS(f->on_cpu)->spare = NIL;
	sheaf_place(m, old_spare, SH_DETACHED, -1);
	rcu_free_flush(m, f->cache, f->on_cpu);
	UNLOCK(LK_PCS_LOCK, PCSI(f->on_cpu));
	if (old_spare != NIL) {
		CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = old_spare);
		CALL(CO_FREE_EMPTY_SHEAF, callee->a = old_spare);
	}
	CALL(CO_SHEAF_FLUSH_MAIN, (void)callee);
partials:
	if (WORLD(m)->cfg.sw.cpu_partial_free) {
		/* 17c38c88294d still had per-CPU partial lists on the free side */
		CALL(CO_C_FLUSH_CPU, (void)callee);
	}
	CO_RETURN(0);
	CO_END;
}
#undef old_spare

/* barn_shrink(): every sheaf leaves the barn; full ones are
 * flushed to slabs, all are freed. */
#define barn       f->a      /* in */
#define nr_sheaves f->n
#define stashed    f->y      /* a sheaf taken out of the barn */
int co_BARN_SHRINK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	LOCK(LK_BARN_LOCK, barn, false);
	{
		struct cpu_rec *c = &WORLD(m)->cpus[cpu];
		struct barn_rec *b = barn_r(m, barn);
		nr_sheaves = (int32_t)(b->nr_full + b->nr_empty);
		while (b->sheaves_full.first != NIL) {
			idx_t sh = b->sheaves_full.first;
			dlist_del(m, P_SHEAF, &b->sheaves_full, sh);
			dlist_add(m, P_SHEAF, &c->sheaf_stash, sh, true);
			sheaf_place(m, sh, SH_DETACHED, -1);
		}
		while (b->sheaves_empty.first != NIL) {
			idx_t sh = b->sheaves_empty.first;
			dlist_del(m, P_SHEAF, &b->sheaves_empty, sh);
			dlist_add(m, P_SHEAF, &c->sheaf_stash, sh, true);
			sheaf_place(m, sh, SH_DETACHED, -1);
		}
		b->nr_full = b->nr_empty = 0;
	}
	EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .from = LOC_BARN_FULL, .to = LOC_NONE,
	   .node = barn_r(m, barn)->node, .count = nr_sheaves);
	UNLOCK(LK_BARN_LOCK, barn);
	while (WORLD(m)->cpus[cpu].sheaf_stash.first != NIL) {
		stashed = WORLD(m)->cpus[cpu].sheaf_stash.first;
		dlist_del(m, P_SHEAF, &WORLD(m)->cpus[cpu].sheaf_stash, stashed);
		CALL(CO_SHEAF_FLUSH_UNUSED, callee->a = stashed);
		CALL(CO_FREE_EMPTY_SHEAF, callee->a = stashed);
	}
	CO_RETURN(0);
	CO_END;
}
#undef barn
#undef nr_sheaves
#undef stashed

/* alloc_from_pcs_bulk(): copies batches from main into
 * the bulk buffer; swaps in a non-empty spare or a full barn sheaf; never
 * refills. Returns the number obtained. */
#define wanted    f->n      /* in */
#define batch     f->k
#define allocated f->i
#define barn      f->x
int co_ALLOC_FROM_PCS_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	for (;;) {
		LOCK(LK_PCS_LOCK, PCSI(cpu), true);
		if (!f->ret)
			CO_RETURN(allocated);
		if (sheaf_size(m, PCS(cpu)->main) == 0) {
			if (!HAS_SHEAVES) {
				UNLOCK(LK_PCS_LOCK, PCSI(cpu));
				CO_RETURN(allocated);
			}
			if (sheaf_size(m, PCS(cpu)->spare) > 0) {
				swap_main_spare(m, PCSI(cpu), cpu);
				EV(.kind = EV_MOVE_SHEAF, .fn = f_kfn(f), .sheaf = PCS(cpu)->main,
				   .from = LOC_SPARE, .to = LOC_MAIN, .value = sheaf_size(m, PCS(cpu)->main));
			} else {
				barn = get_barn(m, f->cache, cpu);
				if (barn == NIL) {
					UNLOCK(LK_PCS_LOCK, PCSI(cpu));
					CO_RETURN(allocated);
				}
				CALL(CO_BARN_REPLACE_EMPTY, callee->a = barn; callee->b = PCS(cpu)->main;
				     callee->flag1 = svz_gfp_allow_spinning(f->gfp));
				if (f->ret < 0) {
					STAT(BARN_GET_FAIL, 1);
					UNLOCK(LK_PCS_LOCK, PCSI(cpu));
					CO_RETURN(allocated);
				}
				set_main(m, PCSI(cpu), cpu, (idx_t)f->ret);
				STAT(BARN_GET, 1);
			}
		}
		batch = (int32_t)sheaf_size(m, PCS(cpu)->main);
		if (batch > wanted - allocated)
			batch = wanted - allocated;
		sheaf_to_bulk(m, cpu, PCS(cpu)->main, (uint32_t)batch);
		EV(.kind = EV_TAKE_OBJECT, .fn = f_kfn(f), .sheaf = PCS(cpu)->main, .from = LOC_MAIN,
		   .to = LOC_BULK, .count = batch, .value = sheaf_size(m, PCS(cpu)->main));
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		STAT(PCS_ALLOC_STAT(m), batch);
		allocated += batch;
		if (allocated >= wanted)
			CO_RETURN(allocated);
	}
	CO_END;
}
#undef wanted
#undef batch
#undef allocated
#undef barn

/* free_to_pcs_bulk(): the objects are in the bulk buffer. A scan that
 * swaps each object can_free_to_pcs() refuses (a remote-node one; none on
 * a memoryless node's CPU since v7.1) with the last one sets them
 * aside in batches of PCS_BATCH_MAX; a full batch goes to the slabs at once
 * (__kmem_cache_free_bulk(), FREE_SLOWPATH) and the scan goes on, but only
 * `if (i < size)`: when the object that fills a batch is the last one
 * scanned, the function ends there and the local objects already scanned
 * are never freed (leaked; the kernel's code since remote objects were
 * handled here, v6.18). Otherwise the local ones fill main in batches,
 * getting room from the barn (an empty sheaf, a non-full spare, or
 * barn_replace_full_sheaf); what does not fit goes to the slabs, then the
 * last, partial remote batch. Never allocates a sheaf.
 *
 * The scan has no side effects, so the model does it at once and lays the
 * buffer out for what follows, every object in [0, bulk_len) until its
 * turn: the partial remote batch at the bottom, the local objects above
 * it, the full remote batches on top (the first batch topmost). */
#define nr_partial f->k      /* objects in the last, partial remote batch */
#define nr_local   f->j      /* local objects, at [nr_partial, nr_partial + nr_local) */
#define placed     f->i      /* local objects placed (or past) */
#define barn       f->x
#define batch      f->n
#define leaked     f->flag2  /* a full batch ended the scan: the local objects leak */
int co_FREE_TO_PCS_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	{
		struct cpu_rec *c = &WORLD(m)->cpus[cpu];
		uint32_t *const remote = u32_at(m, c->bulk + c->bulk_cap); /* in scan order */
		uint32_t *const buf = u32_at(m, c->bulk);
		uint32_t size = c->bulk_len, i = 0, nr = 0;
		bool ended_on_batch = false;
		while (i < size) {
			idx_t o = buf[i];
			if (!can_free_to_pcs(m, cpu, obj_r(m, o)->slab)) {
				remote[nr++] = o;
				buf[i] = buf[--size];
				if (nr % PCS_BATCH_MAX == 0 && i == size) {
					ended_on_batch = true; /* goto flush_remote, and !(i < size) */
					break;
				}
			} else {
				i++;
			}
		}
		uint32_t full = nr / PCS_BATCH_MAX, part = nr % PCS_BATCH_MAX;
		/* locals up by part (from the top down: the ranges overlap), the
		 * partial batch under them, the full batches above, first on top */
		for (uint32_t k = size; k-- > 0;)
			buf[part + k] = buf[k];
		for (uint32_t k = 0; k < part; k++)
			buf[k] = remote[full * PCS_BATCH_MAX + k];
		for (uint32_t b = 0; b < full; b++)
			for (uint32_t k = 0; k < PCS_BATCH_MAX; k++)
				buf[part + size + (full - 1 - b) * PCS_BATCH_MAX + k] = remote[b * PCS_BATCH_MAX + k];
		c->bulk_len = part + size + full * PCS_BATCH_MAX;
		nr_partial = (int32_t)part;
		nr_local = (int32_t)size;
		leaked = ended_on_batch && size > 0;
		placed = 0;
	}
	/* the full remote batches, in scan order */
	while (WORLD(m)->cpus[cpu].bulk_len > (uint32_t)(nr_partial + nr_local)) {
		CALL(CO_FREE_BULK_SLABS, callee->flag1 = false;
		     callee->k = (int32_t)WORLD(m)->cpus[cpu].bulk_len - PCS_BATCH_MAX);
		if (!V619_STATS(m)) /* v6.18/v6.19, 17c38c88294d: __slab_free() counted them */
			STAT(FREE_SLOWPATH, PCS_BATCH_MAX);
	}
	if (leaked) {
		struct cpu_rec *c = &WORLD(m)->cpus[cpu];
		for (int32_t k = 0; k < nr_local; k++) {
			struct obj_rec *o = obj_r(m, *u32_at(m, c->bulk + (uint32_t)k));
			o->state = OBJ_LOST;
			o->holder = NIL;
		}
		c->bulk_len = 0;
		CHECK_EV(CHK_BULK_LEAK, .count = nr_local);
		CO_RETURN(0);
	}
	while (placed < nr_local) {
		LOCK(LK_PCS_LOCK, PCSI(cpu), true);
		if (!f->ret)
			goto fallback;
		if (sheaf_size(m, PCS(cpu)->main) == sheaf_cap(m, PCS(cpu)->main)) {
			barn = get_barn(m, f->cache, cpu);
			if (barn == NIL)
				goto no_empty;
			if (PCS(cpu)->spare == NIL) {
				CALL(CO_BARN_GET_EMPTY, callee->a = barn; callee->flag1 = true);
				if (f->ret < 0)
					goto no_empty;
				set_spare(m, PCSI(cpu), cpu, PCS(cpu)->main);
				set_main(m, PCSI(cpu), cpu, (idx_t)f->ret);
			} else if (sheaf_size(m, PCS(cpu)->spare) < SHEAF_CAPACITY) {
				swap_main_spare(m, PCSI(cpu), cpu);
			} else {
				CALL(CO_BARN_REPLACE_FULL, callee->a = barn; callee->b = PCS(cpu)->main;
				     callee->flag1 = true);
				if (f->ret < 0) {
					STAT(BARN_PUT_FAIL, 1);
					goto no_empty;
				}
				set_main(m, PCSI(cpu), cpu, (idx_t)f->ret);
				STAT(BARN_PUT, 1);
			}
		}
		{
			struct cpu_rec *c = &WORLD(m)->cpus[cpu];
			uint32_t room = SHEAF_CAPACITY - sheaf_size(m, PCS(cpu)->main);
			uint32_t left = (uint32_t)(nr_local - placed);
			uint32_t from = (uint32_t)(nr_partial + placed);
			batch = (int32_t)(room < left ? room : left);
			for (uint32_t k = 0; k < (uint32_t)batch; k++)
				sheaf_push(m, PCS(cpu)->main, *u32_at(m, c->bulk + from + k));
			placed += batch;
		}
		EV(.kind = EV_PUT_OBJECT, .fn = f_kfn(f), .sheaf = PCS(cpu)->main, .from = LOC_BULK,
		   .to = LOC_MAIN, .count = batch, .value = sheaf_size(m, PCS(cpu)->main));
		UNLOCK(LK_PCS_LOCK, PCSI(cpu));
		STAT(PCS_FREE_STAT(m), batch);
	}
	goto remote;
no_empty:
	UNLOCK(LK_PCS_LOCK, PCSI(cpu));
fallback:
	/* the local objects not placed: [nr_partial + placed, bulk_len) */
	batch = nr_local - placed;
	CALL(CO_FREE_BULK_SLABS, callee->flag1 = false; callee->k = nr_partial + placed);
	if (!V619_STATS(m))
		STAT(FREE_SLOWPATH, batch);
remote:
	WORLD(m)->cpus[cpu].bulk_len = (uint32_t)nr_partial;
	if (nr_partial) {
		CALL(CO_FREE_BULK_SLABS, callee->flag1 = false);
		if (!V619_STATS(m))
			STAT(FREE_SLOWPATH, nr_partial);
	}
	CO_RETURN(0);
	CO_END;
}
#undef nr_partial
#undef nr_local
#undef placed
#undef barn
#undef batch
#undef leaked
