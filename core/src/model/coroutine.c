/* The coroutine machinery under every path: each CPU's stack of frames in
 * the arena (FRAME_DEPTH deep). The paths push callees (CALL() -> co_push())
 * and find their own frame again after a move (co_self()); sched.c, above
 * them, starts ops and resumes frames. CALL() starts a callee through
 * co_table, so the paths depend on this file and never on the scheduler. */

#include "model/engine.h"

const co_func co_table[CO__COUNT] = {
#define CO_FN(n, kfn, opt) [CO_##n] = co_##n,
#include "model/coroutines.def"
#undef CO_FN
};

struct frame *co_self(struct model *m, int cpu)
{
	return frame_r(m, frame_idx(cpu, WORLD(m)->cpus[cpu].depth - 1));
}

#ifdef __wasm__
struct frame *co_push(struct model *m, int cpu, struct frame *parent, enum co_fn fn)
{
	return co_push_frame(m, cpu, parent, fn);
}

bool step_end_slow(struct model *m, int cpu, uint32_t what, uint32_t where, idx_t cache, idx_t slab,
		   idx_t obj, idx_t sheaf, int32_t node, int32_t count, int64_t value)
{
	return step_end(m, cpu, what, where, cache, slab, obj, sheaf, node, count, value);
}
#endif
