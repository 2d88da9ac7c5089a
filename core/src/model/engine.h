/* The engine: micro-steps, events and the coroutine machinery that lets an
 * operation pause at every lock acquire/release and every cmpxchg.
 *
 * Every kernel function the model runs is a coroutine: a C function
 * `int co_xxx(struct model *m, int cpu, struct frame *f)` whose state lives
 * in its frame (arena, per-CPU stack), never in C locals across a pause.
 * EV() records one event and pauses: one micro-step = the code between two
 * pauses = exactly one event. CALL() pushes a callee frame; the callee runs
 * in the same micro-step until its first EV(). */
#ifndef SVZ_ENGINE_H
#define SVZ_ENGINE_H

#include <string.h>

#include "model/timing.h"
#include "model/types.h"

/* ---- kernel functions, by their mm/slub.c names ---- */
#define KFN_LIST(X) \
	X(kmem_cache_alloc) X(kmem_cache_alloc_node) X(kmem_cache_free) \
	X(__kmalloc) X(__kmalloc_node) X(kfree) X(kmem_cache_alloc_bulk) \
	X(kmem_cache_free_bulk) X(slab_alloc_node) X(alloc_from_pcs) \
	X(__pcs_replace_empty_main) X(alloc_full_sheaf) X(alloc_empty_sheaf) \
	X(free_empty_sheaf) X(refill_sheaf) X(refill_objects) \
	X(__refill_objects_node) X(__refill_objects_any) X(get_partial_node_bulk) \
	X(get_freelist_nofreeze) X(alloc_from_new_slab) X(new_slab) \
	X(allocate_slab) X(discard_slab) X(___slab_alloc) X(get_from_partial) \
	X(get_from_partial_node) X(get_from_any_partial) X(barn_get_empty_sheaf) \
	X(barn_put_empty_sheaf) X(barn_put_full_sheaf) X(barn_replace_empty_sheaf) \
	X(barn_replace_full_sheaf) X(slab_free) X(free_to_pcs) \
	X(__pcs_replace_full_main) X(__pcs_install_empty_sheaf) X(__slab_free) \
	X(__kmem_cache_free_bulk) X(build_detached_freelist) X(sheaf_flush_main) \
	X(sheaf_flush_unused) X(pcs_flush_all) X(flush_all) X(barn_shrink) \
	X(__kmem_cache_shrink) X(kmem_cache_shrink) X(kmem_cache_destroy) \
	X(__kmem_cache_shutdown) X(alloc_from_pcs_bulk) X(free_to_pcs_bulk) \
	X(__kmem_cache_alloc_bulk) X(__kmalloc_large_node) X(free_large_kmalloc) \
	X(alloc_pages) X(__free_pages) X(flush_cpu_sheaves) \
	X(__slab_alloc_node) X(get_partial) X(get_partial_node) X(get_any_partial) \
	X(deactivate_slab) X(do_slab_free) X(put_cpu_partial) X(__put_partials) \
	X(flush_slab) X(put_partials) X(get_freelist) X(freeze_slab) \
	X(build_slab_freelist) X(kmem_cache_prefill_sheaf) X(kmem_cache_alloc_from_sheaf) \
	X(kmem_cache_return_sheaf) X(barn_get_full_or_empty_sheaf) X(kvfree_call_rcu) \
	X(__kfree_rcu_sheaf) X(rcu_free_sheaf) X(rcu_free_sheaf_nobarn) X(rcu_barrier) \
	X(alloc_single_from_partial) X(alloc_single_from_new_slab) X(free_to_partial_list) \
	X(flush_cpu_slab) X(kvfree_rcu_barrier) X(work) X(free_partial)

enum kfn {
#define X(n) KFN_##n,
	KFN_LIST(X)
#undef X
	KFN__COUNT
};
extern const char *const kfn_names[KFN__COUNT];

/* ---- what a micro-step did ---- */
#define EV_KINDS(X) \
	X(LOCK, "lock") X(UNLOCK, "unlock") X(TRYLOCK_FAIL, "trylock_fail") \
	X(SPIN, "spin") X(CMPXCHG, "cmpxchg") X(TAKE_OBJECT, "take_object") \
	X(PUT_OBJECT, "put_object") X(MOVE_SLAB, "move_slab") \
	X(MOVE_SHEAF, "move_sheaf") X(STAT, "stat") X(NEW_SLAB, "new_slab") \
	X(DISCARD_SLAB, "discard_slab") X(PAGE_ALLOC, "page_alloc") \
	X(PAGE_FREE, "page_free") X(PAGE_ALLOC_FAIL, "page_alloc_fail") \
	X(SHEAF_NEW, "sheaf_alloc") X(SHEAF_FREE, "sheaf_free") \
	X(CHECK, "check") X(RETURN, "return") X(REPORT, "report")

enum ev_kind {
#define X(k, s) EV_##k,
	EV_KINDS(X)
#undef X
	EV__COUNT
};
extern const char *const ev_kind_names[EV__COUNT];

/* Places objects, slabs and sheaves move between. */
#define LOCS(X) \
	X(NONE, "none") X(USER, "user") X(MAIN, "main") X(SPARE, "spare") \
	X(BARN_FULL, "barn_full") X(BARN_EMPTY, "barn_empty") \
	X(FREELIST, "freelist") X(PARTIAL, "partial") X(PRIVATE, "private") \
	X(BULK, "bulk") X(CHAIN, "chain") X(PAGES, "pages") X(SHEAF, "sheaf") \
	X(CPU_FREELIST, "cpu_freelist") X(CPU_SLAB, "cpu_slab") X(CPU_PARTIAL, "cpu_partial")

enum loc {
#define X(k, s) LOC_##k,
	LOCS(X)
#undef X
	LOC__COUNT
};
extern const char *const loc_names[LOC__COUNT];

/* Decisions a path takes without moving anything (EV_CHECK, .item). */
#define CHECKS(X) \
	X(MAIN_EMPTY, "main sheaf is empty") \
	X(MAIN_FULL, "main sheaf is full") \
	X(NO_SHEAVES, "cache has no sheaves (bootstrap sheaf)") \
	X(NO_BARN, "no barn for this CPU's node (memoryless node, get_barn() is NULL)") \
	X(BARN_NO_FULL, "barn has no full sheaf") \
	X(BARN_NO_EMPTY, "barn has no empty sheaf") \
	X(BARN_TOO_MANY_FULL, "barn already holds MAX_FULL_SHEAVES full sheaves (-E2BIG)") \
	X(NO_BLOCKING, "gfp does not allow blocking: no sheaf refill, fall back to ___slab_alloc") \
	X(NO_SPINNING, "gfp does not allow spinning") \
	X(PARTIAL_EMPTY, "node partial list is empty") \
	X(NODE_MISMATCH, "requested node is not this CPU's memory node") \
	X(DEFRAG_SKIP, "remote_node_defrag_ratio draw says: do not search remote nodes") \
	X(NO_NODE, "node has no memory, so no kmem_cache_node") \
	X(REMOTE_OBJECT, "object's slab is not on this CPU's node: free to the slab") \
	X(OUT_OF_MEMORY, "out of memory: allocation fails") \
	X(SHORT_REFILL, "refill got fewer objects than needed") \
	X(SURPLUS, "slab freelist had more objects than needed") \
	X(DRAIN_NEEDED, "objects remain in use") \
	X(SWAP_SPARE, "swap main and spare sheaves") \
	X(SHEAF_EMPTY, "the prefilled sheaf is empty: no object") \
	X(RCU_FAIL, "no rcu_free sheaf to be had: classic kfree_rcu batching") \
	X(CLASSIC_NO_PREFILL, "kmem_cache_prefill_sheaf() exists from v6.18 on") \
	X(KEEP_EMPTY, "empty slab kept: nr_partial < min_partial") \
	X(ISOLATED, "slab is isolated by a refill in progress: leave it") \
	X(BULK_LEAK, "a full batch of remote objects ended the scan: the local objects are never freed")

enum check_item {
#define X(k, s) CHK_##k,
	CHECKS(X)
#undef X
	CHK__COUNT
};
extern const char *const check_names[CHK__COUNT];
extern const char *const check_texts[CHK__COUNT];
#define check_text(e) check_texts[(e)->item]
#define CHECK_EV(ITEM, ...) EV(.kind = EV_CHECK, .fn = f_kfn(f), .item = (ITEM), __VA_ARGS__)
#define CHECK_EV_HOT(ITEM, ...) EV_HOT(.kind = EV_CHECK, .fn = f_kfn(f), .item = (ITEM), __VA_ARGS__)

/* The locks a micro-step takes: LOCK_KIND(enum name, name in events). */
#define LOCK_KINDS(X) \
	X(LK_NONE, "none") X(LK_LIST_LOCK, "list_lock") X(LK_BARN_LOCK, "barn_lock") \
	X(LK_PCS_LOCK, "cpu_sheaves_lock") X(LK_CPU_SLAB_LOCK, "cpu_slab_lock")

enum lock_kind {
#define X(lk, name) lk,
	LOCK_KINDS(X)
#undef X
	LK__COUNT
};
extern const char *const lock_names[LK__COUNT];

/* Code behind every EV() and CALL() site: inline natively, for speed
 * (forced: GCC's limits outlined a copy here and there, a call per step,
 * whenever a coroutine grew); in wasm out of line (one copy, in
 * coroutine.c), so each of the ~270 EV() and ~230 CALL() sites stays
 * small (issue 14: most of the module's size). */
#ifdef __wasm__
#define WASM_NOINLINE __attribute__((noinline))
#define NATIVE_INLINE
#else
#define WASM_NOINLINE
#define NATIVE_INLINE __attribute__((always_inline))
#endif

/* Events for someone who reads them: ev_put() writes one into its slot,
 * ev_record() also gives it what a timed run or a sink needs. Given the
 * fields an EV() site sets as scalars (the byte-sized ones packed: what =
 * kind | fn << 8 | lock << 16 | item << 24, where = from | to << 8), not
 * an event built on the stack. Inline both ways: in wasm into the
 * out-of-line step_end_slow() (a call with 11 arguments less per event:
 * fastpath events on 3-6% faster under Node, the module no larger).
 *
 * ev_put(): the event in its slot (m->ev_slots, set by ev_out_set()) and
 * nothing more, what a fused step with events on records (FUSE_EVENTS:
 * never with a sink or a timed run). Built in the slot, not copied there;
 * the API's ring is a power of two (session.c): a mask, not a 64-bit
 * division. Without a ring in m->unringed, not on the stack: in wasm an
 * event on the stack gave every function with an inline ev_record() (the
 * EV_HOT() sites) a shadow-stack frame, set up at each call, events on or
 * off (3.5% of fastpath.trace under Node). */
__attribute__((always_inline, unused)) static inline struct event *ev_put(struct model *m, int cpu, uint32_t what,
		uint32_t where, idx_t cache, idx_t slab, idx_t obj, idx_t sheaf, int32_t node, int32_t count, int64_t value)
{
	uint64_t seq = (uint64_t)WORLD(m)->seq;
	struct event *ev = &m->ev_slots[seq & m->ev_mask];
	/* field by field, not a compound literal (which zeroes what it does
	 * not name): t and cycles are left as they are, a timed run's alone
	 * (ev_record_more() writes both at every event of one, and only a
	 * timed run's events are read with them; a session's schedule never
	 * changes). With ev_out_set() once a model_run_ops() call: natively
	 * 17 instructions an op fewer on fastpath.trace, events on. */
	ev->seq = (int64_t)seq;
	ev->op = m->ev_op;
	ev->what = what;
	ev->where = (uint16_t)where;
	ev->cpu = (int16_t)cpu;
	ev->cache = cache;
	ev->slab = slab;
	ev->obj = obj;
	ev->sheaf = sheaf;
	ev->node = node;
	ev->count = count;
	ev->value = value;
	return ev;
}
/* out of line and cold: inlined, its calls made every caller save registers */
__attribute__((noinline, cold)) void ev_record_more(struct model *m, int cpu, struct event *ev);
/* Any step's event: its slot, then the timed run's clock or the sink's copy. */
__attribute__((always_inline, unused)) static inline void ev_record(struct model *m, int cpu, uint32_t what, uint32_t where, idx_t cache,
			   idx_t slab, idx_t obj, idx_t sheaf, int32_t node, int32_t count, int64_t value)
{
	struct event *ev = ev_put(m, cpu, what, where, cache, slab, obj, sheaf, node, count, value);
	if (__builtin_expect(m->ev_more, 0))
		ev_record_more(m, cpu, ev);
}
/* Where events go (m->ev_slots, ev_mask, ev_more), set before steps run
 * with events on: once a call of model_run_ops(), once a step elsewhere
 * (run_cpu()). The ring, the sink and the schedule do not change inside
 * one. The op of the running step (m->ev_op) is set at each op. */
static inline void ev_out_set(struct model *m)
{
	bool ringed = m->ring && m->ring_cap;
	m->ev_slots = ringed ? m->ring : &m->unringed;
	m->ev_mask = ringed ? m->ring_cap - 1 : 0;
	m->ev_more = m->sink || WORLD(m)->cfg.sched.kind == SVZ_SCHED_TIMED;
}
/* The step's last event, what the explicit and timed schedules read:
 * `what` kept packed (one store, not three), unpacked where it is read. */
static inline void note_last(struct world *w, uint32_t what, int32_t node, int64_t value)
{
	w->sched.last_what = what;
	w->sched.last_node = (int16_t)node;
	w->sched.last_value = value;
}
static inline enum ev_kind last_kind(const struct sched_state *s) { return (enum ev_kind)(uint8_t)s->last_what; }
static inline uint8_t last_fn(const struct sched_state *s) { return (uint8_t)(s->last_what >> 8); }
static inline uint8_t last_lock(const struct sched_state *s) { return (uint8_t)(s->last_what >> 16); }
/* Every micro-step's one event: with events off only the step's last_*
 * fields are written. The fields an EV() site sets, packed as ev_record()
 * takes them. */
NATIVE_INLINE static inline void ev_note(struct model *m, int cpu, uint32_t what, uint32_t where, idx_t cache,
			   idx_t slab, idx_t obj, idx_t sheaf, int32_t node, int32_t count, int64_t value)
{
	struct world *w = WORLD(m);
	w->step_events++;
	note_last(w, what, node, value);
	if (m->events_on)
		ev_record(m, cpu, what, where, cache, slab, obj, sheaf, node, count, value);
}
#define EV_WHAT(ev) ((ev).kind | (uint32_t)(ev).fn << 8 | (uint32_t)(ev).lock << 16 | (uint32_t)(ev).item << 24)
#define EV_WHERE(ev) ((ev).from | (uint32_t)(ev).to << 8)
static inline void ev_emit(struct model *m, int cpu, struct event ev)
{
	ev_note(m, cpu, EV_WHAT(ev), EV_WHERE(ev), ev.cache, ev.slab, ev.obj, ev.sheaf, ev.node,
		ev.count, ev.value);
}
void model_report(struct model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Stop the run on an error; no EV() fuses a step past it. */
static inline void model_stop(struct model *m)
{
	WORLD(m)->stopped = true;
	m->fuse_steps = FUSE_NO;
}
/* A serial run of whole ops (m->fuse_steps) need not go back to the
 * scheduler between steps: make the boundary run_cpu() would make (count
 * the step) and let the code run on, saving a return and a dispatch per
 * step. Only when run_cpu() would go on at once: the run has not stopped
 * and the arena has its headroom (arena_reserve() would neither check nor
 * move anything); m->fuse_steps says so (FUSE_QUIET events off,
 * FUSE_EVENTS on, without a sink).
 *
 * A fused step puts its event in its slot, if events are on, and nothing
 * else: its step's event count is 0 already (a fused step counts none;
 * run_cpu() zeroes it where a run starts and between steps it did not
 * fuse), and it does not note_last(): the schedules that read that
 * (explicit, timed) never fuse, and a fused run stops only where an op
 * returns (ev_emit() of its RETURN notes it) or where a step is not fused.
 * So it leaves the world as a run step by step does (test_sched
 * test_fused_run_leaves_same_world). */
static inline void fused_step(struct model *m)
{
#ifdef SVZ_VALIDATE_EVERY_OP
	if (WORLD(m)->step_events != 0) { /* test builds */
		model_report(m, "BUG: a fused step finds %u events in its step", WORLD(m)->step_events);
		model_stop(m);
	}
#endif
	WORLD(m)->seq++;
}
/* The boundary between two steps of a run that run_cpu() makes (a step
 * not fused): the step just ended counted, the next one's event count
 * from 0. */
NATIVE_INLINE static inline void step_boundary(struct world *w)
{
	w->seq++;
	w->step_events = 0;
}
/* The end of an EV() step not fused quietly, after its resume point is
 * stored (either way, so frames hold the same bytes): a fused step with
 * events on (its event in its slot, ev_put(); fused_step()), or the
 * step's event noted (ev_note()), the step ending here. true if the step
 * was fused (the code runs on). */
__attribute__((always_inline)) static inline bool step_end(struct model *m, int cpu, uint32_t what, uint32_t where,
		   idx_t cache, idx_t slab, idx_t obj, idx_t sheaf, int32_t node, int32_t count, int64_t value)
{
	if (m->fuse_steps == FUSE_EVENTS) {
		ev_put(m, cpu, what, where, cache, slab, obj, sheaf, node, count, value);
		fused_step(m);
		return true;
	}
	ev_note(m, cpu, what, where, cache, slab, obj, sheaf, node, count, value);
	return false;
}
#ifdef __wasm__
/* one copy for the module (coroutine.c; a static one per file was 9 copies,
 * 3.4 KB more) */
WASM_NOINLINE bool step_end_slow(struct model *m, int cpu, uint32_t what, uint32_t where, idx_t cache,
				 idx_t slab, idx_t obj, idx_t sheaf, int32_t node, int32_t count, int64_t value);
#else
#define step_end_slow step_end
#endif
/* The common end first, inline: a fused step with events off is
 * fused_step() alone. The rest in step_end_slow(), or inline too at a
 * `hot` site (EV_HOT()). */
__attribute__((always_inline)) static inline bool ev_step_end(struct model *m, int cpu, struct event ev, bool hot)
{
	if (__builtin_expect(m->fuse_steps == FUSE_QUIET, 1)) {
		fused_step(m);
		return true;
	}
	return (hot ? step_end : step_end_slow)(m, cpu, EV_WHAT(ev), EV_WHERE(ev), ev.cache, ev.slab,
						ev.obj, ev.sheaf, ev.node, ev.count, ev.value);
}
void event_text(const struct model *m, const struct event *ev, char *buf, size_t len);
void event_json(const struct model *m, const struct event *ev, char *buf, size_t len);

/* Which kfn a frame models (for events). */
static inline enum kfn f_kfn(const struct frame *f) { return (enum kfn)f->k_fn; }
/* Build an event with named fields: EVT(.kind = EV_LOCK, .lock = ...). */
#define EVT(...) ((struct event){ .cache = f->cache, .slab = NIL, .obj = NIL, \
	.sheaf = NIL, .node = -1, __VA_ARGS__ })

/* ---- coroutines: one row each in coroutines.def ---- */
enum co_result { CO_YIELD, CO_DONE };

enum co_fn {
#define CO_FN(n, kfn, opt) CO_##n,
#include "model/coroutines.def"
#undef CO_FN
	CO__COUNT
};

/* In wasm, compiled for size (clang's minsize, kept per function by the
 * link-time optimiser): what runs once per trace, report or parse in the
 * files whose other code runs per step (-O2, wasm.cmake). */
#ifdef __wasm__
#define FOR_SIZE __attribute__((minsize))
#else
#define FOR_SIZE
#endif
/* What a coroutine is compiled for (coroutines.def). */
#define CO_OPT_SPEED
#define CO_OPT_SIZE FOR_SIZE
typedef int (*co_func)(struct model *m, int cpu, struct frame *f);
#define CO_FN(n, kfn, opt) CO_OPT_##opt int co_##n(struct model *m, int cpu, struct frame *f);
#include "model/coroutines.def"
#undef CO_FN

/* `cpu`'s frame at `depth` (P_FRAME: FRAME_DEPTH per CPU). */
static inline idx_t frame_idx(int cpu, int depth)
{
	return (idx_t)cpu * FRAME_DEPTH + (idx_t)depth;
}
/* Which kfn each coroutine models: here, not in coroutine.c, so that at a
 * CALL() site (a constant fn) co_push_frame() stores a constant (natively
 * 12 instructions an op fewer on fastpath.trace, callgrind). */
static const uint8_t co_kfn[CO__COUNT] = {
#define CO_FN(n, kfn, opt) [CO_##n] = KFN_##kfn,
#include "model/coroutines.def"
#undef CO_FN
};
/* Push a callee frame on `cpu`; CALL() does it. Inline natively: at a
 * CALL() site fn and parent are constants (its kfn, the co_LOCK test
 * folded); in wasm one copy out of line (coroutine.c), for size. */
__attribute__((always_inline)) static inline struct frame *co_push_frame(struct model *m, int cpu,
									  struct frame *parent, enum co_fn fn)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	if (!parent && c->depth >= FRAME_DEPTH)
		return NULL; /* cannot happen: an op starts on an empty stack */
#ifdef SVZ_VALIDATE_EVERY_OP
	/* test builds: a caller is always the top frame, and call depth is
	 * static, < FRAME_DEPTH (not tested per call elsewhere) */
	if (parent && (parent != frame_r(m, frame_idx(cpu, c->depth - 1)) || c->depth >= FRAME_DEPTH))
		return NULL;
#endif
	/* a callee's frame lies right above its caller's, the top one (each
	 * CPU's FRAME_DEPTH frames in a row): no index to compute */
	struct frame *f = parent ? parent + 1 : frame_r(m, frame_idx(cpu, c->depth));
	c->depth++;
	/* Every byte set (the padding is named), so that checkpoints stay
	 * reproducible: the head field by field, the locals from a constant.
	 * In wasm the locals field by field too: clang made the copy a call
	 * to __memcpy where it did not inline it (5% of fastpath.trace events
	 * on under Node, op_start(); 11% for a copy of the whole frame). */
#ifdef __wasm__
	f->a = f->b = f->c = NIL;
	f->n = f->k = f->i = f->j = f->i2 = 0;
	f->x = f->y = f->z = NIL;
	f->flag1 = f->flag2 = f->flag3 = false;
	f->zero2 = 0;
#else
	static const struct frame fresh = { .a = NIL, .b = NIL, .c = NIL, .x = NIL, .y = NIL, .z = NIL };
	enum { LOCALS = offsetof(struct frame, a) };
	memcpy((char *)f + LOCALS, (const char *)&fresh + LOCALS, sizeof fresh - LOCALS);
#endif
	f->k_fn = co_kfn[fn];
	f->zero = 0;
	f->fn = (uint16_t)fn;
	f->pc = 0;
	f->ret = 0;
	f->result = 0;
	if (parent) {
		/* one load per field: the caller has often just stored one of
		 * them (f->cache), and a wider load the compiler would merge them
		 * into could not take its value from the store buffer (a
		 * store-forwarding stall, 30% of free_common natively) */
		f->on_cpu = *(volatile const int16_t *)&parent->on_cpu;
		f->cache = *(volatile const idx_t *)&parent->cache;
		f->gfp = *(volatile const uint32_t *)&parent->gfp;
		f->node = *(volatile const int32_t *)&parent->node;
		if (fn == CO_LOCK)
			f->k_fn = parent->k_fn; /* co_LOCK reports its caller's function */
	} else {
		f->on_cpu = (int16_t)cpu;
		f->cache = 0;
		f->gfp = 0;
		f->node = 0;
	}
	return f;
}
#ifdef __wasm__
WASM_NOINLINE struct frame *co_push(struct model *m, int cpu, struct frame *parent, enum co_fn fn);
#else
#define co_push co_push_frame
#endif
/* Pop `cpu`'s top frame, which returned, and hand its result to the
 * caller below it (f->ret); the caller's frame. Inline: every CALL() that
 * returns at once pops. */
static inline struct frame *co_pop(struct model *m, int cpu)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	struct frame *top = frame_r(m, frame_idx(cpu, --c->depth));
	struct frame *caller = top - 1;
	caller->ret = top->result;
	return caller;
}
/* Every coroutine by enum co_fn (coroutine.c). */
extern const co_func co_table[CO__COUNT];

/* A coroutine mostly starts (a fused run resumes none): natively pc 0 is
 * tested first, not through the switch's jump table (fastpath.trace 587
 * -> 575 instructions an op, ublk-bio256 945 -> 914). In wasm, where the
 * switch is one br_table, the test gave no fewer (687 against 670-694
 * without it, V8's code), so wasm keeps the plain switch, and so does the
 * CLI that trains its profile (SVZ_PGO_TRAINING, scripts/build.sh
 * profile): a function whose branches differ from the profile's gets none
 * of it (701). */
#if defined(__wasm__) || defined(SVZ_PGO_TRAINING)
#define CO_BEGIN switch (f->pc) { case 0:;
#else
#define CO_BEGIN if (__builtin_expect(f->pc == 0, 1)) goto co_start_; switch (f->pc) { case 0: co_start_:;
#endif
#define CO_END } f->pc = 0xffff; return CO_DONE
#define CO_RETURN(v) do { f->result = (v); return CO_DONE; } while (0)
/* Record one event and pause: the end of a micro-step. */
#define EV(...) EV_AT(__COUNTER__ + 1, false, __VA_ARGS__)
#define EV_AT(n, HOT, ...) do { f->pc = (n); if (!ev_step_end(m, cpu, EVT(__VA_ARGS__), (HOT))) return CO_YIELD; \
	__attribute__((fallthrough)); case (n):; } while (0)
/* Call a coroutine; its return value is in f->ret afterwards. `setup` is
 * statements on `callee` (use ';' between them, not ','). The callee
 * starts at once, in this C call: it pauses (CO_YIELD, this frame resumes
 * at (n) later, the scheduler pops it when it returns) or returns (CO_DONE:
 * popped here, and this frame runs on at (n), as the scheduler would
 * resume it) without a trip through the scheduler's loop. */
#define CO_CALL_AT(n, PUSH, FN, setup) do { struct frame *callee = PUSH(m, cpu, f, FN); \
	setup; f->pc = (n); if (co_table[FN](m, cpu, callee) == CO_YIELD) return CO_YIELD; \
	f = co_pop(m, cpu); case (n):; } while (0)
#define CALL(FN, setup) CO_CALL_AT(__COUNTER__ + 1, co_push, FN, setup)
/* The steps and calls a kmalloc/kfree workload takes most (the fast paths
 * of both eras; ublk-bio256's memoryless-node slow path, the seed 004
 * regression), marked as the kernel marks likely(): in wasm all of their
 * code inline too, the step's event (EV_HOT(), STAT_HOT(), UNLOCK_HOT(),
 * CHECK_EV_HOT(), 20 sites) and the callee's frame push (CALL_HOT(),
 * LOCK_HOT(), 15 sites; LOCK_HOT() also has lock_take_fused() inline).
 * Natively the same as EV(), CALL() and LOCK(). Under Node:
 * the steps, events on, fastpath.trace 12% and ublk-bio256 5-11% faster
 * for 8 KB of module (every EV() site inline: 11-14%, +91 KB); the calls
 * 2-4%, 2 KB (every CALL() site: 3%, 20 KB; the 4 of ublk-bio256's
 * ___slab_alloc() path, 2% of it, 0.9 KB). */
#define EV_HOT(...) EV_AT(__COUNTER__ + 1, true, __VA_ARGS__)
#define CALL_HOT(FN, setup) CO_CALL_AT(__COUNTER__ + 1, co_push_frame, FN, setup)
/* A coroutine's frame is in the arena: the arena rule (types.h) applies to
 * f. MOVES(call) makes an ARENA_MOVES call and re-fetches f; MOVES_TO(lhs,
 * call) also stores its result, in the frame or elsewhere, after the move.
 * Other record pointers must not be held across either. */
#define MOVES(CALL_) do { CALL_; f = co_self(m, cpu); } while (0)
#define MOVES_TO(LHS, CALL_) do { idx_t moved_ = (CALL_); f = co_self(m, cpu); (LHS) = moved_; } while (0)
/* In a coroutine's body (m, f): the frame's cache's per-CPU sheaves of
 * `cpu` (the kernel's this_cpu_ptr(s->cpu_sheaves)), as an index and as
 * a record; its s->sheaf_capacity; the run's switches. */
#define PCSI(cpu) pcs_idx(m, f->cache, (cpu))
#define PCS(cpu) pcs_r(m, PCSI(cpu))
#define SHEAF_CAPACITY (cache_r(m, f->cache)->g.sheaf_capacity)
#define SW (WORLD(m)->cfg.sw)
/* alloc_empty_sheaf(): a new sheaf of the cache's capacity into LHS (a
 * frame field), its event and SHEAF_ALLOC. Pauses at the event, so only
 * in a coroutine's body. */
#define ALLOC_EMPTY_SHEAF(LHS) do { \
	MOVES_TO(LHS, sheaf_new(m, f->cache, SHEAF_CAPACITY)); \
	EV(.kind = EV_SHEAF_NEW, .fn = KFN_alloc_empty_sheaf, .sheaf = (LHS), .value = SHEAF_CAPACITY); \
	STAT(SHEAF_ALLOC, 1); \
} while (0)
/* The running coroutine's frame: the top of `cpu`'s stack (coroutine.c). */
struct frame *co_self(struct model *m, int cpu);

/* ---- locks (node.c) ----
 * LOCK(kind, record, trylock): co_LOCK takes n->list_lock, barn->lock or the
 * per-CPU sheaves lock; waiting is a micro-step of its own (EV_SPIN), a
 * trylock that fails returns 0 (EV_TRYLOCK_FAIL). f->ret = 1 if taken.
 * UNLOCK releases and is one micro-step (EV_UNLOCK). */
#define LOCK(KIND, REC, TRY) LOCK_BY(CALL, lock_take_fused_slow, KIND, REC, TRY)
#define LOCK_HOT(KIND, REC, TRY) LOCK_BY(CALL_HOT, lock_take_fused, KIND, REC, TRY)
/* In a fused run a free lock is taken at the LOCK() site, in the step
 * co_LOCK would take (lock_take_fused()), without co_LOCK's frame and
 * call. */
#define LOCK_BY(CALL_, TAKE_FUSED, KIND, REC, TRY) do { \
	if (m->fuse_steps != FUSE_NO && TAKE_FUSED(m, cpu, f, (KIND), (REC))) { \
		f->ret = 1; \
		break; \
	} \
	CALL_(CO_LOCK, callee->k = (KIND); callee->a = (REC); callee->flag1 = (TRY)); \
} while (0)
#define UNLOCK(KIND, REC) UNLOCK_BY(EV, KIND, REC)
#define UNLOCK_HOT(KIND, REC) UNLOCK_BY(EV_HOT, KIND, REC)
#define UNLOCK_BY(EV_, KIND, REC) do { *lock_owner(m, (KIND), (REC)) = -1; \
	EV_(.kind = EV_UNLOCK, .fn = f_kfn(f), .lock = (KIND), .node = lock_node(m, (KIND), (REC))); \
	} while (0)
/* The lock's owner (a CPU, or -1 when free) and the node it belongs to
 * (-1: a per-CPU lock). Inline: at a LOCK() site the kind is a constant. */
static inline int32_t *lock_owner(struct model *m, enum lock_kind kind, idx_t rec)
{
	switch (kind) {
	case LK_LIST_LOCK: return &cnode_r(m, rec)->list_lock;
	case LK_BARN_LOCK: return &barn_r(m, rec)->lock;
	case LK_CPU_SLAB_LOCK: return &pcs_r(m, rec)->c_lock;
	default: return &pcs_r(m, rec)->lock;
	}
}
static inline int lock_node(struct model *m, enum lock_kind kind, idx_t rec)
{
	switch (kind) {
	case LK_LIST_LOCK: return cnode_r(m, rec)->node;
	case LK_BARN_LOCK: return barn_r(m, rec)->node;
	default: return -1;
	}
}
/* Count an acquisition, trylock failure or spin (list_nc: the list_lock
 * counter; a barn lock counts its own) in the cache's node counters. The
 * per-CPU locks have none. */
static inline void lock_count(struct model *m, idx_t cache, enum lock_kind kind, idx_t rec,
			      enum node_counter list_nc)
{
	if (kind != LK_LIST_LOCK && kind != LK_BARN_LOCK)
		return;
	enum node_counter nc = kind == LK_BARN_LOCK ? list_nc + (NC_BARN_LOCK - NC_LIST_LOCK) : list_nc;
	int node = lock_node(m, kind, rec);
	if (node >= 0)
		cnode_r(m, cnode_idx(m, cache, node))->counters[nc]++;
}
/* co_LOCK's first step on a free lock: the lock is `cpu`'s, counted. */
static inline void lock_take(struct model *m, int cpu, idx_t cache, enum lock_kind kind, idx_t rec)
{
	*lock_owner(m, kind, rec) = cpu;
	lock_count(m, cache, kind, rec, NC_LIST_LOCK);
}
/* The fields of co_LOCK's event (EVT() gives f's cache): co_LOCK's frame
 * has its caller's cache and reports its caller's kfn (co_push_frame()),
 * so either frame gives the same event. */
#define LOCK_EV(f, KIND, REC) .kind = EV_LOCK, .fn = f_kfn(f), .lock = (uint8_t)(KIND), \
	.node = lock_node(m, (enum lock_kind)(KIND), (REC))
/* co_LOCK's event for a lock lock_take_fused() took, in its slot. In wasm
 * inline at the LOCK_HOT() sites: fastpath.trace events on under Node
 * 6-8% faster (medians of 10 and 8 alternating rounds) for as many
 * instructions (844 an op against 846; module +0.2 KB), likely because
 * V8's wasm calls leave no register to the caller (no callee-saved ones):
 * a call costs its caller spills and reloads. */
__attribute__((always_inline, unused)) static inline void lock_event_put(struct model *m, int cpu,
		const struct frame *caller, enum lock_kind kind, idx_t rec)
{
	const struct frame *f = caller;
	const struct event ev = EVT(LOCK_EV(f, kind, rec));
	ev_put(m, cpu, EV_WHAT(ev), EV_WHERE(ev), ev.cache, ev.slab, ev.obj, ev.sheaf, ev.node, ev.count, ev.value);
}
/* Natively the same out of line (node.c): inline, fastpath.trace events
 * off was 5% slower. */
#ifdef __wasm__
#define lock_event_fused lock_event_put
#else
__attribute__((noinline)) void lock_event_fused(struct model *m, int cpu, const struct frame *caller,
						enum lock_kind kind, idx_t rec);
#endif
/* LOCK() in a fused run: if the lock is free, the step co_LOCK would take
 * (lock_take(), its event when events are on, the step's boundary), made
 * at the call site. co_LOCK's frame (which would have the caller's cache
 * and report the caller's kfn) is not pushed; the frame slot above the
 * stack keeps older bytes, which no one reads (a push writes all of them).
 * true if taken; else co_LOCK runs, to spin or fail its trylock. */
static inline bool lock_take_fused(struct model *m, int cpu, const struct frame *caller, enum lock_kind kind,
				   idx_t rec)
{
	if (*lock_owner(m, kind, rec) >= 0)
		return false;
	lock_take(m, cpu, caller->cache, kind, rec);
	if (m->fuse_steps == FUSE_EVENTS)
		lock_event_fused(m, cpu, caller, kind, rec);
	fused_step(m);
	return true;
}
#ifdef __wasm__
/* one copy, for the LOCK() sites that are not hot (node.c; +4.4 KB inline) */
WASM_NOINLINE bool lock_take_fused_slow(struct model *m, int cpu, const struct frame *caller, enum lock_kind kind,
					idx_t rec);
#else
#define lock_take_fused_slow lock_take_fused
#endif

/* ---- stats.c ---- */
extern const char *const stat_names[NR_SLUB_STAT_ITEMS];
extern const char *const node_counter_names[NR_NODE_COUNTERS];
bool stat_in_era(enum stat_item si, enum svz_era era);
/* v6.19's SLUB_STATS set and counting (V619_STATS() below) */
static inline bool v619_stats(const struct svz_switches *sw)
{
	return sw->era == SVZ_ERA_CLASSIC || sw->cpu_partial_free;
}
/* The kernel the switches model has this item (its sysfs file). */
static inline bool stat_in_kernel(enum stat_item si, const struct svz_switches *sw)
{
	return stat_in_era(si, v619_stats(sw) ? SVZ_ERA_CLASSIC : SVZ_ERA_SHEAVES);
}
/* The figures `slubviz diff` and the A/B view derive from the counters,
 * computed once here: the share of allocations (in %) that took the slow
 * path, out of every allocation counted (fast path, slow path, and the
 * v6.18+ classic sheaves' alloc_cpu_sheaf); and per 1000 ops. `stat`
 * holds one cache's items summed over its CPUs. */
double alloc_slow_share(const uint64_t stat[NR_SLUB_STAT_ITEMS]);
double per_kop(uint64_t v, uint64_t ops);
/* One cache's items summed over CPUs, and a node counter over nodes. */
void cache_stat_sums(struct model *m, idx_t cache, uint64_t stat[NR_SLUB_STAT_ITEMS]);
uint64_t cache_node_counter(struct model *m, idx_t cache, int counter);
/* stat(s, item) += delta and report it as this step's event. */
#define STAT(ITEM, DELTA) STAT_BY(EV, f->on_cpu, ITEM, DELTA)
#define STAT_HOT(ITEM, DELTA) STAT_BY(EV_HOT, f->on_cpu, ITEM, DELTA)

/* stat() on another CPU's counters (flush_all runs its work on each CPU). */
#define STAT_CPU(CPU, ITEM, DELTA) STAT_BY(EV, CPU, ITEM, DELTA)
#define STAT_BY(EV_, CPU, ITEM, DELTA) EV_(.kind = EV_STAT, .fn = f_kfn(f), .item = (ITEM), .count = (DELTA), \
	.value = (int64_t)(*stat_ptr(m, f->cache, (CPU), (ITEM)) += (uint64_t)(DELTA)))

#define CLASSIC(m) (WORLD(m)->cfg.sw.era == SVZ_ERA_CLASSIC)
/* Barns on nodes without memory: fix 2 (the RFC) or v7.1's 7f693882f009
 * "slab: create barns for online memoryless nodes" (slab_barn_nodes is
 * N_ONLINE, get_barn() takes numa_node_id()'s). */
static inline bool barn_on_memoryless(const struct svz_switches *sw)
{
	return sw->barn_all_nodes || sw->memoryless_sheaves;
}
#define BARN_ON_MEMORYLESS(m) barn_on_memoryless(&WORLD(m)->cfg.sw)
/* can_free_to_pcs() on x86 (no HAVE_MEMORYLESS_NODES, so numa_mem_id() is
 * numa_node_id()): an object of this CPU's node; since v7.1's e65d430111a5
 * also an object of any node when this CPU's node has no memory (the
 * allocation side can never get a local object there). The kernel tests
 * N_MEMORY, N_NORMAL_MEMORY since 7f9bb84fdb5e: the same for the model,
 * which has no ZONE_MOVABLE-only node. pfmemalloc slabs are not modelled. */
static inline bool can_free_to_pcs(struct model *m, int cpu, idx_t slab)
{
	int node = cpu_node(m, cpu);

	if (slab_r(m, slab)->node == node)
		return true;
	return WORLD(m)->cfg.sw.memoryless_sheaves && !node_has_memory(m, node);
}
/* SLUB_STATS before the "sheaves for all" series' last patches (fb016a5ec70e
 * "mm/slub: remove DEACTIVATE_TO_* stat items", then "mm/slub: cleanup and
 * repurpose some stat items"): the classic kernels, and 17c38c88294d
 * (cpu_partial_free), which still has v6.19's items and counts them as
 * v6.19 does where its code still runs: sheaves as ALLOC_PCS/FREE_PCS, no
 * ALLOC_NODE_MISMATCH in alloc_from_pcs(), FREE_SLOWPATH once per
 * __slab_free() of any caller (sheaf flushes too), no ALLOC_SLOWPATH after
 * a bulk refill_objects(). */
#define V619_STATS(m) v619_stats(&WORLD(m)->cfg.sw)
/* Objects the sheaves hand out or take back: v6.18/v6.19 count them apart
 * from the cpu slab's (ALLOC_PCS "alloc_cpu_sheaf", FREE_PCS
 * "free_cpu_sheaf"); v7.0, with no cpu slab, as its fast paths. */
#define PCS_ALLOC_STAT(m) (V619_STATS(m) ? ALLOC_PCS : ALLOC_FASTPATH)
#define PCS_FREE_STAT(m) (V619_STATS(m) ? FREE_PCS : FREE_FASTPATH)
/* kmem_cache_has_cpu_partial(): cpu_partial non-zero */
#define HAS_CPU_PARTIAL(m, c) (cache_r(m, (c))->g.cpu_partial != 0)
/* ___slab_alloc()'s try_thisnode round exists (v6.9+, 9198ffbd2b49; every
 * sheaves kernel). A function, as coroutines name a local try_thisnode. */
static inline bool kernel_tries_thisnode(struct model *m)
{
	return WORLD(m)->cfg.sw.era == SVZ_ERA_SHEAVES || WORLD(m)->cfg.sw.try_thisnode;
}
/* ___slab_alloc()'s new_slab(s, pc.flags, node), both eras: on failure a
 * try_thisnode round goes back to RETRY without __GFP_THISNODE, else the
 * allocation fails (slab_out_of_memory()). f->ret is the slab after it. */
#define NEW_SLAB_OR_RETRY(TRY_THISNODE, PC_FLAGS, RETRY) do { \
	CALL(CO_NEW_SLAB, callee->gfp = (uint32_t)(PC_FLAGS); \
	     callee->node = f->node >= 0 ? f->node : cpu_node(m, cpu)); \
	if (f->ret < 0 && (TRY_THISNODE) && (uint32_t)(PC_FLAGS) != f->gfp) { \
		(TRY_THISNODE) = false; \
		goto RETRY; \
	} \
	if (f->ret < 0) { \
		slab_out_of_memory(m, f->cache, f->gfp, f->node); \
		CHECK_EV(CHK_OUT_OF_MEMORY); \
		CO_RETURN(-1); \
	} \
} while (0)
/* kmem_cache_debug(s) */
#define CACHE_DEBUG(m, c) ((cache_r(m, (c))->flags & SLAB_DEBUG_FLAGS) != 0)
/* A debug cache on a kernel that gives it single-object paths and no cpu
 * slab: since v6.1 (c7323a5ad078) alloc_single_from_partial(),
 * alloc_single_from_new_slab() and free_to_partial_list(); before, the
 * classic paths, with the cpu slab deactivated after each allocation. */
#define DEBUG_SINGLE_OBJECT(m, c) \
	(CACHE_DEBUG(m, c) && (!CLASSIC(m) || svz_kernel_at_least(&WORLD(m)->cfg.sw, 601)))

/* ---- helpers shared across files ---- */
/* slab.c */
bool slab_alloc_pages(struct model *m, idx_t cache, int node, uint32_t gfp, bool *fallback,
		      int *got_node, int *order, uint64_t *pfn);
ARENA_MOVES idx_t slab_create(struct model *m, idx_t cache, int node, int order, uint64_t pfn);
ARENA_MOVES void slab_destroy(struct model *m, idx_t s); /* page_free() */
idx_t slab_pop_object(struct model *m, idx_t s);    /* freelist pop: inuse++ */
void slab_push_chain(struct model *m, idx_t s, idx_t head, idx_t tail, uint32_t cnt);
uint32_t freelist_len(struct model *m, idx_t s);
uint64_t freeptr_raw(struct model *m, idx_t o);     /* hardened encoding of o->next */
void set_freepointer(struct model *m, idx_t o, idx_t next);
void slab_out_of_memory(struct model *m, idx_t cache, uint32_t gfp, int node);

/* slab->slab_list.next, or NIL past a link the cpu_partial_free race
 * clobbered (LIST_POISON1 or garbage): list walks stop there */
static inline idx_t slab_lnext(struct model *m, idx_t s)
{
	idx_t n = slab_r(m, s)->lnext;
	return n < WORLD(m)->pools[P_SLAB].len ? n : NIL;
}
static inline idx_t slab_first(struct model *m, idx_t s)
{
	return s < WORLD(m)->pools[P_SLAB].len ? s : NIL;
}

/* cpu.c */
void classic_init_cpu(struct model *m, idx_t pcs, int cpu);

/* node.c */
void add_partial(struct model *m, idx_t cache, int node, idx_t s, bool tail);
void remove_partial(struct model *m, idx_t cache, int node, idx_t s);
void list_writes(struct model *m, idx_t cache, int node, uint32_t n);
/* Nodes in zonelist order from `node`: distance, then id distance. */
int zonelist(struct model *m, int node, int *out);
bool defrag_skip(struct model *m, idx_t cache);
int next_remote_candidate(struct model *m, idx_t cache, int cpu, int32_t *pos);

/* sheaf.c */
ARENA_MOVES idx_t sheaf_new(struct model *m, idx_t cache, uint32_t capacity);
void sheaf_release(struct model *m, idx_t sh);
void sheaf_place(struct model *m, idx_t sh, enum sheaf_where w, int id);
void sheaf_push(struct model *m, idx_t sh, idx_t obj);
idx_t sheaf_pop(struct model *m, idx_t sh);
static inline uint32_t sheaf_size(struct model *m, idx_t sh) { return sh == NIL ? 0 : sheaf_r(m, sh)->size; }
static inline uint32_t sheaf_cap(struct model *m, idx_t sh) { return sh == NIL ? 0 : sheaf_r(m, sh)->capacity; }
/* get_barn(): the barn of this CPU's node (numa_mem_id(); numa_node_id()
 * since v7.1's 5ba6bc27b1f9); with fix 2 or v7.1's barns a memoryless node
 * has one too. NIL if none. */
idx_t get_barn(struct model *m, idx_t cache, int cpu);
/* Where allocated objects go: a sheaf being refilled, or (NIL) the CPU's
 * bulk buffer (bulk allocations and single-object results). */
void deliver(struct model *m, int cpu, idx_t dest_sheaf, idx_t obj);
enum loc dest_loc(idx_t dest_sheaf);
/* rcu.c: call_rcu(rcu_free_sheaf_nobarn) of a CPU's rcu_free sheaf */
void rcu_free_flush(struct model *m, idx_t cache, int cpu);
#define E2BIG_ 7
#define ENOMEM_ 12
#define EBUSY_ 16

/* The op `cpu` is running (op_start() in sched.c sets it). */
static inline uint32_t cur_op(struct model *m, int cpu) { return WORLD(m)->cpus[cpu].op; }
/* ops.c: check that the op on `cpu` may fill handle h (holds nothing, no
 * other op in flight will fill it) and claim it; -1 after a report. */
int claim_handle_slow(struct model *m, int cpu, idx_t h);
static inline int claim_handle(struct model *m, int cpu, idx_t h)
{
	/* the common case inline: the handle is empty, and unclaimed or last
	 * claimed by an op of this CPU (one op in flight per CPU); the reports
	 * out of line */
	struct handle_rec *hr = handle_r(m, h);
	uint32_t mine = cur_op(m, cpu) + 1, claim = hr->claim;
	if (hr->obj == NIL && hr->large == NIL && hr->sheaf == NIL &&
	    (!claim || claim == mine || m->trace->ops[claim - 1].cpu == cpu)) {
		hr->claim = mine;
		return 0;
	}
	return claim_handle_slow(m, cpu, h);
}

/* Hand an object to the CPU's bulk buffer (op_start() empties it): the
 * object a single-object allocation returns lands in cpu.bulk[0]. */
static inline void bulk_push(struct model *m, int cpu, idx_t obj)
{
	struct cpu_rec *c = &WORLD(m)->cpus[cpu];
	*u32_at(m, c->bulk + c->bulk_len++) = obj;
	struct obj_rec *o = obj_r(m, obj);
	o->state = OBJ_BULK;
	o->holder = (idx_t)cpu;
}

#endif
