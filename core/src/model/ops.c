/* The trace's operations: kmem_cache_alloc/free, kmalloc/kfree, bulk,
 * flush, shrink, destroy. Each is the root coroutine of an op; it checks the
 * trace's handles (double free, unknown object, wrong cache -> kernel-style
 * reports) and calls into the allocator. A root frame leaves the object it
 * returns in x (the op's RETURN event names it). */
#include <stdio.h>

#include "model/engine.h"
#include "model/model.h"
#include "model/timing.h"
#include "model/page_alloc.h"

#define OP(f) (&m->trace->ops[cur_op(m, cpu)])
#define HANDLE_NAME(h) (m->trace->handle_names[(h)])
#define CNAME (cache_r(m, f->cache)->name)

enum handle_state { H_NEVER, H_LIVE, H_FREED, H_NULL };

/* An op on a cache that was destroyed (or never created) is the trace's
 * error: report it and end the op. */
#define REQUIRE_CACHE() do { if (f->cache == NIL) { \
	model_report(m, "trace:%u: error: cache '%s' does not exist (destroyed?)", OP(f)->line, \
		     m->trace->caches[OP(f)->cache].name); \
	CO_RETURN(-1); } } while (0)

static enum handle_state handle_state(struct model *m, idx_t h)
{
	struct handle_rec *hr = handle_r(m, h);
	if (hr->obj != NIL || hr->large != NIL)
		return H_LIVE;
	if (hr->alloc_line == 0)
		return H_NEVER;
	return hr->free_line ? H_FREED : H_NULL;
}

/* An alloc into a handle that still holds an object would leak it: the
 * trace is wrong, not the kernel. So is an alloc into a handle another
 * CPU's op in flight will fill (interleaved by svz_step_cpu()): two CPUs
 * storing to one pointer, one object leaked. The op claims the handle. */
int claim_handle_slow(struct model *m, int cpu, idx_t h)
{
	struct handle_rec *hr = handle_r(m, h);
	uint32_t op = cur_op(m, cpu);
	if (hr->obj != NIL || hr->large != NIL || hr->sheaf != NIL) {
		model_report(m, "trace:%u: error: handle '%s' still holds %s allocated at line %u; free it first",
			     OP(f)->line, HANDLE_NAME(h), hr->sheaf != NIL ? "a sheaf" : "an object",
			     hr->alloc_line);
		return -1;
	}
	if (hr->claim && hr->claim != op + 1) {
		/* only the CPU an op names runs it: is that op still in flight there? */
		uint32_t other = hr->claim - 1;
		int c = m->trace->ops[other].cpu;
		const struct cpu_rec *cr = &WORLD(m)->cpus[c];
		if (c != cpu && cr->depth > 0 && cr->op == other) {
			model_report(m, "trace:%u: error: handle '%s' is being allocated by CPU %d's op at line %u, still in flight",
				     OP(f)->line, HANDLE_NAME(h), c, m->trace->ops[other].line);
			return -1;
		}
	}
	hr->claim = op + 1;
	return 0;
}

/* Bind the object the allocator returned (last in the bulk buffer). */
static inline __attribute__((always_inline)) void bind_handle(struct model *m, int cpu, idx_t h, idx_t obj)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	if (c->bulk_len && *u32_at(m, c->bulk + c->bulk_len - 1) == obj)
		c->bulk_len--;
	struct handle_rec *hr = handle_r(m, h);
	hr->obj = obj;
	hr->alloc_line = OP(f)->line;
	hr->free_line = 0;
	obj_r(m, obj)->state = OBJ_USER;
	obj_r(m, obj)->holder = h;
	obj_r(m, obj)->site = OP(f)->site;
	timing_use_object(m, cpu, obj);
}

/* Validate a free of handle h to cache `cache` (NIL: kfree). Returns the
 * object to free, NIL for a no-op (NULL), or -1 after a report. */
static int64_t check_free_handle(struct model *m, int cpu, idx_t h, idx_t cache)
{
	const struct svz_op *op = OP(f);
	struct handle_rec *hr = handle_r(m, h);
	const char *fn = cache == NIL ? "kfree" : "kmem_cache_free";
	switch (handle_state(m, h)) {
	case H_NULL:
		return NIL; /* kmem_cache_free(s, NULL) is a no-op */
	case H_NEVER:
		model_report(m, "%s(%s, %s): object is not in a slab page\n"
			     "trace:%u: error: handle '%s' was never allocated",
			     fn, cache == NIL ? "-" : cache_r(m, cache)->name, HANDLE_NAME(h), op->line,
			     HANDLE_NAME(h));
		return -1;
	case H_FREED:
		model_report(m, "BUG %s (Not tainted): Object already free\n"
			     "trace:%u: error: double free of handle '%s' (allocated at line %u, freed at line %u)",
			     cache == NIL ? "kmalloc" : cache_r(m, cache)->name, op->line, HANDLE_NAME(h),
			     hr->alloc_line, hr->free_line);
		return -1;
	case H_LIVE:
		break;
	}
	if (hr->large != NIL)
		return (int64_t)NIL - 1; /* large kmalloc: handled by the caller */
	idx_t obj = hr->obj;
	idx_t real = slab_r(m, obj_r(m, obj)->slab)->cache;
	if (cache != NIL && real != cache) {
		/* v7.0 kmem_cache_free(): warn once and leak the object */
		model_report(m, "kmem_cache_free(%s, %016llx): object belongs to different cache %s\n"
			     "trace:%u: error: handle '%s' freed to the wrong cache",
			     cache_r(m, cache)->name, (unsigned long long)obj_addr(m, obj),
			     cache_r(m, real)->name, op->line, HANDLE_NAME(h));
		obj_r(m, obj)->state = OBJ_LOST;
		obj_r(m, obj)->holder = NIL;
		hr->obj = NIL;
		hr->free_line = op->line;
		return -1;
	}
	hr->obj = NIL;
	hr->free_line = op->line;
	timing_use_object(m, cpu, obj);
	WORLD(m)->cpus[cpu].pending = obj;
	obj_r(m, obj)->state = OBJ_BULK;
	obj_r(m, obj)->holder = (idx_t)cpu;
	return obj;
}

#define ret_object f->x      /* the RETURN event's object */
int co_OP_ALLOC(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	if (claim_handle(m, cpu, OP(f)->handle))
		CO_RETURN(-1);
	CALL_HOT(CO_SLAB_ALLOC_NODE, (void)callee);
	if (f->ret < 0) {
		handle_r(m, OP(f)->handle)->alloc_line = OP(f)->line;
		handle_r(m, OP(f)->handle)->free_line = 0;
		CO_RETURN(0);
	}
	ret_object = (idx_t)f->ret;
	bind_handle(m, cpu, OP(f)->handle, ret_object);
	CO_RETURN(0);
	CO_END;
}
#undef ret_object

#define ret_object    f->x      /* the RETURN event's object (the large record while it is made) */
#define large_kmalloc f->y
#define large_order   f->i
#define large_node    f->j
int co_OP_KMALLOC(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (claim_handle(m, cpu, OP(f)->handle))
		CO_RETURN(-1);
	if (f->cache == NIL) {
		/* large kmalloc: straight to the page allocator, __GFP_COMP */
		{
			int order = (int)svz_get_order(OP(f)->size, WORLD(m)->cfg.topo.page_size);
			int got = -1;
			uint64_t pfn = page_alloc(m, f->node >= 0 ? f->node : cpu_node(m, cpu), order,
						  f->gfp, &got);
			large_order = order;
			ret_object = NIL;
			if (pfn != PFN_NONE) {
				idx_t l = WORLD(m)->large_free;
				if (l != NIL)
					WORLD(m)->large_free = large_r(m, l)->next_free;
				else
					MOVES_TO(l, pool_alloc(m, P_LARGE, 1));
				*large_r(m, l) = (struct large_rec){ .alive = true, .node = got,
					.order = (uint8_t)order, .pfn = pfn, .size = OP(f)->size,
					.next_free = NIL };
				struct handle_rec *hr = handle_r(m, OP(f)->handle);
				hr->large = l;
				hr->alloc_line = OP(f)->line;
				hr->free_line = 0;
				ret_object = l;
				large_node = got;
			}
		}
		if (ret_object == NIL) {
			handle_r(m, OP(f)->handle)->alloc_line = OP(f)->line;
			EV(.kind = EV_PAGE_ALLOC_FAIL, .fn = KFN___kmalloc_large_node, .count = large_order);
			CO_RETURN(0);
		}
		large_kmalloc = ret_object;
		ret_object = NIL;
		EV(.kind = EV_PAGE_ALLOC, .fn = KFN___kmalloc_large_node, .node = large_node, .count = large_order,
		   .value = (int64_t)large_r(m, large_kmalloc)->pfn);
		CO_RETURN(0);
	}
	CALL_HOT(CO_SLAB_ALLOC_NODE, (void)callee);
	if (f->ret < 0) {
		handle_r(m, OP(f)->handle)->alloc_line = OP(f)->line;
		CO_RETURN(0);
	}
	ret_object = (idx_t)f->ret;
	bind_handle(m, cpu, OP(f)->handle, ret_object);
	CO_RETURN(0);
	CO_END;
}
#undef ret_object
#undef large_kmalloc
#undef large_order
#undef large_node

/* kmem_cache_free() / kfree(): f->cache is the named cache (free) or the
 * object's own cache (kfree). */
#define object      f->b
#define large_order f->i
#define large_node  f->j
#define was_large   f->flag1
static int free_common(struct model *m, int cpu, struct frame *f, bool is_kfree)
{
	CO_BEGIN
	if (!is_kfree)
		REQUIRE_CACHE();
	{
		int64_t r = check_free_handle(m, cpu, OP(f)->handle, is_kfree ? NIL : f->cache);
		if (r == -1)
			CO_RETURN(-1);
		if (r == (int64_t)NIL)
			CO_RETURN(0);
		if (r == (int64_t)NIL - 1) {
			idx_t h = OP(f)->handle, l = handle_r(m, h)->large;
			large_order = large_r(m, l)->order;
			large_node = large_r(m, l)->node;
			MOVES(page_free(m, large_node, large_order, large_r(m, l)->pfn));
			large_r(m, l)->alive = false;
			large_r(m, l)->next_free = WORLD(m)->large_free;
			WORLD(m)->large_free = l;
			handle_r(m, h)->large = NIL;
			handle_r(m, h)->free_line = OP(f)->line;
			was_large = true;
		} else {
			object = (idx_t)r;
			f->cache = slab_r(m, obj_r(m, object)->slab)->cache;
		}
	}
	if (was_large) {
		EV(.kind = EV_PAGE_FREE, .fn = KFN_free_large_kmalloc, .node = large_node, .count = large_order);
		CO_RETURN(0);
	}
	CALL_HOT(CO_SLAB_FREE, callee->b = object);
	CO_RETURN(0);
	CO_END;
}
#undef object
#undef large_order
#undef large_node
#undef was_large

int co_OP_FREE(struct model *m, int cpu, struct frame *f) { return free_common(m, cpu, f, false); }
int co_OP_KFREE(struct model *m, int cpu, struct frame *f) { return free_common(m, cpu, f, true); }

/* kmem_cache_alloc_bulk(): alloc_from_pcs_bulk (caches with sheaves),
 * then __kmem_cache_alloc_bulk for the rest; all or nothing: when that
 * fails (having freed its own), the sheaves' objects are freed too. */
#define wanted f->n
#define got    f->i
int co_OP_ALLOC_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	for (uint32_t i = 0; i < OP(f)->count; i++)
		if (claim_handle(m, cpu, m->trace->handle_lists[OP(f)->handle + i]))
			CO_RETURN(-1);
	got = 0;
	if (!CLASSIC(m) || cache_r(m, f->cache)->has_sheaves) {
		CALL(CO_ALLOC_FROM_PCS_BULK, callee->n = wanted);
		got = f->ret;
	}
	if (got < wanted) {
		CALL(CO_ALLOC_BULK_SLABS, callee->n = wanted - got);
		if (f->ret == 0) {
			CALL(CO_FREE_BULK_SLABS, callee->flag1 = false);
			for (uint32_t i = 0; i < OP(f)->count; i++)
				handle_r(m, m->trace->handle_lists[OP(f)->handle + i])->alloc_line = OP(f)->line;
			CO_RETURN(0);
		}
	}

	{
		struct cpu_rec *c = &WORLD(m)->cpus[cpu];
		uint32_t n = c->bulk_len;
		/* bind from the end: bind_handle pops the buffer's last object */
		for (uint32_t i = n; i-- > 0;)
			bind_handle(m, cpu, m->trace->handle_lists[OP(f)->handle + i], *u32_at(m, c->bulk + i));
	}
	CO_RETURN(0);
	CO_END;
}
#undef wanted
#undef got

/* kmem_cache_free_bulk(): the handles' objects go to the bulk buffer in
 * trace order, then free_to_pcs_bulk (caches with sheaves) or the
 * detached-freelist loop (FREE_SLOWPATH += cnt). */
#define failed f->flag2
int co_OP_FREE_BULK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	for (uint32_t i = 0; i < OP(f)->count; i++) {
		idx_t h = m->trace->handle_lists[OP(f)->handle + i];
		int64_t r = check_free_handle(m, cpu, h, f->cache);
		if (r == -1 || r == (int64_t)NIL - 1) {
			if (r != -1)
				model_report(m, "trace:%u: error: handle '%s' is a large kmalloc, not a %s object",
					     OP(f)->line, HANDLE_NAME(h), CNAME);
			/* objects already moved to the buffer are freed below */
			failed = true;
			break;
		}
		if (r == (int64_t)NIL)
			continue;
		WORLD(m)->cpus[cpu].pending = NIL;
		bulk_push(m, cpu, (idx_t)r);
	}
	if (WORLD(m)->cpus[cpu].bulk_len) {
		if (cache_r(m, f->cache)->has_sheaves) {
			CALL(CO_FREE_TO_PCS_BULK, (void)callee);
		} else {
			CALL(CO_FREE_BULK_SLABS, callee->flag1 = true);
		}
	}
	CO_RETURN(failed ? -1 : 0);
	CO_END;
}
#undef failed

/* flush_cpu_slab() of one CPU: pcs_flush_all() for a cache with sheaves,
 * then (classic) the cpu slab and partial list. */
int co_FLUSH_CPU(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	if (cache_r(m, f->cache)->has_sheaves || (!CLASSIC(m) && WORLD(m)->cfg.sw.cpu_partial_free))
		CALL(CO_PCS_FLUSH, (void)callee);
	if (CLASSIC(m))
		CALL(CO_C_FLUSH_CPU, (void)callee);
	CO_RETURN(0);
	CO_END;
}

int co_OP_FLUSH(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	CALL(CO_FLUSH_CPU, callee->on_cpu = (int16_t)cpu);
	CO_RETURN(0);
	CO_END;
}

/* flush_all(): flush_cpu_slab on every CPU with anything cached:
 * has_cpu_slab() (c->slab or c->partial) or has_pcs_used(). */
#define each_cpu f->j
int co_OP_FLUSH_ALL(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	for (each_cpu = 0; each_cpu < WORLD(m)->nr_cpus; each_cpu++) {
		{
			struct pcs_rec *p = pcs_r(m, pcs_idx(m, f->cache, each_cpu));
			bool cpu_slab = CLASSIC(m) && (p->c_slab != NIL || p->c_partial != NIL);
			bool pcs_used = (cache_r(m, f->cache)->has_sheaves || WORLD(m)->cfg.sw.cpu_partial_free) &&
					(p->spare != NIL || p->rcu_free != NIL || sheaf_size(m, p->main) != 0 ||
					 p->c_partial != NIL);
			if (!cpu_slab && !pcs_used)
				continue;
		}
		CALL(CO_FLUSH_CPU, callee->on_cpu = (int16_t)each_cpu);
	}
	CO_RETURN(0);
	CO_END;
}
#undef each_cpu

/* __kmem_cache_do_shrink() per node: barn_shrink, then under list_lock
 * every empty partial slab goes (regardless of min_partial), the others
 * are sorted so slabs with the fewest free objects come first.
 * As __kmem_cache_shutdown()'s loop (flag1; the frame reports free_partial()):
 * the others stay where they are, each reported (list_slab_objects(), in
 * nr_reported), and the first node left with slabs ends the walk with 1:
 * the nodes after it keep their barns and empty slabs. Returns 0, or 1 +
 * the slabs reported at that node (the kernel's 1). */
#define nid         f->j
#define nr_moved    f->n
#define cur_slab    f->x
#define slab_order  f->i
#define shutdown    f->flag1
#define nr_reported f->k
int co_SHRINK_NODES(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	for (nid = 0; nid < WORLD(m)->nr_nodes; nid++) {
		if (cnode_r(m, cnode_idx(m, f->cache, nid))->barn != NIL)
			CALL(CO_BARN_SHRINK, callee->a = cnode_r(m, cnode_idx(m, f->cache, nid))->barn);
		if (!cnode_r(m, cnode_idx(m, f->cache, nid))->exists)
			continue;
		LOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, nid), false);
		{
			struct cpu_rec *c = &WORLD(m)->cpus[cpu];
			idx_t ni = cnode_idx(m, f->cache, nid);
			struct dlist promote[SHRINK_PROMOTE_MAX];
			for (int i = 0; i < SHRINK_PROMOTE_MAX; i++)
				promote[i] = (struct dlist){ NIL, NIL, 0 };
			idx_t s = slab_first(m, cnode_r(m, ni)->partial.first);
			nr_moved = 0;
			while (s != NIL) {
				idx_t next = slab_lnext(m, s);
				uint32_t free = slab_r(m, s)->objects - slab_r(m, s)->inuse;
				if (free == slab_r(m, s)->objects) {
					/* list_move() to the discard list's head:
					 * freed below in reverse order */
					remove_partial(m, f->cache, nid, s);
					dlist_add(m, P_SLAB, &c->private_list, s, false);
					slab_r(m, s)->list = LIST_PRIVATE;
					cnode_r(m, ni)->nr_slabs--;
					cnode_r(m, ni)->total_objects -= slab_r(m, s)->objects;
					nr_moved++;
				} else if (shutdown) {
					nr_reported++;
				} else if (free <= SHRINK_PROMOTE_MAX) {
					/* list_move(): to the head of its bucket, so
					 * equal-free slabs come back in reverse order */
					remove_partial(m, f->cache, nid, s);
					dlist_add(m, P_SLAB, &promote[free - 1], s, false);
				}
				s = next;
			}
			for (int i = SHRINK_PROMOTE_MAX - 1; i >= 0; i--) {
				/* list_splice(promote[i], partial): at the head */
				idx_t t = promote[i].last;
				while (t != NIL) {
					idx_t prev = slab_r(m, t)->lprev;
					dlist_del(m, P_SLAB, &promote[i], t);
					add_partial(m, f->cache, nid, t, false);
					t = prev;
				}
			}
		}
		EV(.kind = EV_MOVE_SLAB, .fn = f_kfn(f), .node = nid, .from = LOC_PARTIAL,
		   .to = LOC_PRIVATE, .count = nr_moved, .value = cnode_r(m, cnode_idx(m, f->cache, nid))->nr_partial);
		UNLOCK(LK_LIST_LOCK, cnode_idx(m, f->cache, nid));
		while (WORLD(m)->cpus[cpu].private_list.first != NIL) {
			cur_slab = WORLD(m)->cpus[cpu].private_list.first;
			dlist_del(m, P_SLAB, &WORLD(m)->cpus[cpu].private_list, cur_slab);
			slab_r(m, cur_slab)->list = LIST_NONE;
			slab_order = slab_r(m, cur_slab)->order;
			MOVES(slab_destroy(m, cur_slab)); /* counters already dropped under the lock */
			EV(.kind = EV_DISCARD_SLAB, .fn = f_kfn(f), .slab = cur_slab,
			   .node = nid, .count = slab_order);
		}
		if (shutdown && (cnode_r(m, cnode_idx(m, f->cache, nid))->nr_partial ||
				 cnode_r(m, cnode_idx(m, f->cache, nid))->nr_slabs))
			CO_RETURN(1 + nr_reported);
	}
	CO_RETURN(0);
	CO_END;
}
#undef nid
#undef nr_moved
#undef cur_slab
#undef slab_order
#undef shutdown
#undef nr_reported

int co_OP_SHRINK(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	CALL(CO_OP_FLUSH_ALL, (void)callee);
	CALL(CO_SHRINK_NODES, (void)callee);
	CO_RETURN(0);
	CO_END;
}

/* kmem_cache_destroy(): (v6.12+) kvfree_rcu_barrier(), then
 * __kmem_cache_shutdown(): flush, and per node barn_shrink + free_partial()
 * until a node still has slabs. Objects still in use -> the kernel's
 * reports and the cache leaks: before v6.12 shutdown_cache() returns
 * -EBUSY before list_del() and the sysfs unlink, so the cache stays in
 * /proc/slabinfo and /sys/kernel/slab; since v6.12 ("mm, slab: unlink
 * slabinfo, sysfs and debugfs immediately") it goes all the same. */
int co_OP_DESTROY(struct model *m, int cpu, struct frame *f)
{
	CO_BEGIN
	REQUIRE_CACHE();
	if (svz_kernel_at_least(&WORLD(m)->cfg.sw, 612))
		CALL(CO_KVFREE_RCU_BARRIER, (void)callee);
	/* a cache other names merged into lives on until its last name goes */
	if (--cache_r(m, f->cache)->refcount > 0)
		CO_RETURN(0);
	CALL(CO_OP_FLUSH_ALL, (void)callee);
	CALL(CO_SHRINK_NODES, callee->flag1 = true; callee->k_fn = KFN_free_partial);
	{
		const struct svz_switches *sw = &WORLD(m)->cfg.sw;
		const int left = f->ret; /* 0, or 1 + the partial slabs reported */
		uint64_t slabs = 0, objs = 0;
		for (int n = 0; n < WORLD(m)->nr_nodes; n++) {
			struct cnode_rec *cn = cnode_r(m, cnode_idx(m, f->cache, n));
			slabs += cn->nr_slabs;
		}
		for (uint32_t s = 0; s < WORLD(m)->pools[P_SLAB].len; s++)
			if (slab_r(m, s)->alive && slab_r(m, s)->cache == f->cache)
				objs += slab_r(m, s)->inuse;
		if (!left || svz_kernel_at_least(sw, 612))
			cache_r(m, f->cache)->alive = false;
		if (left) {
			/* list_slab_objects() for each partial slab in use (a
			 * slab_err() each, one header here), then the WARN (v5.17+,
			 * 7302e91f39a8) or, before, pr_err() + dump_stack() */
			char bug[512] = "", from[48] = "";
			if (left > 1)
				snprintf(bug, sizeof bug,
					 "=============================================================================\n"
					 "BUG %s (Not tainted): Objects remaining in %s on __kmem_cache_shutdown()\n"
					 "-----------------------------------------------------------------------------\n\n",
					 CNAME, CNAME);
			if (svz_kernel_at_least(sw, 517))
				snprintf(from, sizeof from, " when called from trace:%u", OP(f)->line);
			model_report(m, "%skmem_cache_destroy %s: Slab cache still has objects%s\n"
				     "(%llu objects in %llu slabs leaked; %d partial slab(s) reported)",
				     bug, CNAME, from, (unsigned long long)objs, (unsigned long long)slabs, left - 1);
			CO_RETURN(-1);
		}
	}
	CO_RETURN(0);
	CO_END;
}
