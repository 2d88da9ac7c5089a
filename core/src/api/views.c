/* Views of the model in the kernel's own text formats (/proc/slabinfo,
 * /sys/kernel/slab/<cache>/), a stats dump for diffs, and the JSON snapshot
 * the browser draws from.
 *
 * Kernel sources of the formats (v7.0-rc1): slab_common.c print_slabinfo_header()
 * / cache_show(), slub.c get_slabinfo() / count_partial_free_approx(),
 * show_slab_objects(), show_stat(), the *_show() attribute functions and the
 * slab_attrs[] array. Config assumed: SLUB_DEBUG, SLUB_STATS, NUMA, SMP,
 * ZONE_DMA, HARDENED_USERCOPY, KFENCE; no FAILSLAB.
 *
 * Nothing here changes the model. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/model.h"


/* ---- shared walks ---------------------------------------------------------- */

static uint32_t pool_len(struct model *m, enum pool_id p) { return WORLD(m)->pools[p].len; }

/* Next slab on a slab list; NIL at the end or on a broken link (views must
 * not loop or read out of bounds on a corrupted model). */
static idx_t slab_next(struct model *m, idx_t s)
{
	idx_t n = slab_r(m, s)->lnext;
	return n < pool_len(m, P_SLAB) ? n : NIL;
}

static idx_t slab_prev(struct model *m, idx_t s)
{
	idx_t p = slab_r(m, s)->lprev;
	return p < pool_len(m, P_SLAB) ? p : NIL;
}

static idx_t list_first(struct model *m, enum pool_id p, idx_t first)
{
	return first < pool_len(m, p) ? first : NIL;
}

/* slab->objects - slab->inuse as the kernel's count_free() computes it:
 * int arithmetic, then added into an unsigned long. */
static uint64_t count_free(struct slab_rec *s)
{
	return (uint64_t)(int64_t)(int32_t)(s->objects - s->inuse);
}

/* count_partial(n, get_count): every slab on n->partial. `what`:
 * 0 count_free, 1 count_inuse, 2 count_total. */
static uint64_t count_partial(struct model *m, struct cnode_rec *n, int what)
{
	uint64_t x = 0;
	uint32_t guard = pool_len(m, P_SLAB);
	for (idx_t s = list_first(m, P_SLAB, n->partial.first); s != NIL && guard--;
	     s = slab_next(m, s)) {
		struct slab_rec *sr = slab_r(m, s);
		x += what == 0 ? count_free(sr) : what == 1 ? (uint64_t)sr->inuse : (uint64_t)sr->objects;
	}
	return x;
}

#define MAX_PARTIAL_TO_SCAN 10000

/* count_partial_free_approx(): exact up to MAX_PARTIAL_TO_SCAN partial
 * slabs; above, 5000 from the head and 5000 from the tail, scaled by
 * nr_partial / scanned (mult_frac) and capped at node_nr_objs. */
static uint64_t count_partial_free_approx(struct model *m, struct cnode_rec *n)
{
	if (n->nr_partial <= MAX_PARTIAL_TO_SCAN)
		return count_partial(m, n, 0);
	uint64_t x = 0, scanned = 0;
	for (idx_t s = list_first(m, P_SLAB, n->partial.first); s != NIL; s = slab_next(m, s)) {
		x += count_free(slab_r(m, s));
		if (++scanned == MAX_PARTIAL_TO_SCAN / 2)
			break;
	}
	for (idx_t s = list_first(m, P_SLAB, n->partial.last); s != NIL; s = slab_prev(m, s)) {
		x += count_free(slab_r(m, s));
		if (++scanned == MAX_PARTIAL_TO_SCAN)
			break;
	}
	if (scanned) {
		uint64_t d = scanned, q = x / d, r = x % d;
		x = q * n->nr_partial + r * n->nr_partial / d; /* mult_frac */
	}
	return x < n->total_objects ? x : n->total_objects;
}

/* ---- /proc/slabinfo -------------------------------------------------------- */

/* slab_caches is list_add'ed at the head on creation and slab_show() walks it
 * from the head: the newest cache first. slab_show() prints
 * print_slabinfo_header() with the first entry, and a kernel's list is never
 * empty (kmem_cache, kmem_cache_node and the kmalloc caches exist from
 * boot), so /proc/slabinfo always starts with its two header lines; the
 * model creates caches lazily, so it prints them even with no cache yet. */
void view_slabinfo(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);

	sb_puts(b, "slabinfo - version: 2.1\n"
		   "# name            <active_objs> <num_objs> <objsize> <objperslab> "
		   "<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
		   "slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	for (uint32_t ci = w->nr_caches; ci-- > 0;) {
		struct cache_rec *c = cache_r(m, ci);
		if (!c->alive)
			continue;
		uint64_t nr_slabs = 0, nr_objs = 0, nr_free = 0;
		for (int node = 0; node < w->nr_nodes; node++) {
			struct cnode_rec *n = get_node(m, ci, node);
			if (!n)
				continue;
			nr_slabs += n->nr_slabs;
			nr_objs += n->total_objects;
			nr_free += count_partial_free_approx(m, n);
		}
		c = cache_r(m, ci);
		sb_printf(b, "%-17s %6" PRIu64 " %6" PRIu64 " %6u %4u %4d : tunables %4u %4u %4u"
			  " : slabdata %6" PRIu64 " %6" PRIu64 " %6" PRIu64 "\n",
			  c->name, nr_objs - nr_free, nr_objs, c->g.size, c->g.objects,
			  1 << c->g.order, 0u, 0u, 0u, nr_slabs, nr_slabs, (uint64_t)0);
	}
}

/* ---- /sys/kernel/slab/<cache>/ -------------------------------------------- */

enum so_flags { SO_ALL = 1, SO_PARTIAL = 2, SO_CPU = 4, SO_OBJECTS = 8, SO_TOTAL = 16 };

/* show_slab_objects(): the total, then " N<node>=<n>" for every node whose
 * value is non-zero (CONFIG_NUMA). SO_CPU matches no branch in v7.0. */
static void show_slab_objects(struct model *m, idx_t ci, unsigned flags, struct sbuf *b)
{
	struct world *w = WORLD(m);
	uint64_t total = 0, nodes[SVZ_MAX_NODES] = {0};

	/* SO_CPU (classic era): each cpu slab counts 1 and then its CPU's partial
	 * chain its head's slab->slabs, under the head's node; a CPU without a
	 * cpu slab is skipped, its chain included (the kernel's `continue`).
	 * In v7.0 there are no cpu slabs: always 0. */
	for (int cpu = 0; cpu < w->nr_cpus && (flags & SO_CPU) && w->cfg.sw.era == SVZ_ERA_CLASSIC; cpu++) {
		struct pcs_rec *p = pcs_r(m, pcs_idx(m, ci, cpu));
		if (p->c_slab == NIL)
			continue;
		total++;
		nodes[slab_r(m, p->c_slab)->node]++;
		if (p->c_partial != NIL) {
			total += slab_r(m, p->c_partial)->slabs;
			nodes[slab_r(m, p->c_partial)->node] += slab_r(m, p->c_partial)->slabs;
		}
	}
	for (int node = 0; node < w->nr_nodes && (flags & (SO_ALL | SO_PARTIAL)); node++) {
		struct cnode_rec *n = get_node(m, ci, node);
		if (!n)
			continue;
		int x; /* the kernel's `int x` */
		if (flags & SO_ALL) {
			if (flags & SO_TOTAL)
				x = (int)n->total_objects;
			else if (flags & SO_OBJECTS)
				x = (int)(n->total_objects - count_partial(m, n, 0));
			else
				x = (int)n->nr_slabs;
		} else {
			if (flags & SO_TOTAL)
				x = (int)count_partial(m, n, 2);
			else if (flags & SO_OBJECTS)
				x = (int)count_partial(m, n, 1);
			else
				x = (int)n->nr_partial;
		}
		total += (uint64_t)(int64_t)x;
		nodes[node] += (uint64_t)(int64_t)x;
	}
	sb_printf(b, "%" PRIu64, total);
	for (int node = 0; node < w->nr_nodes; node++)
		if (nodes[node])
			sb_printf(b, " N%d=%" PRIu64, node, nodes[node]);
}

/* slabs_cpu_partial_show(): objects(slabs), then " C<cpu>=objects(slabs)"
 * for each CPU with a chain. Since v5.16 objects is an estimate, slabs *
 * objs_per_slab / 2 (half full); before, the head's pobjects (the free
 * objects each slab had when it joined) with its page count. */
static void show_slabs_cpu_partial(struct model *m, idx_t ci, struct sbuf *b)
{
	struct world *w = WORLD(m);
	const bool counted = w->cfg.sw.cpu_partial_objects;
	uint32_t per = cache_r(m, ci)->g.objects;
	int64_t slabs = 0, objects = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int cpu = 0; cpu < w->nr_cpus && w->cfg.sw.era == SVZ_ERA_CLASSIC; cpu++) {
			idx_t head = pcs_r(m, pcs_idx(m, ci, cpu))->c_partial;
			if (head == NIL)
				continue;
			int64_t n = slab_r(m, head)->slabs;
			int64_t objs = counted ? slab_r(m, head)->pobjects : n * per / 2;
			if (pass == 0) {
				slabs += n;
				objects += objs;
			} else {
				sb_printf(b, " C%d=%d(%d)", cpu, (int)objs, (int)n);
			}
		}
		if (pass == 0)
			sb_printf(b, "%d(%d)", (int)(counted ? objects : slabs * per / 2), (int)slabs);
	}
}

/* show_stat(): per-CPU counters are unsigned int in the kernel (struct
 * kmem_cache_stats), summed into an unsigned long; then " C<cpu>=<n>" for
 * every online CPU with a non-zero count (CONFIG_SMP). Every CPU of the
 * model runs ops, so every CPU counts as online. */
static void show_stat(struct model *m, idx_t ci, enum stat_item si, struct sbuf *b)
{
	int nr = WORLD(m)->nr_cpus;
	uint64_t sum = 0;

	for (int cpu = 0; cpu < nr; cpu++)
		sum += (uint32_t)*stat_ptr(m, ci, cpu, si);
	sb_printf(b, "%" PRIu64, sum);
	for (int cpu = 0; cpu < nr; cpu++) {
		uint32_t x = (uint32_t)*stat_ptr(m, ci, cpu, si);
		if (x)
			sb_printf(b, " C%d=%u", cpu, x);
	}
}

/* The attributes of slab_attrs[] in array order for our config. */
#define SYSFS_ATTRS(X) \
	X(slab_size) X(object_size) X(objs_per_slab) X(order) X(sheaf_capacity) \
	X(min_partial) X(cpu_partial) X(objects_partial) X(partial) X(cpu_slabs) \
	X(ctor) X(aliases) X(align) X(hwcache_align) X(reclaim_account) \
	X(destroy_by_rcu) X(shrink) X(slabs_cpu_partial) \
	X(total_objects) X(objects) X(slabs) X(sanity_checks) X(trace) X(red_zone) \
	X(poison) X(store_user) X(validate) \
	X(cache_dma) \
	X(remote_node_defrag_ratio) \
	X(stat) \
	X(usersize) \
	X(skip_kfence)

enum sysfs_attr {
#define X(n) A_##n,
	SYSFS_ATTRS(X)
#undef X
	A__COUNT
};

static const char *const attr_names[A__COUNT] = {
#define X(n) [A_##n] = #n,
	SYSFS_ATTRS(X)
#undef X
};

struct sysfs_file {
	const char *name;
	int attr;        /* enum sysfs_attr */
	int stat;        /* enum stat_item for A_stat */
	uint32_t hash;
};

/* kernfs_name_hash(name, NULL): the order readdir (and so `find`) lists a
 * kernfs directory in. Entries sort by hash, then by name. */
static uint32_t kernfs_name_hash(const char *name)
{
	uint64_t h = 0; /* init_name_hash(NULL) */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h + ((uint64_t)*p << 4) + (*p >> 4)) * 11; /* partial_name_hash */
	h = (h * 0x61C8864680B583EBull) >> 32;              /* end_name_hash: hash_long(h, 32) */
	h &= 0x7fffffffu;
	if (h < 2)
		h += 2;
	if (h >= 0x7fffffffu)
		h = 0x7fffffffu - 1;
	return (uint32_t)h;
}

static int sysfs_file_cmp(const void *pa, const void *pb)
{
	const struct sysfs_file *a = pa, *b = pb;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return strcmp(a->name, b->name);
}

#define NR_SYSFS_FILES (A__COUNT - 1 + NR_SLUB_STAT_ITEMS)

/* The counters v6.18 added with opt-in sheaves (2d517aa09bbc and the
 * kfree_rcu sheaf after it): before, a classic kernel has no such files. */
static bool sheaf_stat(enum stat_item si)
{
	return si == ALLOC_PCS || si == FREE_PCS || si == FREE_RCU_SHEAF ||
	       si == FREE_RCU_SHEAF_FAIL || (si >= SHEAF_FLUSH && si <= SHEAF_RETURN_SLOW);
}

/* Whether the kernel the config models has the file: sheaf_capacity and
 * the sheaf counters since v6.18, skip_kfence since v6.0 (SLAB_SKIP_KFENCE);
 * the counters of the era (stat_in_era()). */
static bool file_exists(const struct svz_switches *sw, int attr, int si)
{
	const bool since_618 = sw->era == SVZ_ERA_SHEAVES || sw->kernel >= 618;
	if (attr == A_stat)
		return stat_in_era((enum stat_item)si, sw->era) && (since_618 || !sheaf_stat((enum stat_item)si));
	if (attr == A_sheaf_capacity)
		return since_618;
	if (attr == A_skip_kfence)
		return sw->kernel >= 600;
	return true;
}

/* The directory's files in `find` order: those of the kernel modelled. */
static int sysfs_files(struct sysfs_file *out, const struct svz_switches *sw)
{
	int k = 0;
	for (int a = 0; a < A__COUNT; a++) {
		if (a == A_stat) {
			for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++)
				if (file_exists(sw, A_stat, si))
					out[k++] = (struct sysfs_file){ stat_names[si], A_stat, si, 0 };
		} else if (file_exists(sw, a, -1)) {
			out[k++] = (struct sysfs_file){ attr_names[a], a, -1, 0 };
		}
	}
	for (int i = 0; i < k; i++)
		out[i].hash = kernfs_name_hash(out[i].name);
	qsort(out, (size_t)k, sizeof *out, sysfs_file_cmp);
	return k;
}

/* A symbol-looking name for a constructor, as %pS prints it. */
static void ctor_symbol(const char *cache, struct sbuf *b)
{
	for (const char *p = cache; *p; p++) {
		char ch = *p;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			  (ch >= '0' && ch <= '9') || ch == '_';
		sb_putc(b, ok ? ch : '_');
	}
	sb_puts(b, "_ctor+0x0/0x20");
}

static int flag(struct cache_rec *c, uint32_t f) { return (c->flags & f) != 0; }

/* One attribute's show(): appends the value without its "\n". Returns false
 * for a file that reads back empty. */
static bool show_attr(struct model *m, idx_t ci, const struct sysfs_file *f, struct sbuf *b)
{
	struct cache_rec *c = cache_r(m, ci);
	switch ((enum sysfs_attr)f->attr) {
	case A_slab_size: sb_printf(b, "%u", c->g.size); break;
	case A_object_size: sb_printf(b, "%u", c->g.object_size); break;
	case A_objs_per_slab: sb_printf(b, "%u", c->g.objects); break;
	case A_order: sb_printf(b, "%u", c->g.order); break;
	case A_sheaf_capacity: sb_printf(b, "%u", c->g.sheaf_capacity); break;
	case A_min_partial: sb_printf(b, "%" PRIu64, (uint64_t)c->min_partial); break;
	case A_cpu_partial:
		sb_printf(b, "%u", WORLD(m)->cfg.sw.era == SVZ_ERA_CLASSIC ? c->g.cpu_partial : 0);
		break;
	case A_objects_partial: show_slab_objects(m, ci, SO_PARTIAL | SO_OBJECTS, b); break;
	case A_partial: show_slab_objects(m, ci, SO_PARTIAL, b); break;
	case A_cpu_slabs: show_slab_objects(m, ci, SO_CPU, b); break;
	case A_ctor:
		if (!c->ctor)
			return false;
		ctor_symbol(c->name, b);
		break;
	case A_aliases: sb_printf(b, "%u", c->refcount - 1); break;
	case A_align: sb_printf(b, "%u", c->g.align); break;
	case A_hwcache_align: sb_printf(b, "%d", flag(c, SLAB_HWCACHE_ALIGN)); break;
	case A_reclaim_account: sb_printf(b, "%d", flag(c, SLAB_RECLAIM_ACCOUNT)); break;
	case A_destroy_by_rcu: sb_printf(b, "%d", flag(c, SLAB_TYPESAFE_BY_RCU)); break;
	case A_shrink: return false;
	case A_slabs_cpu_partial: show_slabs_cpu_partial(m, ci, b); break;
	case A_total_objects: show_slab_objects(m, ci, SO_ALL | SO_TOTAL, b); break;
	case A_objects: show_slab_objects(m, ci, SO_ALL | SO_OBJECTS, b); break;
	case A_slabs: show_slab_objects(m, ci, SO_ALL, b); break;
	case A_sanity_checks: sb_printf(b, "%d", flag(c, SLAB_CONSISTENCY_CHECKS)); break;
	case A_trace: sb_printf(b, "%d", flag(c, SLAB_TRACE)); break;
	case A_red_zone: sb_printf(b, "%d", flag(c, SLAB_RED_ZONE)); break;
	case A_poison: sb_printf(b, "%d", flag(c, SLAB_POISON)); break;
	case A_store_user: sb_printf(b, "%d", flag(c, SLAB_STORE_USER)); break;
	case A_validate: return false;
	case A_cache_dma: sb_printf(b, "%d", flag(c, SLAB_CACHE_DMA)); break;
	case A_remote_node_defrag_ratio: sb_printf(b, "%u", c->remote_node_defrag_ratio / 10); break;
	case A_stat: show_stat(m, ci, (enum stat_item)f->stat, b); break;
	/* kmalloc caches are created with usersize = size (create_kmalloc_cache ->
	 * create_boot_cache(..., 0, size)); other caches declare none. */
	case A_usersize: sb_printf(b, "%u", c->is_kmalloc ? c->g.object_size : 0u); break;
	case A_skip_kfence: sb_puts(b, "0"); break; /* SLAB_SKIP_KFENCE is not modelled */
	default: return false;
	}
	return true;
}

/* `(cd /sys/kernel/slab/<cache> && find . -type f -exec grep -aH . {} \;)`:
 * "./<attr>:<value>" per non-empty file, in kernfs hash order. The oldest
 * live cache of that name owns the directory. */
int view_sysfs(struct model *m, const char *cache, struct sbuf *b)
{
	struct world *w = WORLD(m);
	idx_t ci = cache ? model_find_cache(m, cache) : NIL; /* an alias opens its cache */
	if (ci == NIL)
		return -1;

	struct sysfs_file files[NR_SYSFS_FILES];
	struct sbuf val = {0};
	int nfiles = sysfs_files(files, &w->cfg.sw);
	sb_puts(b, "");
	for (int i = 0; i < nfiles; i++) {
		val.len = 0;
		if (val.s)
			val.s[0] = 0;
		if (!show_attr(m, ci, &files[i], &val))
			continue;
		sb_printf(b, "./%s:%s\n", files[i].name, val.s ? val.s : "");
	}
	sb_free(&val);
	return 0;
}

/* sysfs_slab_add(): an unmergeable cache's directory is its name; a
 * mergeable one's is create_unique_id() - ':', flag letters (d DMA, D DMA32,
 * a RECLAIM_ACCOUNT, F CONSISTENCY_CHECKS, A ACCOUNT) and '-' if any, then
 * s->size in 7 digits - and each of its names (its own, then the caches
 * merged into it) is a symlink to it: "cache DIR" and "link NAME" lines. */
static void sysfs_dir_and_links(struct model *m, idx_t ci, struct sbuf *b)
{
	const struct cache_rec *c = cache_r(m, ci);
	const bool unmergeable = WORLD(m)->cfg.sw.slab_nomerge || (c->flags & SLAB_NEVER_MERGE) ||
				 c->ctor || c->is_kmalloc || c->sheaf_req;
	if (unmergeable) {
		sb_printf(b, "cache %s\n", c->name);
		return;
	}
	static const struct { uint32_t flag; char letter; } letters[] = {
		{ SLAB_CACHE_DMA, 'd' }, { SLAB_CACHE_DMA32, 'D' }, { SLAB_RECLAIM_ACCOUNT, 'a' },
		{ SLAB_CONSISTENCY_CHECKS, 'F' }, { SLAB_ACCOUNT, 'A' },
	};
	sb_puts(b, "cache :");
	bool any = false;
	for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
		if (c->flags & letters[i].flag) {
			sb_putc(b, letters[i].letter);
			any = true;
		}
	sb_printf(b, "%s%07u\nlink %s\n", any ? "-" : "", c->g.size, c->name);
	const struct svz_trace *t = m->trace;
	for (uint32_t i = 0; t && i < t->nr_caches; i++)
		if (*u32_at(m, WORLD(m)->cache_map + i) == ci && strcmp(t->caches[i].name, c->name) != 0)
			sb_printf(b, "link %s\n", t->caches[i].name);
}

/* The whole of /sys/kernel/slab as text, for a writer that makes the
 * directory (slubviz run --sysfs-tree): every live cache in /proc/slabinfo
 * order, "cache <dir>" and its "link <name>" lines, then one "<file>\t<value>" line per file of the
 * kernel modelled, the value being what show() prints without its "\n"
 * (empty for a file that reads back empty). */
void view_sysfs_tree(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	struct sysfs_file files[NR_SYSFS_FILES];
	struct sbuf val = {0};
	int nfiles = sysfs_files(files, &w->cfg.sw);

	sb_puts(b, "");
	for (uint32_t ci = w->nr_caches; ci-- > 0;) {
		if (!cache_r(m, ci)->alive)
			continue;
		sysfs_dir_and_links(m, ci, b);
		for (int i = 0; i < nfiles; i++) {
			val.len = 0;
			if (val.s)
				val.s[0] = 0;
			show_attr(m, ci, &files[i], &val);
			sb_printf(b, "%s\t%s\n", files[i].name, val.s ? val.s : "");
		}
	}
	sb_free(&val);
}

/* ---- stats dump ------------------------------------------------------------ */

/* Plain text, one cache per block in creation order, every stat item (even
 * zero) so that two dumps diff line by line:
 *   cache <name>
 *     <stat> <total> C<cpu>=<n>...      (CPUs with a non-zero count)
 *     node<N> list_lock=.. ...          (nodes where a model counter is non-zero)
 *     fp_writes <n>
 *     slabs_allocated <n> slabs_freed <n>
 *   page_alloc
 *     node<N> alloc order<k>=<n>... free order<k>=<n>... failed=<n>
 * Counts here are the model's full 64-bit values (sysfs truncates per CPU). */
void view_stats(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);

	sb_puts(b, "");
	for (uint32_t ci = 0; ci < w->nr_caches; ci++) {
		if (!cache_r(m, ci)->alive)
			continue;
		sb_printf(b, "cache %s\n", cache_r(m, ci)->name);
		for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
			if (!stat_in_era((enum stat_item)si, w->cfg.sw.era))
				continue;
			uint64_t sum = 0;
			for (int cpu = 0; cpu < w->nr_cpus; cpu++)
				sum += *stat_ptr(m, ci, cpu, (enum stat_item)si);
			sb_printf(b, "  %s %" PRIu64, stat_names[si], sum);
			for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
				uint64_t x = *stat_ptr(m, ci, cpu, (enum stat_item)si);
				if (x)
					sb_printf(b, " C%d=%" PRIu64, cpu, x);
			}
			sb_putc(b, '\n');
		}
		for (int node = 0; node < w->nr_nodes; node++) {
			struct cnode_rec *n = get_node(m, ci, node);
			if (!n)
				continue;
			bool any = false;
			for (int k = 0; k < NR_NODE_COUNTERS; k++)
				any |= n->counters[k] != 0;
			if (!any)
				continue;
			sb_printf(b, "  node%d", node);
			for (int k = 0; k < NR_NODE_COUNTERS; k++)
				sb_printf(b, " %s=%" PRIu64, node_counter_names[k], n->counters[k]);
			sb_putc(b, '\n');
		}
		struct cache_rec *c = cache_r(m, ci);
		sb_printf(b, "  fp_writes %" PRIu64 "\n", c->fp_writes);
		sb_printf(b, "  slabs_allocated %" PRIu64 " slabs_freed %" PRIu64 "\n",
			  c->slabs_allocated, c->slabs_freed);
	}
	sb_puts(b, "page_alloc\n");
	for (int node = 0; node < w->nr_nodes; node++) {
		struct node_rec *nr = &w->nodes[node];
		sb_printf(b, "  node%d alloc", node);
		for (int o = 0; o <= SVZ_MAX_PAGE_ORDER; o++)
			if (nr->alloc_calls[o])
				sb_printf(b, " order%d=%" PRIu64, o, nr->alloc_calls[o]);
		sb_puts(b, " free");
		for (int o = 0; o <= SVZ_MAX_PAGE_ORDER; o++)
			if (nr->free_calls[o])
				sb_printf(b, " order%d=%" PRIu64, o, nr->free_calls[o]);
		sb_printf(b, " failed=%" PRIu64 "\n", nr->failed_calls);
	}
}

/* ---- JSON snapshot --------------------------------------------------------- */

static const char *const sheaf_where_names[] = {
	[SH_NONE] = "none", [SH_MAIN] = "main", [SH_SPARE] = "spare",
	[SH_BARN_FULL] = "barn_full", [SH_BARN_EMPTY] = "barn_empty", [SH_DETACHED] = "detached",
	[SH_PREFILLED] = "prefilled", [SH_RCU_FREE] = "rcu_free", [SH_RCU_PENDING] = "rcu_pending",
};

static const char *const list_id_names[] = {
	[LIST_NONE] = "none", [LIST_PARTIAL] = "partial", [LIST_FULL] = "full",
	[LIST_PRIVATE] = "private", [LIST_CPU_SLAB] = "cpu_slab", [LIST_CPU_PARTIAL] = "cpu_partial",
};

static char obj_state_char(uint8_t st)
{
	static const char map[] = { [OBJ_FREE] = 'f', [OBJ_USER] = 'u', [OBJ_SHEAF] = 's',
				    [OBJ_BULK] = 'b', [OBJ_CHAIN] = 'c', [OBJ_LOST] = 'l',
				    [OBJ_CPU_FREELIST] = 'p', [OBJ_RCU] = 'r' };
	return st < sizeof map && map[st] ? map[st] : '?';
}

static void json_idx(struct sbuf *b, idx_t i)
{
	if (i == NIL)
		sb_puts(b, "null");
	else
		sb_printf(b, "%u", i);
}

/* Slab ids on a slab list, head first. */
static void json_slab_list(struct model *m, struct sbuf *b, const struct dlist *l)
{
	uint32_t guard = pool_len(m, P_SLAB);
	bool first = true;
	sb_putc(b, '[');
	for (idx_t s = list_first(m, P_SLAB, l->first); s != NIL && guard--; s = slab_next(m, s)) {
		sb_printf(b, "%s%u", first ? "" : ",", s);
		first = false;
	}
	sb_putc(b, ']');
}

/* Sheaf ids on a barn list, head first. */
static void json_sheaf_list(struct model *m, struct sbuf *b, const struct dlist *l)
{
	uint32_t n = pool_len(m, P_SHEAF), guard = n;
	bool first = true;
	sb_putc(b, '[');
	for (idx_t s = list_first(m, P_SHEAF, l->first); s != NIL && guard--;) {
		sb_printf(b, "%s%u", first ? "" : ",", s);
		first = false;
		idx_t nx = sheaf_r(m, s)->lnext;
		s = nx < n ? nx : NIL;
	}
	sb_putc(b, ']');
}

static void json_hex(struct sbuf *b, uint64_t v)
{
	sb_printf(b, "\"%016" PRIx64 "\"", v);
}

static void json_config(struct model *m, struct sbuf *b)
{
	const struct svz_config *cfg = &WORLD(m)->cfg;
	static const char *const cpu_src[] = { "online", "present", "possible" };
	const struct svz_switches *sw = &cfg->sw;

	sb_puts(b, "\"config\":{\"preset\":");
	sb_json_str(b, cfg->preset);
	sb_printf(b, ",\"era\":\"%s\",\"page_size\":%u,\"switches\":{",
		  sw->era == SVZ_ERA_CLASSIC ? "classic" : "sheaves", cfg->topo.page_size);
	sb_printf(b, "\"cpu_source\":\"%s\",\"order_form\":\"%s\"",
		  (unsigned)sw->cpu_source < 3 ? cpu_src[sw->cpu_source] : "?",
		  sw->order_form == SVZ_ORDER_LOOP ? "loop" : "fraction");
	/* every on/off switch, by its key, in switches.def's order */
	const char *key, *alias, *choices, *what;
	for (int i = 0; svz_switch_info(i, &key, &alias, &choices, &what) >= 0; i++)
		if (svz_switch_bool(sw, i) >= 0)
			sb_printf(b, ",\"%s\":%s", key, svz_switch_bool(sw, i) ? "true" : "false");
	sb_printf(b, ",\"seed\":\"%" PRIu64 "\"}}", sw->seed);
}

static void json_topology(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	const struct svz_topology *t = &w->cfg.topo;

	sb_printf(b, "\"topology\":{\"nr_cpus\":%d,\"possible\":%d,\"present\":%d,\"online\":%d,"
		  "\"nodes\":[", w->nr_cpus, t->possible, t->present, t->online);
	for (int node = 0; node < w->nr_nodes; node++) {
		struct node_rec *nr = &w->nodes[node];
		sb_printf(b, "%s{\"id\":%d,\"mem_pages\":%" PRIu64 ",\"used_pages\":%" PRIu64
			  ",\"has_memory\":%s,\"cpus\":[", node ? "," : "", node, nr->mem_pages,
			  nr->used_pages, nr->mem_pages ? "true" : "false");
		bool first = true;
		for (int cpu = 0; cpu < w->nr_cpus; cpu++)
			if (w->cpus[cpu].node == node) {
				sb_printf(b, "%s%d", first ? "" : ",", cpu);
				first = false;
			}
		sb_puts(b, "]}");
	}
	sb_puts(b, "]}");
}

static void json_cache(struct model *m, struct sbuf *b, idx_t ci)
{
	struct world *w = WORLD(m);
	struct cache_rec *c = cache_r(m, ci);
	char flags[256];

	svz_slab_flags_format(c->flags, flags, sizeof flags);
	sb_printf(b, "{\"id\":%u,\"name\":", ci);
	sb_json_str(b, c->name);
	sb_printf(b, ",\"alive\":%s,\"kmalloc\":%s,\"has_sheaves\":%s,\"ctor\":%s,\"flags\":",
		  c->alive ? "true" : "false", c->is_kmalloc ? "true" : "false",
		  c->has_sheaves ? "true" : "false", c->ctor ? "true" : "false");
	sb_json_str(b, flags);
	sb_printf(b, ",\"size\":%u,\"object_size\":%u,\"align\":%u,\"offset\":%u,\"order\":%u,"
		  "\"objects\":%u,\"min_order\":%u,\"min_objects\":%u,\"min_partial\":%u,"
		  "\"sheaf_capacity\":%u,\"remote_node_defrag_ratio\":%u",
		  c->g.size, c->g.object_size, c->g.align, c->g.offset, c->g.order, c->g.objects,
		  c->g.min_order, c->g.min_objects, c->min_partial, c->g.sheaf_capacity,
		  c->remote_node_defrag_ratio);
	sb_printf(b, ",\"fp_writes\":%" PRIu64 ",\"slabs_allocated\":%" PRIu64
		  ",\"slabs_freed\":%" PRIu64, c->fp_writes, c->slabs_allocated, c->slabs_freed);
	if (!c->alive) {
		sb_putc(b, '}');
		return;
	}

	sb_puts(b, ",\"stats\":{");
	for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
		sb_printf(b, "%s\"%s\":[", si ? "," : "", stat_names[si]);
		for (int cpu = 0; cpu < w->nr_cpus; cpu++)
			sb_printf(b, "%s%" PRIu64, cpu ? "," : "",
				  *stat_ptr(m, ci, cpu, (enum stat_item)si));
		sb_putc(b, ']');
	}
	sb_putc(b, '}');

	sb_puts(b, ",\"nodes\":[");
	bool first = true;
	for (int node = 0; node < w->nr_nodes; node++) {
		struct cnode_rec *n = get_node(m, ci, node);
		if (!n)
			continue;
		sb_printf(b, "%s{\"node\":%d,\"list_lock\":%d,\"nr_partial\":%u,\"nr_slabs\":%" PRIu64
			  ",\"total_objects\":%" PRIu64 ",\"partial\":", first ? "" : ",", node,
			  n->list_lock, n->nr_partial, n->nr_slabs, n->total_objects);
		first = false;
		json_slab_list(m, b, &n->partial);
		sb_puts(b, ",\"full\":");
		json_slab_list(m, b, &n->full);
		sb_puts(b, ",\"counters\":{");
		for (int k = 0; k < NR_NODE_COUNTERS; k++)
			sb_printf(b, "%s\"%s\":%" PRIu64, k ? "," : "", node_counter_names[k],
				  n->counters[k]);
		sb_puts(b, "},\"barn\":");
		if (n->barn == NIL || n->barn >= pool_len(m, P_BARN)) {
			sb_puts(b, "null");
		} else {
			struct barn_rec *br = barn_r(m, n->barn);
			sb_printf(b, "{\"id\":%u,\"lock\":%d,\"nr_full\":%u,\"nr_empty\":%u,\"full\":",
				  n->barn, br->lock, br->nr_full, br->nr_empty);
			json_sheaf_list(m, b, &br->sheaves_full);
			sb_puts(b, ",\"empty\":");
			json_sheaf_list(m, b, &br->sheaves_empty);
			sb_putc(b, '}');
		}
		sb_putc(b, '}');
	}
	sb_puts(b, "],\"cpus\":[");
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		struct pcs_rec *p = pcs_r(m, pcs_idx(m, ci, cpu));
		sb_printf(b, "%s{\"cpu\":%d,\"lock\":%d,\"main\":", cpu ? "," : "", cpu, p->lock);
		json_idx(b, p->main);
		sb_puts(b, ",\"spare\":");
		json_idx(b, p->spare);
		sb_puts(b, ",\"rcu_free\":");
		json_idx(b, p->rcu_free);
		/* kmem_cache_cpu (classic era): c->freelist, c->slab, c->partial, tid */
		sb_puts(b, ",\"freelist\":[");
		uint32_t nobj = pool_len(m, P_OBJ), guard = nobj;
		for (idx_t o = p->c_freelist; o != NIL && o < nobj && guard--; o = obj_r(m, o)->next)
			sb_printf(b, "%s%u", o == p->c_freelist ? "" : ",", o);
		sb_puts(b, "],\"slab\":");
		json_idx(b, p->c_slab);
		sb_puts(b, ",\"partial\":[");
		guard = pool_len(m, P_SLAB);
		for (idx_t s = p->c_partial; s != NIL && s < pool_len(m, P_SLAB) && guard-- > 0;
		     s = slab_r(m, s)->next_partial)
			sb_printf(b, "%s%u", s == p->c_partial ? "" : ",", s);
		sb_printf(b, "],\"tid\":%" PRIu64 "}", p->tid);
	}
	sb_puts(b, "]}");
}

static void json_sheaf(struct model *m, struct sbuf *b, idx_t sh, bool comma)
{
	struct sheaf_rec *s = sheaf_r(m, sh);
	sb_printf(b, "%s{\"id\":%u,\"cache\":%u,\"size\":%u,\"capacity\":%u,\"node\":%d,"
		  "\"where\":\"%s\",\"where_id\":%d,\"objects\":[", comma ? "," : "", sh, s->cache,
		  s->size, s->capacity, s->node,
		  s->where < sizeof sheaf_where_names / sizeof *sheaf_where_names ?
			  sheaf_where_names[s->where] : "?", s->where_id);
	uint32_t n = s->size < s->capacity ? s->size : s->capacity;
	if (s->slots != NIL && s->slots + n <= pool_len(m, P_U32))
		for (uint32_t i = 0; i < n; i++)
			sb_printf(b, "%s%u", i ? "," : "", *u32_at(m, s->slots + i));
	sb_puts(b, "]}");
}

static void json_slab(struct model *m, struct sbuf *b, idx_t si, bool comma)
{
	struct slab_rec *s = slab_r(m, si);
	uint32_t nobj = pool_len(m, P_OBJ);
	bool objs_ok = s->obj0 != NIL && s->obj0 + s->objects <= nobj;

	sb_printf(b, "%s{\"id\":%u,\"cache\":%u,\"node\":%d,\"order\":%u,\"objects\":%u,"
		  "\"inuse\":%u,\"frozen\":%s,\"list\":\"%s\",\"pfn\":%" PRIu64 ",\"base\":",
		  comma ? "," : "", si, s->cache, s->node, s->order, s->objects, s->inuse,
		  s->frozen ? "true" : "false",
		  s->list < sizeof list_id_names / sizeof *list_id_names ? list_id_names[s->list] : "?",
		  s->pfn);
	json_hex(b, slab_base(m, si));
	sb_puts(b, ",\"slab\":");
	json_hex(b, slab_addr(m, si));
	sb_printf(b, ",\"obj0\":%u,\"freelist\":[", s->obj0);
	uint32_t steps = 0;
	idx_t o = s->freelist;
	for (; o != NIL && o < nobj && steps <= s->objects; o = obj_r(m, o)->next, steps++)
		sb_printf(b, "%s%u", steps ? "," : "", o);
	/* a free pointer that leaves the pool or a list longer than the slab */
	sb_printf(b, "],\"freelist_broken\":%s,\"state\":\"",
		  (o != NIL && o >= nobj) || steps > s->objects ? "true" : "false");
	for (uint32_t i = 0; objs_ok && i < s->objects; i++)
		sb_putc(b, obj_state_char(obj_r(m, s->obj0 + i)->state));
	sb_puts(b, "\",\"free\":[");
	bool first = true;
	for (uint32_t i = 0; objs_ok && i < s->objects; i++) {
		idx_t oi = s->obj0 + i;
		struct obj_rec *or = obj_r(m, oi);
		if (or->state != OBJ_FREE)
			continue;
		sb_printf(b, "%s{\"obj\":%u,\"raw\":", first ? "" : ",", oi);
		first = false;
		if (or->next == NIL || or->next < nobj) {
			json_hex(b, freeptr_raw(m, oi));
			sb_puts(b, ",\"next\":");
			json_hex(b, or->next == NIL ? 0 : obj_addr(m, or->next));
		} else {
			sb_puts(b, "null,\"next\":null");
		}
		sb_putc(b, '}');
	}
	/* who holds each allocated object: the trace's handle and call site */
	sb_puts(b, "],\"owners\":[");
	first = true;
	for (uint32_t i = 0; objs_ok && i < s->objects; i++) {
		idx_t oi = s->obj0 + i;
		struct obj_rec *or = obj_r(m, oi);
		if (!m->trace || or->state != OBJ_USER || or->holder >= m->trace->nr_handles)
			continue;
		sb_printf(b, "%s{\"obj\":%u,\"handle\":", first ? "" : ",", oi);
		sb_json_str(b, m->trace->handle_names[or->holder]);
		sb_puts(b, ",\"site\":");
		sb_json_str(b, or->site && or->site < m->trace->nr_sites ? m->trace->sites[or->site] : "");
		sb_putc(b, '}');
		first = false;
	}
	sb_puts(b, "]}");
}

static void json_cpus(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	sb_puts(b, "\"cpus\":[");
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		struct cpu_rec *c = &w->cpus[cpu];
		int depth = c->depth < 0 ? 0 : c->depth > FRAME_DEPTH ? FRAME_DEPTH : c->depth;
		sb_printf(b, "%s{\"cpu\":%d,\"node\":%d,\"op\":", cpu ? "," : "", cpu, c->node);
		if (depth > 0)
			sb_printf(b, "%u", c->op);
		else
			sb_puts(b, "null");
		sb_puts(b, ",\"frames\":[");
		for (int i = 0; i < depth; i++) {
			uint8_t k = frame_r(m, (idx_t)cpu * FRAME_DEPTH + (idx_t)i)->k_fn;
			sb_printf(b, "%s\"%s\"", i ? "," : "", k < KFN__COUNT ? kfn_names[k] : "?");
		}
		sb_puts(b, "],\"bulk\":[");
		if (c->bulk != NIL && c->bulk + c->bulk_len <= pool_len(m, P_U32))
			for (uint32_t i = 0; i < c->bulk_len; i++)
				sb_printf(b, "%s%u", i ? "," : "", *u32_at(m, c->bulk + i));
		sb_printf(b, "],\"chain_len\":%u,\"pending\":", c->chain_len);
		json_idx(b, c->pending);
		sb_puts(b, ",\"private\":");
		json_slab_list(m, b, &c->private_list);
		sb_puts(b, ",\"sheaf_stash\":");
		json_sheaf_list(m, b, &c->sheaf_stash);
		sb_putc(b, '}');
	}
	sb_putc(b, ']');
}

/* The whole model state for the browser.
 *
 * Schema 1 (SVZ_SNAPSHOT_SCHEMA). Ids are indices into the model's pools and
 * match the ids in events ("cache", "slab", "obj", "sheaf"). Addresses are
 * 16-digit hex strings without 0x, like events' "addr". 64-bit counts are
 * JSON numbers, except config.switches.seed (a decimal string).
 * {
 *   "schema": 1, "seq": micro-steps so far, "ops_done", "inflight",
 *   "stopped": bool, "reports": count,
 *   "config": { "preset", "era": "sheaves"|"classic", "page_size",
 *               "switches": { "cpu_source", "order_form", "freelist_random",
 *                 "freelist_hardened", "fix1", "fix2", "deferred_freelist",
 *                 "batched_partial", "cpu_partial_free", "continue_on_error", "seed" } },
 *   "topology": { "nr_cpus", "possible", "present", "online",
 *                 "nodes": [ { "id", "mem_pages", "used_pages", "has_memory",
 *                              "cpus": [cpu...] } ] },
 *   "caches": [ { "id", "name", "alive", "kmalloc", "has_sheaves", "ctor",
 *       "flags": "HWCACHE_ALIGN|..." or "0", "size", "object_size", "align",
 *       "offset", "order", "objects", "min_order", "min_objects",
 *       "min_partial", "sheaf_capacity", "remote_node_defrag_ratio",
 *       "fp_writes", "slabs_allocated", "slabs_freed",
 *       live caches only:
 *       "stats": { "<stat name>": [count per cpu] },
 *       "nodes": [ { "node", "list_lock": owner cpu or -1, "nr_partial",
 *                    "nr_slabs", "total_objects", "partial": [slab ids, head
 *                    first], "full": [slab ids], "counters": {name: n},
 *                    "barn": null | { "id", "lock", "nr_full", "nr_empty",
 *                                     "full": [sheaf ids], "empty": [...] } } ]
 *                  (only nodes with a kmem_cache_node, i.e. with memory),
 *       "cpus": [ { "cpu", "lock", "main": sheaf id | null (bootstrap sheaf),
 *                   "spare": sheaf id | null, "rcu_free": sheaf id | null,
 *                   kmem_cache_cpu of the classic era: "freelist": [object
 *                   ids of c->freelist], "slab": c->slab id | null,
 *                   "partial": [slab ids of c->partial, head first],
 *                   "tid" } ] } ],
 *   "sheaves": [ { "id", "cache", "size", "capacity", "node", "where":
 *       "none"|"main"|"spare"|"barn_full"|"barn_empty"|"detached"|"prefilled"|
 *       "rcu_free"|"rcu_pending", "where_id":
 *       cpu or node, "objects": [object ids, bottom of the stack first] } ],
 *   "slabs": [ { "id", "cache", "node", "order", "objects", "inuse", "frozen",
 *       "list": "none"|"partial"|"full"|"private"|"cpu_slab"|"cpu_partial",
 *       "pfn", "base": first byte,
 *       "slab": struct slab address, "obj0": id of object 0,
 *       "freelist": [object ids in freelist order], "freelist_broken": bool,
 *       "state": one char per object: f free, u user, s sheaf, b bulk,
 *                c chain, l lost, p on a CPU's c->freelist, r kfree_rcu
 *                batch,
 *       "owners": [ { "obj", "handle": the trace's name, "site": call site
 *                     label or "" } ] for objects held by handles,
 *       "free": [ { "obj", "raw": stored free pointer (hardened encoding when
 *                   freelist_hardened), "next": decoded next address, 0 at
 *                   the end } ] } ],
 *   "large": [ { "id", "node", "order", "pfn", "size" } ],
 *   "cpus": [ { "cpu", "node", "op": op index or null when idle, "frames":
 *       [kfn names, outermost first], "bulk": [object ids], "chain_len",
 *       "pending": object id | null, "private": [slab ids],
 *       "sheaf_stash": [sheaf ids] } ]
 * }
 * Sheaves, slabs and large allocations list live records only, by id. */
void view_snapshot_json(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);

	sb_printf(b, "{\"schema\":1,\"seq\":%" PRId64 ",\"ops_done\":%u,\"inflight\":%u,"
		  "\"stopped\":%s,\"reports\":%" PRIu64 ",", w->seq, w->ops_done, w->inflight,
		  w->stopped ? "true" : "false", w->reports);
	json_config(m, b);
	sb_putc(b, ',');
	json_topology(m, b);

	sb_puts(b, ",\"caches\":[");
	for (uint32_t ci = 0; ci < w->nr_caches; ci++) {
		if (ci)
			sb_putc(b, ',');
		json_cache(m, b, ci);
	}

	sb_puts(b, "],\"sheaves\":[");
	bool first = true;
	for (idx_t sh = 0; sh < pool_len(m, P_SHEAF); sh++)
		if (sheaf_r(m, sh)->alive) {
			json_sheaf(m, b, sh, !first);
			first = false;
		}

	sb_puts(b, "],\"slabs\":[");
	first = true;
	for (idx_t s = 0; s < pool_len(m, P_SLAB); s++)
		if (slab_r(m, s)->alive) {
			json_slab(m, b, s, !first);
			first = false;
		}

	sb_puts(b, "],\"large\":[");
	first = true;
	for (idx_t l = 0; l < pool_len(m, P_LARGE); l++) {
		struct large_rec *lr = large_r(m, l);
		if (!lr->alive)
			continue;
		sb_printf(b, "%s{\"id\":%u,\"node\":%d,\"order\":%u,\"pfn\":%" PRIu64 ",\"size\":%u}",
			  first ? "" : ",", l, lr->node, lr->order, lr->pfn, lr->size);
		first = false;
	}
	sb_puts(b, "],");
	json_cpus(m, b);
	sb_puts(b, "}\n");
}
