/* The model against the kernel's own numbers: V5 (seed 004, Ming Lei's
 * machine), the validator over every scenario, and counters moving where
 * mm/slub.c v7.0 increments them. Runs through the public API. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "slubviz/slubviz.h"

/* SHEAF_ALLOC counted on CPU 0 when c64 is created: one empty main sheaf
 * per possible CPU (init_percpu_sheaves() -> alloc_empty_sheaf()), 4 CPUs */
#define SHEAF_CREATED 4

static const char *sysfs_of(const char *ops, int *hout);
#define stat_cpu svz_t_stat_cpu
#define stat_total svz_t_stat_total
#define run(text, preset) svz_t_run((text), (preset), NULL)

static int memoryless_cpu(int cpu)
{
	int node = (cpu % 32) / 4;
	return node != 1 && node != 5;
}

static void test_v5(void)
{
	char *ublk = svz_t_read_file("scenarios/ublk-bio256.trace", NULL);
	CHECK(ublk != NULL);
	if (!ublk)
		return;
	/* v7.0-rc1: every allocation on a memoryless-node submitter is a slow
	 * path one (no barn, and no refill for mempool's first try); each takes
	 * a node list_lock. */
	int h = run(ublk, "v7.0-rc1");
	const char *s = svz_sysfs(h, "bio-256");
	long long slow = stat_total(s, "alloc_slowpath");
	CHECK(slow > 70000);
	for (int cpu = 1; cpu < 32; cpu += 2)
		if (memoryless_cpu(cpu))
			CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", cpu), 6496); /* 96 + 200 * 32 allocations */
	for (int cpu = 0; cpu < 64; cpu += 2)
		CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", cpu), 0);
	CHECK_EQ_INT(stat_total(s, "sheaf_refill"), 0); /* never refills: gfp can't block */
	{
		const char *st = svz_stats_text(h);
		long long locks = 0;
		for (const char *p = st; (p = strstr(p, " list_lock=")); p++)
			locks += atoll(p + strlen(" list_lock="));
		CHECK(locks >= slow);
	}
	svz_close(h);

	/* + fix 1: slow path only on CPUs of memoryless nodes */
	h = run(ublk, "v7.0-rc2+fix1");
	s = svz_sysfs(h, "bio-256");
	for (int cpu = 1; cpu < 32; cpu += 2) {
		if (memoryless_cpu(cpu))
			CHECK(stat_cpu(s, "alloc_slowpath", cpu) > 0);
		else
			CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", cpu), 0);
	}
	CHECK(stat_total(s, "sheaf_refill") > 0);
	svz_close(h);

	/* + fix 2: no slow path at all; barns of nodes 1 and 5 trade sheaves */
	h = run(ublk, "v7.0+fix1+fix2");
	s = svz_sysfs(h, "bio-256");
	CHECK_EQ_STR(strstr(s, "./alloc_slowpath:") ? "present" : NULL, "present");
	CHECK_EQ_INT(stat_total(s, "alloc_slowpath"), 0);
	for (int cpu = 0; cpu < 64; cpu++) {
		bool getter = cpu == 5 || cpu == 7 || cpu == 21 || cpu == 23;
		bool putter = cpu == 4 || cpu == 6 || cpu == 20 || cpu == 22;
		CHECK(getter ? stat_cpu(s, "barn_get", cpu) > 0 : stat_cpu(s, "barn_get", cpu) == 0);
		CHECK(putter ? stat_cpu(s, "barn_put", cpu) > 0 : stat_cpu(s, "barn_put", cpu) == 0);
	}
	/* memoryless CPUs refill sheaves but free to slabs */
	CHECK(stat_total(s, "sheaf_refill") >= stat_total(s, "free_slowpath"));
	CHECK(strstr(s, "./sheaf_capacity:28\n") != NULL);
	CHECK(strstr(s, "./cpu_partial:0\n") != NULL);
	CHECK(strstr(s, "./slabs_cpu_partial:0(0)\n") != NULL);
	CHECK(strstr(s, "./cpu_slabs:0\n") != NULL);
	CHECK(strstr(s, "./slab_size:320\n") != NULL);
	CHECK(strstr(s, "./objs_per_slab:51\n") != NULL);
	CHECK(strstr(s, "./order:2\n") != NULL);
	svz_close(h);
	free(ublk);
}

static const char *const scenarios[] = {
	"scenarios/basics.trace", "scenarios/sheaf-cycle.trace", "scenarios/ublk-bio256.trace",
	"scenarios/slub-bulk-bench.trace", "scenarios/partial-churn.trace", "scenarios/fastpath.trace",
};

/* In this (test) build the validator runs after every op and stops the run
 * on a violation: every op must complete and the final state validate. */
static void test_validator_all_scenarios(void)
{
	for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
		char *text = svz_t_read_file(scenarios[i], NULL);
		CHECK(text != NULL);
		if (!text)
			continue;
		int h = run(text, NULL);
		CHECK(h > 0);
		if (h > 0) {
			CHECK_EQ_INT(svz_ops_done(h), svz_ops_total(h));
			CHECK_EQ_STR(svz_run_error(h), "");
			CHECK_EQ_STR(svz_validate(h), "");
			svz_close(h);
		}
		free(text);
	}
}

#define HDR "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\ncpus 0-1 node=0\ncpus 2-3 node=1\npreset v7.0+fix1+fix2\ncache c64 size=64\n"

static const char *sysfs_of(const char *ops, int *hout)
{
	static char buf[1 << 14];
	snprintf(buf, sizeof buf, "%s%s", HDR, ops);
	int h = run(buf, NULL);
	*hout = h;
	return h > 0 ? svz_sysfs(h, "c64") : "";
}

/* Each counter moves where §6.3 says. */
static void test_counters(void)
{
	int h;
	const char *s;
	/* first alloc: empty main, empty barn -> BARN_GET_FAIL, a sheaf is
	 * allocated (SHEAF_ALLOC) and refilled from a new slab (ALLOC_SLAB,
	 * SHEAF_REFILL = capacity 60); the pop is ALLOC_FASTPATH. CPU 0 also
	 * holds SHEAF_CREATED: the empty main sheaves init_percpu_sheaves()
	 * allocated for the 4 possible CPUs when the cache was made */
	s = sysfs_of("c0 alloc c64 a\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "barn_get_fail", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_alloc", 0), SHEAF_CREATED + 1);
	CHECK_EQ_INT(stat_cpu(s, "alloc_slab", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_refill", 0), 60);
	CHECK_EQ_INT(stat_cpu(s, "alloc_fastpath", 0), 1);
	CHECK_EQ_INT(stat_total(s, "alloc_slowpath"), 0);
	svz_close(h);
	/* a local free goes to main: FREE_FASTPATH */
	s = sysfs_of("c0 alloc c64 a\nc0 free c64 a\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "free_fastpath", 0), 1);
	CHECK_EQ_INT(stat_total(s, "free_slowpath"), 0);
	svz_close(h);
	/* an object of node 0 freed on node 1: __slab_free, FREE_SLOWPATH */
	s = sysfs_of("c0 alloc c64 a\nc2 free c64 a\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "free_slowpath", 2), 1);
	CHECK_EQ_INT(stat_total(s, "free_fastpath"), 0);
	svz_close(h);
	/* kmem_cache_alloc_node for another node: ALLOC_NODE_MISMATCH, then
	 * ___slab_alloc (ALLOC_SLOWPATH) */
	s = sysfs_of("c0 alloc c64 a node=1\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "alloc_node_mismatch", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", 0), 1);
	svz_close(h);
	/* flush: main's objects back to the slab (SHEAF_FLUSH); shrink then
	 * frees the empty slab without FREE_SLAB */
	s = sysfs_of("c0 alloc c64 a\nc0 free c64 a\nc0 flush c64\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_flush", 0), 60);
	/* the spare (the old empty main) is freed: SHEAF_FREE */
	CHECK_EQ_INT(stat_cpu(s, "sheaf_free", 0), 1);
	svz_close(h);
	/* CPU 1 frees 200 objects CPU 0 allocated: main and spare fill, then
	 * full sheaves go to the barn (BARN_PUT); CPU 0 takes them (BARN_GET) */
	s = sysfs_of("repeat 200 { \nc0 alloc c64 o{$i}\n}\nrepeat 200 {\nc1 free c64 o{$i}\n}\n"
		     "repeat 200 {\nc0 alloc c64 p{$i}\n}\n", &h);
	CHECK(stat_cpu(s, "barn_put", 1) > 0);
	CHECK(stat_cpu(s, "barn_get", 0) > 0);
	svz_close(h);
	/* objects freed remotely until their slab empties: FREE_ADD_PARTIAL
	 * (full slab gets a free), FREE_REMOVE_PARTIAL + FREE_SLAB (empty
	 * slab beyond min_partial) */
	s = sysfs_of("repeat 600 {\nc0 alloc c64 o{$i}\n}\nrepeat 600 {\nc2 free c64 o{$i}\n}\n", &h);
	CHECK(stat_cpu(s, "free_add_partial", 2) > 0);
	CHECK(stat_cpu(s, "free_remove_partial", 2) > 0);
	CHECK(stat_cpu(s, "free_slab", 2) > 0);
	svz_close(h);
	/* a node too small for order-1 slabs of 512-byte objects with 4 CPUs
	 * (order 1): the fallback to s->min counts ORDER_FALLBACK */
	{
		const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=4K\ncpus 0-3 node=0\n"
				"preset v7.0+fix1+fix2\ncache k512 size=512\nc0 alloc k512 a\n";
		int h2 = run(t, NULL);
		const char *s2 = svz_sysfs(h2, "k512");
		CHECK_EQ_INT(stat_cpu(s2, "order_fallback", 0), 1);
		svz_close(h2);
	}
}

/* Per-CPU counters of a run's sysfs (NULL-terminated), then the validator;
 * closes the run. */
struct want { const char *stat; int cpu; long long value; };
static void check_stats(int h, const char *s, const struct want *w)
{
	for (; w->stat; w++)
		CHECK_EQ_INT(stat_cpu(s, w->stat, w->cpu), w->value);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* CPU 0 allocates one object of cache c1 (declared in `topo`), kfree_rcu()s
 * it and ends the grace period: FREE_RCU_SHEAF_FAIL = `fail`, no
 * FREE_RCU_SHEAF, and the barrier's kfree() is one FREE_SLOWPATH. */
static void kfree_rcu_one(const char *topo, long long fail)
{
	char t[512];
	snprintf(t, sizeof t, "slubviz-trace 1\npage_size 4096\n%sc0 alloc c1 a\nc0 kfree_rcu a\n"
		 "c0 rcu_barrier\n", topo);
	int h = svz_t_run(t, NULL, NULL);
	const char *s = svz_sysfs(h, "c1");
	CHECK_EQ_INT(stat_cpu(s, "free_rcu_sheaf_fail", 0), fail);
	CHECK_EQ_INT(stat_cpu(s, "free_rcu_sheaf", 0), 0);
	CHECK_EQ_INT(stat_cpu(s, "free_slowpath", 0), 1);
	CHECK_EQ_INT(svz_ops_done(h), 3);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* kmem_cache_destroy() of one cache leaves another cache's rcu_free sheaf
 * alone since v6.19: kvfree_rcu_barrier_on_cache() (0f35040de593) flushes
 * only the destroyed cache's sheaves. Cache b (4096 bytes, sheaf capacity
 * 4; RECLAIM_ACCOUNT so that a and b do not merge) on CPU 0: x1 takes a
 * full sheaf (barn_get_fail, sheaf_refill 4), x2 the next object; the two
 * kfree_rcu() fill CPU 0's rcu_free sheaf to 2 of 4 (free_rcu_sheaf 2, the
 * sheaf not full, so nothing is call_rcu'd). destroy a: nothing of b is
 * flushed (v6.18's flush_all_rcu_sheaves() would have sent b's sheaf to
 * the grace period: sheaf_flush 2, sheaf_free 1); the rcu_barrier has
 * nothing pending. */
static void test_destroy_flushes_own_rcu_sheaves(void)
{
	int h = svz_t_run("slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\npreset v7.0+fix1+fix2\n"
			  "cache a size=4096\ncache b size=4096 flags=RECLAIM_ACCOUNT\n"
			  "c0 alloc b x1\nc0 alloc b x2\nc0 kfree_rcu x1\nc0 kfree_rcu x2\n"
			  "c1 destroy a\nc1 rcu_barrier\n", NULL, NULL);
	const char *s = svz_sysfs(h, "b");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ_INT(stat_cpu(s, "sheaf_refill", 0), 4);
		CHECK_EQ_INT(stat_cpu(s, "free_rcu_sheaf", 0), 2);
		CHECK_EQ_INT(stat_total(s, "sheaf_flush"), 0);
		CHECK_EQ_INT(stat_total(s, "sheaf_free"), 0);
	}
	CHECK_EQ_INT(svz_ops_done(h), 6);
	CHECK_EQ_STR(svz_run_error(h), "");
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* Prefilled sheaves and kfree_rcu sheaves: SHEAF_PREFILL_*, SHEAF_RETURN_*,
 * FREE_RCU_SHEAF(_FAIL), BARN_PUT(_FAIL), SHEAF_FREE where §5.12/§5.13 say. */
static void test_prefill_and_rcu(void)
{
	int h;
	const char *s;
	/* the first prefill finds no spare and an empty barn: SLOW, BARN_GET_FAIL,
	 * a new sheaf refilled to capacity (60); returned, it becomes the spare
	 * (RETURN_FAST); the next prefill takes that spare (FAST) */
	s = sysfs_of("c0 prefill_sheaf c64 10 sh\nc0 alloc_from_sheaf c64 sh a\nc0 return_sheaf c64 sh\n"
		     "c0 prefill_sheaf c64 10 sh2\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_prefill_slow", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "barn_get_fail", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_alloc", 0), SHEAF_CREATED + 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_refill", 0), 60);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_return_fast", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_prefill_fast", 0), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	/* the snapshot names the prefilled sheaf's handle (where_id is its id) */
	CHECK(strstr(svz_snapshot_json(h), "\"where\":\"prefilled\",\"where_id\":") != NULL);
	CHECK(strstr(svz_snapshot_json(h), ",\"handle\":\"sh2\",\"objects\":[") != NULL);
	svz_close(h);
	/* more than sheaf_capacity: an oversize sheaf (no SHEAF_ALLOC but the
	 * cache's creation's) */
	s = sysfs_of("c0 prefill_sheaf c64 100 big\nrepeat 100 {\nc0 alloc_from_sheaf c64 big o{$i}\n}\n"
		     "c0 alloc_from_sheaf c64 big none\nc0 return_sheaf c64 big\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_prefill_oversize", 0), 1);
	CHECK_EQ_INT(stat_total(s, "sheaf_alloc"), SHEAF_CREATED);
	/* the oversize sheaf is filled by __kmem_cache_alloc_bulk(s, gfp, 100):
	 * refill_objects() gets all 100, stat_add(ALLOC_SLOWPATH, 100); the
	 * alloc_from_sheaf pops count nothing */
	CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", 0), 100);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* kmem_cache_prefill_sheaf() counts BARN_GET_FAIL for any sheaf it takes
	 * from the barn without objects. CPU 1 prefills twice (no spare, empty
	 * barn: 2 x SLOW, BARN_GET_FAIL) and returns both: the first becomes its
	 * spare (RETURN_FAST), the second goes full into the barn (RETURN_SLOW,
	 * BARN_PUT). CPU 0's first alloc finds main empty and no spare:
	 * barn_replace_empty_sheaf() takes that full sheaf (BARN_GET) and leaves
	 * the empty main in the barn, so CPU 0's prefill (no spare: SLOW) gets
	 * the empty sheaf: BARN_GET_FAIL, refilled to 60 (SHEAF_REFILL), and no
	 * new sheaf (SHEAF_ALLOC only the creation's) */
	s = sysfs_of("c1 prefill_sheaf c64 10 sh1\nc1 prefill_sheaf c64 10 sh2\nc1 return_sheaf c64 sh1\n"
		     "c1 return_sheaf c64 sh2\nc0 alloc c64 x\nc0 prefill_sheaf c64 10 sh3\n", &h);
	check_stats(h, s, (const struct want[]){ { "barn_get_fail", 1, 2 }, { "barn_put", 1, 1 },
		{ "barn_get", 0, 1 }, { "sheaf_prefill_slow", 0, 1 }, { "barn_get_fail", 0, 1 },
		{ "sheaf_refill", 0, 60 }, { "sheaf_alloc", 0, SHEAF_CREATED }, { NULL, 0, 0 } });
	/* a returned sheaf when the CPU already has a spare: SLOW, refilled and
	 * put into the barn (BARN_PUT) */
	s = sysfs_of("c0 alloc c64 x\nc0 prefill_sheaf c64 5 sh\nc0 prefill_sheaf c64 5 sh2\n"
		     "c0 return_sheaf c64 sh\nc0 return_sheaf c64 sh2\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_return_fast", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_return_slow", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "barn_put", 0), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* kfree_rcu: every object into the CPU's rcu_free sheaf (FREE_RCU_SHEAF);
	 * a full one (60) goes to call_rcu and, after rcu_barrier, into the barn
	 * as a full sheaf (BARN_PUT), whose objects the next allocations reuse */
	s = sysfs_of("repeat 61 {\nc0 alloc c64 o{$i}\n}\nrepeat 60 {\nc0 kfree_rcu o{$i}\n}\n"
		     "c0 rcu_barrier\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "free_rcu_sheaf", 0), 60);
	CHECK_EQ_INT(stat_cpu(s, "barn_put", 0), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* ... whichever CPU ends the grace period: rcu_free_sheaf() is an RCU
	 * callback, run on the CPU whose call_rcu() queued it (CPU 0), so
	 * BARN_PUT is CPU 0's, not that of CPU 1's rcu_barrier */
	s = sysfs_of("repeat 61 {\nc0 alloc c64 o{$i}\n}\nrepeat 60 {\nc0 kfree_rcu o{$i}\n}\n"
		     "c1 rcu_barrier\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "barn_put", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "barn_put", 1), 0);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* before the barrier the full sheaf waits with its queuing CPU (2) */
	s = sysfs_of("repeat 61 {\nc2 alloc c64 o{$i}\n}\nrepeat 60 {\nc2 kfree_rcu o{$i}\n}\n", &h);
	CHECK(strstr(svz_snapshot_json(h), "\"where\":\"rcu_pending\",\"where_id\":2,") != NULL);
	svz_close(h);
	/* kfree_rcu_sheaf() offers only objects of numa_mem_id()'s node to
	 * __kfree_rcu_sheaf(): CPU 0 of a memoryless node (numa_mem_id() = 0 on
	 * x86) frees an object of node 1 (the only memory), so nothing is
	 * counted (FREE_RCU_SHEAF_FAIL 0): classic batching, freed by the
	 * barrier to its remote slab (FREE_SLOWPATH) */
	kfree_rcu_one("node 0 mem=0\nnode 1 mem=64M\ncpus 0 node=0\ncpus 1 node=1\npreset v7.0-rc1\n"
		      "cache c1 size=64\n", 0);
	/* the same on a machine where both nodes have memory: CPU 2 (node 1)
	 * kfree_rcu()s an object CPU 0 took from node 0, not counted; CPU 0's
	 * own object goes into its rcu_free sheaf (FREE_RCU_SHEAF); at the
	 * barrier CPU 2's kfree() of the remote object is FREE_SLOWPATH */
	s = sysfs_of("c0 alloc c64 a\nc0 alloc c64 b\nc2 kfree_rcu a\nc0 kfree_rcu b\nc2 rcu_barrier\n", &h);
	check_stats(h, s, (const struct want[]){ { "free_rcu_sheaf", 2, 0 }, { "free_rcu_sheaf_fail", 2, 0 },
		{ "free_rcu_sheaf", 0, 1 }, { "free_slowpath", 2, 1 }, { NULL, 0, 0 } });
	/* every v7.0 cache has cpu_sheaves, so a node-local object of a cache
	 * without sheaves (NOLEAKTRACE: sheaf_capacity 0) reaches
	 * __kfree_rcu_sheaf(), which finds no rcu_free sheaf and
	 * !cache_has_sheaves(): FREE_RCU_SHEAF_FAIL. At the barrier kfree()
	 * finds the bootstrap main "full" and __pcs_replace_full_main() backs
	 * off (!cache_has_sheaves()): __slab_free, FREE_SLOWPATH */
	kfree_rcu_one("node 0 mem=64M\ncpus 0 node=0\npreset v7.0+fix1+fix2\n"
		      "cache c1 size=64 flags=NOLEAKTRACE\n", 1);
	/* a full barn (MAX_FULL_SHEAVES) refuses the rcu sheaf: BARN_PUT_FAIL,
	 * flushed (SHEAF_FLUSH) and kept as an empty barn sheaf */
	s = sysfs_of("repeat 1400 {\nc0 alloc c64 o{$i}\n}\nrepeat 1340 {\nc1 free c64 o{$i}\n}\n"
		     "repeat 60 {\nc0 kfree_rcu o{1340+$i}\n}\nc0 rcu_barrier\n", &h);
	CHECK(stat_cpu(s, "barn_put", 1) >= 10);
	CHECK_EQ_INT(stat_cpu(s, "barn_put_fail", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_flush", 0), 60);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* ... and with CPU 3 ending the grace period, the callback's
	 * BARN_PUT_FAIL and SHEAF_FLUSH are still CPU 0's, the queuing CPU */
	s = sysfs_of("repeat 1400 {\nc0 alloc c64 o{$i}\n}\nrepeat 1340 {\nc1 free c64 o{$i}\n}\n"
		     "repeat 60 {\nc0 kfree_rcu o{1340+$i}\n}\nc3 rcu_barrier\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "barn_put_fail", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_flush", 0), 60);
	CHECK_EQ_INT(stat_cpu(s, "barn_put_fail", 3), 0);
	CHECK_EQ_INT(stat_cpu(s, "sheaf_flush", 3), 0);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}


/* CMPXCHG_DOUBLE_FAIL needs two CPUs interleaved: CPU 1's __slab_free takes
 * its {freelist, counters} snapshot (the slab is about to become empty, so
 * it wants n->list_lock) while CPU 2 holds that lock in
 * get_from_partial_node and pops an object off the same slab. When CPU 1
 * finally gets the lock its cmpxchg fails; it retries and the slab, no
 * longer becoming empty, is freed into without the lock. */
static void test_cmpxchg_double_fail_interleaved(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\n"
			"cpus 0 node=0\ncpus 1-2 node=1\npreset v7.0+fix1+fix2\n"
			"cache nl size=64 flags=NOLEAKTRACE\n"
			"c0 alloc nl a\nc2 alloc nl b node=0\nc1 free nl a\n";
	int h = svz_open(t, NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return;
	svz_run_to_op(h, 1);
	CHECK(svz_t_step_until(h, 2, "lock list_lock"));
	CHECK(strstr(svz_t_last_event(h), "cpu 2 get_from_partial_node: lock list_lock") != NULL);
	CHECK(svz_t_step_until(h, 1, "spin"));
	CHECK(strstr(svz_t_last_event(h), "cpu 1 __slab_free: spin on list_lock") != NULL);
	while (svz_step_cpu(h, 2) == 1)
		;
	while (svz_step_cpu(h, 1) == 1)
		;
	CHECK_EQ_INT(svz_ops_done(h), 3);
	const char *s = svz_sysfs(h, "nl");
	CHECK_EQ_INT(stat_cpu(s, "cmpxchg_double_fail", 1), 1);
	CHECK_EQ_INT(stat_cpu(s, "free_slowpath", 1), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* Node 0's partial list as "a,b" from the snapshot (its first "partial"). */
static void node0_partial(int h, unsigned *a, unsigned *b)
{
	const char *p = strstr(svz_snapshot_json(h), "\"partial\":[");
	CHECK(p != NULL);
	CHECK_EQ_INT(p ? sscanf(p, "\"partial\":[%u,%u]", a, b) : 0, 2);
}

/* __kmem_cache_do_shrink() moves each slab with list_move(), which adds at
 * the head: into promote[free - 1] (equal-free slabs come back reversed)
 * and into the discard list (empty slabs are freed in reverse order).
 * CPU 0 fills slab A (a[]) and slab B (b[]) with one alloc_bulk each (64
 * objects of 64 bytes per order-0 slab: both full, on no list); CPU 2, on
 * node 1, frees objects of each (remote: one __slab_free per slab, was
 * full -> add_partial() at the tail): partial is A, B. */
static void test_shrink_order(void)
{
	static const char *const frees[] = {
		/* 2 free objects each: promote[1] = B, A, spliced to the head */
		"c2 free_bulk c64 2 a\nc2 free_bulk c64 2 b\nc2 shrink c64\n",
		/* empty (kept: nr_partial < min_partial 5): discard = B, A */
		"c2 free_bulk c64 64 a\nc2 free_bulk c64 64 b\nc2 shrink c64\n",
	};
	for (int k = 0; k < 2; k++) {
		char t[1024];
		snprintf(t, sizeof t, HDR "c0 alloc_bulk c64 64 a\nc0 alloc_bulk c64 64 b\n%s", frees[k]);
		int h = svz_open(t, NULL, NULL);
		CHECK(h > 0);
		if (h <= 0)
			return;
		unsigned a = 0, b = 0, a2 = 1, b2 = 1;
		svz_run_to_op(h, 4); /* before the shrink */
		node0_partial(h, &a, &b);
		CHECK(a != b);
		int64_t from = svz_seq(h);
		svz_run_all(h);
		if (k == 0) {
			node0_partial(h, &b2, &a2);
		} else {
			const char *ev = svz_events_json(h, from, 1000);
			const char *d1 = strstr(ev, "\"kind\":\"discard_slab\"");
			const char *d2 = d1 ? strstr(d1 + 1, "\"kind\":\"discard_slab\"") : NULL;
			CHECK(d1 && d2);
			if (d1 && d2) {
				CHECK_EQ_INT(sscanf(strstr(d1, "\"slab\":"), "\"slab\":%u", &b2), 1);
				CHECK_EQ_INT(sscanf(strstr(d2, "\"slab\":"), "\"slab\":%u", &a2), 1);
			}
		}
		CHECK_EQ_INT(a2, a);
		CHECK_EQ_INT(b2, b);
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
}

/* A double free stops the run with the kernel's wording; with
 * continue_on_error the run goes on past it. */
static void test_bad_free_reports(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0 node=0\n"
			"preset v7.0+fix1+fix2\ncache c64 size=64\n"
			"c0 alloc c64 a\nc0 free c64 a\nc0 free c64 a\nc0 alloc c64 b\n";
	int h = run(t, NULL);
	CHECK_EQ_INT(svz_ops_done(h), 3);
	CHECK(strstr(svz_run_error(h), "BUG c64 (Not tainted): Object already free") != NULL);
	CHECK(strstr(svz_reports(h), "trace:9: error: double free of handle 'a'") != NULL);
	svz_close(h);
	h = svz_open(t, NULL, "continue_on_error=1");
	svz_run_all(h);
	CHECK_EQ_INT(svz_ops_done(h), 4);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* a cache used after kmem_cache_destroy(): reported, nothing crashes */
	const char *d = "slubviz-trace 1\ncache c size=64\nc0 alloc c a\nc0 free c a\nc0 destroy c\n"
			"c0 alloc c b\nc0 flush c\nc0 destroy c\n";
	h = svz_open(d, NULL, "continue_on_error=1");
	svz_run_all(h);
	CHECK_EQ_INT(svz_ops_done(h), 6);
	CHECK(strstr(svz_reports(h), "trace:6: error: cache 'c' does not exist (destroyed?)") != NULL);
	CHECK(strstr(svz_reports(h), "trace:8: error: cache 'c' does not exist (destroyed?)") != NULL);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* destroy with objects still allocated: the kernel's shutdown report */
	h = svz_t_run("slubviz-trace 1\ncache c size=64\nc0 alloc c a\nc0 destroy c\n", NULL, NULL);
	CHECK(strstr(svz_run_error(h), "BUG c (Not tainted): Objects remaining in c on __kmem_cache_shutdown()") != NULL);
	svz_close(h);
}

/* Objects in a snapshot's slabs whose state is 'l' (lost: leaked). */
static int lost_objects(int h)
{
	int n = 0;
	for (const char *p = svz_snapshot_json(h); (p = strstr(p, "\"state\":\"")) != NULL;) {
		for (p += 9; *p && *p != '"'; p++)
			n += *p == 'l';
	}
	return n;
}

/* free_to_pcs_bulk() (v6.18 on, as in v7.0) sets remote-node objects
 * aside in batches of PCS_BATCH_MAX (32), swapping each with the last
 * object; a full batch is freed at once (FREE_SLOWPATH += 32), then
 * `if (i < size)` the scan goes on, else the function ends. CPU 0 frees
 * objects CPU 2 (node 1) allocated (remote) and one it allocated (local,
 * last):
 * - 32 remote + 1 local: i=0 is remote, the local moves to p[0]; i=0 is
 *   local, i=1; the 31 remote ones left each take the last slot, and the
 *   32nd makes size 1 == i: the batch is freed, the local object never
 *   is: free_slowpath 32, free_fastpath 0, one object lost.
 * - 33 remote + 1 local: the batch fills at size 2 > i = 1, the scan goes
 *   on, the 33rd remote starts a new batch: local to main (fastpath 1),
 *   then the partial batch: free_slowpath 33.
 * - 31 remote + 1 local: no full batch: fastpath 1, slowpath 31.
 * - 32 remote only: the batch fills at size 0: nothing local to lose. */
static void test_free_bulk_remote_batches(void)
{
	static const struct { int remote, local, slowpath, fastpath, lost; } c[] = {
		{ 32, 1, 32, 0, 1 }, { 33, 1, 33, 1, 0 }, { 31, 1, 31, 1, 0 }, { 32, 0, 32, 0, 0 },
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		char local[32] = "", ops[256];
		if (c[k].local)
			snprintf(local, sizeof local, "c0 alloc c64 p[%d]\n", c[k].remote);
		snprintf(ops, sizeof ops, "repeat %d {\nc2 alloc c64 p[{$i}]\n}\n%sc0 free_bulk c64 %d p\n",
			 c[k].remote, local, c[k].remote + c[k].local);
		int h;
		const char *s = sysfs_of(ops, &h);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		CHECK_EQ_INT(stat_cpu(s, "free_slowpath", 0), c[k].slowpath);
		CHECK_EQ_INT(stat_cpu(s, "free_fastpath", 0), c[k].fastpath);
		CHECK_EQ_INT(lost_objects(h), c[k].lost);
		CHECK((strstr(svz_events_json(h, 0, 100000), "\"check\":\"BULK_LEAK\"") != NULL) == (c[k].lost > 0));
		svz_close(h);
	}
}

/* v7.1's "slab: support memoryless nodes with sheaves" against the fix 2
 * RFC, on x86 (no HAVE_MEMORYLESS_NODES: numa_mem_id() == numa_node_id()).
 * Node 0 has no memory, so every object CPU 0 holds is of node 1 or 2.
 * d is node 1's: CPU 1, first to allocate, refills from a new node-1 slab.
 *
 * RFC (v7.0+fix1+fix2): slab_free() and free_to_pcs_bulk() keep v7.0's
 * slab_nid(slab) == numa_mem_id() test, false for all of CPU 0's frees:
 * free a -> __slab_free (FREE_SLOWPATH 1); free_bulk of 2 -> both set
 * aside as remote, size 0, flush_remote: __kmem_cache_free_bulk and
 * FREE_SLOWPATH += 2; the barrier's kfree() of r -> FREE_SLOWPATH 1.
 * CPU 0: free_slowpath 4, free_fastpath 0.
 *
 * v7.1 (e65d430111a5): can_free_to_pcs() also accepts a remote object when
 * !node_state(numa_node_id(), N_MEMORY) (N_NORMAL_MEMORY since
 * 7f9bb84fdb5e): CPU 0's main holds capacity - 3 objects (60 - 3 for c64)
 * after three allocations, so free a is free_to_pcs() (FREE_FASTPATH 1),
 * free_bulk fits main in one batch (FREE_FASTPATH += 2, main full), r is
 * popped from main and the barrier's kfree() pushes it back (FREE_FASTPATH
 * 1). CPU 0: free_fastpath 4, free_slowpath 0.
 *
 * In both: kfree_rcu_sheaf() (mm/slab_common.c) still offers only objects
 * with slab_nid() == numa_mem_id(), so r never reaches __kfree_rcu_sheaf()
 * (free_rcu_sheaf and free_rcu_sheaf_fail 0) and waits in the classic
 * batching. CPU 2's node has memory: d (node 1) is remote there, so
 * __slab_free (CPU 2: free_slowpath 1, free_fastpath 0). */
static void test_memoryless_free_to_sheaves(void)
{
	static const struct { const char *preset; long long fast0, slow0; } c[] = {
		{ "v7.0+fix1+fix2", 0, 4 }, { "v7.1", 4, 0 },
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		char t[640];
		snprintf(t, sizeof t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=0\nnode 1 mem=64M\n"
			 "node 2 mem=64M\ncpus 0 node=0\ncpus 1 node=1\ncpus 2 node=2\npreset %s\n"
			 "cache c64 size=64\nc1 alloc c64 d\nc0 alloc c64 a\nc0 alloc c64 p[0]\n"
			 "c0 alloc c64 p[1]\nc0 free c64 a\nc0 free_bulk c64 2 p\nc2 free c64 d\n"
			 "c0 alloc c64 r\nc0 kfree_rcu r\nc0 rcu_barrier\n", c[k].preset);
		int h = run(t, NULL);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		const char *s = svz_sysfs(h, "c64");
		CHECK(strstr(s, "./sheaf_capacity:60\n") != NULL);
		CHECK_EQ_INT(svz_ops_done(h), 10);
		check_stats(h, s, (const struct want[]){ { "free_fastpath", 0, c[k].fast0 },
			{ "free_slowpath", 0, c[k].slow0 }, { "free_rcu_sheaf", 0, 0 },
			{ "free_rcu_sheaf_fail", 0, 0 }, { "free_fastpath", 2, 0 },
			{ "free_slowpath", 2, 1 }, { NULL, 0, 0 } });
	}
}

/* A refill that comes up short in __pcs_replace_empty_main(), v7.0 against
 * v7.1 (69d73421b76e "slab: remove alloc_full_sheaf()"). Node 0 is one
 * 4K page; c2k's objects are 2048 bytes (default order 2, min order 0).
 * CPU 0's first alloc: main empty, no spare, the barn empty (BARN_GET_FAIL),
 * no empty sheaf in it either, so a new one (SHEAF_ALLOC; the cache's
 * creation made main, 2 in all) is refilled: order 2 fails, order 0 gives
 * one slab of 2 objects (ORDER_FALLBACK, ALLOC_SLAB, SHEAF_REFILL 2), short
 * of the capacity: -ENOMEM, the sheaf is freed (SHEAF_FREE 1).
 * v7.0 (alloc_full_sheaf()): freed without a flush, its 2 objects leak and
 * the slab stays full; ___slab_alloc() finds no partial slab and no page:
 * slab_out_of_memory(), the alloc fails.
 * v7.1: sheaf_flush_unused() first (SHEAF_FLUSH 2): the full slab's first
 * free puts it on the partial list (FREE_ADD_PARTIAL 1; empty again, kept:
 * nr_partial 0 < min_partial); ___slab_alloc() takes its object: no
 * out-of-memory report, nothing lost. */
static void test_short_refill_flushes(void)
{
	static const struct { const char *kernel; long long flush, add_partial; int lost; bool oom; } c[] = {
		{ "kernel=7.0", 0, 0, 2, true }, { "kernel=7.1", 2, 1, 0, false },
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		int h = svz_t_run("slubviz-trace 1\npage_size 4096\nnode 0 mem=4K\ncpus 0 node=0\n"
				  "preset v7.0+fix1+fix2\ncache c2k size=2048\nc0 alloc c2k a\n", NULL, c[k].kernel);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		CHECK_EQ_INT(svz_ops_done(h), 1);
		CHECK_EQ_INT(lost_objects(h), c[k].lost);
		CHECK((strstr(svz_reports(h), "SLUB: Unable to allocate memory") != NULL) == c[k].oom);
		check_stats(h, svz_sysfs(h, "c2k"), (const struct want[]){ { "barn_get_fail", 0, 1 },
			{ "sheaf_alloc", 0, 2 }, { "order_fallback", 0, 1 }, { "alloc_slab", 0, 1 },
			{ "sheaf_refill", 0, 2 }, { "sheaf_free", 0, 1 }, { "sheaf_flush", 0, c[k].flush },
			{ "free_add_partial", 0, c[k].add_partial }, { "alloc_slowpath", 0, 1 }, { NULL, 0, 0 } });
	}
}

/* __kmem_cache_alloc_bulk() of a debug cache (v7.0): one ___slab_alloc()
 * per object, each alloc_single_from_partial() off the same partial slab,
 * never refill_objects()' whole-freelist grab. And alloc_from_pcs()'s
 * ALLOC_NODE_MISMATCH, which only v7.0's stat items count. */
static void test_debug_bulk_and_node_mismatch(void)
{
	/* STORE_USER makes kmem_cache_debug() true: no sheaves. `alloc a` is
	 * ___slab_alloc (ALLOC_SLOWPATH 1) from a new slab (ALLOC_SLAB 1),
	 * left on the partial list by alloc_single_from_new_slab() with inuse
	 * 1. alloc_bulk 2: alloc_from_pcs_bulk() gets 0, then two ___slab_alloc
	 * (ALLOC_SLOWPATH 3), each alloc_single_from_partial(): inuse 3, the
	 * slab never leaves the list, so nothing is freed back and no
	 * FREE_ADD_PARTIAL. The oversize prefill of 2 (capacity 0) takes the
	 * same __kmem_cache_alloc_bulk(). */
	static const char *const second[] = { "c0 alloc_bulk dbg 2 b\n", "c0 prefill_sheaf dbg 2 sh\n" };
	for (unsigned k = 0; k < 2; k++) {
		char t[512];
		snprintf(t, sizeof t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0 node=0\n"
			 "preset v7.0-rc1\ncache dbg size=256 flags=STORE_USER\nc0 alloc dbg a\n%s", second[k]);
		int h = run(t, NULL);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		const char *s = svz_sysfs(h, "dbg");
		CHECK_EQ_INT(stat_total(s, "alloc_slowpath"), 3);
		CHECK_EQ_INT(stat_total(s, "alloc_slab"), 1);
		CHECK_EQ_INT(stat_total(s, "free_add_partial"), 0);
		CHECK_EQ_INT(stat_total(s, "objects"), 3);
		CHECK_EQ_INT(stat_total(s, "partial"), 1);
		CHECK_EQ_INT(stat_total(s, "sheaf_prefill_oversize"), k);
		svz_close(h);
	}
	/* kmem_cache_alloc_node(node 1) on node 0's CPU: alloc_from_pcs()
	 * returns NULL at its node check. v7.0 counts ALLOC_NODE_MISMATCH
	 * there; v6.19 (opt-in sheaves) returns uncounted, and its classic
	 * ___slab_alloc() has no cpu slab to mismatch: 0. Either way one
	 * ___slab_alloc() from a new slab. */
	static const struct { const char *preset; int mismatch; } p[] = { { "v7.0+fix1+fix2", 1 }, { "v6.19", 0 } };
	for (unsigned k = 0; k < 2; k++) {
		char t[512];
		snprintf(t, sizeof t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\n"
			 "cpus 0 node=0\ncpus 1 node=1\npreset %s\ncache vma size=256 sheaf_capacity=32\n"
			 "c0 alloc vma a node=1\n", p[k].preset);
		int h = run(t, NULL);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		const char *s = svz_sysfs(h, "vma");
		CHECK_EQ_INT(stat_total(s, "alloc_node_mismatch"), p[k].mismatch);
		CHECK_EQ_INT(stat_total(s, "alloc_slowpath"), 1);
		CHECK_EQ_INT(stat_total(s, "alloc_slab"), 1);
		svz_close(h);
	}
}

/* The bisection blocker 17c38c88294d still puts a was-full slab on the
 * freeing CPU's partial list, and its sysfs code still shows them (the
 * next commit, e323b52cf00f, made cpu_partial "0" and slabs_cpu_partial
 * "0(0)", as v7.0-rc1 reads). size=1024: set_cpu_partial() gives 24
 * objects, cpu_partial_slabs = DIV_ROUND_UP(24 * 2, 16 per slab) = 3, so
 * CPU 1's list holds 1..3 slabs after its frees of every other object
 * (put_cpu_partial() drains at 3 before adding), shown as slabs * 16 / 2
 * objects; there is no cpu slab at that commit: cpu_slabs 0. */
static void test_bisection_blocker_sysfs(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\nseed 1\n"
			"cache obj-1k size=1024\nrepeat 600 i {\nc0 alloc obj-1k o{$i}\n}\n"
			"repeat 300 i {\nc1 free obj-1k o{2*$i}\n}\n";
	const char *presets[2] = { "v7.0-17c38c88294d", "v7.0-rc1" };
	for (int k = 0; k < 2; k++) {
		int h = svz_t_run(t, presets[k], NULL);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		const char *s = svz_sysfs(h, "obj-1k");
		CHECK_EQ_INT(stat_total(s, "cpu_partial"), k == 0 ? 24 : 0);
		CHECK_EQ_INT(stat_total(s, "cpu_slabs"), 0);
		const char *l = strstr(s, "./slabs_cpu_partial:");
		int objs = -1, slabs = -1, cpu = -1, cobjs = -1, cslabs = -1;
		if (l)
			sscanf(l, "./slabs_cpu_partial:%d(%d) C%d=%d(%d)", &objs, &slabs, &cpu, &cobjs, &cslabs);
		if (k == 0) {
			CHECK(slabs >= 1 && slabs <= 3);
			CHECK_EQ_INT(objs, slabs * 8);
			CHECK_EQ_INT(cpu, 1);
			CHECK_EQ_INT(cobjs, objs);
			CHECK_EQ_INT(cslabs, slabs);
		} else {
			CHECK_EQ_INT(objs, 0);
			CHECK_EQ_INT(slabs, 0);
			CHECK_EQ_INT(cpu, -1);
		}
		svz_close(h);
	}
}

/* SLUB_STATS at 17c38c88294d: still v6.19's items (the series' last two
 * patches removed them, "mm/slub: remove DEACTIVATE_TO_* stat items" and
 * "mm/slub: cleanup and repurpose some stat items"), counted where the
 * code that ran still counted them. One CPU of node 0, c64 (sheaf capacity
 * 60); nodes 0 and 1 have memory.
 * - alloc a: main empty, barn_get_fail, a new sheaf refilled (60) from a
 *   new slab, then the object: 17c38 ALLOC_PCS (alloc_cpu_sheaf) 1, v7.0
 *   ALLOC_FASTPATH 1.
 * - free a: to main: 17c38 FREE_PCS 1, v7.0 FREE_FASTPATH 1.
 * - flush: sheaf_flush_main() frees main's 60 objects in batches of
 *   PCS_BATCH_MAX (32, then 28), one __kmem_cache_free_bulk() and one
 *   detached freelist (one slab) each: 17c38's __slab_free() counts
 *   FREE_SLOWPATH on entry for any caller, 2; v7.0 counts no internal flush,
 *   0. SHEAF_FLUSH 60 in both.
 * - alloc b node=1 from CPU 0 (node 0): alloc_from_pcs() gives up, v7.0
 *   counting ALLOC_NODE_MISMATCH 1, 17c38 nothing (removed from
 *   ___slab_alloc() by 17c38c88294d, added to alloc_from_pcs() by the last
 *   patch); ___slab_alloc() ALLOC_SLOWPATH 1 in both.
 * And the sysfs files: 17c38 has alloc_cpu_sheaf, cpu_partial_free and
 * deactivate_to_head, v7.0 none of them. */
static void test_bisection_blocker_stats(void)
{
	static const struct { const char *preset; long long pcs_alloc, pcs_free, fast_alloc, fast_free,
		slow_free, mismatch; bool old_files; } c[] = {
		{ "v7.0-17c38c88294d", 1, 1, 0, 0, 2, 0, true }, { "v7.0-rc1", 0, 0, 1, 1, 0, 1, false },
	};
	for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
		int h = svz_t_run("slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\ncpus 0 node=0\n"
				  "cache c64 size=64\nc0 alloc c64 a\nc0 free c64 a\nc0 flush c64\n"
				  "c0 alloc c64 b node=1\n", c[k].preset, NULL);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		const char *s = svz_sysfs(h, "c64");
		CHECK(strstr(s, "./sheaf_capacity:60\n") != NULL);
		CHECK_EQ_INT(strstr(s, "./alloc_cpu_sheaf:") != NULL, c[k].old_files);
		CHECK_EQ_INT(strstr(s, "./cpu_partial_free:") != NULL, c[k].old_files);
		CHECK_EQ_INT(strstr(s, "./deactivate_to_head:") != NULL, c[k].old_files);
		CHECK(strstr(s, "./alloc_fastpath:") != NULL);
		CHECK_EQ_INT(svz_ops_done(h), 4);
		long long pa = c[k].old_files ? stat_cpu(s, "alloc_cpu_sheaf", 0) : 0;
		long long pf = c[k].old_files ? stat_cpu(s, "free_cpu_sheaf", 0) : 0;
		CHECK_EQ_INT(pa, c[k].pcs_alloc);
		CHECK_EQ_INT(pf, c[k].pcs_free);
		check_stats(h, s, (const struct want[]){ { "alloc_fastpath", 0, c[k].fast_alloc },
			{ "free_fastpath", 0, c[k].fast_free }, { "free_slowpath", 0, c[k].slow_free },
			{ "sheaf_flush", 0, 60 }, { "alloc_node_mismatch", 0, c[k].mismatch },
			{ "alloc_slowpath", 0, 1 }, { NULL, 0, 0 } });
	}
}

/* /proc/slabinfo lists slab_caches from its head: list_add() puts every
 * new cache there, and the kmalloc caches are made at boot before any
 * other, so they come last whenever a trace first uses them, in
 * create_kmalloc_caches()'s order reversed. Its order, by mm/slab_common.c
 * of each release:
 *  - v5.10-v5.12: the main loop makes NORMAL then RECLAIM, each by size
 *    (8, 16, 32, 64, 96, 128, 192, 256 ... : 96 "immediately after" 64,
 *    192 after 128); no kmalloc-cg caches (v5.14), an accounted kmalloc
 *    uses the normal one; DMA comes last, in a loop of its own over
 *    kmalloc_caches[] by index (96, 192, 8, 16 ...);
 *  - v6.6, v6.8: DMA in the main loop (33647783deb6, v5.19), the enum
 *    NORMAL, RECLAIM, DMA, CGROUP (2f7c1c1396b5, v6.2), sizes as before;
 *  - v6.19, v7.0: as v6.8, but each type starts with 96 and 192, then 8,
 *    16 ... (306c4ac9896b, v6.10).
 * The trace below uses kmalloc-8, -96, -128, -1k, kmalloc-cg-128,
 * kmalloc-rcl-192, dma-kmalloc-8 and dma-kmalloc-96, so in boot order:
 *  - v6.6: 8 96 128 1k | rcl-192 | dma-8 dma-96 | cg-128;
 *  - v6.19: 96 8 128 1k | rcl-192 | dma-96 dma-8 | cg-128;
 *  - v5.10: 8 96 128 1k | rcl-192 | dma-96 dma-8 (cg-128 is kmalloc-128);
 * and the file lists each reversed, after the trace's caches (newest
 * first: aa-2, then zz-1). */
static void test_slabinfo_order(void)
{
	static const struct {
		const char *preset;
		const char *want[12];
	} cases[] = {
		{ "v6.6", { "aa-2", "zz-1", "kmalloc-cg-128", "dma-kmalloc-96", "dma-kmalloc-8", "kmalloc-rcl-192",
			    "kmalloc-1k", "kmalloc-128", "kmalloc-96", "kmalloc-8" } },
		{ "v6.8", { "aa-2", "zz-1", "kmalloc-cg-128", "dma-kmalloc-96", "dma-kmalloc-8", "kmalloc-rcl-192",
			    "kmalloc-1k", "kmalloc-128", "kmalloc-96", "kmalloc-8" } },
		{ "v6.19", { "aa-2", "zz-1", "kmalloc-cg-128", "dma-kmalloc-8", "dma-kmalloc-96", "kmalloc-rcl-192",
			     "kmalloc-1k", "kmalloc-128", "kmalloc-8", "kmalloc-96" } },
		{ "v7.0-rc1", { "aa-2", "zz-1", "kmalloc-cg-128", "dma-kmalloc-8", "dma-kmalloc-96", "kmalloc-rcl-192",
				"kmalloc-1k", "kmalloc-128", "kmalloc-8", "kmalloc-96" } },
		{ "v5.10", { "aa-2", "zz-1", "dma-kmalloc-8", "dma-kmalloc-96", "kmalloc-rcl-192", "kmalloc-1k",
			     "kmalloc-128", "kmalloc-96", "kmalloc-8" } },
	};
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char t[1024];
		snprintf(t, sizeof t, "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0 node=0\npreset %s\n"
			 "cache zz-1 size=200\ncache aa-2 size=64\nc0 kmalloc 100 k1\nc0 alloc aa-2 a\n"
			 "c0 alloc zz-1 z\nc0 kmalloc 1000 k2\nc0 kmalloc 80 k3\n"
			 "c0 kmalloc 100 k4 gfp=GFP_KERNEL_ACCOUNT\nc0 kmalloc 8 k5\n"
			 "c0 kmalloc 150 k6 gfp=GFP_KERNEL|__GFP_RECLAIMABLE\nc0 kmalloc 90 k7 gfp=GFP_KERNEL|GFP_DMA\n"
			 "c0 kmalloc 5 k8 gfp=GFP_KERNEL|GFP_DMA\n", cases[k].preset);
		int h = svz_t_run(t, NULL, NULL);
		CHECK(h > 0);
		if (h <= 0)
			continue;
		/* the rows after the two header lines, exactly these, in order */
		const char *p = strchr(svz_slabinfo(h), '\n');
		p = p ? strchr(p + 1, '\n') : NULL;
		unsigned rows = 0;
		for (; p && p[1]; p = strchr(p + 1, '\n'), rows++) {
			size_t len = strcspn(p + 1, " ");
			const char *w = cases[k].want[rows];
			if (!w || strlen(w) != len || strncmp(p + 1, w, len) != 0) {
				fprintf(stderr, "%s: slabinfo row %u is '%.*s', want '%s'\n", cases[k].preset, rows + 1,
					(int)len, p + 1, w ? w : "(none)");
				CHECK(false);
				break;
			}
		}
		CHECK(cases[k].want[rows] == NULL);
		svz_close(h);
	}
}

int main(void)
{
	test_cmpxchg_double_fail_interleaved();
	test_bad_free_reports();
	test_prefill_and_rcu();
	test_destroy_flushes_own_rcu_sheaves();
	test_shrink_order();
	test_v5();
	test_validator_all_scenarios();
	test_counters();
	test_free_bulk_remote_batches();
	test_memoryless_free_to_sheaves();
	test_short_refill_flushes();
	test_debug_bulk_and_node_mismatch();
	test_bisection_blocker_sysfs();
	test_bisection_blocker_stats();
	test_slabinfo_order();
	return svz_t_done();
}
