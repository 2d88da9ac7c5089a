/* Schedules (docs/trace-format.md §3.1): round-robin, random, explicit
 * steps; a CPU waits for the op whose handle it names; lock semantics
 * between interleaved CPUs (a spin while held, a trylock that fails, a
 * cmpxchg that fails and retries); the race at 17c38c88294d (seed 004);
 * checkpoints carry the schedule. Expected values are derived by hand from
 * the v7.0 paths of mm/slub.c for a cache without sheaves, whose
 * allocation from a partial slab is these micro-steps (one event each):
 *   1 alloc_from_pcs: lock cpu_sheaves_lock   (local_trylock)
 *   2 __pcs_replace_empty_main: no sheaves    (the bootstrap sheaf)
 *   3 unlock cpu_sheaves_lock
 *   4 ___slab_alloc: stat alloc_slowpath
 *   5 get_from_partial_node: lock list_lock   (or spin / trylock_fail)
 *   6 cmpxchg: one object off the slab's freelist
 *   7 unlock list_lock
 *   8 kmem_cache_alloc: return */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "api/session.h"
#include "model/types.h"
#include "slubviz/slubviz.h"

#define HEAD "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\n" \
	     "cache nl size=64 flags=NOLEAKTRACE\n"

/* Events (text) of the whole run, one per line. */
static char *run_events(int h)
{
	size_t cap = 1 << 16, len = 0;
	char *all = malloc(cap);
	all[0] = 0;
	while (svz_step(h) == 1) {
		const char *e = svz_t_last_event(h);
		size_t n = strlen(e);
		if (len + n + 2 > cap)
			all = realloc(all, cap = 2 * (len + n + 2));
		memcpy(all + len, e, n);
		len += n;
		if (!n || e[n - 1] != '\n')
			all[len++] = '\n';
		all[len] = 0;
	}
	return all;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* round-robin: op 1 (flush) waits for op 0 and c1's op 3 waits for op 1
 * (flush is a barrier), so while op 1 runs only CPU 0 is runnable and the
 * cursor stays at CPU 1: op 3 takes the first step, then the CPUs
 * alternate. CPU 1 takes list_lock at its step 5; CPU 0's step 5 and 6
 * find it held (two spins); CPU 1 unlocks at its step 7 and CPU 0 locks. */
static void test_round_robin_spin(void)
{
	int h = svz_open(HEAD "preset v7.0-rc1\nschedule round-robin\n"
			 "c0 alloc nl s0\nc0 flush nl\nc0 alloc nl a\nc1 alloc nl b\n", NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_run_to_op(h, 2), 2);
	char *ev = run_events(h);
	CHECK_EQ_INT(count(ev, "op 2 cpu 0 get_from_partial_node: spin on list_lock (node 0) held by cpu 1"), 2);
	CHECK_EQ_INT(count(ev, "cpu 1 get_from_partial_node: spin"), 0);
	const char *first = strstr(ev, "op 3 cpu 1 alloc_from_pcs: lock"), *c0 = strstr(ev, "op 2 cpu 0");
	CHECK(first && c0 && first < c0);
	/* CPU 0 locks right after CPU 1's unlock */
	const char *unlock = strstr(ev, "op 3 cpu 1 get_from_partial_node: unlock list_lock");
	CHECK(unlock && strstr(unlock, "\n") && strncmp(strstr(unlock, "\n") + 1 + strcspn(strstr(unlock, "\n") + 1, "o"),
		"op 2 cpu 0 get_from_partial_node: lock list_lock", 48) == 0);
	CHECK_EQ_INT(svz_ops_done(h), 4);
	CHECK_EQ_STR(svz_validate(h), "");
	free(ev);
	svz_close(h);
}

/* explicit: CPU 0 holds list_lock (its second lock event) while CPU 1
 * allocates with gfp 0: gfpflags_allow_spinning() is false, so
 * get_from_partial_node() trylocks and fails; ___slab_alloc() then makes a
 * new slab and alloc_from_new_slab() trylocks again to put the rest on
 * n->partial, fails, discards the slab and the allocation returns NULL
 * (v7.0's kmalloc_nolock() behaviour). Two trylock failures, no spin. */
static void test_explicit_trylock_fails(void)
{
	int h = svz_open(HEAD "preset v7.0-rc1\nschedule explicit\nsteps c0/ c0:lock c0:lock c1/ c0/\n"
			 "c0 alloc nl s0\nc0 alloc nl a\nc1 alloc nl b gfp=0\n", NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return;
	char *ev = run_events(h);
	CHECK_EQ_INT(count(ev, "cpu 1 get_from_partial_node: trylock of list_lock (node 0) failed: held by cpu 0"), 1);
	CHECK_EQ_INT(count(ev, "cpu 1 alloc_from_new_slab: trylock of list_lock (node 0) failed: held by cpu 0"), 1);
	CHECK_EQ_INT(count(ev, "spin"), 0);
	CHECK_EQ_INT(count(ev, "op 2 cpu 1 kmem_cache_alloc: return 0"), 1);
	/* CPU 1's whole op ran between CPU 0's lock and its cmpxchg */
	const char *lock = strstr(ev, "op 1 cpu 0 get_from_partial_node: lock list_lock");
	const char *ret = strstr(ev, "op 2 cpu 1 kmem_cache_alloc: return");
	const char *cmpxchg = strstr(ev, "op 1 cpu 0 get_from_partial_node: cmpxchg");
	CHECK(lock && ret && cmpxchg && lock < ret && ret < cmpxchg);
	CHECK(strstr(svz_stats_text(h), "list_lock_trylock_fail=2") != NULL);
	svz_close(h);
	free(ev);
}

/* explicit: the cmpxchg-double failure of __slab_free (test_model's
 * interleaving, now written as steps). CPU 2's alloc for node 0 is a node
 * mismatch (ALLOC_NODE_MISMATCH: straight to ___slab_alloc, no sheaf
 * lock), so its first lock is node 0's list_lock, held before its cmpxchg
 * (S: inuse 1); CPU 1's free of a snapshots inuse 1 ==
 * cnt, so the slab would become empty and it wants list_lock: it spins.
 * CPU 2 takes an object (inuse 2) and unlocks; CPU 1 locks, sees the slab
 * changed: CMPXCHG_DOUBLE_FAIL, unlock, retry; now inuse 2 > 1, so the
 * retry frees locklessly: one failure, one free_slowpath. */
static void test_explicit_cmpxchg_retry(void)
{
	int h = svz_open("slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\n"
			 "cpus 0 node=0\ncpus 1-2 node=1\npreset v7.0+fix1+fix2\n"
			 "cache nl size=64 flags=NOLEAKTRACE\nschedule explicit\n"
			 "steps c0/ c2:lock c1/ c2/ c1/\n"
			 "c0 alloc nl a\nc2 alloc nl b node=0\nc1 free nl a\n", NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_run_all(h), 3);
	const char *s = svz_sysfs(h, "nl");
	CHECK_EQ_INT(svz_t_stat_cpu(s, "cmpxchg_double_fail", 1), 1);
	CHECK_EQ_INT(svz_t_stat_total(s, "cmpxchg_double_fail"), 1);
	CHECK_EQ_INT(svz_t_stat_cpu(s, "free_slowpath", 1), 1);
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
}

/* A free waits for the alloc of its handle: CPU 1 has nothing it may run
 * while CPU 0's alloc of a is in flight; an explicit step naming it stops
 * the run with the lines of both ops. */
static void test_free_waits_for_alloc(void)
{
	const char *t = HEAD "c0 alloc nl a\nc1 free nl a\n";
	int h = svz_open(t, NULL, NULL);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_step_cpu(h, 0), 1);   /* op 0 in flight */
	CHECK_EQ_INT(svz_step_cpu(h, 1), 0);   /* op 1 waits */
	while (svz_step_cpu(h, 0) == 1)
		;
	CHECK_EQ_INT(svz_step_cpu(h, 1), 1);   /* returned: op 1 may start */
	CHECK_EQ_INT(svz_run_all(h), 2);
	svz_close(h);

	h = svz_open(HEAD "schedule explicit\nsteps c0 c1\nc0 alloc nl a\nc1 free nl a\n", NULL, NULL);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_run_all(h), -1);
	CHECK(strstr(svz_run_error(h), "trace:7: error: schedule step 'c1': CPU 1's next op (line 9) "
				       "waits for CPU 0's op at line 8") != NULL);
	svz_close(h);
}

/* A handle two CPUs' ops would fill at once (ops.c claim_handle()). Op 2
 * names s (last named by op 1, CPU 2) and a (op 0, CPU 0): it waits only for
 * the later, op 1 (build_deps()). So with op 0's alloc of a in flight on
 * CPU 0 (one step: it holds CPU 0's sheaves lock), CPU 2's prefill returns
 * and CPU 1's alloc_from_sheaf may start: storing into a, which op 0 will
 * fill too, is the trace's error, not the kernel's. A handle last claimed by
 * another CPU's op that has returned is free to claim (ops 2 and 4 of the
 * second trace). */
static void test_handle_claimed_in_flight(void)
{
	const char *t = "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-2 node=0\n"
		"preset v7.0+fix1+fix2\ncache c size=64\n"
		"c0 alloc c a\nc2 prefill_sheaf c 2 s\nc1 alloc_from_sheaf c s a\n";
	int h = svz_open(t, NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return;
	CHECK_EQ_INT(svz_step_cpu(h, 0), 1); /* op 0 in flight */
	while (svz_ops_done(h) == 0 && svz_step_cpu(h, 2) == 1)
		;
	CHECK_EQ_INT(svz_ops_done(h), 1);    /* op 1 returned, op 0 still in flight */
	int r = 0;
	for (int i = 0; i < 64 && (r = svz_step_cpu(h, 1)) == 1 && !svz_run_error(h)[0]; i++)
		;
	CHECK_EQ_INT(r, -1);
	CHECK(strstr(svz_run_error(h), "trace:9: error: handle 'a' is being allocated by CPU 0's op at "
				       "line 7, still in flight") != NULL);
	svz_close(h);

	h = svz_open("slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\n"
		     "cache c size=64\nc0 alloc c a\nc0 free c a\nc1 alloc c a\nc1 free c a\n"
		     "c0 alloc c a\nc0 free c a\n", NULL, NULL);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_run_all(h), 6);
	CHECK_EQ_INT((int)strlen(svz_run_error(h)), 0);
	svz_close(h);
}

/* The race at 17c38c88294d (scenarios/race-17c38c88294d.trace). */
static void test_race_scenario(void)
{
	char *text = svz_t_read_file("scenarios/race-17c38c88294d.trace", NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	int h = svz_open(text, "v7.0-17c38c88294d", NULL);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_run_all(h), -1);
	CHECK(strstr(svz_reports(h), "list_del corruption") != NULL);
	/* S heads node 0's partial list, so its slab_list.prev was the list
	 * head, ffff888003000010; CPU 1's put_cpu_partial() stored slab->slabs
	 * = 1 (its per-CPU list was empty) in the low 32 bits: ffff8880 00000001 */
	CHECK(strstr(svz_reports(h), "next->prev should be ffff888003000010, but was ffff888000000001.") != NULL);
	svz_close(h);
	const char *safe[] = { "v6.19", "v7.0-rc1", "v7.0+fix1+fix2" };
	for (int i = 0; i < 3; i++) {
		h = svz_open(text, safe[i], NULL);
		CHECK_EQ_INT(svz_run_all(h), svz_ops_total(h));
		CHECK_EQ_STR(svz_run_error(h), "");
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
	/* random schedules find it under 17c38c88294d, never under the others.
	 * A seed finds it when CPU 1's free lands in CPU 0's one-step window
	 * before a free lands just after it (the slab then leaves the node
	 * list and the ping-pong ends): 16 of the first 200 seeds do, so 100
	 * seeds find it unless the race is gone; 25 seeds of each safe kernel
	 * cover the same interleavings. */
	const char *presets[] = { "v7.0-17c38c88294d", "v6.19", "v7.0+fix1+fix2" };
	for (int i = 0; i < 3; i++) {
		int found = 0;
		for (int seed = 1; seed <= (i ? 25 : 100) && !found; seed++) {
			char sets[64];
			snprintf(sets, sizeof sets, "schedule=random seed=%d", seed);
			h = svz_open(text, presets[i], sets);
			if (svz_run_all(h) < 0) {
				found = seed;
				CHECK(strstr(svz_reports(h), "list_del corruption") != NULL);
			}
			svz_close(h);
		}
		if (i == 0)
			CHECK(found > 0);
		else
			CHECK_EQ_INT(found, 0);
	}
	free(text);
}

/* A checkpoint carries the schedule's state: restoring one mid-run under
 * round-robin, random and explicit replays the same steps. */
static void test_checkpoint_replays(void)
{
	const char *specs[] = { "schedule=round-robin", "schedule=random seed=5", NULL };
	char *text = svz_t_read_file("scenarios/race-17c38c88294d.trace", NULL);
	for (int i = 0; i < 3 && text; i++) {
		int h = svz_open(text, "v7.0-rc1", specs[i]);
		CHECK(h > 0);
		for (int k = 0; k < 700; k++)
			svz_step(h);
		int cp = svz_checkpoint(h);
		char *a = run_events(h);
		long long seq = svz_seq(h);
		CHECK_EQ_INT(svz_restore(h, cp), 0);
		char *b = run_events(h);
		CHECK_EQ_INT(svz_seq(h), seq);
		CHECK(strcmp(a, b) == 0);
		free(a);
		free(b);
		svz_close(h);
	}
	free(text);
}

/* The world and every pool but the frames, byte for byte (frames: see
 * test_fused_run_leaves_same_world()). */
static bool same_records(const struct model *a, const struct model *b)
{
	if (arena_used(a) != arena_used(b) || memcmp(a->mem, b->mem, sizeof(struct world)) != 0)
		return false;
	const struct world *w = (const struct world *)a->mem;
	for (int p = 0; p < P__COUNT; p++) {
		const struct pool_desc *pd = &w->pools[p];
		if (p != P_FRAME && memcmp(a->mem + pd->off, b->mem + pd->off, (size_t)pd->len * pd->esize) != 0)
			return false;
	}
	return true;
}

/* A serial run of whole ops fuses its steps, and a fused step records its
 * event (events on) and nothing else, not even the step's last event
 * (engine.h fused_step()): every op ends with its RETURN, which notes it.
 * A fused LOCK() of a free lock makes co_LOCK's step itself, frame and all
 * left out (lock_take_fused()). So at every op boundary the world and its
 * records hold the bytes a run step by step (svz_step(), no step fused)
 * leaves, and the same events were recorded, under both eras, events off
 * and on. Only frames above the stacks (none at an op boundary) may hold
 * other bytes: no one reads them. (A write a fused step made and the
 * RETURN did not undo, or a lock counter or event lock_take_fused() got
 * wrong, fails it at every boundary.) */
static void test_fused_run_leaves_same_world(void)
{
	const char *files[] = { "scenarios/basics.trace", "scenarios/sheaf-cycle.trace",
				"scenarios/kfree-rcu.trace", "scenarios/slub-bulk-bench.trace",
				"scenarios/lesson-batched.trace", "scenarios/lesson-classic-paths.trace" };
	const char *presets[] = { NULL, "v6.19", "v5.10" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *text = svz_t_read_file(files[i], NULL);
		CHECK(text != NULL);
		for (int run = 0; text && run < 2 * (int)(sizeof presets / sizeof *presets); run++) {
			const char *preset = presets[run / 2];
			int events = run % 2;
			int fused = svz_open(text, preset, NULL), stepped = svz_open(text, preset, NULL);
			CHECK(fused > 0 && stepped > 0);
			if (fused <= 0 || stepped <= 0)
				continue;
			svz_set_events(fused, events);
			svz_set_events(stepped, events);
			int differ = 0, ops = svz_ops_total(fused);
			int64_t seen = 0;
			for (int k = 1; k <= ops; k++) {
				int r = svz_run_to_op(fused, k);
				while (svz_ops_done(stepped) < k && svz_step(stepped) == 1)
					;
				bool same = same_records(svz_session_model(fused), svz_session_model(stepped));
				if (events) { /* the op's events, each in text (every field); each
					       * session has its own output buffer */
					same = same && strcmp(svz_events_text(fused, seen, 1 << 20),
							      svz_events_text(stepped, seen, 1 << 20)) == 0;
					seen = svz_seq(fused);
				}
				differ += !same;
				if (r < 0)
					break;
			}
			if (differ)
				fprintf(stderr, "%s [%s, events %s]: %d op boundaries differ\n", files[i],
					preset ? preset : "its preset", events ? "on" : "off", differ);
			CHECK_EQ_INT(differ, 0);
			svz_close(fused);
			svz_close(stepped);
		}
		free(text);
	}
}

/* kmalloc caches are made on first use, and a kmalloc op finds its cache by
 * (kmalloc type, index) in state a checkpoint carries (cache.c
 * kmalloc_cache()): back to before any of them existed, or to between the
 * first and the third, the run makes each again, once, and replays the
 * same events. The sizes and gfp give, by kmalloc_slab(): 100 -> kmalloc-128,
 * 700 -> kmalloc-1k, 100 with __GFP_ACCOUNT -> kmalloc-cg-128, 60 with
 * __GFP_RECLAIMABLE -> kmalloc-rcl-64: four caches in /proc/slabinfo. */
static void test_kmalloc_caches_across_restore(void)
{
	const char *text = HEAD "preset v7.0+fix1+fix2\nschedule round-robin\n"
		"c0 kmalloc 100 a\nc1 kmalloc 700 b\nc0 kmalloc 100 c gfp=GFP_KERNEL_ACCOUNT\n"
		"c1 kmalloc 60 d gfp=GFP_KERNEL|__GFP_RECLAIMABLE\nc0 kfree a\nc1 kfree b\nc0 kfree c\nc1 kfree d\n"
		"c0 kmalloc 100 e\nc1 kmalloc 60 f gfp=GFP_KERNEL|__GFP_RECLAIMABLE\nc0 kfree e\nc1 kfree f\n";
	int h = svz_open(text, NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return;
	int start = svz_checkpoint(h);
	char *straight = run_events(h);
	const char *si = svz_slabinfo(h);
	char *slabinfo = malloc(strlen(si) + 1);
	memcpy(slabinfo, si, strlen(si) + 1);
	int rows = 0;
	for (const char *p = slabinfo; (p = strstr(p, "\n")) != NULL; p++)
		rows += strncmp(p + 1, "kmalloc-", 8) == 0 || strncmp(p + 1, "dma-kmalloc-", 12) == 0;
	CHECK_EQ_INT(rows, 4);
	CHECK(strstr(slabinfo, "\nkmalloc-128 ") && strstr(slabinfo, "\nkmalloc-1k ") &&
	      strstr(slabinfo, "\nkmalloc-cg-128 ") && strstr(slabinfo, "\nkmalloc-rcl-64 "));
	for (int again = 0; again < 2; again++) {
		CHECK_EQ_INT(svz_restore(h, start), 0);
		if (again) /* kmalloc-128 and -1k made: a checkpoint between */
			for (int k = 0; k < 3; k++)
				svz_step(h);
		int mid = again ? svz_checkpoint(h) : start;
		char *replay = run_events(h);
		if (again) {
			CHECK_EQ_INT(svz_restore(h, mid), 0);
			free(replay);
			replay = run_events(h);
			size_t ns = strlen(straight), nr = strlen(replay);
			CHECK(nr > 0 && nr < ns && strcmp(straight + ns - nr, replay) == 0); /* the straight run's tail */
		} else {
			CHECK(strcmp(straight, replay) == 0);
		}
		CHECK(strcmp(slabinfo, svz_slabinfo(h)) == 0);
		CHECK(strcmp(svz_validate(h), "") == 0);
		free(replay);
	}
	free(straight);
	free(slabinfo);
	svz_close(h);
}

static void test_bad_schedules(void)
{
	const char *bad[][2] = {
		{ HEAD "schedule sometimes\n", "trace:6:10: error: expected a schedule (serial, round-robin, random seed=N, timed, explicit), got 'sometimes'" },
		{ HEAD "schedule random seed=x\n", "trace:6:10: error: expected seed=N after 'random', got 'seed=x'" },
		{ HEAD "steps c2\n", "trace:6:7: error: expected a CPU of c0-c1 in the schedule step, got c2" },
		{ HEAD "steps c0y\n", "trace:6:7: error: expected a schedule step like" },
		{ HEAD "steps c0:bogus\n", "trace:6:7: error: expected an event kind after ':'" },
		{ HEAD "schedule explicit\nc0 alloc nl a\n", "schedule explicit needs 'steps' lines" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(svz_open(bad[i][0], NULL, NULL) <= 0);
		if (!strstr(svz_last_error(), bad[i][1]))
			fprintf(stderr, "got: %s\n", svz_last_error());
		CHECK(strstr(svz_last_error(), bad[i][1]) != NULL);
	}
	CHECK(svz_open(HEAD, NULL, "schedule=later") <= 0);
}

int main(void)
{
	test_round_robin_spin();
	test_explicit_trylock_fails();
	test_explicit_cmpxchg_retry();
	test_free_waits_for_alloc();
	test_handle_claimed_in_flight();
	test_race_scenario();
	test_checkpoint_replays();
	test_fused_run_leaves_same_world();
	test_kmalloc_caches_across_restore();
	test_bad_schedules();
	return svz_t_done();
}
