/* V8 (seed 004, §9.1): the race at 17c38c88294d. CPU 0's
 * get_from_partial_node() pops the last free object of slab S under
 * n->list_lock (S is now full but still linked on n->partial); before it
 * calls remove_partial(), CPU 1 frees another object of S, sees a full,
 * unfrozen slab and, without list_lock, puts S on its per-CPU partial list:
 * slab->next / slab->slabs alias slab_list, so S's node-list links are
 * overwritten. remove_partial() then corrupts n->partial and poisons
 * S->next with LIST_POISON1, which CPU 1 later follows in __put_partials.
 * The same interleaving is harmless in v6.19 and in v7.0-rc1. */
#include <string.h>

#include "harness.h"
#include "api/session.h"
#include "slubviz/slubviz.h"

static const char *trace =
	"slubviz-trace 1\npage_size 4096\nnode 0 mem=64M\ncpus 0-1 node=0\n"
	"cache nl size=64 flags=NOLEAKTRACE\n"   /* no sheaves: every op reaches the slabs */
	"repeat 256 {\nc0 alloc nl p{$i}\n}\n"    /* four full slabs A..D */
	"repeat 63 {\nc0 alloc nl o{$i}\n}\n"     /* slab S: one free object left, on n->partial */
	"c0 alloc nl x\n"                         /* op 319: takes S's last object */
	"c1 free nl o5\n"                         /* op 320: the racing free */
	"repeat 4 {\nc1 free nl p{64*$i}\n}\n";   /* A..D to CPU 1's partial list: the 4th drains it */

/* Interleave ops 319 and 320: CPU 0 up to its cmpxchg on S, CPU 1 to the
 * end of its free (or until it waits for the lock), then CPU 0 on; then
 * the rest of the trace. */
static int race(const char *preset)
{
	int h = svz_open(trace, preset, NULL);
	if (h <= 0)
		return h;
	svz_session_model(h)->validate_every = 0; /* let the corruption run its course */
	svz_run_to_op(h, 319);
	CHECK(svz_t_step_until(h, 0, "cmpxchg"));
	/* CPU 1 runs its free until it ends, or blocks on the list_lock CPU 0
	 * holds (v6.19 and v7.0 take it for a was-full slab) */
	while (svz_ops_done(h) < 320 && svz_step_cpu(h, 1) == 1 && !strstr(svz_t_last_event(h), "spin"))
		;
	while (svz_step_cpu(h, 0) == 1)
		;
	svz_run_all(h);
	return h;
}

int main(void)
{
	int h = race("v7.0-17c38c88294d");
	CHECK(h > 0);
	/* the corruption, reported as CONFIG_DEBUG_LIST and the oops do */
	CHECK(strstr(svz_validate(h), "list_del corruption") != NULL);
	CHECK(strstr(svz_reports(h), "general protection fault, probably for non-canonical address "
				     "0xdead000000000110") != NULL);
	CHECK(strstr(svz_reports(h), "__put_partials") != NULL);
	svz_close(h);

	const char *safe[] = { "v6.19", "v7.0-rc1", "v7.0+fix1+fix2" };
	for (int i = 0; i < 3; i++) {
		h = race(safe[i]);
		CHECK(h > 0);
		CHECK_EQ_INT(svz_ops_done(h), svz_ops_total(h));
		CHECK_EQ_STR(svz_run_error(h), "");
		CHECK_EQ_STR(svz_validate(h), "");
		svz_close(h);
	}
	return svz_t_done();
}
