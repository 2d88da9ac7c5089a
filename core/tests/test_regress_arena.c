/* Regression tests for issue 9's runtime findings (the arena hazard and its
 * neighbours), each under every preset. The expected behaviour is the
 * kernel's, stated before each test; in the arena-moving build
 * (SVZ_ARENA_ALWAYS_MOVE, build-move/) ASan turns any pointer into the arena
 * kept across an allocation into a failure here. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "api/session.h"
#include "slubviz/config.h"
#include "slubviz/slubviz.h"

static int npresets, p_index;
static const char *preset;

/* The preset's kernel has kmem_cache_prefill_sheaf() and sheaf_capacity:
 * v6.18+ (2d517aa09bbc), every sheaves-era preset. */
static bool preset_has_sheaf_api(void)
{
	const char *k = strstr(svz_preset_settings(p_index), "kernel=");
	unsigned major = 0, minor = 0;
	if (strstr(svz_preset_settings(p_index), "era=sheaves"))
		return true;
	return k && sscanf(k, "kernel=%u.%u", &major, &minor) == 2 && major * 100 + minor >= 618;
}

/* Open under the current preset, validating after every op. */
static int open_trace(const char *text, const char *sets)
{
	int h = svz_open(text, preset, sets);
	if (h <= 0) {
		fprintf(stderr, "%s: open: %s\n", preset, svz_last_error());
		CHECK(h > 0);
		return -1;
	}
	svz_session_model(h)->validate_every = 1;
	return h;
}

/* SLUB_STATS: every slab_alloc_node() counts exactly one of ALLOC_FASTPATH
 * (c->freelist, or a sheaf in v7.0), ALLOC_PCS (alloc_cpu_sheaf: a sheaf
 * under v6.18/v6.19's stat items, which 17c38c88294d still has) and
 * ALLOC_SLOWPATH (__slab_alloc), so their sum is the number of allocations
 * from the cache. */
static long long allocs(int h, const char *cache)
{
	const char *s = svz_sysfs(h, cache);
	long long fast = svz_t_stat_total(s, "alloc_fastpath"), slow = svz_t_stat_total(s, "alloc_slowpath");
	long long pcs = strstr(s, "./alloc_cpu_sheaf:") ? svz_t_stat_total(s, "alloc_cpu_sheaf") : 0;
	return fast < 0 || slow < 0 || pcs < 0 ? -1 : fast + slow + pcs;
}

static void check_clean_end(int h, int ops)
{
	CHECK_EQ_INT(svz_ops_done(h), ops);
	CHECK_EQ_STR(svz_run_error(h), "");
	CHECK_EQ_STR(svz_validate(h), "");
}

/* Open, run to the end: all `ops` done, no error, every invariant holds. */
static int run_clean(const char *text, int ops)
{
	int h = open_trace(text, NULL);
	if (h <= 0)
		return -1;
	CHECK_EQ_INT(svz_run_all(h), ops);
	check_clean_end(h, ops);
	return h;
}

/* The ten ops: kmalloc caches created lazily while the arena grows
 * (heap-use-after-free in create_cache()). In the kernel every request here
 * is <= KMALLOC_MAX_CACHE_SIZE (two pages) and is served by its
 * kmalloc-<bucket> cache; 1 GiB is plenty, so none returns NULL. */
static void ten_ops(void)
{
	static const char trace[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-7 node=0\n"
		"cache filp size=360 flags=HWCACHE_ALIGN\n"
		"c0 kmalloc 4000 p1\nc0 kmalloc 16 p2\nc0 kmalloc 32 p3\nc2 alloc filp p4\n"
		"c0 alloc filp p5\nc0 kmalloc 8 p6\nc1 kmalloc 8 p7\nc0 kmalloc 64 p8\n"
		"c2 kmalloc 8 p9\nc0 kmalloc 128 p10\n";
	int h = run_clean(trace, 10);
	if (h <= 0)
		return;
	CHECK_EQ_INT(allocs(h, "kmalloc-4k"), 1);
	CHECK_EQ_INT(allocs(h, "kmalloc-16"), 1);
	CHECK_EQ_INT(allocs(h, "kmalloc-32"), 1);
	CHECK_EQ_INT(allocs(h, "kmalloc-8"), 3);
	CHECK_EQ_INT(allocs(h, "kmalloc-64"), 1);
	CHECK_EQ_INT(allocs(h, "kmalloc-128"), 1);
	CHECK_EQ_INT(allocs(h, "filp"), 2);
	svz_close(h);
}

/* 65 CPUs: every cache's per-CPU records (and the frames) grow with the
 * CPU count; the same use-after-free. kmalloc(8) on CPU 0 succeeds. */
static void many_cpus(void)
{
	static const char trace[] = "slubviz-trace 1\nnode 0 mem=1G\ncpus 0-64 node=0\nc0 kmalloc 8 a\nc64 kmalloc 8 b\n";
	int h = run_clean(trace, 2);
	if (h <= 0)
		return;
	CHECK_EQ_INT(allocs(h, "kmalloc-8"), 2);
	svz_close(h);
}

/* kmem_cache_prefill_sheaf(s, gfp, size) with size > s->sheaf_capacity: the
 * oversize path kzalloc()s a sheaf for `size` pointers,
 * stat(SHEAF_PREFILL_OVERSIZE), and fills it with __kmem_cache_alloc_bulk();
 * if that fails, kfree(sheaf) and NULL (the bulk allocation frees what it
 * got). kmem_cache_return_sheaf() of an oversize sheaf flushes it and frees
 * it. 65535 pointers (the use-after-free write in co_OP_PREFILL) on a 256 KiB
 * node: 64 pages hold 4096 64-byte objects, so NULL and nothing left
 * allocated; 200 on 1 GiB: served, one object taken, all given back.
 * v6.18/v6.19 (classic): a cache without sheaves has sheaf_capacity 0, so
 * every prefill is oversize and filled by the cpu-slab bulk allocator,
 * whose ___slab_alloc() warns (slab_out_of_memory(): GFP_KERNEL has no
 * __GFP_NOWARN) before it fails and frees what it got back to the slabs;
 * those freed objects may sit on cpu slabs, which sysfs `objects` counts
 * as in use, so only the counters are checked there. Before v6.18 the API
 * does not exist: the model returns NULL (CHK_CLASSIC_NO_PREFILL). */
static void prefill_oversize(bool sheaves)
{
	static const char fails[] =
		"slubviz-trace 1\nnode 0 mem=256K\ncpus 0-1 node=0\ncache c size=64\n"
		"c0 prefill_sheaf c 65535 s\n";
	static const char served[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\ncache c size=64\n"
		"c0 prefill_sheaf c 200 s\nc0 alloc_from_sheaf c s x\nc0 return_sheaf c s\nc1 free c x\n";
	const bool api = preset_has_sheaf_api();
	int h;
	if (api && !sheaves) {
		h = open_trace(fails, NULL);
		if (h <= 0)
			return;
		CHECK_EQ_INT(svz_run_all(h), 1);
		CHECK(strstr(svz_run_error(h), "SLUB: Unable to allocate memory on node") != NULL);
		CHECK_EQ_STR(svz_validate(h), "");
		CHECK_EQ_INT(svz_t_stat_total(svz_sysfs(h, "c"), "sheaf_prefill_oversize"), 1);
	} else {
		h = run_clean(fails, 1);
		if (h <= 0)
			return;
	}
	/* /sys/kernel/slab/c/objects counts every object of a slab that is
	 * not on n->partial as in use: at 17c38c88294d freed slabs may sit on
	 * a per-CPU partial list, so 0 only holds elsewhere */
	if (sheaves) {
		if (strstr(svz_preset_settings(p_index), "cpu_partial_free=0"))
			CHECK_EQ_INT(svz_t_stat_total(svz_sysfs(h, "c"), "objects"), 0);
		CHECK_EQ_INT(svz_t_stat_total(svz_sysfs(h, "c"), "sheaf_prefill_oversize"), 1);
	}
	svz_close(h);
	if (!api)
		return;
	h = run_clean(served, 4);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_t_stat_total(svz_sysfs(h, "c"), "sheaf_prefill_oversize"), 1);
	svz_close(h);
}

/* kmem_cache_create() with args->sheaf_capacity = 65535: every CPU's main
 * sheaf is that large (the arena grows while the cache is created); one
 * kmem_cache_alloc() then succeeds. v6.18/v6.19 give such a cache sheaves
 * beside its cpu slab: the allocation comes from a sheaf (alloc_cpu_sheaf
 * 1) that alloc_full_sheaf() filled to capacity with the cpu-slab bulk
 * allocator (sheaf_refill 65535, each object also an alloc_fastpath or
 * alloc_slowpath, as the v6.18 commit says), so allocs() counts 65535 + 1
 * there, and 1 under v7.0, 17c38c88294d (alloc_cpu_sheaf) and the older
 * kernels. */
static void huge_sheaf_capacity(void)
{
	static const char trace[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\ncache c size=8 sheaf_capacity=65535\n"
		"c0 alloc c a\nc0 free c a\n";
	int h = run_clean(trace, 2);
	if (h <= 0)
		return;
	if (preset_has_sheaf_api() && !strstr(svz_preset_settings(p_index), "era=sheaves")) {
		CHECK_EQ_INT(svz_t_stat_total(svz_sysfs(h, "c"), "alloc_cpu_sheaf"), 1);
		CHECK_EQ_INT(svz_t_stat_total(svz_sysfs(h, "c"), "sheaf_refill"), 65535);
		CHECK_EQ_INT(allocs(h, "c"), 65535 + 1);
	} else {
		CHECK_EQ_INT(allocs(h, "c"), 1);
	}
	svz_close(h);
}

/* kmalloc() beyond KMALLOC_MAX_CACHE_SIZE goes to the page allocator:
 * __kmalloc_large_node() -> alloc_pages_node(order = get_order(size)).
 * __alloc_pages() refuses order > MAX_PAGE_ORDER (10 with 4 KiB pages):
 * WARN_ON_ONCE_GFP(order > MAX_PAGE_ORDER, gfp) and NULL; the warning is
 * once per boot and never with __GFP_NOWARN. kfree(NULL) is a no-op. So:
 * 4 MiB (order 10) is served, 4 MiB + 1 (order 11) and 64 MiB (order 14)
 * return NULL with one warning, and the run goes on. */
static void large_kmalloc_max_order(void)
{
	static const char trace[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\n"
		"c0 kmalloc 4M a\nc0 kmalloc 4194305 b\nc1 kmalloc 64M c\n"
		"c0 kfree b\nc1 kfree c\nc0 kfree a\n";
	int h = open_trace(trace, NULL);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_run_all(h), 6);
	CHECK_EQ_INT(svz_ops_done(h), 6);
	CHECK_EQ_STR(svz_validate(h), "");
	const char *r = svz_reports(h);
	const char *w = strstr(r, "__alloc_pages: order 11 > MAX_PAGE_ORDER (10)");
	CHECK(w != NULL);
	CHECK(w && strstr(w + 1, "__alloc_pages:") == NULL); /* once */
	const char *st = svz_stats_text(h);
	CHECK(strstr(st, "order10=1") != NULL);   /* a: allocated and freed */
	CHECK(strstr(st, "order11=") == NULL && strstr(st, "order14=") == NULL);
	CHECK(strstr(st, "failed=2") != NULL);
	const char *ev = svz_events_text(h, 0, 100);
	CHECK(strstr(ev, "order-11 allocation failed") != NULL);
	CHECK(strstr(ev, "order-14 allocation failed") != NULL);
	svz_close(h);

	/* __GFP_NOWARN: NULL without the warning; the next one warns */
	static const char nowarn[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\n"
		"c0 kmalloc 8M a gfp=GFP_KERNEL|__GFP_NOWARN\nc0 kmalloc 8M b\n";
	h = open_trace(nowarn, NULL);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_run_all(h), 2);
	CHECK(strstr(svz_reports(h), "order 11 > MAX_PAGE_ORDER") != NULL);
	const char *first = strstr(svz_events_text(h, 0, 100), "order-11 allocation failed");
	CHECK(first && strstr(first + 1, "order-11 allocation failed") != NULL); /* both NULL */
	svz_close(h);
}

/* svz_step_cpu() over 981 allocations of 4 KiB objects (one slab per 8 or
 * so: the slab pool grows while CPU 0 steps; use-after-free in the stepping
 * path). Every allocation succeeds. */
static void step_cpu_growth(void)
{
	static const char trace[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\ncache x size=4096\n"
		"repeat 981 {\nc0 alloc x h{$i}\n}\n";
	int h = open_trace(trace, NULL);
	if (h <= 0)
		return;
	svz_session_model(h)->validate_every = 97;
	int r;
	while ((r = svz_step_cpu(h, 0)) == 1)
		;
	CHECK_EQ_INT(r, 0);
	check_clean_end(h, 981);
	CHECK_EQ_INT(allocs(h, "x"), 981);
	svz_close(h);
}

/* `c0 alloc x h` and `c1 alloc x h`: two CPUs storing to one pointer
 * would leak an object (kmemleak would report it). Op 1 names the handle
 * op 0 names, so CPU 1 waits until op 0 has returned (docs/trace-format.md
 * §3.1): svz_step_cpu(1) has nothing to run while op 0 is in flight. Once
 * it returned, op 1 finds h live and stops the run before it allocates; no
 * object is lost. With continue_on_error op 1 fails alone: h holds op 0's
 * object. The default scheduler ends the same way. */
static void one_handle_two_cpus(void)
{
	static const char trace[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\ncache x size=64\n"
		"c0 alloc x h\nc1 alloc x h\n";
	int h = open_trace(trace, NULL);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_step_cpu(h, 0), 1);   /* op 0 in flight */
	CHECK_EQ_INT(svz_step_cpu(h, 1), 0);   /* op 1 waits for it */
	while (svz_step_cpu(h, 0) == 1)
		;
	CHECK_EQ_INT(svz_step_cpu(h, 1), -1);  /* op 1 refused */
	CHECK(strstr(svz_run_error(h), "trace:6: error: handle 'h' still holds an object allocated at line 5") != NULL);
	CHECK_EQ_STR(svz_validate(h), "");
	CHECK_EQ_INT(allocs(h, "x"), 1);
	svz_close(h);

	h = open_trace(trace, "continue_on_error=1");
	if (h <= 0)
		return;
	int a = 1, b = 1;
	while (a == 1 || b == 1) {
		if (a == 1)
			a = svz_step_cpu(h, 0);
		if (b == 1)
			b = svz_step_cpu(h, 1);
		if (a == 0 && b == 0 && svz_ops_done(h) < 2)
			b = 1; /* op 0 returned: op 1 may start now */
	}
	CHECK_EQ_INT(svz_ops_done(h), 2);
	CHECK(strstr(svz_reports(h), "handle 'h' still holds an object allocated at line 5") != NULL);
	CHECK_EQ_STR(svz_validate(h), "");
	CHECK_EQ_INT(allocs(h, "x"), 1);
	svz_close(h);

	/* the default scheduler runs op 0 to completion first: h is live */
	h = open_trace(trace, NULL);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_run_all(h), -1);
	CHECK(strstr(svz_run_error(h), "trace:6: error: handle 'h' still holds an object allocated at line 5") != NULL);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* svz_validate() between micro-steps: allocate_slab() makes a slab before
 * inc_slabs_node() counts it, and discard_slab() runs dec_slabs_node()
 * before free_slab(); an op in flight is no corruption. Slabs created and
 * discarded on two CPUs, validated after every micro-step. */
static void validate_mid_op(void)
{
	static const char trace[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\ncache v size=1024\n"
		"repeat 40 {\nc{$i%2} alloc v a{$i}\n}\nrepeat 40 {\nc{($i+1)%2} free v a{$i}\n}\n"
		"c0 flush_all v\nc1 shrink v\nc0 kmalloc 16 k\nc1 kfree k\n";
	int h = open_trace(trace, NULL);
	if (h <= 0)
		return;
	int r, steps = 0, bad = 0;
	while ((r = svz_step(h)) == 1) {
		const char *v = svz_validate(h);
		if (v[0] && bad++ == 0)
			fprintf(stderr, "%s: after micro-step %d: %s", preset, steps, v);
		steps++;
	}
	CHECK_EQ_INT(r, 0);
	CHECK_EQ_INT(bad, 0);
	CHECK(steps > 84);
	check_clean_end(h, 84);
	svz_close(h);
}

int main(void)
{
	while (svz_preset_name(npresets))
		npresets++;
	CHECK(npresets >= 10);
	for (int p = 0; p < npresets; p++) {
		preset = svz_preset_name(p);
		p_index = p;
		ten_ops();
		many_cpus();
		prefill_oversize(strstr(svz_preset_settings(p), "era=sheaves") != NULL);
		huge_sheaf_capacity();
		large_kmalloc_max_order();
		step_cpu_growth();
		one_handle_two_cpus();
		validate_mid_op();
	}
	return svz_t_done();
}
