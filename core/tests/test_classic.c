/* The classic era (v6.8 .. v6.19), the patch switches and A/B figures:
 * V4 (seed 004's v6.19 identities), V6 (seed 000), V7 (seed 002), the
 * seed 001 order regression on a hackbench-like run, and every ERA A
 * counter moving where §6.1 of the spec says. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "harness.h"
#include "api/session.h"
#include "slubviz/slubviz.h"

#define stat_cpu svz_t_stat_cpu
#define stat_total svz_t_stat_total

static bool within(long long a, long long b, double pct)
{
	double d = (double)(a > b ? a - b : b - a);
	return d <= (double)(b > 0 ? b : 1) * pct / 100.0;
}

#define CHECK_WITHIN(a, b, pct) do { long long a_ = (a), b_ = (b); if (within(a_, b_, pct)) svz_t_pass++; \
	else { svz_t_fail++; fprintf(stderr, "%s:%d: %s = %lld not within %g%% of %s = %lld\n", __FILE__, \
	__LINE__, #a, a_, (double)(pct), #b, b_); } } while (0)

/* V4: the ublk producer/consumer under v6.19 shows the kernel's
 * relationships between the classic counters (seed 004's v6.19 dump). */
static void test_v4(void)
{
	char *ublk = svz_t_read_file("scenarios/ublk-bio256.trace", NULL);
	if (!ublk) {
		CHECK(0);
		return;
	}
	int h = svz_t_run(ublk, "v6.19", NULL);
	const char *s = svz_sysfs(h, "bio-256");
	long long frees = 102400;
	CHECK_EQ_INT(stat_total(s, "free_fastpath"), 0);
	CHECK_EQ_INT(stat_total(s, "free_slowpath"), frees);
	long long cpf = stat_total(s, "cpu_partial_free");
	CHECK(cpf > 1000);
	CHECK_WITHIN(stat_total(s, "cpu_partial_drain"), cpf / 3, 10);
	CHECK_WITHIN(stat_total(s, "cpu_partial_alloc"), stat_total(s, "cpu_partial_node"), 10);
	CHECK_WITHIN(stat_total(s, "cpu_partial_node"), 2 * stat_total(s, "alloc_from_partial"), 10);
	CHECK_WITHIN(stat_total(s, "deactivate_bypass"), cpf, 10);
	/* allocations only on submitters (odd), frees only on completions (even) */
	for (int cpu = 0; cpu < 64; cpu++) {
		if (cpu % 2 == 0 || cpu >= 32) {
			CHECK_EQ_INT(stat_cpu(s, "alloc_fastpath", cpu) + stat_cpu(s, "alloc_slowpath", cpu), 0);
		}
		if (cpu % 2 == 1 || cpu >= 32)
			CHECK_EQ_INT(stat_cpu(s, "free_slowpath", cpu), 0);
	}
	/* sysfs semantics of the era (seed 004 v6.19 dump): cpu_partial 52,
	 * at most cpu_partial_slabs (3) slabs per CPU in slabs_cpu_partial,
	 * objects = slabs * 51 / 2 */
	CHECK(strstr(s, "./cpu_partial:52\n") != NULL);
	CHECK(strstr(s, "./sheaf_capacity:0\n") != NULL);
	{
		const char *l = strstr(s, "./slabs_cpu_partial:");
		CHECK(l != NULL);
		if (l) {
			int objs = 0, slabs = 0;
			CHECK_EQ_INT(sscanf(l, "./slabs_cpu_partial:%d(%d)", &objs, &slabs), 2);
			CHECK_EQ_INT(objs, slabs * 51 / 2);
			CHECK(strstr(l, " C0=76(3)") != NULL || strstr(l, " C0=51(2)") != NULL ||
			      strstr(l, " C0=25(1)") != NULL);
		}
		CHECK(strstr(s, "./cpu_slabs:") != NULL && stat_total(s, "cpu_slabs") > 0);
	}
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	free(ublk);
}

/* A/B over a hackbench-like run (seed 001): v5.11-rc4 gives kmalloc-512
 * order-0 slabs (8 objects), the v5.11 release (3286222fc609) and v5.12
 * order-2 (32); the small slabs take the slow path four times as often. */
static void test_hackbench_orders(void)
{
	char *t = svz_t_read_file("scenarios/hackbench.trace", NULL);
	if (!t) {
		CHECK(0);
		return;
	}
	int a = svz_t_run(t, "v5.11-rc4", NULL), b = svz_t_run(t, "v5.11", NULL), c = svz_t_run(t, "v5.12", NULL);
	const char *sa = svz_sysfs(a, "kmalloc-512");
	CHECK(strstr(sa, "./order:0\n") && strstr(sa, "./objs_per_slab:8\n"));
	long long slow_a = stat_total(sa, "alloc_slowpath");
	const char *sb = svz_sysfs(b, "kmalloc-512");
	CHECK(strstr(sb, "./order:2\n") && strstr(sb, "./objs_per_slab:32\n"));
	long long slow_b = stat_total(sb, "alloc_slowpath");
	CHECK_EQ_INT(slow_a, 4 * slow_b);
	const char *sc = svz_sysfs(c, "kmalloc-512");
	CHECK(strstr(sc, "./order:2\n") && strstr(sc, "./objs_per_slab:32\n"));
	CHECK_EQ_INT(stat_total(sc, "alloc_slowpath"), slow_b);
	svz_close(a);
	svz_close(b);
	svz_close(c);
	free(t);
}

/* Counter of the model, summed over a cache's nodes. */
static uint64_t node_counter(int h, const char *cache, enum node_counter nc)
{
	struct model *m = svz_session_model(h);
	idx_t c = model_find_cache(m, cache);
	uint64_t v = 0;
	for (int n = 0; n < WORLD(m)->nr_nodes; n++)
		v += cnode_r(m, cnode_idx(m, c, n))->counters[nc];
	return v;
}

static uint64_t fp_writes(int h, const char *cache)
{
	struct model *m = svz_session_model(h);
	return cache_r(m, model_find_cache(m, cache))->fp_writes;
}

static uint64_t handle_addr(int h, const char *name)
{
	struct model *m = svz_session_model(h);
	const struct svz_trace *t = svz_session_trace(h);
	for (uint32_t i = 0; i < t->nr_handles; i++)
		if (strcmp(t->handle_names[i], name) == 0 && handle_r(m, i)->obj != NIL)
			return obj_addr(m, handle_r(m, i)->obj);
	return 0;
}

/* V6 (seed 000): a bulk allocation of exactly objs_per_slab objects from a
 * fresh cache writes a whole freelist without the patch and none with it;
 * a partial take of k writes objs_per_slab - k. Hand-out order unchanged,
 * with and without FREELIST_RANDOM. */
static void test_v6_deferred_freelist(void)
{
	static const char *base = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-3 node=0\n"
				  "preset v7.0+fix1+fix2\ncache b256 size=256\n";
	for (int rnd = 0; rnd < 2; rnd++) {
		for (int k = 16; k >= 5; k -= 11) { /* 16 = objs_per_slab, then a partial take */
			char t[512], sets0[128], sets1[128];
			snprintf(t, sizeof t, "%sc0 alloc_bulk b256 %d blk\n", base, k);
			snprintf(sets0, sizeof sets0, "deferred_freelist=0\nfreelist_random=%d", rnd);
			snprintf(sets1, sizeof sets1, "deferred_freelist=1\nfreelist_random=%d", rnd);
			int h0 = svz_t_run(t, NULL, sets0), h1 = svz_t_run(t, NULL, sets1);
			CHECK_EQ_INT(fp_writes(h0, "b256"), 16);
			CHECK_EQ_INT(fp_writes(h1, "b256"), 16 - k);
			for (int i = 0; i < k; i++) {
				char name[32];
				snprintf(name, sizeof name, "blk[%d]", i);
				CHECK(handle_addr(h0, name) != 0);
				CHECK_EQ_INT(handle_addr(h0, name), handle_addr(h1, name));
			}
			svz_close(h0);
			svz_close(h1);
		}
	}
}

/* Number of event lines of the last op containing `what`. */
static int count_events(int h, int64_t from, const char *what)
{
	const char *ev = svz_events_text(h, from, 0);
	int n = 0;
	for (const char *p = ev; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* V7 (seed 002): get_partial_node_bulk() isolating a run of k adjacent
 * slabs costs k remove_partial + k list_add without the patch (8 pointer
 * writes each, under list_lock) and one list_bulk_move_tail (6 writes)
 * with it; the run is counted in the histogram either way. */
static void test_v7_batched_moves(void)
{
	/* CPU 0 fills 8 slabs of 16 objects; CPU 1 frees every other object of
	 * slabs 2..7 and flushes, leaving partial slabs with 8 free objects each;
	 * then CPU 2's first allocation refills a 28-object sheaf from them. */
	const char *t =
		"slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-2 node=0\n"
		"preset v7.0+fix1+fix2\ncache b256 size=256\n"
		"repeat 128 {\nc0 alloc b256 o{$i}\n}\n"
		"repeat 48 {\nc1 free b256 o{32+2*$i}\n}\n"
		"c1 flush b256\nc0 flush b256\n"
		"c2 alloc b256 x\n";
	for (int batched = 0; batched < 2; batched++) {
		int h = svz_open(t, NULL, batched ? "batched_partial=1" : "batched_partial=0");
		const struct svz_trace *tr = svz_session_trace(h);
		svz_run_to_op(h, (int)tr->nr_ops - 1);
		uint64_t ops0 = node_counter(h, "b256", NC_LIST_OPS);
		uint64_t wr0 = node_counter(h, "b256", NC_LIST_WRITES);
		uint64_t runs0 = node_counter(h, "b256", NC_RUN_1) + node_counter(h, "b256", NC_RUN_2) +
				 node_counter(h, "b256", NC_RUN_3) + node_counter(h, "b256", NC_RUN_4PLUS);
		int64_t seq = svz_seq(h);
		svz_run_all(h);
		int k = count_events(h, seq, "from partial to private");
		int others = count_events(h, seq, "to partial") + count_events(h, seq, "from partial to none");
		uint64_t ops = node_counter(h, "b256", NC_LIST_OPS) - ops0;
		uint64_t wr = node_counter(h, "b256", NC_LIST_WRITES) - wr0;
		uint64_t runs = node_counter(h, "b256", NC_RUN_1) + node_counter(h, "b256", NC_RUN_2) +
				node_counter(h, "b256", NC_RUN_3) + node_counter(h, "b256", NC_RUN_4PLUS) - runs0;
		CHECK(k >= 2);
		CHECK_EQ_INT(runs, 1);
		if (batched) {
			CHECK_EQ_INT(ops, 1 + (uint64_t)others);
			CHECK_EQ_INT(wr, 6 + 4 * (uint64_t)others);
		} else {
			CHECK_EQ_INT(ops, 2 * (uint64_t)k + (uint64_t)others);
			CHECK_EQ_INT(wr, 8 * (uint64_t)k + 4 * (uint64_t)others);
		}
		CHECK_EQ_INT(svz_ops_done(h), (int)tr->nr_ops);
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
	/* the histogram over a churn workload: every bucket is a run */
	char *pc = svz_t_read_file("scenarios/partial-churn.trace", NULL);
	int h = svz_t_run(pc, "v7.2-candidate", NULL);
	CHECK(node_counter(h, "vm_area_struct", NC_RUN_4PLUS) > 0);
	svz_close(h);
	free(pc);
}

#define CL "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\ncpus 0-1 node=0\n" \
	   "cpus 2 node=1\npreset v6.19\ncache c64 size=64\n"

static const char *classic(const char *ops, int *h)
{
	static char buf[1 << 13];
	snprintf(buf, sizeof buf, "%s%s", CL, ops);
	*h = svz_t_run(buf, NULL, NULL);
	return *h > 0 ? svz_sysfs(*h, "c64") : "";
}

/* Every ERA A counter where §6.1 says it moves. c64: 64 objects per slab. */
static void test_classic_counters(void)
{
	int h;
	const char *s;
	/* first allocation: slow path, a new slab becomes the cpu slab; the
	 * next ones are fast-path pops of c->freelist; a free to the cpu slab
	 * is a fast-path free */
	s = classic("c0 alloc c64 a\nc0 alloc c64 b\nc0 free c64 b\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "alloc_slowpath", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "alloc_slab", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "alloc_fastpath", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "free_fastpath", 0), 1);
	CHECK_EQ_INT(stat_total(s, "cpu_slabs"), 1);
	svz_close(h);
	/* another CPU frees into the frozen cpu slab: FREE_FROZEN; when the
	 * owner's c->freelist runs dry, get_freelist() takes the remotely freed
	 * objects: ALLOC_REFILL */
	s = classic("repeat 64 {\nc0 alloc c64 o{$i}\n}\nc1 free c64 o0\nc0 alloc c64 x\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "free_frozen", 1), 1);
	CHECK_EQ_INT(stat_cpu(s, "free_slowpath", 1), 1);
	CHECK_EQ_INT(stat_cpu(s, "alloc_refill", 0), 1);
	svz_close(h);
	/* flush with remote frees pending: DEACTIVATE_REMOTE_FREES, to the tail */
	s = classic("c0 alloc c64 a\nc0 alloc c64 b\nc1 free c64 a\nc0 flush c64\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "cpuslab_flush", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "deactivate_remote_frees", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "deactivate_to_tail", 0), 1);
	svz_close(h);
	/* flush without: to the head */
	s = classic("c0 alloc c64 a\nc0 flush c64\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "deactivate_to_head", 0), 1);
	svz_close(h);
	/* flush of a fully used cpu slab: DEACTIVATE_FULL */
	s = classic("repeat 64 {\nc0 alloc c64 o{$i}\n}\nc0 flush c64\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "deactivate_full", 0), 1);
	svz_close(h);
	/* exhausted cpu slab with nothing freed remotely: DEACTIVATE_BYPASS;
	 * its first free (on another CPU) puts it on that CPU's partial chain:
	 * CPU_PARTIAL_FREE. c64 has cpu_partial 120, so cpu_partial_slabs =
	 * DIV_ROUND_UP(240, 64) = 4: the fifth such slab drains the chain of
	 * four: CPU_PARTIAL_DRAIN, 4 x FREE_ADD_PARTIAL */
	s = classic("repeat 384 {\nc0 alloc c64 o{$i}\n}\nrepeat 5 {\nc1 free c64 o{64*$i}\n}\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "deactivate_bypass", 0), 5);
	CHECK_EQ_INT(stat_cpu(s, "cpu_partial_free", 1), 5);
	CHECK_EQ_INT(stat_cpu(s, "cpu_partial_drain", 1), 1);
	CHECK_EQ_INT(stat_cpu(s, "free_add_partial", 1), 4);
	{
		const char *l = strstr(s, "./slabs_cpu_partial:");
		CHECK(l && strncmp(l, "./slabs_cpu_partial:32(1) C1=32(1)\n", 35) == 0);
	}
	/* the allocating CPU then takes partial slabs: get_partial_node gives
	 * one (ALLOC_FROM_PARTIAL) plus cpu_partial_slabs/2 + 1 = 3 more for
	 * the chain (CPU_PARTIAL_NODE), used by the next allocations
	 * (CPU_PARTIAL_ALLOC): each of those slabs has one free object */
	svz_close(h);
	s = classic("repeat 384 {\nc0 alloc c64 o{$i}\n}\nrepeat 5 {\nc1 free c64 o{64*$i}\n}\n"
		    "repeat 3 {\nc0 alloc c64 p{$i}\n}\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "alloc_from_partial", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "cpu_partial_node", 0), 3);
	CHECK_EQ_INT(stat_cpu(s, "cpu_partial_alloc", 0), 2);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* node-targeted allocation while the cpu slab is on node 0 */
	s = classic("c0 alloc c64 a\nc0 alloc c64 b node=1\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "alloc_node_mismatch", 0), 1);
	svz_close(h);
	/* six partial slabs on node 0, then one emptied completely:
	 * FREE_REMOVE_PARTIAL + FREE_SLAB (nr_partial >= min_partial) */
	s = classic("repeat 448 {\nc0 alloc c64 o{$i}\n}\nrepeat 6 {\nc1 free c64 o{64*$i}\n}\n"
		    "c1 flush c64\nc0 flush c64\nrepeat 63 {\nc1 free c64 o{$i+1}\n}\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "free_remove_partial", 1), 1);
	CHECK(stat_cpu(s, "free_slab", 1) >= 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	/* an empty cpu slab deactivated with enough partial slabs: discarded */
	s = classic("repeat 448 {\nc0 alloc c64 o{$i}\n}\nrepeat 6 {\nc1 free c64 o{64*$i}\n}\n"
		    "c1 flush c64\nrepeat 64 {\nc0 free c64 o{384+$i}\n}\nc0 flush c64\n", &h);
	CHECK_EQ_INT(stat_cpu(s, "deactivate_empty", 0), 1);
	CHECK_EQ_INT(stat_cpu(s, "free_slab", 0), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}


/* CMPXCHG_DOUBLE_FAIL in the classic era: CPU 1 frees the last object of a
 * node-partial slab (it will become empty: __slab_free snapshots and wants
 * n->list_lock) while CPU 2 holds that lock in get_partial_node() and, once
 * it has dropped it, freezes the slab (freeze_slab() takes its freelist).
 * CPU 1's cmpxchg then fails; on retry the slab is frozen: FREE_FROZEN. */
static void test_classic_cmpxchg_fail(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-2 node=0\n"
			"preset v6.19\ncache c64 size=64\n"
			"repeat 64 {\nc0 alloc c64 o{$i}\n}\nc0 alloc c64 x\n"
			"repeat 63 {\nc1 free c64 o{$i+1}\n}\nc1 flush c64\n"
			"c2 alloc c64 y\nc1 free c64 o0\n";
	int h = svz_open(t, NULL, NULL);
	const struct svz_trace *tr = svz_session_trace(h);
	svz_run_to_op(h, (int)tr->nr_ops - 2);
	CHECK(svz_t_step_until(h, 2, "lock list_lock"));
	CHECK(svz_t_step_until(h, 1, "spin"));
	CHECK(strstr(svz_t_last_event(h), "cpu 1 __slab_free: spin on list_lock") != NULL);
	while (svz_step_cpu(h, 2) == 1)
		;
	while (svz_step_cpu(h, 1) == 1)
		;
	CHECK_EQ_INT(svz_ops_done(h), (int)tr->nr_ops);
	const char *s = svz_sysfs(h, "c64");
	CHECK_EQ_INT(stat_cpu(s, "cmpxchg_double_fail", 1), 1);
	CHECK_EQ_INT(stat_cpu(s, "free_frozen", 1), 1);
	CHECK_EQ_INT(stat_cpu(s, "alloc_from_partial", 2), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* struct model keeps each pool's base (arena_rebase()): right after the
 * arena grows (5000 objects of 64 bytes: 79 slabs, past the slab pool's
 * first 64) and after a checkpoint of the smaller layout comes back; and
 * the validator notices a base that is not mem + the pool's offset. */
static void test_pool_bases(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0 node=0\n"
			"preset v7.0+fix1+fix2\ncache c64 size=64\nrepeat 5000 {\n  c0 alloc c64 a{$i}\n}\n";
	int h = svz_open(t, NULL, NULL);
	CHECK(h >= 0);
	if (h < 0)
		return;
	int cp = svz_checkpoint(h);
	CHECK(cp >= 0);
	struct model *m = svz_session_model(h);
	uint32_t slab_cap = WORLD(m)->pools[P_SLAB].cap;
	CHECK_EQ_INT(svz_run_all(h), 5000);
	m = svz_session_model(h);
	CHECK(WORLD(m)->pools[P_SLAB].cap > slab_cap); /* the arena was laid out anew */
	CHECK_EQ_STR(svz_validate(h), "");
	CHECK_EQ_INT(svz_restore(h, cp), 0);
	m = svz_session_model(h);
	CHECK_EQ_INT((long long)WORLD(m)->pools[P_SLAB].cap, (long long)slab_cap);
	CHECK_EQ_STR(svz_validate(h), "");
	void *kept = m->pool_base[P_OBJ];
	m->pool_base[P_OBJ] = (char *)kept + sizeof(struct obj_rec);
	CHECK(strstr(svz_validate(h), "BUG: pool 6's base is") != NULL);
	m->pool_base[P_OBJ] = kept;
	CHECK_EQ_STR(svz_validate(h), "");
	CHECK_EQ_INT(svz_run_all(h), 5000);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

int main(void)
{
	test_pool_bases();
	test_classic_cmpxchg_fail();
	test_v4();
	test_hackbench_orders();
	test_v6_deferred_freelist();
	test_v7_batched_moves();
	test_classic_counters();
	return svz_t_done();
}
