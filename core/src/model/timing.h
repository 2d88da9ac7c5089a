/* Simulated time for the timed schedule (timing.c, costs.def,
 * docs/timing.md): each CPU has a clock; the runnable CPU with the smallest
 * clock runs next; a step costs what costs.def says its kind costs. */
#ifndef SVZ_TIMING_H
#define SVZ_TIMING_H

#include "lib/sbuf.h"
#include "model/types.h"

enum cost_key {
#define COST(key, cycles, what) COST_##key,
#include "model/costs.def"
#undef COST
	COST__COUNT
};

/* Before a timed step: make room for the tables (may move the arena) and
 * bring waiting CPUs' clocks up to now. 0, or -1 out of memory. */
ARENA_MOVES int timing_wait(struct model *m);
/* The runnable CPU of pick()'s run queue with the smallest clock; the
 * blocked CPUs (ops left, none may start) idle up to its clock. */
int timing_pick(struct model *m, const struct runq *q);
/* After a step of `cpu`: charge its cost (the step's event) to its clock,
 * its kernel function and the lock it waited for. */
void timing_charge(struct model *m, int cpu);
/* A timed run's CPU uses object `obj` (the allocation returns it to the
 * caller, or the caller frees it): the object's cache lines move to that
 * CPU from the one that used it last, paid with this step. */
void timing_use_object_timed(struct model *m, int cpu, idx_t obj);
static inline void timing_use_object(struct model *m, int cpu, idx_t obj)
{
	if (WORLD(m)->sched.timing) /* not a call per op in serial runs (wasm) */
		timing_use_object_timed(m, cpu, obj);
}
/* The price timing_charge() will charge for the step of `cpu` whose event
 * was just emitted (sched.last_*), without charging it: the cycles of a
 * timed run's events (ev_emit(), docs/events.md). */
uint64_t timing_price(const struct model *m, int cpu);


/* A timed run's throughput (allocator calls per simulated microsecond)
 * and the share of its CPU cycles spent spinning: 0, or -1 if the run is
 * not timed. */
int timing_summary(struct model *m, double *mops, double *spin_share);
/* The profile, lock statistics, per-CPU busy/spin/idle and the
 * 'throughput mops=' line (slubviz run --profile). */
void timing_report(struct model *m, struct sbuf *b);
/* The same as JSON (schema 1, svz_profile_json(); docs/timing.md):
 * throughput_mops, spin_share, cycles_total, makespan, work_cycles,
 * work_share, object_lines_cycles, object_lines_share, functions [{fn,
 * spin_on?, cycles, share}] largest first, locks [{lock, node,
 * acquisitions, contended, wait_total, wait_max}], cpus [{cpu, busy, spin,
 * idle}]; {"schema":1,"timed":false} for a run that is not timed. */
void timing_report_json(struct model *m, struct sbuf *b);

#endif
