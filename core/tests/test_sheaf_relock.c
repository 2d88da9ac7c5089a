/* Fix 1 (fb1091febd66 "mm/slab: allow sheaf refill if blocking is not
 * allowed"): after the unlocked refill, __pcs_replace_empty_main() re-takes
 * the per-CPU sheaves lock with local_trylock(). mm/slub.c, as in mainline
 * after the fix:
 *
 *	local_unlock(&s->cpu_sheaves->lock);
 *	pcs = NULL;
 *	...
 *	if (!local_trylock(&s->cpu_sheaves->lock))
 *		goto barn_put;
 *	pcs = this_cpu_ptr(s->cpu_sheaves);
 *	...
 * barn_put:
 *	barn_put_full_sheaf(barn, full);
 *	stat(s, BARN_PUT);
 *
 *	return pcs;
 *
 * so a failed trylock hands the refilled sheaf to the barn, counts
 * BARN_PUT and returns NULL (pcs was cleared at the unlock; the version
 * posted in the seed 004 thread lacked that line and returned the stale,
 * unlocked pcs): alloc_from_pcs() returns NULL and the allocation takes
 * the slow path. The trylock can fail only when another context on the
 * same CPU holds the lock (on PREEMPT_RT, a task that preempted this one
 * during the unlocked refill); the model has no preemption or interrupts,
 * so no schedule gets there: the test marks CPU 0's lock held for the
 * trylock's step.
 *
 * Trace: one node, cache c (256 bytes: 16 objects per order-0 slab,
 * sheaf_capacity 28), two mempool(GFP_NOIO) allocations on CPU 0, which
 * may spin but not block. By hand:
 *   op 0: main empty, no spare, barn empty: BARN_GET_FAIL; no empty sheaf
 *     in the barn, so alloc_full_sheaf(): SHEAF_ALLOC, refill of 28 from
 *     two new slabs (16 + 12; the second, 4 free, goes on n->partial).
 *     The trylock fails: the sheaf (28) goes to the barn, BARN_PUT 1;
 *     NULL, so ___slab_alloc(): ALLOC_SLOWPATH 1, the object from the
 *     partial slab (inuse 12 -> 13). Main stays empty, no spare.
 *   op 1 (lock free again): main empty, no spare: barn_replace_empty_sheaf()
 *     swaps the empty main for the barn's full sheaf: BARN_GET 1, then
 *     ALLOC_FASTPATH 1, main left with 27. The barn ends with 0 full,
 *     1 empty. */
#include <string.h>

#include "model/engine.h"
#include "harness.h"
#include "api/session.h"
#include "slubviz/slubviz.h"

static const char *trace =
	"slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\n"
	"preset v7.0-rc2+fix1\ncache c size=256\n"
	"c0 alloc c a gfp=mempool(GFP_NOIO)\n"
	"c0 alloc c b gfp=mempool(GFP_NOIO)\n";

/* CPU 0's sheaves lock of cache c: its owner (-1 free). */
static int32_t *pcs_lock(int h)
{
	struct model *m = svz_session_model(h);
	return &pcs_r(m, pcs_idx(m, model_find_cache(m, "c"), 0))->lock;
}

static struct pcs_rec *pcs0(int h)
{
	struct model *m = svz_session_model(h);
	return pcs_r(m, pcs_idx(m, model_find_cache(m, "c"), 0));
}

static struct barn_rec *barn0(int h)
{
	struct model *m = svz_session_model(h);
	return barn_r(m, get_barn(m, model_find_cache(m, "c"), 0));
}

int main(void)
{
	int h = svz_open(trace, NULL, NULL);
	CHECK(h > 0);
	if (h <= 0)
		return svz_t_done();
	/* run op 0 up to the end of its refill, before the trylock */
	CHECK(svz_t_step_until(h, 0, "refill_sheaf: stat sheaf_refill += 28"));
	CHECK_EQ_INT(*pcs_lock(h), -1);
	*pcs_lock(h) = 0; /* another context on CPU 0 takes it */
	CHECK(svz_t_step_until(h, 0, "trylock of cpu_sheaves_lock"));
	CHECK(strstr(svz_t_last_event(h), "__pcs_replace_empty_main: trylock of cpu_sheaves_lock") != NULL);
	*pcs_lock(h) = -1; /* and lets it go */
	while (svz_ops_done(h) < 1 && svz_step_cpu(h, 0) == 1)
		;
	CHECK_EQ_INT(svz_ops_done(h), 1);

	const char *s = svz_sysfs(h, "c");
	CHECK(strstr(s, "./sheaf_capacity:28\n") != NULL);
	CHECK_EQ_INT(svz_t_stat_total(s, "barn_get_fail"), 1);
	CHECK_EQ_INT(svz_t_stat_total(s, "sheaf_refill"), 28);
	CHECK_EQ_INT(svz_t_stat_total(s, "alloc_slab"), 2);
	CHECK_EQ_INT(svz_t_stat_total(s, "barn_put"), 1);
	CHECK_EQ_INT(svz_t_stat_total(s, "alloc_slowpath"), 1);
	CHECK_EQ_INT(svz_t_stat_total(s, "alloc_fastpath"), 0);
	CHECK_EQ_INT(barn0(h)->nr_full, 1);
	CHECK_EQ_INT(barn0(h)->nr_empty, 0);
	{
		struct model *m = svz_session_model(h);
		CHECK_EQ_INT(sheaf_size(m, pcs0(h)->main), 0);
		CHECK(pcs0(h)->spare == NIL);
	}

	CHECK_EQ_INT(svz_run_all(h), 2);
	s = svz_sysfs(h, "c");
	CHECK_EQ_INT(svz_t_stat_total(s, "barn_get"), 1);
	CHECK_EQ_INT(svz_t_stat_total(s, "alloc_fastpath"), 1);
	CHECK_EQ_INT(svz_t_stat_total(s, "alloc_slowpath"), 1);
	CHECK_EQ_INT(barn0(h)->nr_full, 0);
	CHECK_EQ_INT(barn0(h)->nr_empty, 1);
	{
		struct model *m = svz_session_model(h);
		CHECK_EQ_INT(sheaf_size(m, pcs0(h)->main), 27);
	}
	CHECK_EQ_STR(svz_run_error(h), "");
	CHECK_EQ_STR(svz_validate(h), "");
	svz_close(h);
	return svz_t_done();
}
