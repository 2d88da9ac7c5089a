/* The scheduler: runs ops as coroutines, one micro-step at a time.
 *
 * Each CPU owns a stack of frames (FRAME_DEPTH deep) in the arena. The
 * default scheduler (svz_step) runs every op to completion in trace order;
 * step_cpu() lets a caller advance one chosen CPU, which is what interleaving
 * schedulers build on. A step ends at the first EV() (one event) or when the
 * op's root frame returns (then the step's event is the op's RETURN). */
#include "model/engine.h"
#include "model/model.h"

static const co_func co_table[CO__COUNT] = {
#define CO_FN(n, kfn) [CO_##n] = co_##n,
#include "model/coroutines.def"
#undef CO_FN
};

static bool op_started(struct model *m, uint32_t op)
{
	return (*u32_at(m, WORLD(m)->started + op / 32) >> (op % 32)) & 1;
}

static void mark_started(struct model *m, uint32_t op)
{
	*u32_at(m, WORLD(m)->started + op / 32) |= 1u << (op % 32);
}

static const uint8_t op_root[SVZ_OP__COUNT] = {
	[SVZ_OP_ALLOC] = CO_OP_ALLOC, [SVZ_OP_FREE] = CO_OP_FREE,
	[SVZ_OP_KMALLOC] = CO_OP_KMALLOC, [SVZ_OP_KFREE] = CO_OP_KFREE,
	[SVZ_OP_ALLOC_BULK] = CO_OP_ALLOC_BULK, [SVZ_OP_FREE_BULK] = CO_OP_FREE_BULK,
	[SVZ_OP_FLUSH] = CO_OP_FLUSH, [SVZ_OP_FLUSH_ALL] = CO_OP_FLUSH_ALL,
	[SVZ_OP_SHRINK] = CO_OP_SHRINK, [SVZ_OP_DESTROY] = CO_OP_DESTROY,
	[SVZ_OP_PREFILL] = CO_OP_PREFILL, [SVZ_OP_ALLOC_FROM_SHEAF] = CO_OP_ALLOC_FROM_SHEAF,
	[SVZ_OP_RETURN_SHEAF] = CO_OP_RETURN_SHEAF, [SVZ_OP_KFREE_RCU] = CO_OP_KFREE_RCU,
	[SVZ_OP_RCU_BARRIER] = CO_OP_RCU_BARRIER,
};

static ARENA_MOVES void op_start(struct model *m, uint32_t op)
{
	const struct svz_op *o = &m->trace->ops[op];
	mark_started(m, op);
	WORLD(m)->cpus[o->cpu].op = op;
	WORLD(m)->cpus[o->cpu].bulk_len = 0;
	idx_t cache = model_op_cache(m, o);
	struct frame *f = co_push(m, o->cpu, NULL, (enum co_fn)op_root[o->type]);
	f->cache = cache;
	f->gfp = o->gfp;
	f->node = o->node;
	f->n = (int32_t)o->count;
	WORLD(m)->inflight++;
	if (o->type == SVZ_OP_ALLOC && o->node >= 0)
		f->k_fn = KFN_kmem_cache_alloc_node;
	if (o->type == SVZ_OP_KMALLOC && o->node >= 0)
		f->k_fn = KFN___kmalloc_node;
}

static void op_finish(struct model *m, int cpu, int result)
{
	struct world *w = WORLD(m);
	w->inflight--;
	w->ops_done++;
	if (result < 0 && !w->cfg.sw.continue_on_error)
		w->stopped = true;
#ifdef SVZ_VALIDATE_EVERY_OP
	/* test builds: after every op (or every validate_every-th, for long
	 * runs that only need the spot checks) */
	if (!w->stopped && m->validate_every && w->ops_done % m->validate_every == 0 &&
	    model_validate(m, NULL, 0) != 0)
		w->stopped = true;
#endif
	(void)cpu;
}

/* Run `cpu` until it has emitted one event. Returns 1, or 0 if idle.
 * A coroutine may move the arena: nothing here outlives a co_table[] call
 * but indices. */
static ARENA_MOVES int run_cpu(struct model *m, int cpu)
{
	if (WORLD(m)->cpus[cpu].depth == 0)
		return 0;
	if (arena_reserve(m))
		return -1;
	WORLD(m)->step_events = 0;
	for (;;) {
		int r = co_table[co_self(m, cpu)->fn](m, cpu, co_self(m, cpu));
		if (r == CO_YIELD)
			break;
		if (r == CO_CALL)
			continue;
		/* CO_DONE: pop; hand the result to the caller or end the op. */
		struct world *w = WORLD(m);
		struct cpu_rec *c = &w->cpus[cpu];
		struct frame *f = co_self(m, cpu);
		int result = f->result;
		idx_t returned = f->x; /* root frames leave the object they return in x */
		enum kfn root_fn = (enum kfn)f->k_fn;
		idx_t cache = f->cache;
		c->depth--;
		if (c->depth > 0) {
			co_self(m, cpu)->ret = result;
			continue;
		}
		if (w->step_events == 0)
			ev_emit(m, cpu, (struct event){ .kind = EV_RETURN, .fn = (uint8_t)root_fn,
				.cache = cache, .slab = NIL, .obj = returned, .sheaf = NIL, .node = -1,
				.value = result });
		op_finish(m, cpu, result);
		break;
	}
	WORLD(m)->seq++;
	return 1;
}

ARENA_MOVES int model_step_cpu(struct model *m, int cpu)
{
	struct world *w = WORLD(m);
	if (w->stopped)
		return -1;
	if (cpu < 0 || cpu >= w->nr_cpus)
		return 0;
	struct cpu_rec *c = &w->cpus[cpu];
	if (c->depth == 0) {
		uint32_t n = m->trace->nr_ops;
		while (c->next_op < n && (m->trace->ops[c->next_op].cpu != cpu ||
					  op_started(m, c->next_op)))
			c->next_op++;
		if (c->next_op >= n)
			return 0;
		op_start(m, c->next_op);
	}
	int r = run_cpu(m, cpu);
	return r >= 0 && WORLD(m)->stopped ? -1 : r;
}

ARENA_MOVES int model_step(struct model *m)
{
	struct world *w = WORLD(m);
	if (w->stopped)
		return -1;
	int cpu = -1;
	if (w->inflight > 0) {
		/* Finish what is in flight first, oldest op first. */
		uint32_t best = UINT32_MAX;
		for (int c = 0; c < w->nr_cpus; c++)
			if (w->cpus[c].depth > 0 && w->cpus[c].op < best) {
				best = w->cpus[c].op;
				cpu = c;
			}
	} else {
		while (w->next_op < m->trace->nr_ops && op_started(m, w->next_op))
			w->next_op++;
		if (w->next_op >= m->trace->nr_ops)
			return 0;
		cpu = m->trace->ops[w->next_op].cpu;
		op_start(m, w->next_op);
	}
	int r = run_cpu(m, cpu);
	if (r < 0)
		return -1;
	return WORLD(m)->stopped ? -1 : r;
}

/* A whole op under the default scheduler: the same micro-steps and events
 * as repeated model_step(), without looking for the CPU at every step.
 * 1 if an op ran (or a step of one already in flight), 0 at the end, -1 if
 * stopped. */
ARENA_MOVES int model_step_op(struct model *m)
{
	struct world *w = WORLD(m);
	if (w->stopped)
		return -1;
	if (w->inflight > 0)
		return model_step(m);
	while (w->next_op < m->trace->nr_ops && op_started(m, w->next_op))
		w->next_op++;
	if (w->next_op >= m->trace->nr_ops)
		return 0;
	int cpu = m->trace->ops[w->next_op].cpu;
	op_start(m, w->next_op);
	int r;
	do
		r = run_cpu(m, cpu);
	while (r > 0 && WORLD(m)->cpus[cpu].depth > 0 && !WORLD(m)->stopped);
	if (r < 0)
		return -1;
	return WORLD(m)->stopped ? -1 : 1;
}
