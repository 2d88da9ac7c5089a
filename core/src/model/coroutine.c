/* The coroutine machinery under every path: each CPU's stack of frames in
 * the arena (FRAME_DEPTH deep). The paths push callees (CALL() -> co_push())
 * and find their own frame again after a move (co_self()); sched.c, above
 * them, starts ops and resumes frames. CALL() starts a callee through
 * co_table, so the paths depend on this file and never on the scheduler. */

#include "model/engine.h"

static const uint8_t co_kfn[CO__COUNT] = {
#define CO_FN(n, kfn) [CO_##n] = KFN_##kfn,
#include "model/coroutines.def"
#undef CO_FN
};

const co_func co_table[CO__COUNT] = {
#define CO_FN(n, kfn) [CO_##n] = co_##n,
#include "model/coroutines.def"
#undef CO_FN
};

struct frame *co_self(struct model *m, int cpu)
{
	return frame_r(m, frame_idx(cpu, WORLD(m)->cpus[cpu].depth - 1));
}

struct frame *co_push(struct model *m, int cpu, struct frame *parent, enum co_fn fn)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	if (c->depth >= FRAME_DEPTH)
		return NULL; /* cannot happen: call depth is static, < FRAME_DEPTH */
	/* one block copy (padding included, so checkpoints stay reproducible) */
	static const struct frame fresh = { .a = NIL, .b = NIL, .c = NIL, .x = NIL, .y = NIL, .z = NIL };
	struct frame *f = frame_r(m, frame_idx(cpu, c->depth++));
	*f = fresh;
	f->fn = (uint16_t)fn;
	f->k_fn = co_kfn[fn];
	f->on_cpu = (int16_t)cpu;
	if (parent) {
		f->on_cpu = parent->on_cpu;
		f->cache = parent->cache;
		f->gfp = parent->gfp;
		f->node = parent->node;
		if (fn == CO_LOCK)
			f->k_fn = parent->k_fn; /* co_LOCK reports its caller's function */
	}
	return f;
}
