/* /sys/kernel/slab/<cache>/ (views.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/views.h"
#include "model/model.h"

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
/* Per-CPU partial lists exist in the classic era and, at the bisection
 * blocker 17c38c88294d (cpu_partial_free), on the free path still: their
 * sysfs code went one commit later (e323b52cf00f "slab: remove
 * SLUB_CPU_PARTIAL"), which made cpu_partial "0" and slabs_cpu_partial
 * "0(0)". */
static bool has_cpu_partial(const struct model *m)
{
	return WORLD(m)->cfg.sw.era == SVZ_ERA_CLASSIC || WORLD(m)->cfg.sw.cpu_partial_free;
}

static void show_slabs_cpu_partial(struct model *m, idx_t ci, struct sbuf *b)
{
	struct world *w = WORLD(m);
	const bool counted = w->cfg.sw.cpu_partial_objects;
	uint32_t per = cache_r(m, ci)->g.objects;
	int64_t slabs = 0, objects = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int cpu = 0; cpu < w->nr_cpus && has_cpu_partial(m); cpu++) {
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
 * the sheaf counters since v6.18, skip_kfence since v6.1 ("kfence: add
 * sysfs interface to disable kfence for selected slabs", posted after the
 * v6.0 merge window, Aug 2022);
 * the counters of the kernel (stat_in_kernel()). */
static bool file_exists(const struct svz_switches *sw, int attr, int si)
{
	const bool since_618 = sw->era == SVZ_ERA_SHEAVES || svz_kernel_at_least(sw, 618);
	if (attr == A_stat)
		return stat_in_kernel((enum stat_item)si, sw) && (since_618 || !sheaf_stat((enum stat_item)si));
	if (attr == A_sheaf_capacity)
		return since_618;
	if (attr == A_skip_kfence)
		return svz_kernel_at_least(sw, 601);
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
		sb_printf(b, "%u", has_cpu_partial(m) ? c->g.cpu_partial : 0);
		break;
	case A_objects_partial: show_slab_objects(m, ci, SO_PARTIAL | SO_OBJECTS, b); break;
	case A_partial: show_slab_objects(m, ci, SO_PARTIAL, b); break;
	case A_cpu_slabs: show_slab_objects(m, ci, SO_CPU, b); break;
	case A_ctor:
		if (!c->ctor)
			return false;
		ctor_symbol(c->name, b);
		break;
	case A_aliases: sb_printf(b, "%u", c->refcount > 0 ? c->refcount - 1 : 0); break;
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
 * live cache of that name owns the directory; a name merged into another
 * cache opens that cache (its symlink). */
int view_sysfs(struct model *m, const char *cache, struct sbuf *b)
{
	struct world *w = WORLD(m);
	idx_t ci = cache ? model_find_cache(m, cache) : NIL;
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
	if (cache_unmergeable(m, ci)) {
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
 * order, "cache <dir>" and its "link <name>" lines, then one
 * "<file>\t<value>" line per file of the kernel modelled, the value being
 * what show() prints without its "\n" (empty for a file that reads back
 * empty). */
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
