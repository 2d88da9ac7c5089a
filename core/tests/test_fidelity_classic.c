/* Per-version classic paths (issue 10 item 1): the same small traces under
 * presets of kernels that changed one branch, with every expected counter
 * derived by hand from that kernel's mm/slub.c (the derivation is the
 * comment above each check).
 *
 * Geometry shared by the traces: cache t, size=256, no flags, 4 KiB pages,
 * three CPUs on one node. s->size = 256 (free pointer inside the object),
 * calculate_order(): min_objects = 4 * (fls(3) + 1) = 12, and order 0 holds
 * 4096 / 256 = 16 objects with no waste, so both the loop form (v5.10,
 * v6.6) and the fraction form (v6.8+) pick order 0: 16 objects per slab.
 * set_cpu_partial(): size >= 256, so
 *   before v5.16 (b47291ef02b0): cpu_partial = 13 objects;
 *   since:                        cpu_partial = 52, cpu_partial_slabs =
 *                                 DIV_ROUND_UP(52 * 2, 16) = 7. */
#define _POSIX_C_SOURCE 200809L /* setenv() */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "slubviz/sizing.h"
#include "slubviz/slubviz.h"

#define stat_cpu svz_t_stat_cpu
#define stat_total svz_t_stat_total

/* A trace built line by line: the traces here repeat their ops. */
struct text {
	size_t len;
	char s[16384];
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->s + t->len, sizeof t->s - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len = t->len + (size_t)n < sizeof t->s ? t->len + (size_t)n : sizeof t->s - 1;
}

/* Phase 1: c0 allocates 15 full slabs and one object of a 16th (h0..h240;
 * h[16k .. 16k+15] are the objects of slab k+1, as each slab is used up
 * before the next is made).
 * Phase 2: c1 frees h0, h16, .., h224: one object of each full slab 1..15,
 * so each free finds a full slab (prior == NULL): __slab_free() puts it on
 * c1's partial list, put_cpu_partial(s, slab, drain = 1), CPU_PARTIAL_FREE.
 * Phase 3: c1 frees h225, a second object of slab 15, the head of c1's
 * partial list.
 * Phase 4: c2 allocates y0 and y1 with nothing of its own. */
static struct text *trace(void)
{
	struct text *t = calloc(1, sizeof *t);
	add(t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-2 node=0\nseed 1\ncache t size=256\n");
	for (int i = 0; i <= 240; i++)
		add(t, "c0 alloc t h%d\n", i);
	for (int k = 0; k < 15; k++)
		add(t, "c1 free t h%d\n", 16 * k);
	add(t, "c1 free t h225\nc2 alloc t y0\nc2 alloc t y1\n");
	return t;
}

/* Run text under preset; cache's sysfs text, or NULL (a failed check) if
 * the trace did not open. *h is the handle to close. */
static const char *run_sysfs(const char *text, const char *preset, const char *sets, const char *cache,
			     int *h)
{
	*h = svz_t_run(text, preset, sets);
	CHECK(*h >= 0);
	return *h >= 0 ? svz_sysfs(*h, cache) : NULL;
}

static const char *attr_line(const char *sysfs, const char *attr, char *buf, size_t len)
{
	char key[64];
	snprintf(key, sizeof key, "./%s:", attr);
	const char *l = strstr(sysfs, key);
	if (!l)
		return "(missing)";
	l += strlen(key);
	size_t n = strcspn(l, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), l);
	return buf;
}

/* v5.10 (before v5.16, and before v6.8):
 * Phase 2, put_cpu_partial() of v5.10: drain when the head's pobjects >
 * cpu_partial (13). Each slab joins with objects - inuse = 1 free object,
 * so before free k the head holds pobjects = k - 1: frees 1..14 build a
 * chain of 14 (pobjects 14), free 15 sees 14 > 13 and unfreeze_partials()
 * moves all 14 to the node list (FREE_ADD_PARTIAL 14, CPU_PARTIAL_DRAIN 1);
 * slab 15 starts a new chain: pages 1, pobjects 1.
 * Phase 3: slab 15 is frozen on c1's list (frozen_partial), so the free
 * needs no list: was_frozen, FREE_FROZEN 1.
 * Phase 4, y0: no cpu slab, no partial of its own: get_partial_node() on
 * node 0's 14 slabs (1 free object each): the first becomes the cpu slab
 * (ALLOC_FROM_PARTIAL), available = 1; more go to c2's list
 * (CPU_PARTIAL_NODE) until available > 13 / 2 = 6, i.e. 6 more (available
 * 7). y1: c->freelist empty, get_freelist() of the exhausted cpu slab is
 * NULL (DEACTIVATE_BYPASS), the head of c2's list becomes c->slab
 * (CPU_PARTIAL_ALLOC) and, frozen already, goes through redo:
 * get_freelist() (ALLOC_REFILL).
 * slabs_cpu_partial (v5.10 slabs_cpu_partial_show: the heads' pobjects and
 * pages): c1 1(1); c2's list after popping its head (pobjects 6, pages 6)
 * is headed by the slab that joined fifth: 5(5). Total 6(6). */

/* v6.6 (since v5.16, before v6.8): slabs are counted, and still frozen.
 * Phase 2: drain when the head's slabs >= cpu_partial_slabs (7): frees
 * 1..7 build 7, free 8 drains 7 and starts a new chain, frees 9..14 grow
 * it to 7, free 15 drains 7 again: CPU_PARTIAL_DRAIN 2, FREE_ADD_PARTIAL
 * 14, c1's chain is slab 15 alone.
 * Phase 3: frozen: FREE_FROZEN 1.
 * Phase 4, y0: get_partial_node() stops when partial_slabs (the slabs put
 * on c2's list, the cpu slab not counted) > 7 / 2 = 3: CPU_PARTIAL_NODE 4.
 * y1 as in v5.10: DEACTIVATE_BYPASS 1, CPU_PARTIAL_ALLOC 1, ALLOC_REFILL 1.
 * slabs_cpu_partial (since v5.16: objects = slabs * 16 / 2): c1 1 slab ->
 * 8(1); c2 4 - 1 = 3 slabs -> 24(3); total 4 slabs -> 32(4). */

/* v6.8 (delayed freezing, 8cd3fa428b56): as v6.6 except where frozen
 * mattered. Phase 3: slab 15 on c1's list is not frozen and keeps free
 * objects (prior != NULL, inuse 14): no list work, nothing counted but
 * FREE_SLOWPATH: FREE_FROZEN 0. Phase 4, y1: the slab taken from c2's list
 * is frozen by get_freelist() and goes straight to load_freelist: no
 * ALLOC_REFILL. */
static void test_partial_lists(void)
{
	/* the counters all three share: 16 frees, 15 of them to a full slab,
	 * 14 slabs back to the node list; y0 from the node, y1 from c2's list */
	static const struct {
		const char *preset, *cpu_partial, *slabs_cpu_partial, *cpu_slabs;
		long long drain, frozen, node, refill;
	} want[] = {
		/* cpu_slabs, show_slab_objects(SO_CPU): c0's cpu slab 1; c1 has a
		 * partial list but no cpu slab, so it is skipped; c2's cpu slab 1
		 * plus its chain's head->pages (5 in v5.10, 3 since v5.16) */
		{ "v5.10", "13", "6(6) C1=1(1) C2=5(5)", "7 N0=7", 1, 1, 6, 1 },
		{ "v6.6", "52", "32(4) C1=8(1) C2=24(3)", "5 N0=5", 2, 1, 4, 1 },
		{ "v6.8", "52", "32(4) C1=8(1) C2=24(3)", "5 N0=5", 2, 0, 4, 0 },
	};
	struct text *t = trace();
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h;
		const char *s = run_sysfs(t->s, want[i].preset, NULL, "t", &h);
		if (!s)
			continue;
		char buf[256];
		CHECK_EQ_STR(attr_line(s, "cpu_partial", buf, sizeof buf), want[i].cpu_partial);
		CHECK_EQ_STR(attr_line(s, "objs_per_slab", buf, sizeof buf), "16");
		CHECK_EQ_INT(stat_total(s, "free_slowpath"), 16);
		CHECK_EQ_INT(stat_cpu(s, "cpu_partial_free", 1), 15);
		CHECK_EQ_INT(stat_total(s, "free_add_partial"), 14);
		CHECK_EQ_INT(stat_total(s, "cpu_partial_drain"), want[i].drain);
		CHECK_EQ_INT(stat_total(s, "free_frozen"), want[i].frozen);
		CHECK_EQ_INT(stat_cpu(s, "alloc_from_partial", 2), 1);
		CHECK_EQ_INT(stat_cpu(s, "cpu_partial_node", 2), want[i].node);
		CHECK_EQ_INT(stat_cpu(s, "deactivate_bypass", 2), 1);
		CHECK_EQ_INT(stat_cpu(s, "cpu_partial_alloc", 2), 1);
		CHECK_EQ_INT(stat_cpu(s, "alloc_refill", 2), want[i].refill);
		CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", 2), 2);
		CHECK_EQ_STR(attr_line(s, "slabs_cpu_partial", buf, sizeof buf), want[i].slabs_cpu_partial);
		CHECK_EQ_STR(attr_line(s, "cpu_slabs", buf, sizeof buf), want[i].cpu_slabs);
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
	free(t);
}

/* Counters on CPU 0 of cache t under two presets (v[k] for presets[k]),
 * then the validator. */
struct two_presets { const char *stat; long long v[2]; };
static void check_two_presets(const char *text, const char *const presets[2], const struct two_presets *want)
{
	for (int k = 0; k < 2; k++) {
		int h;
		const char *s = run_sysfs(text, presets[k], NULL, "t", &h);
		if (!s)
			continue;
		for (const struct two_presets *w = want; w->stat; w++) {
			long long got = stat_cpu(s, w->stat, 0);
			CHECK_EQ_INT(got, w->v[k]);
			if (got != w->v[k])
				fprintf(stderr, "  (%s under %s)\n", w->stat, presets[k]);
		}
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
}

/* try_thisnode (9198ffbd2b49, v6.9): node 0 has one page of memory, node 1
 * plenty. c1 (node 1) fills 7 slabs (112 objects), frees one object of
 * each of the first 6 (full slabs: to its partial list) and flushes: 6
 * slabs with 15 objects in use on node 1's partial list, above min_partial
 * (ilog2(256) / 2 = 4, clamped to 5). c0 (node 0) allocates 17 objects
 * with node=0: the first makes a slab on node 0 (its one page), the next
 * 15 are fast, the 17th finds node 0 full.
 *   v6.8: get_partial(node 0): node 0's list is empty and a node was
 *   requested, so no other node is searched; new_slab(node 0) without
 *   __GFP_THISNODE falls back to node 1 in the page allocator: ALLOC_SLAB 2
 *   on c0, ALLOC_FROM_PARTIAL 0.
 *   v6.19: first pass with GFP_NOWAIT | __GFP_THISNODE: node 0 only, no
 *   partial, new_slab fails (no ORDER_FALLBACK: the min order fails too);
 *   second pass with the caller's gfp: get_partial() may now use any node
 *   (get_any_partial: node 1 has 6 > 5 partial slabs): ALLOC_SLAB 1 and
 *   ALLOC_FROM_PARTIAL 1 on c0. */
static void test_try_thisnode(void)
{
	struct text *t = calloc(1, sizeof *t);
	add(t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=4K\nnode 1 mem=64M\n"
	       "cpus 0 node=0\ncpus 1 node=1\nseed 1\ncache t size=256\n");
	for (int i = 0; i < 112; i++)
		add(t, "c1 alloc t h%d\n", i);
	for (int k = 0; k < 6; k++)
		add(t, "c1 free t h%d\n", 16 * k);
	add(t, "c1 flush t\n");
	for (int i = 0; i < 17; i++)
		add(t, "c0 alloc t z%d node=0\n", i);
	static const char *const presets[2] = { "v6.8", "v6.19" };
	static const struct two_presets want[] = {
		{ "alloc_slab", { 2, 1 } }, { "alloc_from_partial", { 0, 1 } }, { "order_fallback", { 0, 0 } }, { 0 },
	};
	check_two_presets(t->s, presets, want);
	free(t);
}

/* ___slab_alloc()'s cpu-partial loop on a slab of the wrong node. c0 (node
 * 0) allocates 17 objects for node 1: a new slab N1a (ALLOC_SLAB), used up,
 * then DEACTIVATE_BYPASS and N1b (ALLOC_SLAB). Freeing o0 finds N1a full:
 * CPU_PARTIAL_FREE, N1a goes to c0's partial list. `alloc z node=0`: the
 * cpu slab N1b mismatches (ALLOC_NODE_MISMATCH, deactivated with 15 free:
 * DEACTIVATE_TO_HEAD); the loop pops N1a, wrong node: __put_partials()
 * (FREE_ADD_PARTIAL); then a node 0 slab (ALLOC_SLAB 3). v6.8 counts
 * CPU_PARTIAL_ALLOC for every slab it pops, before the node check; v6.9
 * ("directly load freelist from cpu partial slab in the likely case")
 * only for the slab it loads: v6.8 1, v6.19 0. */
static void test_cpu_partial_wrong_node(void)
{
	struct text *t = calloc(1, sizeof *t);
	add(t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=1G\nnode 1 mem=1G\n"
	       "cpus 0 node=0\ncpus 1 node=1\nseed 1\ncache t size=256\n");
	for (int i = 0; i < 17; i++)
		add(t, "c0 alloc t o%d node=1\n", i);
	add(t, "c0 free t o0\nc0 alloc t z node=0\n");
	static const char *const presets[2] = { "v6.8", "v6.19" };
	static const struct two_presets want[] = {
		{ "cpu_partial_alloc", { 1, 0 } }, { "cpu_partial_free", { 1, 1 } },
		{ "alloc_node_mismatch", { 1, 1 } }, { "deactivate_to_head", { 1, 1 } },
		{ "free_add_partial", { 1, 1 } }, { "alloc_slab", { 3, 3 } }, { 0 },
	};
	check_two_presets(t->s, presets, want);
	free(t);
}

/* build_detached_freelist() before and after v5.19 ("mm: slab: optimize
 * memcg_slab_free_hook()"). size=2048: 16 objects a slab. x0, x4 and 14
 * more fill slab A; x1, x2, x5 and 13 more slab B; x3, x6 go to slab C,
 * the cpu slab. free_bulk of x0..x6 = A B B C A B C (p[0..6]):
 *  v5.10 (matches become NULL, the next call resumes after the first
 *  skipped index): (C: p6, p3; skips p5, p4, stops at p2; returns 6)
 *  -> do_slab_free on the cpu slab, FREE_FASTPATH 1; (B: p5, p2, p1;
 *  returns 5) -> full slab, FREE_SLOWPATH + CPU_PARTIAL_FREE; (A: p4, p0)
 *  -> the same. Totals: fastpath 1, slowpath 2, cpu_partial_free 2,
 *  free_frozen 0.
 *  v6.6 (matches swapped behind `same`): (C: p6, p3 swapped with p5,
 *  returns 5: p = A B B B A) -> FREE_FASTPATH 1; (A: p4 alone, three
 *  skips, returns 4) -> full slab, CPU_PARTIAL_FREE; (B: p3, p2, p1) ->
 *  CPU_PARTIAL_FREE; (A: p0) -> A is frozen on the per-CPU partial list:
 *  FREE_FROZEN. Totals: fastpath 1, slowpath 3, cpu_partial_free 2,
 *  free_frozen 1. */
static void test_detached_freelist_order(void)
{
	struct text *t = calloc(1, sizeof *t);
	add(t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0 node=0\nseed 1\ncache t size=2048\n"
	       "c0 alloc t x[0]\nc0 alloc t x[4]\n");
	for (int i = 0; i < 14; i++)
		add(t, "c0 alloc t fa%d\n", i);
	add(t, "c0 alloc t x[1]\nc0 alloc t x[2]\nc0 alloc t x[5]\n");
	for (int i = 0; i < 13; i++)
		add(t, "c0 alloc t fb%d\n", i);
	add(t, "c0 alloc t x[3]\nc0 alloc t x[6]\nc0 free_bulk t 7 x\n");
	static const char *const presets[2] = { "v5.10", "v6.6" };
	static const struct two_presets want[] = {
		{ "free_fastpath", { 1, 1 } }, { "free_slowpath", { 2, 3 } },
		{ "cpu_partial_free", { 2, 2 } }, { "free_frozen", { 0, 1 } }, { 0 },
	};
	check_two_presets(t->s, presets, want);
	free(t);
}

/* ___slab_alloc() for a gfp that may not spin (kmalloc_nolock()'s, here
 * gfp=none: no __GFP_RECLAIM bit). a0 takes a new node 0 slab (its cpu
 * slab, 15 objects left). b asks for node 1: the fast path's node check
 * fails, ___slab_alloc (ALLOC_SLOWPATH 2). v6.8: node_match() fails, node
 * 1 has memory: ALLOC_NODE_MISMATCH, deactivate_slab() of the cpu slab
 * with 15 free (DEACTIVATE_TO_HEAD), a new node 1 slab (ALLOC_SLAB 2).
 * v6.18+ (af92793e52c3): without spinning the cpu slab cannot be
 * deactivated, node becomes NUMA_NO_NODE and the object comes off
 * c->freelist: no mismatch, no deactivation, ALLOC_SLAB stays 1. */
static void test_slab_alloc_no_spin(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=1G\nnode 1 mem=1G\ncpus 0 node=0\n"
			"cpus 1 node=1\nseed 1\ncache t size=256\nc0 alloc t a0\nc0 alloc t b node=1 gfp=none\n";
	static const char *const presets[2] = { "v6.8", "v6.19" };
	static const struct two_presets want[] = {
		{ "alloc_slowpath", { 2, 2 } }, { "alloc_slab", { 2, 1 } },
		{ "alloc_node_mismatch", { 1, 0 } }, { "deactivate_to_head", { 1, 0 } }, { 0 },
	};
	check_two_presets(t, presets, want);
}

/* kmalloc_type(): the kmalloc-cg-N caches came with v5.14 (494c1dfe855e
 * "mm: memcg/slab: create a new set of kmalloc-cg-<n> caches"); before,
 * an accounted kmalloc(100) takes kmalloc-128 like any other. */
static void test_kmalloc_cg_caches(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0 node=0\n"
			"c0 kmalloc 100 a gfp=GFP_KERNEL_ACCOUNT\n";
	const struct { const char *preset, *cache; } c[] = {
		{ "v5.12", "\nkmalloc-128 " }, { "v6.6", "\nkmalloc-cg-128 " },
	};
	for (int k = 0; k < 2; k++) {
		int h = svz_t_run(t, c[k].preset, NULL);
		CHECK(h >= 0);
		if (h < 0)
			continue;
		CHECK(strstr(svz_slabinfo(h), c[k].cache) != NULL);
		svz_close(h);
	}
}

/* Each preset lists the sysfs files of its kernel: v5.10's slab_attrs[]
 * has no sheaf_capacity, no sheaf or barn counters (v6.18, 2d517aa09bbc)
 * and no skip_kfence (SLAB_SKIP_KFENCE: "kfence: add sysfs interface to
 * disable kfence for selected slabs", posted 15 Aug 2022, after v6.0-rc1:
 * v6.1, so kernel=6.0 has none); v6.19 has all three kinds (seed 004's
 * v6.19 dump of bio-256 lists them); v7.0 drops the classic counters
 * (cpu_partial_alloc). */
static void test_sysfs_files(void)
{
	static const struct {
		const char *preset, *sets;
		bool sheaf_capacity, barn_get, alloc_cpu_sheaf, skip_kfence, cpu_partial_alloc;
	} want[] = {
		{ "v5.10", NULL, false, false, false, false, true },
		{ "v6.6", "kernel=6.0", false, false, false, false, true },
		{ "v6.6", "kernel=6.1", false, false, false, true, true },
		{ "v6.8", NULL, false, false, false, true, true },
		{ "v6.19", NULL, true, true, true, true, true },
		{ "v7.0-rc1", NULL, true, true, false, true, false },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h = svz_t_run("slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\ncache t size=256\nc0 alloc t a\n", want[i].preset, want[i].sets);
		CHECK(h >= 0);
		if (h < 0)
			continue;
		const char *s = svz_sysfs(h, "t");
		CHECK_EQ_INT(strstr(s, "./sheaf_capacity:") != NULL, want[i].sheaf_capacity);
		CHECK_EQ_INT(strstr(s, "./barn_get:") != NULL, want[i].barn_get);
		CHECK_EQ_INT(strstr(s, "./alloc_cpu_sheaf:") != NULL, want[i].alloc_cpu_sheaf);
		CHECK_EQ_INT(strstr(s, "./skip_kfence:") != NULL, want[i].skip_kfence);
		CHECK_EQ_INT(strstr(s, "./cpu_partial_alloc:") != NULL, want[i].cpu_partial_alloc);
		svz_close(h);
	}
}

/* calculate_sizes() with debug metadata, by hand (64-bit, 4 KiB pages, two
 * CPUs: min_objects = 4 * (fls(2) + 1) = 12).
 * t, object 64, flags RED_ZONE,POISON,STORE_USER,CONSISTENCY_CHECKS
 * (slub_debug=FZPU), align 8:
 *   v6.19: 64 is a whole number of words, so a word of right red zone: 72
 *   (inuse); POISON puts the free pointer after it: offset 72, 80; two
 *   struct track of 32 bytes: 144; RED_ZONE padding word: 152; red_left_pad
 *   ALIGN(8, 8) = 8: 160. Order: get_order(12 * 160) = 0, 4096 / 160 = 25
 *   objects, 96 bytes left <= 4096 / 16: order 0, 25 objects.
 *   v5.10: struct track is 152 bytes (16 return addresses): 80 + 304 + 8 +
 *   8 = 400. Loop form: get_order(12 * 400) = 1, 8192 % 400 = 192 <= 512:
 *   order 1, 20 objects.
 * u, object 60, RED_ZONE only: ALIGN(60, 8) = 64 leaves 4 bytes of slack (no
 *   extra word); free pointer in the middle, ALIGN_DOWN(30, 8) = 24; + 8
 *   padding + 8 left pad = 80; 4096 / 80 = 51 objects (16 left). */
static void test_debug_geometry(void)
{
	const char *text = "slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\n"
			   "cache t size=64 flags=RED_ZONE,POISON,STORE_USER,CONSISTENCY_CHECKS\n"
			   "cache u size=60 flags=RED_ZONE\nc0 alloc t a\nc0 alloc u b\n";
	static const struct { const char *preset, *cache, *slab_size, *objs, *order; } want[] = {
		{ "v6.19", "t", "160", "25", "0" },
		{ "v5.10", "t", "400", "20", "1" },
		{ "v6.19", "u", "80", "51", "0" },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h = svz_t_run(text, want[i].preset, NULL);
		CHECK(h >= 0);
		if (h < 0)
			continue;
		const char *s = svz_sysfs(h, want[i].cache);
		char buf[64];
		CHECK_EQ_STR(attr_line(s, "slab_size", buf, sizeof buf), want[i].slab_size);
		CHECK_EQ_STR(attr_line(s, "objs_per_slab", buf, sizeof buf), want[i].objs);
		CHECK_EQ_STR(attr_line(s, "order", buf, sizeof buf), want[i].order);
		CHECK_EQ_STR(attr_line(s, "cpu_partial", buf, sizeof buf), "0");
		svz_close(h);
	}
	/* a kmalloc cache with STORE_USER keeps orig_size (v6.1+,
	 * slub_debug_orig_size()): kmalloc-64 is naturally aligned to 64; 64 +
	 * 2 * 32 + 4 = 132 -> ALIGN(132, 64) = 192; before v6.1, 128. */
	struct svz_geom_in in = { .object_size = 64, .flags = SLAB_STORE_USER, .is_kmalloc = true,
				  .page_size = 4096, .nr_cpus = 2, .era = SVZ_ERA_CLASSIC, .kernel = 619 };
	struct svz_geom g;
	char err[128];
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.size, 192);
	CHECK_EQ_INT(g.offset, 32);
	in.kernel = 600;
	CHECK_EQ_INT(svz_calculate_geometry(&in, &g, err, sizeof err), 0);
	CHECK_EQ_INT(g.size, 128);
}

/* Debug caches take their own paths (c7323a5ad078, v6.1). Cache t as in
 * test_debug_geometry (FZPU): 25 objects a slab on v6.19, 20 on v5.10;
 * min_partial 5 either way (ilog2(160) / 2 = 3, ilog2(400) / 2 = 4,
 * clamped). c0 allocates 26 objects, then frees a0 and a1 (slab 1).
 *   v6.19: no cpu slab, ever. Alloc 1: get_partial() finds nothing, a new
 *   slab (ALLOC_SLAB) gives one object (alloc_single_from_new_slab) and
 *   goes to the partial list; allocs 2..25 take one object each from it
 *   (alloc_single_from_partial, no ALLOC_FROM_PARTIAL); alloc 26 makes
 *   slab 2. ALLOC_SLOWPATH 26, ALLOC_SLAB 2, nothing else. Free of a0:
 *   free_to_partial_list(): slab 1 was full, to the partial tail
 *   (FREE_ADD_PARTIAL); a1: stays. FREE_SLOWPATH 2. partial: 2 slabs.
 *   v5.10: the classic path, then deactivate_slab() after every object.
 *   Alloc 1: ALLOC_SLAB, deactivate with 19 left: DEACTIVATE_TO_HEAD;
 *   allocs 2..20 from the partial list (ALLOC_FROM_PARTIAL 19), each
 *   deactivated to the head but the 20th, which leaves none
 *   (DEACTIVATE_FULL); alloc 21: slab 2 (ALLOC_SLAB, TO_HEAD), 22..26
 *   ALLOC_FROM_PARTIAL 5, TO_HEAD 5. Totals: ALLOC_SLAB 2,
 *   ALLOC_FROM_PARTIAL 24, DEACTIVATE_TO_HEAD 25, DEACTIVATE_FULL 1. Frees
 *   as above through __slab_free() without cpu partial lists:
 *   FREE_ADD_PARTIAL 1. */
static void test_debug_paths(void)
{
	struct text *t = calloc(1, sizeof *t);
	add(t, "slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\n"
	       "cache t size=64 flags=RED_ZONE,POISON,STORE_USER,CONSISTENCY_CHECKS\n");
	for (int i = 0; i < 26; i++)
		add(t, "c0 alloc t a%d\n", i);
	add(t, "c0 free t a0\nc0 free t a1\n");
	static const struct {
		const char *preset;
		long long slab, from_partial, to_head, full;
	} want[] = { { "v6.19", 2, 0, 0, 0 }, { "v5.10", 2, 24, 25, 1 } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h;
		const char *s = run_sysfs(t->s, want[i].preset, NULL, "t", &h);
		if (!s)
			continue;
		char buf[64];
		CHECK_EQ_INT(stat_total(s, "alloc_slowpath"), 26);
		CHECK_EQ_INT(stat_total(s, "alloc_fastpath"), 0);
		CHECK_EQ_INT(stat_total(s, "alloc_slab"), want[i].slab);
		CHECK_EQ_INT(stat_total(s, "alloc_from_partial"), want[i].from_partial);
		CHECK_EQ_INT(stat_total(s, "deactivate_to_head"), want[i].to_head);
		CHECK_EQ_INT(stat_total(s, "deactivate_full"), want[i].full);
		CHECK_EQ_INT(stat_total(s, "cpu_partial_alloc") + stat_total(s, "cpu_partial_free"), 0);
		CHECK_EQ_INT(stat_total(s, "free_slowpath"), 2);
		CHECK_EQ_INT(stat_total(s, "free_fastpath"), 0);
		CHECK_EQ_INT(stat_total(s, "free_add_partial"), 1);
		CHECK_EQ_STR(attr_line(s, "partial", buf, sizeof buf), "2 N0=2");
		CHECK_EQ_STR(attr_line(s, "cpu_slabs", buf, sizeof buf), "0");
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
	free(t);
}

/* Cache merging, find_mergeable() by hand (64-bit, no slub_debug, the
 * usercopy region of kmalloc caches makes them unmergeable as under
 * CONFIG_HARDENED_USERCOPY):
 *   a size=64: s->size 64, align 8 - the first, a cache of its own;
 *   b size=60: ALIGN(60, 8) = 64 <= 64, same MERGE_SAME flags (none), 64 is
 *     8-aligned, 64 - 64 < 8: an alias of a (a's aliases 1);
 *   c size=56: 64 - 56 = 8 is a whole word to spare: its own cache;
 *   d size=64 ACCOUNT: SLAB_ACCOUNT is a MERGE_SAME flag a lacks: its own;
 *   e size=64 with a constructor, f size=64 TYPESAFE_BY_RCU: never merged.
 * /proc/slabinfo has a, c, d, e, f and kmalloc-64 (the kmalloc): 6 rows.
 * sysfs: a's folder is ":0000064" with a and b linked to it, d's
 * ":A-0000064", c's ":0000056"; e and f are folders of their own name.
 * With slab_nomerge: 7 rows, b its own. Destroying b leaves a alive
 * (refcount 2 -> 1); destroying a then (empty) removes it. */
static void test_merging(void)
{
	const char *text =
		"slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\n"
		"cache a size=64\ncache b size=60\ncache c size=56\ncache d size=64 flags=ACCOUNT\n"
		"cache e size=64 ctor\ncache f size=64 flags=TYPESAFE_BY_RCU\n"
		"c0 alloc b x\nc0 kmalloc 64 k\n";
	for (int nomerge = 0; nomerge < 2; nomerge++) {
		int h = svz_t_run(text, "v6.19", nomerge ? "slab_nomerge=1" : NULL);
		CHECK(h >= 0);
		if (h < 0)
			continue;
		const char *si = svz_slabinfo(h);
		int rows = 0;
		for (const char *l = si; (l = strchr(l, '\n')) && l[1]; l++)
			rows += l[1] != '#' && l[1] != 's';
		CHECK_EQ_INT(rows, nomerge ? 7 : 6);
		CHECK_EQ_INT(strstr(si, "\nb ") != NULL, nomerge);
		char buf[64];
		/* b's objects live in a's slabs: a counts the allocation */
		CHECK_EQ_STR(attr_line(svz_sysfs(h, "b"), "aliases", buf, sizeof buf), nomerge ? "0" : "1");
		CHECK_EQ_STR(attr_line(svz_sysfs(h, "a"), "alloc_slowpath", buf, sizeof buf), nomerge ? "0" : "1 C0=1");
		const char *tree = svz_sysfs_tree(h);
		CHECK_EQ_INT(strstr(tree, "cache :0000064\nlink a\nlink b\n") != NULL, !nomerge);
		CHECK_EQ_INT(strstr(tree, "cache :A-0000064\nlink d\n") != NULL, !nomerge);
		CHECK_EQ_INT(strstr(tree, "cache :0000056\nlink c\n") != NULL, !nomerge);
		CHECK(strstr(tree, "cache e\n") != NULL && strstr(tree, "cache f\n") != NULL);
		CHECK_EQ_INT(strstr(tree, "cache b\n") != NULL, nomerge);
		svz_close(h);
	}
	/* kmem_cache_destroy(): b's name goes, a stays; then a goes */
	const char *destroy = "slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\n"
			      "cache a size=64\ncache b size=60\nc0 destroy b\n";
	int h = svz_t_run(destroy, "v6.19", NULL);
	CHECK(h >= 0);
	if (h >= 0) {
		CHECK(strstr(svz_slabinfo(h), "\na ") != NULL);
		svz_close(h);
	}
	h = svz_t_run("slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\n"
		      "cache a size=64\ncache b size=60\nc0 destroy b\nc0 destroy a\n", "v6.19", NULL);
	CHECK(h >= 0);
	if (h >= 0) {
		CHECK(strstr(svz_slabinfo(h), "\na ") == NULL);
		svz_close(h);
	}
}

/* v6.18/v6.19 opt-in sheaves (2d517aa09bbc, "slab: add opt-in caching
 * layer of percpu sheaves"): cache m asks for sheaf_capacity=4 and gets
 * sheaves of exactly 4 beside its cpu slab (do_kmem_cache_create(): s->
 * sheaf_capacity = args->sheaf_capacity); cache p does not ask and has
 * none. Size 64: 64 objects per order-0 slab. All on CPU 0, one node.
 *
 * creation: init_percpu_sheaves() gives both possible CPUs an empty main
 *   from alloc_empty_sheaf(): SHEAF_ALLOC 2 (on the creating CPU, 0).
 * alloc a1: alloc_from_pcs(): main empty -> __pcs_replace_empty_main():
 *   no spare, barn has no full sheaf (BARN_GET_FAIL 1); GFP_KERNEL may block,
 *   no empty sheaf anywhere -> alloc_full_sheaf(): SHEAF_ALLOC 3,
 *   refill_sheaf() -> __kmem_cache_alloc_bulk(4): c->freelist empty ->
 *   ___slab_alloc (ALLOC_SLOWPATH 1, new slab: ALLOC_SLAB 1) for the first,
 *   then 3 from c->freelist (ALLOC_FASTPATH 3); SHEAF_REFILL 4. main is
 *   empty: it becomes the spare, the full sheaf main; pop: ALLOC_PCS 1.
 * alloc a2..a4: from main (ALLOC_PCS 4), main now empty.
 * alloc a5: spare empty, barn still nothing (BARN_GET_FAIL 2); the empty
 *   spare is refilled: 4 from c->freelist (ALLOC_FASTPATH 7, SHEAF_REFILL
 *   8), main (empty) becomes the spare; pop: ALLOC_PCS 5.
 * free a1..a5: slab_free() -> free_to_pcs(): main holds 3; a1 fills it
 *   (4); a2 finds main full and an empty spare: swap (no barn call); a2..a5
 *   fill the new main. FREE_PCS 5, no FREE_FASTPATH/SLOWPATH from them.
 * flush m (flush_cpu_slab): pcs_flush_all(): the spare (4) via
 *   sheaf_flush_unused (SHEAF_FLUSH 4) -> __kmem_cache_free_bulk -> one
 *   detached freelist of c->slab -> do_slab_free() fast path (FREE_FASTPATH
 *   4); free_empty_sheaf (SHEAF_FREE 1); sheaf_flush_main: one batch of 4
 *   (SHEAF_FLUSH 8, FREE_FASTPATH 8). Then flush_slab(): CPUSLAB_FLUSH 1,
 *   deactivate_slab() of an empty slab: nr_partial 0 < min_partial, so not
 *   discarded (no DEACTIVATE_EMPTY) but add_partial() at the head, as
 *   slab->freelist was NULL (every free went to c->freelist):
 *   DEACTIVATE_TO_HEAD 1.
 * The same ops on p: one slow path (new slab) then 4 fast; 5 fast frees.
 * v6.8 has no sheaves at all: m runs like p there, and sysfs has no
 * sheaf_capacity. */
static void test_opt_in_sheaves(void)
{
	struct text *t = calloc(1, sizeof *t);
	add(t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\nseed 1\n"
	       "cache m size=64 sheaf_capacity=4\ncache p size=64\n");
	for (const char *c = "mp"; *c; c++) {
		for (int i = 1; i <= 5; i++)
			add(t, "c0 alloc %c %c%d\n", *c, *c, i);
		for (int i = 1; i <= 5; i++)
			add(t, "c0 free %c %c%d\n", *c, *c, i);
		add(t, "c0 flush %c\n", *c);
	}
	static const struct {
		const char *item;
		long long m, p;
	} v619[] = {
		{ "alloc_cpu_sheaf", 5, 0 }, { "free_cpu_sheaf", 5, 0 }, { "alloc_fastpath", 7, 4 },
		{ "alloc_slowpath", 1, 1 }, { "alloc_slab", 1, 1 }, { "free_fastpath", 8, 5 },
		{ "free_slowpath", 0, 0 }, { "sheaf_alloc", 3, 0 }, { "sheaf_free", 1, 0 },
		{ "sheaf_refill", 8, 0 }, { "sheaf_flush", 8, 0 }, { "barn_get_fail", 2, 0 },
		{ "barn_get", 0, 0 }, { "cpuslab_flush", 1, 1 }, { "deactivate_empty", 0, 0 },
		{ "deactivate_to_head", 1, 1 },
	};
	int h;
	const char *m_text = run_sysfs(t->s, "v6.19", NULL, "m", &h);
	if (m_text) {
		char *m = malloc(strlen(m_text) + 1); /* svz_sysfs() reuses its buffer */
		if (!m) {
			free(t);
			return;
		}
		memcpy(m, m_text, strlen(m_text) + 1);
		const char *p = svz_sysfs(h, "p");
		char buf[64];
		CHECK_EQ_STR(attr_line(m, "sheaf_capacity", buf, sizeof buf), "4");
		CHECK_EQ_STR(attr_line(p, "sheaf_capacity", buf, sizeof buf), "0");
		for (size_t i = 0; i < sizeof v619 / sizeof v619[0]; i++) {
			CHECK_EQ_INT(stat_total(m, v619[i].item), v619[i].m);
			CHECK_EQ_INT(stat_total(p, v619[i].item), v619[i].p);
		}
		/* the slow-path share (slubviz diff, the A/B view) counts the
		 * sheaf hits too: m 1 / (7 + 1 + 5) = 7.6923%, p 1 / (4 + 1) = 20% */
		const char *snap = svz_snapshot_json(h);
		const char *cm = strstr(snap, "\"name\":\"m\""), *cp = strstr(snap, "\"name\":\"p\"");
		CHECK(cm && cp && cm < cp);
		if (cm && cp) {
			const char *sm = strstr(cm, "\"alloc_slow_share\":"), *sp = strstr(cp, "\"alloc_slow_share\":");
			CHECK(sm && sm < cp && strncmp(sm, "\"alloc_slow_share\":7.6923,", strlen("\"alloc_slow_share\":7.6923,")) == 0);
			CHECK(sp && strncmp(sp, "\"alloc_slow_share\":20.0000,", strlen("\"alloc_slow_share\":20.0000,")) == 0);
		}
		free(m);
		svz_close(h);
	}
	const char *m = run_sysfs(t->s, "v6.8", NULL, "m", &h);
	if (m) {
		CHECK(strstr(m, "./sheaf_capacity:") == NULL);
		CHECK_EQ_INT(stat_total(m, "alloc_fastpath"), 4);
		CHECK_EQ_INT(stat_total(m, "alloc_slowpath"), 1);
		CHECK_EQ_INT(stat_total(m, "free_fastpath"), 5);
		svz_close(h);
	}
	free(t);
}

/* kmem_cache_destroy() with a kfree_rcu() still in flight. Since v6.12
 * (6c6c47b063b5) it calls kvfree_rcu_barrier() first, so the object is
 * freed before __kmem_cache_shutdown() looks: no report, the slab goes.
 * Before (v6.6, v6.8) the object is still allocated then: "Objects remaining
 * in k on __kmem_cache_shutdown()", 1 object in 1 slab leaked. In v7.0 the
 * object sits on CPU 0's rcu_free sheaf (one of 60): flush_all_rcu_sheaves()
 * hands it to the grace period (rcu_free_sheaf_nobarn), and the barrier
 * frees it to its slab. */
static void test_destroy_waits_for_kfree_rcu(void)
{
	static const char text[] = "slubviz-trace 1\nnode 0 mem=64M\ncpus 0-1 node=0\ncache k size=64\n"
				   "c0 alloc k a\nc0 kfree_rcu a\nc0 destroy k\n";
	static const struct {
		const char *preset;
		bool leak;
	} want[] = { { "v6.6", true }, { "v6.8", true }, { "v6.19", false }, { "v7.0-rc1", false } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h = svz_t_run(text, want[i].preset, "continue_on_error=1");
		CHECK(h >= 0);
		if (h < 0)
			continue;
		const char *err = svz_run_error(h);
		CHECK_EQ_INT(strstr(err, "Objects remaining in k on __kmem_cache_shutdown()") != NULL, want[i].leak);
		CHECK_EQ_INT(strstr(err, "(1 objects in 1 slabs leaked;") != NULL, want[i].leak);
		CHECK_EQ_INT(svz_ops_done(h), 3);
		svz_close(h);
	}
}

/* kmem_cache_destroy() of a cache with objects left, two nodes. Cache foo,
 * size 512, CPU 0 on node 0 and CPU 1 on node 1: min_objects = 4 *
 * (fls(2) + 1) = 12, 12 * 512 > 4096 -> order 1, 16 objects a slab;
 * min_partial = ilog2(512) / 2 = 4, raised to 5.
 * c0 allocates 20: slab A full, slab B (node 0) its cpu slab with 4 in use.
 * c1 allocates and frees b: slab C (node 1) its cpu slab, 0 in use.
 * destroy: flush_all() deactivates B (inuse 4 -> node 0's partial list) and
 * C (inuse 0, but node 1 has nr_partial 0 < 5: kept, partial list).
 * __kmem_cache_shutdown(): node 0 first: free_partial() reports B
 * (list_slab_objects(): "Objects remaining in foo on
 * __kmem_cache_shutdown()"), nr_partial 1 -> return 1: node 1 is never
 * looked at, so C stays on its partial list, not discarded.
 * Before v6.12 shutdown_cache() returns -EBUSY before list_del(): foo keeps
 * its /proc/slabinfo row, 3 slabs of 16 objects = 48, free on partial
 * lists 12 (B) + 16 (C) = 28, active 20:
 *   foo 20 48 512 16 2 : tunables 0 0 0 : slabdata 3 3 0
 * and sysfs partial "2 N0=1 N1=1". v5.10 prints pr_err() without the
 * caller (the WARN with "when called from" is v5.17's 7302e91f39a8).
 * Since v6.12 the cache leaves the list all the same: no row. */
static void test_destroy_leak(void)
{
	struct text *t = calloc(1, sizeof *t);
	if (!t) {
		CHECK(0);
		return;
	}
	add(t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=4G\nnode 1 mem=4G\ncpus 0 node=0\n"
	       "cpus 1 node=1\nset slab_nomerge=1\ncache foo size=512\n");
	for (int i = 0; i < 20; i++)
		add(t, "c0 alloc foo a%d\n", i);
	add(t, "c1 alloc foo b\nc1 free foo b\nc0 destroy foo\n"); /* destroy: line 31 */
	static const struct {
		const char *preset;
		bool kept, warn;
	} want[] = { { "v5.10", true, false }, { "v6.8", true, true }, { "v6.19", false, true } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h = svz_t_run(t->s, want[i].preset, "continue_on_error=1");
		CHECK(h >= 0);
		if (h < 0)
			continue;
		const char *err = svz_run_error(h);
		CHECK(strstr(err, "BUG foo (Not tainted): Objects remaining in foo on __kmem_cache_shutdown()") != NULL);
		CHECK_EQ_INT(strstr(err, "kmem_cache_destroy foo: Slab cache still has objects when called from trace:31") != NULL,
			     want[i].warn);
		CHECK(strstr(err, "kmem_cache_destroy foo: Slab cache still has objects") != NULL);
		CHECK(strstr(err, "(20 objects in 3 slabs leaked; 1 partial slab(s) reported)") != NULL);
		/* C on node 1 is not discarded */
		CHECK(strstr(svz_events_text(h, 0, 1 << 20), "discard") == NULL);
		const char *row = strstr(svz_slabinfo(h), "\nfoo ");
		CHECK_EQ_INT(row != NULL, want[i].kept);
		if (row && want[i].kept) {
			char line[160];
			snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
			/* the columns as the kernel pads them: name, then numbers */
			long long v[8];
			CHECK_EQ_INT(sscanf(line, "foo %lld %lld %lld %lld %lld : tunables %lld %lld %lld", &v[0], &v[1], &v[2],
					    &v[3], &v[4], &v[5], &v[6], &v[7]), 8);
			CHECK_EQ_INT(v[0], 20);
			CHECK_EQ_INT(v[1], 48);
			CHECK_EQ_INT(v[2], 512);
			CHECK_EQ_INT(v[3], 16);
			CHECK_EQ_INT(v[4], 2);
			CHECK(strstr(line, ": slabdata      3      3      0") != NULL || strstr(line, ": slabdata 3 3 0") != NULL);
			char buf[64];
			const char *sys = svz_sysfs(h, "foo");
			CHECK(sys && strcmp(attr_line(sys, "partial", buf, sizeof buf), "2 N0=1 N1=1") == 0);
		}
		svz_close(h);
	}
	free(t);
}

/* Bulk counters before v6.8. Cache c512: 2 CPUs present, min_objects =
 * 4 * (fls(2) + 1) = 12, 12 * 512 = 6144 -> order 1, 16 objects a slab
 * (both forms of calculate_order() agree: no waste).
 * alloc_bulk 10: c->freelist is empty, so ___slab_alloc() gives b[0]
 * (ALLOC_SLOWPATH 1, a new slab: ALLOC_SLAB 1) and loads the rest of the
 * new slab as c->freelist; b[1..9] come off c->freelist under the local
 * lock. Since v6.8 (6f3dd2c31d7d "mm/slub: fix bulk alloc and free stats")
 * each of those 9 counts ALLOC_FASTPATH; before, the loop counted nothing.
 * free_bulk 10: build_detached_freelist() makes one list of the 10, all of
 * c->slab, so do_slab_free() takes them in one go: stat_add(FREE_FASTPATH,
 * cnt) = 10 since v6.8, stat(FREE_FASTPATH) = 1 before. FREE_SLOWPATH 0. */
static void test_bulk_stats(void)
{
	static const char text[] = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\nseed 1\n"
				   "cache c512 size=512\nc0 alloc_bulk c512 10 b\nc0 free_bulk c512 10 b\n";
	static const struct {
		const char *preset;
		long long alloc_fastpath, free_fastpath;
	} want[] = { { "v5.10", 0, 1 }, { "v6.6", 0, 1 }, { "v6.8", 9, 10 }, { "v6.19", 9, 10 } };
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h;
		const char *s = run_sysfs(text, want[i].preset, NULL, "c512", &h);
		if (!s)
			continue;
		char buf[64];
		CHECK_EQ_STR(attr_line(s, "objs_per_slab", buf, sizeof buf), "16");
		CHECK_EQ_INT(stat_total(s, "alloc_slowpath"), 1);
		CHECK_EQ_INT(stat_total(s, "alloc_slab"), 1);
		CHECK_EQ_INT(stat_total(s, "alloc_fastpath"), want[i].alloc_fastpath);
		CHECK_EQ_INT(stat_total(s, "free_fastpath"), want[i].free_fastpath);
		CHECK_EQ_INT(stat_total(s, "free_slowpath"), 0);
		svz_close(h);
	}
}

/* /proc/slabinfo's active_objs with more than 10000 partial slabs on a
 * node. Cache big: 1 CPU, min_objects = 4 * (fls(1) + 1) = 8, but an
 * 8192-byte object fits 4 times in the largest order calculate_order()
 * tries (slub_max_order 3, 32 KiB): order 3, 4 objects a slab.
 * 40008 allocations fill 10002 slabs, slab j holding h[4j .. 4j+3] (each is
 * used up before the next is made). Slabs 0..5001 get one object back (1
 * free), slabs 5002..10001 three (3 free): total 40008 objects, 5002 +
 * 15000 = 20002 free, 20006 in use. shrink: flush_all() puts every slab on
 * node 0's partial list, then __kmem_cache_do_shrink() sorts it by free
 * count (promote[free - 1], spliced at the head from the most free down):
 * the 5002 slabs with 1 free first, the 5000 with 3 free last.
 * Before v6.10 get_slabinfo() counts every partial slab: active_objs =
 * 40008 - 20002 = 20006, as sysfs objects. Since v6.10 (046f4c69090c,
 * count_partial_free_approx()) nr_partial 10002 > 10000: 5000 from the
 * head (1 free each: 5000) and 5000 from the tail (3 each: 15000),
 * mult_frac(20000, 10002, 10000) = 2 * 10002 = 20004 free, active_objs
 * 40008 - 20004 = 20004, while sysfs objects stays exact (20006). */
static void test_slabinfo_many_partial(void)
{
	static const char text[] =
		"slubviz-trace 1\npage_size 4096\nnode 0 mem=1G\ncpus 0 node=0\nseed 1\ncache big size=8192\n"
		"repeat 40008 {\n  c0 alloc big h$i\n}\n"
		"repeat 5002 {\n  c0 free big h{4*$i}\n}\n"
		"repeat 5000 {\n  c0 free big h{4*($i+5002)}\n  c0 free big h{4*($i+5002)+1}\n"
		"  c0 free big h{4*($i+5002)+2}\n}\n"
		"c0 shrink big\n";
	static const struct {
		const char *preset;
		unsigned long long active;
	} want[] = { { "v6.8", 20006 }, { "v6.19", 20004 } };
	/* the invariants at every 5000th op: each check walks 10002 slabs */
	const char *had = getenv("SLUBVIZ_VALIDATE_EVERY");
	char saved[32];
	snprintf(saved, sizeof saved, "%s", had ? had : "");
	setenv("SLUBVIZ_VALIDATE_EVERY", "5000", 1);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		int h;
		const char *s = run_sysfs(text, want[i].preset, NULL, "big", &h);
		if (!s)
			continue;
		char buf[64];
		CHECK_EQ_STR(attr_line(s, "order", buf, sizeof buf), "3");
		CHECK_EQ_STR(attr_line(s, "partial", buf, sizeof buf), "10002 N0=10002");
		CHECK_EQ_STR(attr_line(s, "objects", buf, sizeof buf), "20006 N0=20006");
		const char *row = strstr(svz_slabinfo(h), "\nbig ");
		unsigned long long active = 0, num = 0;
		CHECK(row && sscanf(row + 5, "%llu %llu", &active, &num) == 2);
		CHECK_EQ_INT((long long)active, (long long)want[i].active);
		CHECK_EQ_INT((long long)num, 40008);
		svz_close(h);
	}
	if (had)
		setenv("SLUBVIZ_VALIDATE_EVERY", saved, 1);
	else
		unsetenv("SLUBVIZ_VALIDATE_EVERY");
}

int main(void)
{
	test_bulk_stats();
	test_slabinfo_many_partial();
	test_destroy_waits_for_kfree_rcu();
	test_destroy_leak();
	test_opt_in_sheaves();
	test_merging();
	test_debug_paths();
	test_debug_geometry();
	test_sysfs_files();
	test_partial_lists();
	test_try_thisnode();
	test_cpu_partial_wrong_node();
	test_kmalloc_cg_caches();
	test_detached_freelist_order();
	test_slab_alloc_no_spin();
	return svz_t_done();
}
