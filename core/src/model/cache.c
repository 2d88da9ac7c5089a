/* kmem_cache creation: geometry, per-node and per-CPU structures, barns.
 *
 * Differences from Linux (the model's simplifications, on purpose):
 *  - sheaf structs are not kmalloc'ed from kmalloc caches (no recursion into
 *    the allocator); SHEAF_ALLOC/SHEAF_FREE are still counted where the
 *    kernel counts them;
 *  - kmalloc caches are created on first use, with the boot-time CPU count
 *    calculate_order() would have seen (topology boot_online);
 *  - the NUMA distance table is flat (local 10, remote 20); remote nodes are
 *    visited in ring order from the local node;
 *  - get_cycles() % 1024 (remote_node_defrag_ratio gate) is a seeded draw;
 *  - no kfence, memcg, kasan, debug caches, pfmemalloc, RCU grace periods;
 *  - the page allocator is a per-node page budget without buddy merging. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/engine.h"
#include "model/model.h"

/* calculate_sizes() and the orders for a cache created under cfg. */
static int cache_geometry(const struct svz_config *cfg, uint32_t object_size, uint32_t align,
			  uint32_t flags, bool ctor, uint32_t sheaf_req, bool is_kmalloc,
			  struct svz_geom *g, char *err, size_t errlen)
{
	struct svz_topology topo = cfg->topo;
	/* Only caches created during early boot see the boot online count. */
	if (!is_kmalloc)
		topo.boot_online = topo.online;
	struct svz_geom_in in = {
		.object_size = object_size, .align = align, .flags = flags, .ctor = ctor,
		.is_kmalloc = is_kmalloc, .sheaf_capacity = sheaf_req,
		.page_size = topo.page_size, .nr_cpus = svz_order_cpus(&topo, cfg->sw.cpu_source),
		.form = cfg->sw.order_form, .era = cfg->sw.era,
		.cpu_partial_objects = cfg->sw.cpu_partial_objects, .kernel = cfg->sw.kernel,
	};
	return svz_calculate_geometry(&in, g, err, errlen);
}

/* Everything here allocates: the arena rule (types.h) holds, so records are
 * reached by index after every pool_alloc()/sheaf_new(). */
FOR_SIZE static ARENA_MOVES int create_cache(struct model *m, const char *name, uint32_t object_size,
				    uint32_t align, uint32_t flags, bool ctor, uint32_t sheaf_req,
				    bool is_kmalloc, uint32_t decl, idx_t *out, char *err, size_t errlen)
{
	const struct svz_config cfg_copy = WORLD(m)->cfg;
	const struct svz_config *cfg = &cfg_copy;
	const int nr_nodes = WORLD(m)->nr_nodes, nr_cpus = WORLD(m)->nr_cpus;
	struct svz_geom g;
	if (cache_geometry(cfg, object_size, align, flags, ctor, sheaf_req, is_kmalloc, &g, err, errlen))
		return -1;
	idx_t c = pool_alloc(m, P_CACHE, 1);
	idx_t cnode = pool_alloc(m, P_CNODE, (uint32_t)nr_nodes);
	idx_t pcs = pool_alloc(m, P_PCS, (uint32_t)nr_cpus);
	idx_t stats = pool_alloc(m, P_U64, (uint32_t)nr_cpus * NR_SLUB_STAT_ITEMS);
	idx_t seq = NIL;
	if (cfg->sw.freelist_random && g.objects >= 2)
		seq = pool_alloc(m, P_U32, g.objects);
	if (c == NIL || cnode == NIL || pcs == NIL || stats == NIL ||
	    (cfg->sw.freelist_random && g.objects >= 2 && seq == NIL)) {
		snprintf(err, errlen, "out of memory creating the cache");
		return -1;
	}
	/* v6.18/v6.19 (2d517aa09bbc "slab: add opt-in caching layer of percpu
	 * sheaves"): only a cache created with kmem_cache_args.sheaf_capacity
	 * gets sheaves, of exactly that capacity, beside its kmem_cache_cpu
	 * (do_kmem_cache_create(): none for SLAB_DEBUG_FLAGS); before v6.18
	 * there are none. */
	if (cfg->sw.era == SVZ_ERA_CLASSIC)
		g.sheaf_capacity = svz_kernel_at_least(&cfg->sw, 618) && !(flags & SLAB_DEBUG_FLAGS)
			? sheaf_req : 0;
	const bool has_sheaves = g.sheaf_capacity != 0;
	struct cache_rec *cr = cache_r(m, c);
	snprintf(cr->name, sizeof cr->name, "%s", name);
	cr->alive = true;
	cr->is_kmalloc = is_kmalloc;
	cr->flags = flags;
	cr->ctor = ctor;
	cr->g = g;
	cr->has_sheaves = has_sheaves;
	cr->min_partial = g.min_partial;
	cr->remote_node_defrag_ratio = 1000;
	cr->cnode = cnode;
	cr->pcs = pcs;
	cr->stats = stats;
	cr->decl = decl;
	cr->refcount = 1;
	cr->sheaf_req = sheaf_req;
	cr->random = model_rand(m);
	cr->random_seq = seq;
	if (seq != NIL) {
		/* init_cache_random_seq(): Fisher-Yates over 0..objects-1 */
		for (uint32_t i = 0; i < g.objects; i++)
			*u32_at(m, seq + i) = i;
		for (uint32_t i = g.objects - 1; i > 0; i--) {
			uint32_t j = (uint32_t)(model_rand(m) % (i + 1));
			uint32_t t = *u32_at(m, seq + i);
			*u32_at(m, seq + i) = *u32_at(m, seq + j);
			*u32_at(m, seq + j) = t;
		}
	}
	for (int n = 0; n < nr_nodes; n++) {
		struct cnode_rec *cn = cnode_r(m, cnode + (idx_t)n);
		cn->exists = node_has_memory(m, n);
		cn->node = n;
		cn->list_lock = -1;
		cn->partial = cn->full = (struct dlist){ NIL, NIL, 0 };
		cn->barn = NIL;
	}
	if (has_sheaves) {
		/* v7.0-rc1: a barn per node with memory (slab_nodes = N_MEMORY);
		 * fix 2 and v7.1 (slab_barn_nodes = N_ONLINE, 7f693882f009):
		 * per online node, memoryless ones included. */
		for (int n = 0; n < nr_nodes; n++) {
			if (!node_has_memory(m, n) && !barn_on_memoryless(&cfg->sw))
				continue;
			idx_t b = pool_alloc(m, P_BARN, 1);
			if (b == NIL)
				goto oom;
			*barn_r(m, b) = (struct barn_rec){ .lock = -1, .node = n,
				.sheaves_full = { NIL, NIL, 0 }, .sheaves_empty = { NIL, NIL, 0 } };
			cnode_r(m, cnode + (idx_t)n)->barn = b;
		}
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		idx_t main = NIL;
		if (has_sheaves) {
			main = sheaf_new(m, c, g.sheaf_capacity);
			if (main == NIL)
				goto oom;
			sheaf_place(m, main, SH_MAIN, cpu);
		}
		struct pcs_rec *p = pcs_r(m, pcs + (idx_t)cpu);
		p->lock = -1;
		p->c_lock = -1;
		p->main = main;
		p->spare = NIL;
		p->rcu_free = NIL;
		classic_init_cpu(m, pcs + (idx_t)cpu, cpu);
	}
	/* init_percpu_sheaves() (and bootstrap_cache_sheaves() for the
	 * kmalloc caches) gives every possible CPU an empty main sheaf from
	 * alloc_empty_sheaf(), which counts SHEAF_ALLOC; the stats exist by then
	 * (do_kmem_cache_create() allocates them first), and raw_cpu_inc()
	 * puts all of them on the creating CPU: CPU 0 here (seed 004's v7.0
	 * dump of bio-256 on 64 CPUs: sheaf_alloc C18=65, the creator's 64 and
	 * one more) */
	if (has_sheaves) {
		uint64_t possible = cfg->topo.possible > nr_cpus ? (uint64_t)cfg->topo.possible : (uint64_t)nr_cpus;
		*stat_ptr(m, c, 0, SHEAF_ALLOC) += possible;
	}
	struct world *w = WORLD(m);
	w->nr_caches++;
	if (g.objects > w->max_slab_objects)
		w->max_slab_objects = g.objects;
	if (g.sheaf_capacity > w->max_sheaf_capacity)
		w->max_sheaf_capacity = g.sheaf_capacity;
	*out = c;
	return 0;
oom:
	snprintf(err, errlen, "out of memory creating the cache");
	return -1;
}

/* The cache a name opens: a cache of that name, or the one a trace cache of
 * that name was merged into (its alias). */
idx_t model_find_cache(struct model *m, const char *name)
{
	for (uint32_t c = 0; c < WORLD(m)->nr_caches; c++)
		if (cache_r(m, c)->alive && strcmp(cache_r(m, c)->name, name) == 0)
			return c;
	for (uint32_t i = 0; m->trace && i < m->trace->nr_caches; i++)
		if (strcmp(m->trace->caches[i].name, name) == 0) {
			idx_t c = *u32_at(m, WORLD(m)->cache_map + i);
			return cache_r(m, c)->alive ? c : NIL;
		}
	return NIL;
}

/* slab_unmergeable(): slab_nomerge, a never-merge flag, a constructor, a
 * usercopy region (kmalloc caches, CONFIG_HARDENED_USERCOPY as distributions
 * build), or sheaves asked for (v6.18's opt-in sheaves). */
bool cache_unmergeable(struct model *m, idx_t c)
{
	const struct cache_rec *cr = cache_r(m, c);
	return WORLD(m)->cfg.sw.slab_nomerge || (cr->flags & SLAB_NEVER_MERGE) || cr->ctor ||
	       cr->is_kmalloc || cr->sheaf_req;
}

/* find_mergeable() (mm/slab_common.c): the oldest live cache a new one can
 * share: mergeable itself, at least as large, the same SLAB_MERGE_SAME
 * flags, a size that keeps the new alignment, and less than a word to
 * spare. NIL if none. */
static idx_t find_mergeable(struct model *m, const struct svz_cache_decl *d)
{
	const struct svz_switches *sw = &WORLD(m)->cfg.sw;
	if (sw->slab_nomerge || d->ctor || (d->flags & SLAB_NEVER_MERGE) || d->sheaf_capacity)
		return NIL;
	uint64_t size = ALIGN_UP((uint64_t)d->object_size, 8);
	uint32_t align = svz_calculate_alignment(d->flags, d->align, (uint32_t)size);
	size = ALIGN_UP(size, (uint64_t)align);
	for (uint32_t c = 0; c < WORLD(m)->nr_caches; c++) {
		const struct cache_rec *cr = cache_r(m, c);
		if (!cr->alive || cache_unmergeable(m, c) || size > cr->g.size ||
		    (d->flags & SLAB_MERGE_SAME) != (cr->flags & SLAB_MERGE_SAME) ||
		    (cr->g.size & (align - 1)) || cr->g.size - size >= 8)
			continue;
		return c;
	}
	return NIL;
}

/* __kmem_cache_alias(): the older cache takes the new one's name too. */
static void merge_into(struct model *m, idx_t c, const struct svz_cache_decl *d)
{
	struct cache_rec *cr = cache_r(m, c);
	cr->refcount++;
	if (d->object_size > cr->g.object_size)
		cr->g.object_size = d->object_size;
	uint32_t inuse = (uint32_t)ALIGN_UP((uint64_t)d->object_size, 8);
	if (inuse > cr->g.inuse)
		cr->g.inuse = inuse;
}

/* kmalloc_type(): KMALLOC_NORMAL, or KMALLOC_CGROUP ("kmalloc-cg-N") for
 * __GFP_ACCOUNT, KMALLOC_RECLAIM for __GFP_RECLAIMABLE, DMA for __GFP_DMA.
 * The kmalloc-cg caches came in v5.14 (494c1dfe855e); before, an
 * accounted kmalloc shares the normal cache (objects charged one by one). */
static int kmalloc_type_of(const struct model *m, uint32_t gfp)
{
	bool cg_caches = svz_kernel_at_least(&WORLD(m)->cfg.sw, 514);
	return (gfp & __GFP_DMA) ? 3 : (gfp & __GFP_RECLAIMABLE) ? 2 : (cg_caches && (gfp & __GFP_ACCOUNT)) ? 1 : 0;
}

/* kmalloc_index() of a bucket (svz_kmalloc_bucket()): 96 and 192 at 1
 * and 2, a power of two at its log2. */
static unsigned kmalloc_index_of(uint32_t bucket)
{
	return bucket == 96 ? 1 : bucket == 192 ? 2 : (unsigned)__builtin_ctz(bucket);
}
static uint32_t kmalloc_bucket_of(unsigned index)
{
	return index == 1 ? 96 : index == 2 ? 192 : 1u << index;
}

/* "kmalloc-192", "kmalloc-cg-8k"...: of a kmalloc type and bucket size. */
static void kmalloc_cache_name(char *buf, size_t len, uint32_t bucket, int type)
{
	static const char *const prefix[KMALLOC_TYPES] = { "kmalloc-", "kmalloc-cg-", "kmalloc-rcl-", "dma-kmalloc-" };
	if (bucket >= 1024 && bucket % 1024 == 0)
		snprintf(buf, len, "%s%uk", prefix[type], bucket / 1024);
	else
		snprintf(buf, len, "%s%u", prefix[type], bucket);
}

/* kmalloc_slab(): the cache by its name, created on first use. Out of
 * line: the op's start (op_start()) keeps a small frame. */
static __attribute__((noinline, cold)) ARENA_MOVES idx_t kmalloc_cache_by_name(struct model *m, uint32_t bucket,
										int type, unsigned index)
{
	char name[64];
	kmalloc_cache_name(name, sizeof name, bucket, type);
	idx_t c = model_find_cache(m, name);
	if (c == NIL) {
		uint32_t flags = SLAB_KMALLOC | (type == 1 ? SLAB_ACCOUNT : 0) |
				 (type == 2 ? SLAB_RECLAIM_ACCOUNT : 0) | (type == 3 ? SLAB_CACHE_DMA : 0);
		char err[160];
		if (create_cache(m, name, bucket, 0, flags, false, 0, true, NIL, &c, err, sizeof err))
			return NIL;
	}
	if (index < KMALLOC_INDICES)
		WORLD(m)->kmalloc_caches[type][index] = c; /* after create_cache(): the arena may have moved */
	return c;
}

/* The answer of kmalloc_cache_by_name() is kept in w->kmalloc_caches
 * while that cache lives: caches are not renamed and a new one comes after
 * every older one, so the search by name would find the same (the
 * validator checks it). */
static ARENA_MOVES idx_t kmalloc_cache(struct model *m, uint32_t size, uint32_t gfp)
{
	uint32_t bucket = svz_kmalloc_bucket(size, WORLD(m)->cfg.topo.page_size);
	if (!bucket)
		return NIL;
	int type = kmalloc_type_of(m, gfp);
	unsigned index = kmalloc_index_of(bucket);
	idx_t known = index < KMALLOC_INDICES ? WORLD(m)->kmalloc_caches[type][index] : NIL;
	if (known != NIL && cache_r(m, known)->alive)
		return known;
	return kmalloc_cache_by_name(m, bucket, type, index);
}

/* Every kmalloc cache kept in w->kmalloc_caches that still lives is the one
 * its name finds: 0, or the type, index and cache of the first that is not. */
int kmalloc_caches_check(struct model *m, int *type, unsigned *index, idx_t *cache)
{
	for (int t = 0; t < KMALLOC_TYPES; t++)
		for (unsigned i = 0; i < KMALLOC_INDICES; i++) {
			idx_t c = WORLD(m)->kmalloc_caches[t][i];
			if (c == NIL)
				continue;
			char name[64];
			kmalloc_cache_name(name, sizeof name, kmalloc_bucket_of(i), t);
			if (c >= WORLD(m)->nr_caches || (cache_r(m, c)->alive && model_find_cache(m, name) != c)) {
				*type = t;
				*index = i;
				*cache = c;
				return -1;
			}
		}
	return 0;
}

ARENA_MOVES idx_t kmalloc_cache_for(struct model *m, uint32_t size)
{
	return kmalloc_cache(m, size, 0);
}

/* The cache of a kmalloc or kfree op (model_op_cache()); creates kmalloc
 * caches lazily. Runs between micro-steps (op start), where the arena may
 * grow. */
ARENA_MOVES idx_t model_op_cache_k(struct model *m, const struct svz_op *op)
{
	if (op->type == SVZ_OP_KMALLOC)
		return kmalloc_cache(m, op->size, op->gfp);
	struct handle_rec *h = handle_r(m, op->handle);
	if (h->obj != NIL)
		return slab_r(m, obj_r(m, h->obj)->slab)->cache;
	return NIL;
}

FOR_SIZE int model_check(const struct svz_trace *t, const struct svz_config *cfg, char *err, size_t errlen)
{
	if (svz_topology_check(&cfg->topo, err, errlen) || sched_check(t, cfg, err, errlen))
		return -1;
	for (uint32_t i = 0; i < t->nr_caches; i++) {
		const struct svz_cache_decl *d = &t->caches[i];
		struct svz_geom g;
		char e[200];
		if (cache_geometry(cfg, d->object_size, d->align, d->flags, d->ctor, d->sheaf_capacity,
				   false, &g, e, sizeof e)) {
			snprintf(err, errlen, "line %u: cache %s: %s", d->line, d->name, e);
			return -1;
		}
	}
	return 0;
}

ARENA_MOVES int model_init(struct model *m, const struct svz_trace *t, const struct svz_config *cfg,
				char *err, size_t errlen)
{
	if (svz_topology_check(&cfg->topo, err, errlen))
		return -1;
	m->trace = t;
	m->validate_every = 1;
	/* SLUBVIZ_VALIDATE_EVERY=N thins the per-op validation of test builds
	 * (the CLI's shell tests run long traces many times) */
	{
		const char *e = getenv("SLUBVIZ_VALIDATE_EVERY");
		if (e && *e)
			m->validate_every = (uint32_t)strtoul(e, NULL, 10);
	}
	if (arena_init(m, cfg, t->nr_handles)) {
		snprintf(err, errlen, "out of memory creating the model");
		return -1;
	}
	struct world *w = WORLD(m);
	w->nr_nodes = cfg->topo.nr_nodes;
	w->nr_cpus = cfg->topo.nr_cpus;
	w->rng = cfg->sw.seed * 0x9e3779b97f4a7c15ull + 0x5eed;
	/* Physical memory starts at 4 GiB; nodes follow each other. */
	uint64_t pfn = (4ull << 30) / cfg->topo.page_size;
	for (int n = 0; n < w->nr_nodes; n++) {
		struct node_rec *nr = &w->nodes[n];
		nr->mem_pages = cfg->topo.node_mem_bytes[n] / cfg->topo.page_size;
		nr->start_pfn = nr->next_pfn = pfn;
		pfn += nr->mem_pages;
		for (int o = 0; o <= SVZ_MAX_PAGE_ORDER; o++)
			nr->free_blocks[o] = NIL;
	}
	/* The bulk buffer holds a bulk op's objects, and a whole sheaf being
	 * flushed (sheaf_flush_unused(), an oversize prefilled sheaf): the
	 * largest bulk count, prefill count or sheaf_capacity asked for (the
	 * computed default capacities are at most 60). */
	uint32_t max_bulk = 64;
	for (uint32_t i = 0; i < t->nr_ops; i++)
		if ((t->ops[i].type == SVZ_OP_ALLOC_BULK || t->ops[i].type == SVZ_OP_FREE_BULK ||
		     t->ops[i].type == SVZ_OP_PREFILL) && t->ops[i].count > max_bulk)
			max_bulk = t->ops[i].count;
	for (uint32_t i = 0; i < t->nr_caches; i++)
		if (t->caches[i].sheaf_capacity > max_bulk)
			max_bulk = t->caches[i].sheaf_capacity;
	for (int c = 0; c < cfg->topo.nr_cpus; c++) {
		idx_t bulk = pool_alloc(m, P_U32, 2 * max_bulk); /* + remote area */
		if (bulk == NIL)
			goto oom;
		struct cpu_rec *cr = &WORLD(m)->cpus[c];
		cr->node = cfg->topo.cpu_node[c];
		cr->bulk = bulk;
		cr->bulk_cap = max_bulk;
		cr->chain_head = cr->chain_tail = NIL;
		cr->private_list = cr->sheaf_stash = (struct dlist){ NIL, NIL, 0 };
		cr->pending = NIL;
	}
	idx_t started = pool_alloc(m, P_U32, t->nr_ops / 32 + 1);
	if (started == NIL)
		goto oom;
	WORLD(m)->started = started;
	WORLD(m)->rcu_pending = (struct dlist){ NIL, NIL, 0 };
	WORLD(m)->rcu_objects = NIL;
	idx_t h0 = pool_alloc(m, P_HANDLE, t->nr_handles ? t->nr_handles : 1);
	if (h0 == NIL)
		goto oom;
	for (uint32_t h = 0; h < t->nr_handles; h++) {
		handle_r(m, h0 + h)->obj = NIL;
		handle_r(m, h0 + h)->large = NIL;
		handle_r(m, h0 + h)->sheaf = NIL;
	}
	idx_t map = pool_alloc(m, P_U32, t->nr_caches ? t->nr_caches : 1);
	if (map == NIL)
		goto oom;
	WORLD(m)->cache_map = map;
	for (uint32_t i = 0; i < t->nr_caches; i++) {
		const struct svz_cache_decl *d = &t->caches[i];
		idx_t c = find_mergeable(m, d);
		char e[200];
		if (c != NIL) {
			merge_into(m, c, d);
		} else if (create_cache(m, d->name, d->object_size, d->align, d->flags, d->ctor,
					d->sheaf_capacity, false, i, &c, e, sizeof e)) {
			snprintf(err, errlen, "line %u: cache %s: %s", d->line, d->name, e);
			return -1;
		}
		*u32_at(m, WORLD(m)->cache_map + i) = (uint32_t)c;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory creating the model");
	return -1;
}

FOR_SIZE void model_destroy(struct model *m)
{
	free(m->op_dep);
	m->op_dep = NULL;
	arena_free(m);
}
