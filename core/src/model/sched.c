/* The scheduler: runs ops as coroutines, one micro-step at a time.
 *
 * Each CPU owns a stack of frames (FRAME_DEPTH deep) in the arena. A step
 * ends at the first EV() (one event) or when the op's root frame returns
 * (then the step's event is the op's RETURN). Which CPU runs the next step
 * is the schedule's choice (config.sched, docs/trace-format.md "Schedules"):
 *   serial       every op to completion in trace order (the default);
 *   round-robin  one step of each runnable CPU in turn;
 *   random       a seeded draw among the runnable CPUs;
 *   timed        the runnable CPU with the smallest simulated clock;
 *   explicit     the trace's 'steps' tokens, then serial.
 * Ops of one CPU keep their trace order. An op that names a handle another
 * CPU's earlier op also names waits until that op has returned (a free
 * waits for its alloc); flush, shrink, destroy and rcu_barrier wait for
 * every earlier op and every later op waits for them. A waiting CPU simply
 * does not run. step_cpu() lets a caller advance one chosen CPU. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/model.h"
#include "model/timing.h"

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
	[SVZ_OP_RCU_BARRIER] = CO_OP_RCU_BARRIER, [SVZ_OP_WORK] = CO_OP_WORK,
};

/* Inline: once per op, and the run's loop (model_run_ops()) saves a call
 * and its register saves with it. */
static inline __attribute__((always_inline)) ARENA_MOVES struct frame *op_start(struct model *m, uint32_t op)
{
	const struct svz_op *o = &m->trace->ops[op];
	mark_started(m, op);
	WORLD(m)->cpus[o->cpu].op = op;
	WORLD(m)->cpus[o->cpu].bulk_len = 0;
	idx_t cache = model_op_cache(m, o);
	struct frame *f = co_push_frame(m, o->cpu, NULL, (enum co_fn)op_root[o->type]); /* inline: once per op */
	f->cache = cache;
	f->gfp = o->gfp;
	f->node = o->node;
	f->n = (int32_t)o->count;
	WORLD(m)->inflight++;
	if (o->type == SVZ_OP_ALLOC && o->node >= 0)
		f->k_fn = KFN_kmem_cache_alloc_node;
	if (o->type == SVZ_OP_KMALLOC && o->node >= 0)
		f->k_fn = KFN___kmalloc_node;
	return f;
}

static bool serial(const struct model *m)
{
	return WORLD(m)->cfg.sched.kind == SVZ_SCHED_SERIAL;
}

static void op_finish(struct model *m, int cpu, int result)
{
	struct world *w = WORLD(m);
	w->inflight--;
	w->ops_done++;
	/* who may run changes only here (pick()'s run queue) */
	w->sched.runq = w->sched.runq == RUNQ_OK ? (uint16_t)(RUNQ_ONE + cpu) : RUNQ_FILL;
	if (result < 0 && !w->cfg.sw.continue_on_error)
		model_stop(m);
#ifdef SVZ_VALIDATE_EVERY_OP
	/* test builds: after every op (or every validate_every-th, for long
	 * runs that only need the spot checks); interleaving schedules check
	 * after every micro-step instead (step_on()) */
	if (serial(m) && !w->stopped && m->validate_every && w->ops_done % m->validate_every == 0 &&
	    model_validate(m, NULL, 0) != 0)
		model_stop(m);
#endif
}

/* Run or resume frame f: co_table[f->fn](), with the SPEED coroutines
 * (coroutines.def) called directly. A serial run of whole ops comes here
 * once an op, for its root; the interleaving schedules at every step, for
 * the frame that paused. Under Node an indirect call there made
 * fastpath.trace 8% slower (77.9 against 71.5 ns/op); natively the same. */
#define CO_RESUME_SPEED(n) case CO_##n: return co_##n(m, cpu, f);
#define CO_RESUME_SIZE(n)
static inline int co_resume(struct model *m, int cpu, struct frame *f)
{
	switch (f->fn) {
#define CO_FN(n, kfn, opt) CO_RESUME_##opt(n)
#include "model/coroutines.def"
#undef CO_FN
	default: return co_table[f->fn](m, cpu, f);
	}
}
#undef CO_RESUME_SPEED
#undef CO_RESUME_SIZE

/* Resume `cpu`'s top frame (`top`, or NULL to look it up) until one event
 * has been emitted: callees run in the same micro-step, a returning frame
 * hands its result to its caller. 1 if the step ended the op (its root
 * frame returned), else 0. */
static inline __attribute__((always_inline)) ARENA_MOVES int run_step(struct model *m, int cpu, struct frame *top)
{
	for (;;) {
		struct frame *f = top ? top : co_self(m, cpu);
		top = NULL;
		int r = co_resume(m, cpu, f);
		if (r == CO_YIELD)
			return 0;
		/* CO_DONE: pop; hand the result to the caller or end the op.
		 * The coroutine may have moved the arena: fetch everything again. */
		struct world *w = WORLD(m);
		if (w->cpus[cpu].depth > 1) {
			co_pop(m, cpu);
			continue;
		}
		f = frame_r(m, frame_idx(cpu, 0)); /* the root */
		int result = f->result;
		w->cpus[cpu].depth = 0;
		if (w->step_events == 0) /* root frames leave the object they return in x */
			ev_emit(m, cpu, (struct event){ .kind = EV_RETURN, .fn = f->k_fn,
				.cache = f->cache, .slab = NIL, .obj = f->x, .sheaf = NIL, .node = -1,
				.value = result });
		op_finish(m, cpu, result);
		return 1;
	}
}

/* Run `cpu` one micro-step, or (whole_op) micro-steps until its op
 * returns or the run stops: the serial schedule's loop, without coming
 * back to the scheduler between steps. `root`: the frame op_start() just
 * pushed, or NULL. `out_set`: the caller made ev_out_set() (once for many
 * ops). Returns 1, 0 if idle, -1 if the arena could not grow.
 * A coroutine may move the arena: nothing here outlives a step but
 * indices (root: only until the first step runs). */
static inline __attribute__((always_inline)) ARENA_MOVES int run_cpu_inline(struct model *m, int cpu, bool whole_op,
									    struct frame *root, bool out_set)
{
	if (!root && WORLD(m)->cpus[cpu].depth == 0)
		return 0;
	/* whole ops: steps end inside the coroutines where they can
	 * (fused_step()); this loop makes the boundaries they leave to it */
	int r = 1;
	if (m->events_on) {
		if (!out_set)
			ev_out_set(m);
		m->ev_op = WORLD(m)->cpus[cpu].op;
	}
	/* a fused step's event goes to its slot alone (ev_put()): no fusing
	 * where an event needs more (a sink's copy) */
	const enum fuse fuse = !whole_op ? FUSE_NO : !m->events_on ? FUSE_QUIET : m->ev_more ? FUSE_NO : FUSE_EVENTS;
	WORLD(m)->step_events = 0;
	for (;;) {
		if (!WORLD(m)->room)
			root = NULL; /* arena_reserve() may move the arena */
		if (arena_reserve(m)) {
			r = -1;
			break;
		}
		/* room: just reserved */
		m->fuse_steps = WORLD(m)->stopped ? FUSE_NO : fuse;
		int ended = run_step(m, cpu, root);
		root = NULL;
		struct world *w = WORLD(m);
		if (!whole_op || ended || w->stopped) {
			w->seq++; /* the last step's events stay counted */
			break;
		}
		step_boundary(w);
	}
	m->fuse_steps = FUSE_NO;
	return r;
}
/* Out of line for the schedules' single steps; model_run_ops() has its
 * own copy inline. */
static ARENA_MOVES int run_cpu(struct model *m, int cpu, bool whole_op)
{
	return run_cpu_inline(m, cpu, whole_op, NULL, false);
}

/* ---- which op waits for which ------------------------------------------- */

#define DEP_NONE UINT32_MAX      /* waits for nothing but its CPU's earlier ops */
#define DEP_ALL (UINT32_MAX - 1) /* waits for every earlier op */

/* The handles an op names: `one` (up to two) or the bulk list. */
static uint32_t op_handles(const struct svz_trace *t, const struct svz_op *o, uint32_t one[2],
			   const uint32_t **list)
{
	*list = one;
	switch (o->type) {
	case SVZ_OP_ALLOC: case SVZ_OP_FREE: case SVZ_OP_KMALLOC: case SVZ_OP_KFREE:
	case SVZ_OP_KFREE_RCU:
		one[0] = o->handle;
		return 1;
	case SVZ_OP_ALLOC_FROM_SHEAF:
		one[0] = o->sheaf;
		one[1] = o->handle;
		return 2;
	case SVZ_OP_PREFILL: case SVZ_OP_RETURN_SHEAF:
		one[0] = o->sheaf;
		return 1;
	case SVZ_OP_ALLOC_BULK: case SVZ_OP_FREE_BULK:
		if (o->handle > t->nr_handle_lists || o->count > t->nr_handle_lists - o->handle)
			return 0;
		*list = t->handle_lists + o->handle;
		return o->count;
	default:
		return 0;
	}
}

/* m->op_dep: for each op the latest earlier op of another CPU it must wait
 * for (DEP_NONE, DEP_ALL). Derived from the trace alone, so it lives
 * outside the arena. 0, or -1 out of memory. */
FOR_SIZE static int build_deps(struct model *m)
{
	const struct svz_trace *t = m->trace;
	if (m->op_dep)
		return 0;
	uint32_t n_ops = t->nr_ops;
	uint32_t *dep = malloc(sizeof *dep * ((size_t)n_ops * 2 + 1 + SVZ_MAX_CPUS));
	uint32_t *last = malloc(sizeof *last * ((size_t)t->nr_handles + 1));
	if (!dep || !last) {
		free(dep);
		free(last);
		return -1;
	}
	for (uint32_t h = 0; h < t->nr_handles; h++)
		last[h] = DEP_NONE;
	/* each CPU's ops as a chain, so that cpu_next_op() does not step over
	 * every other CPU's ops */
	uint32_t *next = dep + n_ops + 1, *first = next + n_ops;
	for (int c = 0; c < SVZ_MAX_CPUS; c++)
		first[c] = n_ops;
	for (uint32_t i = n_ops; i-- > 0;) {
		uint32_t c = (uint32_t)t->ops[i].cpu;
		if (c >= SVZ_MAX_CPUS) { /* sched_check() refuses it first */
			next[i] = n_ops;
			continue;
		}
		next[i] = first[c];
		first[c] = i;
	}
	uint32_t barrier = DEP_NONE;
	for (uint32_t i = 0; i < t->nr_ops; i++) {
		const struct svz_op *o = &t->ops[i];
		uint32_t one[2];
		const uint32_t *hs;
		uint32_t n = op_handles(t, o, one, &hs);
		uint32_t d = barrier != DEP_NONE && t->ops[barrier].cpu != o->cpu ? barrier : DEP_NONE;
		if (o->type == SVZ_OP_FLUSH || o->type == SVZ_OP_FLUSH_ALL || o->type == SVZ_OP_SHRINK ||
		    o->type == SVZ_OP_DESTROY || o->type == SVZ_OP_RCU_BARRIER) {
			d = i ? DEP_ALL : DEP_NONE;
			barrier = i;
		}
		for (uint32_t k = 0; k < n; k++) {
			uint32_t h = hs[k];
			if (h >= t->nr_handles)
				continue;
			if (last[h] != DEP_NONE && t->ops[last[h]].cpu != o->cpu &&
			    (d == DEP_NONE || last[h] > d))
				d = last[h];
			last[h] = i;
		}
		dep[i] = d;
	}
	free(last);
	m->op_dep = dep;
	m->op_next = next;
	m->cpu_first_op = first;
	return 0;
}

/* Op j has returned: started, and not on its CPU any more. */
static bool op_done(struct model *m, uint32_t j)
{
	const struct cpu_rec *c = &WORLD(m)->cpus[m->trace->ops[j].cpu];
	return op_started(m, j) && !(c->depth > 0 && c->op == j);
}

/* Every op below i has returned. */
static bool done_below(struct model *m, uint32_t i)
{
	struct world *w = WORLD(m);
	while (w->sched.unstarted < i && op_started(m, w->sched.unstarted))
		w->sched.unstarted++;
	if (w->sched.unstarted < i)
		return false;
	for (int c = 0; c < w->nr_cpus; c++)
		if (w->cpus[c].depth > 0 && w->cpus[c].op < i)
			return false;
	return true;
}

/* The op op i waits for, or DEP_NONE if it may start now. */
static uint32_t op_blocker(struct model *m, uint32_t i)
{
	uint32_t d = m->op_dep[i];
	if (d == DEP_NONE)
		return DEP_NONE;
	if (d == DEP_ALL) {
		if (done_below(m, i))
			return DEP_NONE;
		for (uint32_t j = i; j-- > 0;)
			if (m->trace->ops[j].cpu != m->trace->ops[i].cpu && !op_done(m, j))
				return j;
		return DEP_NONE;
	}
	return op_done(m, d) ? DEP_NONE : d;
}

/* The next op of an idle `cpu` in trace order, or UINT32_MAX if none.
 * c->next_op: no op of `cpu` below it is unstarted (a cursor); it moves
 * along the CPU's chain of ops (build_deps()). */
static uint32_t cpu_next_op(struct model *m, int cpu)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	uint32_t n = m->trace->nr_ops, k = c->next_op;
	while (k < n) {
		if (m->trace->ops[k].cpu != cpu)
			k = k == 0 ? m->cpu_first_op[cpu] : k + 1; /* 0: the cursor's start */
		else if (op_started(m, k))
			k = m->op_next[k];
		else
			break;
	}
	c->next_op = k;
	return k < n ? k : UINT32_MAX;
}

/* What `cpu` can do now: 1 run (an op in flight, or its next op may
 * start), 0 nothing left, -2 its next op waits (*next, *blocker say which). */
static int cpu_state(struct model *m, int cpu, uint32_t *next, uint32_t *blocker)
{
	*next = *blocker = UINT32_MAX;
	if (WORLD(m)->cpus[cpu].depth > 0)
		return 1;
	*next = cpu_next_op(m, cpu);
	if (*next == UINT32_MAX)
		return 0;
	*blocker = op_blocker(m, *next);
	return *blocker == DEP_NONE ? 1 : -2;
}

static bool runnable(struct model *m, int cpu)
{
	uint32_t next, blocker;
	return cpu_state(m, cpu, &next, &blocker) == 1;
}

/* One micro-step of a runnable `cpu`: 1, or -1 if the run stopped. The
 * schedule's per-step work (clocks, the validator) happens here; by_hand:
 * a caller chose the CPU (svz_step_cpu()), an interleaving of its own.
 * Out of line in wasm: inlined under the wasm build's profile, the bench
 * traces ran ~3% more instructions under Node (wasm.cmake). */
static WASM_NOINLINE ARENA_MOVES int step_on(struct model *m, int cpu, bool by_hand)
{
	if (WORLD(m)->cpus[cpu].depth == 0)
		op_start(m, cpu_next_op(m, cpu));
	int r = run_cpu(m, cpu, false);
	if (r < 0)
		return -1;
	struct world *w = WORLD(m);
	if (w->cfg.sched.kind == SVZ_SCHED_TIMED)
		timing_charge(m, cpu);
	/* interleavings are where races show: the invariants after every
	 * micro-step (timed runs are long: per step only in test builds) */
	bool check = by_hand || !serial(m);
#ifndef SVZ_VALIDATE_EVERY_OP
	check = check && w->cfg.sched.kind != SVZ_SCHED_TIMED;
#endif
	/* a thinned cadence (SLUBVIZ_VALIDATE_EVERY) applies to timed runs only:
	 * an interleaving must be checked at the step that breaks it */
	uint32_t every = w->cfg.sched.kind == SVZ_SCHED_TIMED ? m->validate_every : 1;
	if (check && !w->stopped && m->validate_every && w->seq % every == 0 &&
	    model_validate(m, NULL, 0) != 0)
		model_stop(m);
	return WORLD(m)->stopped ? -1 : 1;
}

static void stop_with(struct model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
FOR_SIZE static void stop_with(struct model *m, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	model_report(m, "%s", buf);
	model_stop(m);
}

ARENA_MOVES int model_step_cpu(struct model *m, int cpu)
{
	struct world *w = WORLD(m);
	if (w->stopped)
		return -1;
	if (cpu < 0 || cpu >= w->nr_cpus)
		return 0;
	if (build_deps(m)) {
		stop_with(m, "out of memory");
		return -1;
	}
	if (!runnable(m, cpu))
		return 0;
	/* a step by hand may be a timed run's first: its tables first */
	if (w->cfg.sched.kind == SVZ_SCHED_TIMED && timing_wait(m)) {
		stop_with(m, "out of memory");
		return -1;
	}
	return step_on(m, cpu, true);
}

/* ---- the schedules ------------------------------------------------------- */

/* The serial schedule finishes the oldest op in flight first. If that op
 * spins on a lock another op in flight holds (an interleaving svz_step_cpu()
 * left behind), the holder runs first, or the spin would never end. */
static int lock_holder_first(struct model *m, int cpu)
{
	for (int hops = 0; hops < WORLD(m)->nr_cpus; hops++) {
		const struct frame *f = co_self(m, cpu);
		if (f->fn != CO_LOCK)
			break;
		int owner = *lock_owner(m, (enum lock_kind)f->k, f->a);
		if (owner < 0 || owner == cpu || WORLD(m)->cpus[owner].depth == 0)
			break;
		cpu = owner;
	}
	return cpu;
}

/* Under serial: finish what is in flight first, oldest op first; else
 * start the next op in trace order. */
static ARENA_MOVES int serial_step(struct model *m)
{
	struct world *w = WORLD(m);
	int cpu = -1;
	if (w->inflight > 0) {
		uint32_t best = UINT32_MAX;
		for (int c = 0; c < w->nr_cpus; c++)
			if (w->cpus[c].depth > 0 && w->cpus[c].op < best) {
				best = w->cpus[c].op;
				cpu = c;
			}
		cpu = lock_holder_first(m, cpu);
	} else {
		while (w->next_op < m->trace->nr_ops && op_started(m, w->next_op))
			w->next_op++;
		if (w->next_op >= m->trace->nr_ops)
			return 0;
		cpu = m->trace->ops[w->next_op].cpu;
		op_start(m, w->next_op++); /* the cursor passes it: started */
	}
	int r = run_cpu(m, cpu, false);
	if (r < 0)
		return -1;
	return WORLD(m)->stopped ? -1 : r;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ---- pick()'s run queue (sched_state.runq) ---- */

static inline void cpu_add(uint64_t *set, int cpu) { set[cpu >> 6] |= 1ull << (cpu & 63); }
static inline void cpu_del(uint64_t *set, int cpu) { set[cpu >> 6] &= ~(1ull << (cpu & 63)); }

enum { RUNQ_U64 = (sizeof(struct runq) + 7) / 8 };

static struct runq *runq_of(struct model *m)
{
	return (struct runq *)(void *)u64_at(m, WORLD(m)->sched.runq_at - 1);
}

/* The run queue's room in P_U64, on a run's first pick (may move the
 * arena). 0, or -1 out of memory. */
static ARENA_MOVES int runq_alloc(struct model *m)
{
	if (WORLD(m)->sched.runq_at)
		return 0;
	idx_t at = pool_alloc(m, P_U64, RUNQ_U64);
	if (at == NIL)
		return -1;
	WORLD(m)->sched.runq_at = at + 1;
	return 0;
}

/* Put `cpu` in the set cpu_state() says (run, wait or neither); a CPU that
 * waits notes for whom. true if it may run. */
static bool runq_place(struct model *m, int cpu)
{
	struct world *w = WORLD(m);
	struct runq *q = runq_of(m);
	uint32_t next, blocker;
	int st = cpu_state(m, cpu, &next, &blocker);
	cpu_del(q->run_set, cpu);
	cpu_del(q->wait_set, cpu);
	if (st == 1)
		cpu_add(q->run_set, cpu);
	if (st == -2) {
		cpu_add(q->wait_set, cpu);
		w->cpus[cpu].waits_on = m->trace->ops[blocker].cpu + 1;
	}
	return st == 1;
}

/* A CPU set as a list in CPU order; its length. */
static uint16_t runq_list(const uint64_t *set, uint8_t *list)
{
	uint16_t n = 0;
	for (int k = 0; k < RUNQ_WORDS; k++)
		for (uint64_t b = set[k]; b; b &= b - 1)
			list[n++] = (uint8_t)(k * 64 + __builtin_ctzll(b));
	return n;
}

#ifdef SVZ_VALIDATE_EVERY_OP
static inline bool cpu_in(const uint64_t *set, int cpu) { return set[cpu >> 6] >> (cpu & 63) & 1; }

/* test builds: the kept sets are what cpu_state() says now */
static void runq_check(struct model *m)
{
	struct world *w = WORLD(m);
	const struct runq *q = runq_of(m);
	for (int c = 0; c < w->nr_cpus; c++) {
		uint32_t next, blocker;
		int st = cpu_state(m, c, &next, &blocker);
		bool run = cpu_in(q->run_set, c), wait = cpu_in(q->wait_set, c);
		if (run != (st == 1) || wait != (st == -2) ||
		    (wait && w->cpus[c].waits_on != m->trace->ops[blocker].cpu + 1)) {
			model_report(m, "BUG: the run queue keeps CPU %d as %s, not %s (waits_on %d)", c,
				     run ? "runnable" : wait ? "waiting" : "done",
				     st == 1 ? "runnable" : st == -2 ? "waiting" : "done", w->cpus[c].waits_on);
			model_stop(m);
			return;
		}
	}
}
#endif

/* The run queue up to date: the sets that may have changed (every CPU, or
 * the CPU whose op returned and those that waited), then the lists. */
static void runq_update(struct model *m)
{
	struct world *w = WORLD(m);
	struct sched_state *s = &w->sched;
	struct runq *q = runq_of(m);
	if (s->runq == RUNQ_OK) {
#ifdef SVZ_VALIDATE_EVERY_OP
		runq_check(m);
#endif
		return;
	}
	if (s->runq == RUNQ_FILL) {
		memset(q->run_set, 0, sizeof q->run_set);
		memset(q->wait_set, 0, sizeof q->wait_set);
		for (int c = 0; c < w->nr_cpus; c++)
			runq_place(m, c);
		s->woke = RUNQ_WOKE_ANY;
	} else {
		uint64_t waited[RUNQ_WORDS];
		memcpy(waited, q->wait_set, sizeof waited);
		runq_place(m, s->runq - RUNQ_ONE);
		if (s->woke == RUNQ_WOKE_NONE) {
			memset(q->woke_set, 0, sizeof q->woke_set);
			s->woke = RUNQ_WOKE_SOME;
		}
		for (int k = 0; k < RUNQ_WORDS; k++)
			for (uint64_t b = waited[k]; b; b &= b - 1) {
				int c = k * 64 + __builtin_ctzll(b);
				if (runq_place(m, c))
					cpu_add(q->woke_set, c);
			}
	}
	q->nr_runnable = runq_list(q->run_set, q->runnable);
	q->nr_blocked = runq_list(q->wait_set, q->blocked);
	s->runq = RUNQ_OK;
}

/* round-robin, random, timed: the CPU to run, -1 if none can. */
static int pick(struct model *m)
{
	runq_update(m);
	struct world *w = WORLD(m);
	const struct runq *q = runq_of(m);
	const uint8_t *cand = q->runnable;
	int n = q->nr_runnable;
	if (n == 0)
		return -1;
	switch (w->cfg.sched.kind) {
	case SVZ_SCHED_ROUND_ROBIN:
		for (int i = 0; i < n; i++)
			if (cand[i] >= w->sched.rr_next) {
				w->sched.rr_next = (uint16_t)(cand[i] + 1);
				return cand[i];
			}
		w->sched.rr_next = (uint16_t)(cand[0] + 1);
		return cand[0];
	case SVZ_SCHED_RANDOM:
		/* a pure function of (seed, step): nothing to restore */
		return cand[mix64(w->cfg.sched.seed * 0x9e3779b97f4a7c15ull + (uint64_t)w->seq) % (uint64_t)n];
	default:
		return timing_pick(m, q);
	}
}

FOR_SIZE void svz_sched_step_text(const struct svz_sched_step *st, char *buf, size_t len)
{
	switch (st->until) {
	case SVZ_STEP_OPS:
		if (st->count == 1)
			snprintf(buf, len, "c%u/", st->cpu);
		else
			snprintf(buf, len, "c%u/%u", st->cpu, st->count);
		break;
	case SVZ_STEP_EVENT:
		snprintf(buf, len, "c%u:%s", st->cpu, ev_kind_names[st->event]);
		break;
	default:
		if (st->count == 1)
			snprintf(buf, len, "c%u", st->cpu);
		else
			snprintf(buf, len, "c%ux%u", st->cpu, st->count);
	}
}

/* explicit: one micro-step of the CPU the current token names. */
static ARENA_MOVES int explicit_step(struct model *m)
{
	struct world *w = WORLD(m);
	const struct svz_sched_step *st = &m->trace->steps[w->sched.step];
	int cpu = st->cpu;
	uint32_t next, blocker;
	int state = cpu < w->nr_cpus ? cpu_state(m, cpu, &next, &blocker) : 0;
	if (state != 1) {
		char tok[48];
		svz_sched_step_text(st, tok, sizeof tok);
		if (state == -2)
			stop_with(m, "trace:%u: error: schedule step '%s': CPU %d's next op (line %u) waits for CPU %u's op at line %u",
				  st->line, tok, cpu, m->trace->ops[next].line, m->trace->ops[blocker].cpu,
				  m->trace->ops[blocker].line);
		else
			stop_with(m, "trace:%u: error: schedule step '%s': CPU %d has no op left to run",
				  st->line, tok, cpu);
		return -1;
	}
	int r = step_on(m, cpu, false);
	if (r < 0)
		return -1;
	w = WORLD(m);
	bool end;
	switch (st->until) {
	case SVZ_STEP_OPS:
		/* an op returned, or the CPU waits for a lock another holds */
		end = last_kind(&w->sched) == EV_SPIN ||
		      (w->cpus[cpu].depth == 0 && ++w->sched.step_done >= st->count);
		break;
	case SVZ_STEP_EVENT:
		end = last_kind(&w->sched) == st->event;
		break;
	default:
		end = ++w->sched.step_done >= st->count;
	}
	if (end) {
		w->sched.step++;
		w->sched.step_done = 0;
	}
	return 1;
}

ARENA_MOVES int model_step(struct model *m)
{
	struct world *w = WORLD(m);
	if (w->stopped)
		return -1;
	enum svz_sched_kind kind = (enum svz_sched_kind)w->cfg.sched.kind;
	if (kind == SVZ_SCHED_SERIAL)
		return serial_step(m);
	if (build_deps(m)) {
		stop_with(m, "out of memory");
		return -1;
	}
	if (kind == SVZ_SCHED_EXPLICIT) {
		if (w->sched.step < m->trace->nr_steps)
			return explicit_step(m);
		int r = serial_step(m);
		return r > 0 && WORLD(m)->stopped ? -1 : r;
	}
	if (kind == SVZ_SCHED_TIMED && timing_wait(m)) {
		stop_with(m, "out of memory");
		return -1;
	}
	if (runq_alloc(m)) {
		stop_with(m, "out of memory");
		return -1;
	}
	w = WORLD(m); /* timing_wait() and runq_alloc() may have moved the arena */
	int cpu = pick(m);
	if (w->stopped) /* test builds: the run queue's check failed */
		return -1;
	if (cpu < 0) {
		if (w->ops_done >= m->trace->nr_ops)
			return 0;
		stop_with(m, "schedule: no CPU can run, %u of %u ops done", w->ops_done, m->trace->nr_ops);
		return -1;
	}
	return step_on(m, cpu, false);
}

/* Whole ops under the serial schedule, one after another while the next
 * is below `until`: the same micro-steps and events as repeated
 * model_step(), without looking for the CPU at every step, and with
 * op_start() and the run of its steps inline (natively 36 instructions an
 * op fewer: fastpath.trace 712 -> 676, ublk 1105 -> 1069, callgrind).
 * Under the other schedules, or with an op in flight, one micro-step.
 * 1 if an op ran (or a step of one in flight), or the next op is at
 * `until`; 0 at the end; -1 if stopped. */
ARENA_MOVES int model_run_ops(struct model *m, uint32_t until)
{
	if (m->events_on)
		ev_out_set(m);
	for (;;) {
		struct world *w = WORLD(m);
		if (w->stopped)
			return -1;
		if (w->inflight > 0 || !serial(m))
			return model_step(m);
		uint32_t next = w->next_op;
		while (next < m->trace->nr_ops && op_started(m, next))
			next++;
		/* not stored: the caller stops here, and finds the cursor where
		 * running its ops one call each left it (the same world bytes) */
		if (next >= until)
			return 1;
		if (next >= m->trace->nr_ops) {
			w->next_op = next;
			return 0;
		}
		w->next_op = next + 1; /* as serial_step() leaves it */
		int cpu = m->trace->ops[next].cpu;
		struct frame *root = op_start(m, next);
		if (run_cpu_inline(m, cpu, true, root, true) < 0)
			return -1;
	}
}

FOR_SIZE int sched_check(const struct svz_trace *t, const struct svz_config *cfg, char *err, size_t errlen)
{
	if (cfg->sched.kind != SVZ_SCHED_EXPLICIT || t->nr_steps)
		return 0;
	snprintf(err, errlen, "schedule explicit needs 'steps' lines in the trace (docs/trace-format.md, "
		 "\"Schedules\")");
	return -1;
}

/* ---- the public names ----------------------------------------------------- */

static const char *const sched_names[SVZ_SCHED__COUNT] = {
	[SVZ_SCHED_SERIAL] = "serial", [SVZ_SCHED_ROUND_ROBIN] = "round-robin",
	[SVZ_SCHED_RANDOM] = "random", [SVZ_SCHED_TIMED] = "timed",
	[SVZ_SCHED_EXPLICIT] = "explicit",
};

const char *svz_sched_kind_name(int kind)
{
	return kind >= 0 && kind < SVZ_SCHED__COUNT ? sched_names[kind] : NULL;
}

const char *svz_event_kind_name(int i)
{
	return i >= 0 && i < EV__COUNT ? ev_kind_names[i] : NULL;
}

FOR_SIZE int svz_schedule_parse(struct svz_schedule *s, const char *spec, char *err, size_t errlen)
{
	char word[32];
	const char *p = spec ? spec : "";
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strcspn(p, " \t");
	snprintf(word, sizeof word, "%.*s", (int)(n < 31 ? n : 31), p);
	int kind = -1;
	for (int k = 0; k < SVZ_SCHED__COUNT; k++)
		if (strlen(sched_names[k]) == n && strncmp(p, sched_names[k], n) == 0)
			kind = k;
	if (kind < 0) {
		snprintf(err, errlen, "expected a schedule (" SVZ_SCHEDULE_CHOICES "), got '%s'", word);
		return -1;
	}
	uint64_t seed = 1;
	for (p += n; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		n = strcspn(p, " \t");
		snprintf(word, sizeof word, "%.*s", (int)(n < 31 ? n : 31), p);
		char *end;
		if (kind == SVZ_SCHED_RANDOM && strncmp(p, "seed=", 5) == 0 && n > 5 &&
		    p[5] >= '0' && p[5] <= '9') {
			seed = strtoull(p + 5, &end, 10);
			if (end == p + n) {
				p += n;
				continue;
			}
		}
		if (kind == SVZ_SCHED_RANDOM)
			snprintf(err, errlen, "expected seed=N after 'random', got '%s'", word);
		else
			snprintf(err, errlen, "expected nothing after '%s', got '%s'", sched_names[kind], word);
		return -1;
	}
	s->kind = (uint8_t)kind;
	s->seed = kind == SVZ_SCHED_RANDOM ? seed : 0;
	return 0;
}

FOR_SIZE void svz_schedule_text(const struct svz_schedule *s, char *buf, size_t len)
{
	const char *name = svz_sched_kind_name(s->kind);
	if (s->kind == SVZ_SCHED_RANDOM)
		snprintf(buf, len, "random seed=%llu", (unsigned long long)s->seed);
	else
		snprintf(buf, len, "%s", name ? name : "serial");
}
