/* The timed schedule (docs/timing.md): the CPU with the smallest clock
 * runs next (ties: the lowest id), a step costs its kind's entry of the
 * cost table, a waiting CPU idles until the op it waits for returns, a
 * spinning CPU burns cycles until the holder releases. Expected clocks are
 * derived by hand from those rules, with the table overridden so every
 * step kind costs 1 cycle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "api/session.h"
#include "model/timing.h"
#include "slubviz/slubviz.h"

#define HEAD "slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\n" \
	     "cache nl size=64 flags=NOLEAKTRACE\npreset v7.0-rc1\nschedule timed\n"
/* every kind of step costs 1 cycle; no cache-line transfers */
#define UNIT "cost.step=1\ncost.cmpxchg=1\ncost.lock=1\ncost.line_node=0\ncost.line_remote=0\n" \
	     "cost.spin=1\ncost.page_alloc=1\ncost.page_free=1\n"

static char report[8192];

static const char *profile(int h)
{
	struct sbuf b = { 0 };
	timing_report(svz_session_model(h), &b);
	snprintf(report, sizeof report, "%s", b.s ? b.s : "");
	sb_free(&b);
	return report;
}

/* op 0 (c0, 100 cycles) runs first: both clocks are 0 and CPU 0 has the
 * lower id. Then CPU 1 (clock 0 < 100) runs op 1 to 50; then op 2 takes
 * CPU 0 to 110. The run ends at 110: CPU 1 idles its last 60 cycles. */
static void test_work_clocks(void)
{
	int h = svz_open(HEAD "c0 work 100\nc1 work 50\nc0 work 10\n", NULL, NULL);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 0 cpu 0 work: return 100") != NULL);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 1 cpu 1 work: return 50") != NULL);
	CHECK_EQ_INT(svz_run_all(h), 3);
	const char *p = profile(h);
	CHECK(strstr(p, "# cpus: busy, spin, idle cycles of 110\n") != NULL);
	CHECK(strstr(p, "cpu 0: busy=110 spin=0 idle=0 (100.0% 0.0% 0.0%)\n") != NULL);
	CHECK(strstr(p, "cpu 1: busy=50 spin=0 idle=60 (45.5% 0.0% 54.5%)\n") != NULL);
	CHECK(strstr(p, "throughput mops=0.000\n") != NULL); /* no allocator calls */
	svz_close(h);
}

/* c1's free of a waits for c0's alloc of a, which starts at 100 and takes
 * S_a one-cycle steps: c1 idles until 100 + S_a, then runs its S_f steps.
 * The run is sequential, so S_a + S_f = the steps after the work op. */
static void test_wait_idles(void)
{
	int h = svz_open(HEAD "c0 work 100\nc0 alloc nl a\nc1 free nl a\n", NULL, UNIT);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_step(h), 1); /* op 0 */
	while (svz_ops_done(h) < 2)
		svz_step(h);
	long long s_a = svz_seq(h) - 1;
	CHECK_EQ_INT(svz_run_all(h), 3);
	long long s_f = svz_seq(h) - 1 - s_a;
	CHECK(s_a > 5 && s_f > 3);
	char want[160];
	snprintf(want, sizeof want, "cpu 1: busy=%lld spin=0 idle=%lld ", s_f, 100 + s_a);
	CHECK(strstr(profile(h), want) != NULL);
	snprintf(want, sizeof want, "cpu 0: busy=%lld spin=0 idle=%lld ", 100 + s_a, s_f);
	CHECK(strstr(profile(h), want) != NULL);
	/* two allocator calls in 100 + S_a + S_f cycles at 3000 per us */
	snprintf(want, sizeof want, "throughput mops=%.3f\n", 2.0 * 3000 / (double)(100 + s_a + s_f));
	CHECK(strstr(profile(h), want) != NULL);
	svz_close(h);
}

/* Contention. Ops 0 and 1 run on CPU 0 (op 1, a flush, is a barrier: CPU
 * 1's op 3 waits for it) up to time T; then both CPUs are at T and CPU 0
 * goes first on ties. Allocation from the partial slab, one cycle a step:
 * steps 1-4 (sheaf lock, check, unlock, stat) alternate, CPU 0 taking
 * list_lock at its step 5 (T+4 -> T+5). CPU 1's step 5 at T+4 spins: one
 * poll, up to the holder's clock T+5. At T+5 CPU 0 (tie, lower id)
 * cmpxchg's to T+6, CPU 1 spins again to T+6; CPU 0 unlocks (T+7); CPU 1
 * locks at T+6 -> T+7. CPU 1 spun 2 cycles and waited from T+4 to T+7: one
 * contended acquisition, 3 cycles. */
static void test_spin_until_release(void)
{
	int h = svz_open(HEAD "c0 alloc nl s0\nc0 flush nl\nc0 alloc nl a\nc1 alloc nl b\n", NULL, UNIT);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_run_all(h), 4);
	const char *p = profile(h);
	CHECK(strstr(p, "contended=1 wait_total=3 wait_max=3\n") != NULL);
	CHECK(strstr(p, "get_from_partial_node: spin on list_lock\n") != NULL);
	CHECK(strstr(p, "  2  get_from_partial_node: spin on list_lock\n") != NULL ||
	      strstr(p, "            2  get_from_partial_node: spin on list_lock\n") != NULL);
	const char *c1 = strstr(p, "cpu 1: busy=");
	CHECK(c1 && strstr(c1, " spin=2 ") != NULL);
	CHECK(strstr(p, "cpu 0: busy=") && strstr(strstr(p, "cpu 0: busy="), " spin=0 ") != NULL);
	svz_close(h);
}

/* An object's lines move to the CPU that uses it (timing_use_object()).
 * v6.19, kmem_cache_cpu slabs. size=200: object_size 200 is 4 lines of 64
 * bytes; 4096 / 200 = 20 objects in an order-0 slab (min_objects 4 *
 * (fls(2) + 1) = 12 <= 20, so calculate_order() keeps order 0).
 *   c0 alloc a        a is fresh (never used): nothing moves
 *   c1 free a         c0 used it last, same node: 4 * line_node = 4 * 5
 *                     (a remote free: onto slab->freelist of c0's cpu slab)
 *   c0 alloc x0..x18  the slab's 19 other objects, fresh: nothing
 *   c0 alloc z        c->freelist empty: get_freelist() takes {a}, z = a;
 *                     c1 freed it, same node: 4 * 5
 *   c2 free z         c0 used it, c2 is on node 1: 4 * line_remote = 4 * 11
 * 20 + 20 + 44 = 84 cycles. */
static void test_object_lines(void)
{
	int h = svz_open("slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\nnode 1 mem=64M\n"
			 "cpus 0-1 node=0\ncpus 2 node=1\ncache nl size=200 flags=NOLEAKTRACE\n"
			 "preset v6.19\nschedule timed\n"
			 "c0 alloc nl a\nc1 free nl a\nrepeat 19 i {\n  c0 alloc nl x{$i}\n}\n"
			 "c0 alloc nl z\nc2 free nl z\n",
			 NULL, UNIT "cost.line_node=5\ncost.line_remote=11\n");
	CHECK(h > 0);
	CHECK_EQ_INT(svz_run_all(h), 23);
	CHECK(strstr(profile(h), "# objects' cache lines moving to the CPU that uses them: ") != NULL);
	CHECK(strstr(profile(h), "%, 84 cycles\n") != NULL);
	svz_close(h);
	/* not a timed run: nothing is priced, nothing is reported */
	h = svz_open("slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\n"
		     "cache nl size=200\npreset v6.19\nc0 alloc nl a\nc1 free nl a\n", NULL, NULL);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_run_all(h), 2);
	CHECK(strstr(profile(h), "only a timed run") != NULL);
	svz_close(h);
}

/* pick()'s run queue (sched.c) is part of the run: kept in the world,
 * rebuilt when an op returns, carried by checkpoints. Three CPUs, one
 * cycle a step; c1's free of a waits for c0's alloc of a (S_a steps):
 *   step 1  c0 work 100: all clocks 0, the lowest id; 0 -> 100
 *   step 2  c2 work 30: 0 -> 30; c1 waits           <- checkpoint
 *   step 3  c2 work 500: 30 < 100; 30 -> 530
 *   then    c0's alloc, 100 -> 100 + S_a; c1 starts at the clock of the op
 *           it waited for, 100 + S_a, and runs its S_f steps.
 * The run ends at 530 (S_a + S_f < 430): c1 is busy S_f and idle the rest,
 * 530 - S_f; c2 is busy 530. A step by hand at the checkpoint (c0, 100 ->
 * 101) leaves c2 (30) the schedule's next pick; restoring the checkpoint
 * after it gives the straight run again. */
static void test_runq_across_restore(void)
{
	int h = svz_open("slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-2 node=0\n"
			 "cache nl size=64 flags=NOLEAKTRACE\npreset v7.0-rc1\nschedule timed\n"
			 "c0 work 100\nc0 alloc nl a\nc1 free nl a\nc2 work 30\nc2 work 500\n",
			 NULL, UNIT);
	CHECK(h > 0);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 0 cpu 0 work: return 100") != NULL);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 3 cpu 2 work: return 30") != NULL);
	CHECK_EQ_INT(svz_step_cpu(h, 1), 0); /* c1 waits for op 1 */
	int cp = svz_checkpoint(h);
	CHECK(cp >= 0);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 4 cpu 2 work: return 500") != NULL);
	while (svz_ops_done(h) < 4 && svz_step(h) == 1)
		;
	CHECK_EQ_INT(svz_ops_done(h), 4);
	long long s_a = svz_seq(h) - 3;
	CHECK(strstr(svz_t_last_event(h), " cpu 0 ") != NULL); /* op 1 returned */
	CHECK_EQ_INT(svz_run_all(h), 5);
	long long s_f = svz_seq(h) - 3 - s_a;
	CHECK(s_a > 5 && s_f > 3 && s_a + s_f < 430);
	char want[160], straight[8192];
	snprintf(straight, sizeof straight, "%s", profile(h));
	/* c1: busy S_f, idle up to 100 + S_a and from its end to 530 */
	snprintf(want, sizeof want, "cpu 1: busy=%lld spin=0 idle=%lld ", s_f, 530 - s_f);
	CHECK(strstr(straight, want) != NULL);
	snprintf(want, sizeof want, "cpu 2: busy=530 spin=0 idle=0 ");
	CHECK(strstr(straight, want) != NULL);
	/* the checkpoint's queue: c2 next, the same end */
	CHECK_EQ_INT(svz_restore(h, cp), 0);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 4 cpu 2 work: return 500") != NULL);
	CHECK_EQ_INT(svz_run_all(h), 5);
	CHECK_EQ_STR(profile(h), straight);
	/* a step by hand: c0 (100 -> 101), then the schedule picks c2 (30) */
	CHECK_EQ_INT(svz_restore(h, cp), 0);
	CHECK_EQ_INT(svz_step_cpu(h, 0), 1);
	CHECK(strstr(svz_t_last_event(h), " cpu 0 ") != NULL);
	CHECK_EQ_INT(svz_step(h), 1);
	CHECK(strstr(svz_t_last_event(h), "op 4 cpu 2 work: return 500") != NULL);
	CHECK_EQ_INT(svz_run_all(h), 5);
	/* back before the hand step: the straight run again */
	CHECK_EQ_INT(svz_restore(h, cp), 0);
	CHECK_EQ_INT(svz_run_all(h), 5);
	CHECK_EQ_STR(profile(h), straight);
	svz_close(h);
}

/* A cost override is the run's, kept in its checkpoints. */
static void test_costs(void)
{
	const char *key, *what;
	uint64_t cycles;
	int n = 0;
	for (; svz_cost_info(n, &key, &cycles, &what) == 0; n++)
		CHECK(cycles > 0 && what[0]);
	CHECK(n >= 8);
	CHECK(svz_open(HEAD, NULL, "cost.spin=x") <= 0);
	CHECK(strstr(svz_last_error(), "expected cycles 0..100000000 for cost 'spin', got 'x'") != NULL);
	CHECK(svz_open(HEAD, NULL, "cost.nosuch=1") <= 0);
	CHECK(svz_open(HEAD "c0 work 0\n", NULL, NULL) <= 0);
	CHECK(strstr(svz_last_error(), "expected cycles of 1..100000000, got '0'") != NULL);
	int h = svz_open(HEAD "c0 work 7\nc0 alloc nl a\n", NULL, UNIT);
	int cp = svz_checkpoint(h);
	svz_run_all(h);
	char a[8192];
	snprintf(a, sizeof a, "%s", profile(h));
	CHECK_EQ_INT(svz_restore(h, cp), 0);
	svz_run_all(h);
	CHECK_EQ_STR(profile(h), a);
	svz_close(h);
}

int main(void)
{
	test_work_clocks();
	test_object_lines();
	test_wait_idles();
	test_spin_until_release();
	test_costs();
	test_runq_across_restore();
	return svz_t_done();
}
