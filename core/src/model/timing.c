/* Simulated time (docs/timing.md): the timed schedule's clocks, what each
 * micro-step costs (costs.def), and what the run reports: a perf-report
 * style profile, lock statistics and per-CPU busy/spin/idle.
 *
 * A step costs its event's price; a lock acquisition whose line was last
 * held by another CPU also pays the line's transfer (same node or remote).
 * A spin step costs one poll, and at least brings the spinner up to the
 * holder's clock: the holder cannot release the lock before its own
 * clock, so the jump skips polls that could not succeed. A CPU whose next
 * op waits for another's is idle: its clock follows the running CPUs'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/model.h"
#include "model/timing.h"

static const struct {
	const char *key;
	uint64_t cycles;
	const char *what;
} costs[COST__COUNT] = {
#define COST(key, cycles, what) [COST_##key] = { #key, cycles, what },
#include "model/costs.def"
#undef COST
};
_Static_assert(COST__COUNT <= SVZ_MAX_COSTS, "raise SVZ_MAX_COSTS");

FOR_SIZE int svz_cost_info(int i, const char **key, uint64_t *cycles, const char **what)
{
	if (i < 0 || i >= COST__COUNT)
		return -1;
	*key = costs[i].key;
	*cycles = costs[i].cycles;
	*what = costs[i].what;
	return 0;
}

FOR_SIZE int svz_cost_set(struct svz_schedule *s, const char *key, const char *cycles, char *err, size_t errlen)
{
	for (int i = 0; i < COST__COUNT; i++) {
		if (strcmp(key, costs[i].key) != 0)
			continue;
		char *end;
		unsigned long long v = strtoull(cycles, &end, 10);
		if (!cycles[0] || *end || cycles[0] == '-' || v > 100000000ull || (i == COST_cpu_mhz && v == 0)) {
			snprintf(err, errlen, "expected cycles 0..100000000 for cost '%s', got '%.32s'", key, cycles);
			return -1;
		}
		s->cost[i] = (uint32_t)v + 1;
		return 0;
	}
	char keys[512] = "";
	for (int i = 0; i < COST__COUNT; i++) {
		strcat(keys, i ? ", " : "");
		strcat(keys, costs[i].key);
	}
	snprintf(err, errlen, "expected a cost (%s), got '%.32s'", keys, key);
	return -1;
}

static uint64_t cost(const struct model *m, enum cost_key k)
{
	uint32_t o = WORLD(m)->cfg.sched.cost[k];
	return o ? o - 1 : costs[k].cycles;
}

/* ---- the tables (P_U64, from sched.timing - 1) ---- */
enum { LOCK_LAST, LOCK_ACQ, LOCK_CONTENDED, LOCK_WAIT, LOCK_WAIT_MAX, LOCK__N };

static uint32_t kfn_busy_at(void) { return 0; }
static uint32_t kfn_spin_at(enum kfn fn, enum lock_kind lk)
{
	return KFN__COUNT + (uint32_t)fn * LK__COUNT + (uint32_t)lk;
}
static uint32_t lock_at(const struct model *m, enum lock_kind lk, int node, int field)
{
	return KFN__COUNT * (1 + LK__COUNT) +
	       ((uint32_t)lk * (uint32_t)WORLD(m)->nr_nodes + (uint32_t)node) * LOCK__N + (uint32_t)field;
}
static uint32_t spin_since_at(const struct model *m, int cpu)
{
	return lock_at(m, LK__COUNT, 0, 0) + (uint32_t)cpu;
}
static uint32_t object_lines_at(const struct model *m) { return spin_since_at(m, WORLD(m)->nr_cpus); }
static uint32_t tables_len(const struct model *m) { return object_lines_at(m) + 1; }

static uint64_t *T(struct model *m, uint32_t at)
{
	return u64_at(m, WORLD(m)->sched.timing - 1 + at);
}

/* `cN work CYCLES`: one step, its RETURN event carries the cycles. */
int co_OP_WORK(struct model *m, int cpu, struct frame *f)
{
	(void)m;
	(void)cpu;
	CO_BEGIN
	CO_RETURN(f->n);
	CO_END;
}

ARENA_MOVES int timing_wait(struct model *m)
{
	if (WORLD(m)->sched.timing)
		return 0;
	idx_t t = pool_alloc(m, P_U64, tables_len(m));
	if (t == NIL)
		return -1;
	WORLD(m)->sched.timing = t + 1;
	return 0;
}

/* A runnable CPU that waited: its clock no earlier than the waited-for CPU's. */
static void wake(struct world *w, int cpu)
{
	struct cpu_rec *c = &w->cpus[cpu];
	if (!c->waits_on)
		return;
	uint64_t t = w->cpus[c->waits_on - 1].clock;
	if (c->clock < t) {
		c->idle += t - c->clock;
		c->clock = t;
	}
	c->waits_on = 0;
}

int timing_pick(struct model *m, const struct runq *q)
{
	struct world *w = WORLD(m);
	struct sched_state *s = &w->sched;
	const uint8_t *cand = q->runnable, *blocked = q->blocked;
	int n = q->nr_runnable, nb = q->nr_blocked;
	/* a CPU that waited starts when the op it waited for returned: no
	 * earlier than that op's CPU's clock, which is that time (the op's
	 * last step was the last thing it ran). Only a CPU that waited has
	 * waits_on, and it may run only after the run queue was rebuilt: those
	 * it found (s->woke), in CPU order. */
	if (s->woke == RUNQ_WOKE_ANY) {
		for (int i = 0; i < n; i++)
			wake(w, cand[i]);
	} else if (s->woke == RUNQ_WOKE_SOME) {
		for (int k = 0; k < RUNQ_WORDS; k++)
			for (uint64_t b = q->woke_set[k] & q->run_set[k]; b; b &= b - 1)
				wake(w, k * 64 + __builtin_ctzll(b));
	}
	s->woke = RUNQ_WOKE_NONE;
#ifdef SVZ_VALIDATE_EVERY_OP
	for (int i = 0; i < n; i++)
		if (w->cpus[cand[i]].waits_on) {
			model_report(m, "BUG: timed pick: runnable CPU %d still waits on CPU %d", cand[i],
				     w->cpus[cand[i]].waits_on - 1);
			model_stop(m);
		}
#endif
	/* the first of the smallest clocks, in CPU order, written to compile
	 * to conditional moves: which CPU that is changes at every step, and a
	 * branch there mispredicted (timed ublk-bio256: 520 -> 410 ns/op) */
	int best = cand[0];
	uint64_t least = w->cpus[best].clock;
	for (int i = 1; i < n; i++) {
		uint64_t t = w->cpus[cand[i]].clock;
		bool less = t < least;
		best = less ? cand[i] : best;
		least = less ? t : least;
	}
	uint64_t now = w->cpus[best].clock;
	for (int i = 0; i < nb; i++) {
		struct cpu_rec *c = &w->cpus[blocked[i]];
		if (c->clock < now) {
			c->idle += now - c->clock;
			c->clock = now;
		}
	}
	return best;
}

/* The price of a cache line last owned by CPU `last` (-1: nobody). */
static uint64_t line_cost(const struct model *m, int cpu, int last)
{
	if (last < 0 || last == cpu)
		return 0;
	return cost(m, cpu_node((struct model *)m, last) == cpu_node((struct model *)m, cpu) ?
		       COST_line_node : COST_line_remote);
}

/* The CPU that last held lock lk of `node` (-1: nobody). */
static int lock_last(const struct model *m, enum lock_kind lk, int node)
{
	return (int)*T((struct model *)m, lock_at(m, lk, node, LOCK_LAST)) - 1;
}

/* The object's lines come from the CPU that used it last: an object freed
 * on one CPU and handed to a caller on another is a cache miss per line
 * for that caller (its own code writes the object: bio_init() for a bio).
 * Which CPU that was is the allocator's doing: a cpu slab refilled by its
 * neighbour's frees hands back the neighbour's lines, a refill from a
 * node's partial list those of any CPU that freed there. */
void timing_use_object_timed(struct model *m, int cpu, idx_t obj)
{
	struct world *w = WORLD(m);
	struct obj_rec *o = obj_r(m, obj);
	uint64_t lines = (cache_r(m, slab_r(m, o->slab)->cache)->g.object_size + 63) / 64;
	uint64_t x = lines * line_cost(m, cpu, (int)o->user_cpu - 1);
	o->user_cpu = (uint16_t)(cpu + 1);
	w->cpus[cpu].owed += x;
	*T(m, object_lines_at(m)) += x;
}

/* Taking lock lk of `node` at price x: its statistics, contended if the
 * CPU spun for it (since *spin_since - 1). */
static void lock_taken(struct model *m, int cpu, enum lock_kind lk, int node, uint64_t x)
{
	if (lk == LK_PCS_LOCK || lk == LK_CPU_SLAB_LOCK) /* per-CPU: not counted */
		return;
	uint64_t *spin_since = T(m, spin_since_at(m, cpu));
	*T(m, lock_at(m, lk, node, LOCK_LAST)) = (uint64_t)cpu + 1;
	(*T(m, lock_at(m, lk, node, LOCK_ACQ)))++;
	if (*spin_since) {
		uint64_t wait = WORLD(m)->cpus[cpu].clock + x - (*spin_since - 1);
		uint64_t *max = T(m, lock_at(m, lk, node, LOCK_WAIT_MAX));
		(*T(m, lock_at(m, lk, node, LOCK_CONTENDED)))++;
		*T(m, lock_at(m, lk, node, LOCK_WAIT)) += wait;
		if (wait > *max)
			*max = wait;
		*spin_since = 0;
	}
}

/* The step's last event as the prices read it (sched.last_*), each part
 * kept in range: its lock, node and kernel function. */
struct last_event { enum lock_kind lk; int node; enum kfn fn; };
static struct last_event last_event(const struct world *w)
{
	const struct sched_state *s = &w->sched;
	return (struct last_event){
		.lk = last_lock(s) < LK__COUNT ? (enum lock_kind)last_lock(s) : LK_NONE,
		.node = s->last_node >= 0 && s->last_node < w->nr_nodes ? s->last_node : 0,
		.fn = last_fn(s) < KFN__COUNT ? (enum kfn)last_fn(s) : KFN_kmem_cache_alloc,
	};
}

/* The price of the step's event alone. */
static uint64_t event_price(const struct model *m, int cpu)
{
	const struct world *w = WORLD(m);
	const struct sched_state *s = &w->sched;
	const struct cpu_rec *c = &w->cpus[cpu];
	const struct last_event e = last_event(w);

	switch (last_kind(s)) {
	case EV_SPIN: {
		/* at least up to the holder's clock: it cannot release earlier */
		uint64_t x = cost(m, COST_spin);
		int holder = (int)s->last_value;
		if (holder >= 0 && holder < w->nr_cpus && w->cpus[holder].clock > c->clock + x)
			x = w->cpus[holder].clock - c->clock;
		return x;
	}
	case EV_LOCK:
		if (e.lk == LK_PCS_LOCK) /* local_trylock(): a per-CPU flag, no atomic */
			return cost(m, COST_step);
		if (e.lk == LK_CPU_SLAB_LOCK) /* local_lock_irqsave(): irqs off and on, no shared line */
			return cost(m, COST_lock);
		return cost(m, COST_lock) + line_cost(m, cpu, lock_last(m, e.lk, e.node));
	case EV_TRYLOCK_FAIL:
		return cost(m, COST_lock) + line_cost(m, cpu, lock_last(m, e.lk, e.node));
	case EV_CMPXCHG:
		return cost(m, COST_cmpxchg);
	case EV_PAGE_ALLOC:
		return cost(m, COST_page_alloc);
	case EV_PAGE_FREE:
	case EV_DISCARD_SLAB: /* free_slab(): the slab's pages back to the page allocator */
		return cost(m, COST_page_free);
	case EV_RETURN:
		return e.fn == KFN_work && s->last_value > 0 ? (uint64_t)s->last_value : cost(m, COST_step);
	default:
		return cost(m, COST_step);
	}
}

uint64_t timing_price(const struct model *m, int cpu)
{
	/* a spin moves no object; other steps carry the objects' lines they moved */
	uint64_t owed = last_kind(&WORLD(m)->sched) == EV_SPIN ? 0 : WORLD(m)->cpus[cpu].owed;
	return event_price(m, cpu) + owed;
}

void timing_charge(struct model *m, int cpu)
{
	struct world *w = WORLD(m);
	const struct sched_state *s = &w->sched;
	struct cpu_rec *c = &w->cpus[cpu];
	const struct last_event e = last_event(w);
	uint64_t x = event_price(m, cpu);

	if (last_kind(s) == EV_SPIN) {
		uint64_t *spin_since = T(m, spin_since_at(m, cpu));
		if (!*spin_since)
			*spin_since = c->clock + 1;
		*T(m, kfn_spin_at(e.fn, e.lk)) += x;
		c->spin += x;
		c->clock += x;
		return;
	}
	if (last_kind(s) == EV_LOCK)
		lock_taken(m, cpu, e.lk, e.node, x);
	*T(m, kfn_busy_at() + e.fn) += x;
	x += c->owed; /* counted in the profile's object-lines line */
	c->owed = 0;
	c->busy += x;
	c->clock += x;
}

/* ---- what a timed run reports ---- */

/* The run's length: the largest clock. */
FOR_SIZE static uint64_t makespan(struct model *m)
{
	uint64_t end = 0;
	for (int c = 0; c < WORLD(m)->nr_cpus; c++)
		if (WORLD(m)->cpus[c].clock > end)
			end = WORLD(m)->cpus[c].clock;
	return end;
}

FOR_SIZE int timing_summary(struct model *m, double *mops, double *spin_share)
{
	struct world *w = WORLD(m);
	if (w->cfg.sched.kind != SVZ_SCHED_TIMED || !w->sched.timing)
		return -1;
	uint64_t end = makespan(m), busy = 0, spin = 0, ops = 0;
	for (int c = 0; c < w->nr_cpus; c++) {
		busy += w->cpus[c].busy;
		spin += w->cpus[c].spin;
	}
	/* allocator calls done: work ops are not calls */
	for (uint32_t i = 0; i < m->trace->nr_ops; i++)
		if (m->trace->ops[i].type != SVZ_OP_WORK &&
		    (*u32_at(m, w->started + i / 32) >> (i % 32) & 1))
			ops++;
	ops -= w->inflight;
	*mops = end ? (double)ops * (double)cost(m, COST_cpu_mhz) / (double)end : 0.0;
	*spin_share = busy + spin ? (double)spin / (double)(busy + spin) : 0.0;
	return 0;
}

struct prof_line {
	uint64_t cycles;
	uint16_t fn;
	int8_t lock; /* -1: the function's own cycles; else spinning on that lock */
};

static int by_cycles(const void *a, const void *b)
{
	const struct prof_line *x = a, *y = b;
	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return x->fn != y->fn ? x->fn - y->fn : x->lock - y->lock;
}

/* What a timed run's profile shows, read once for both views. */
struct profile {
	double mops, spin_share;
	uint64_t total, work, lines_moved, makespan;
	int n;
	struct prof_line lines[KFN__COUNT * (1 + LK__COUNT)]; /* by cycles, largest first */
};

FOR_SIZE static int profile_read(struct model *m, struct profile *p)
{
	if (timing_summary(m, &p->mops, &p->spin_share))
		return -1;
	p->lines_moved = *T(m, object_lines_at(m));
	p->total = p->lines_moved;
	p->work = 0;
	p->n = 0;
	for (int fn = 0; fn < KFN__COUNT; fn++)
		for (int lk = -1; lk < LK__COUNT; lk++) {
			uint64_t c = lk < 0 ? *T(m, kfn_busy_at() + (uint32_t)fn)
					    : *T(m, kfn_spin_at((enum kfn)fn, (enum lock_kind)lk));
			if (!c)
				continue;
			p->total += c;
			if (fn == KFN_work) { /* not a kernel function: its own line */
				p->work = c;
				continue;
			}
			p->lines[p->n++] = (struct prof_line){ c, (uint16_t)fn, (int8_t)lk };
		}
	qsort(p->lines, (size_t)p->n, sizeof p->lines[0], by_cycles);
	p->makespan = makespan(m);
	return 0;
}

static double share(uint64_t part, uint64_t total) { return total ? (double)part / (double)total : 0.0; }
static uint64_t lock_stat(struct model *m, int lk, int node, int field)
{
	return *T(m, lock_at(m, (enum lock_kind)lk, node, field));
}
/* A CPU's idle cycles: waiting, and after its last step to the run's end. */
static uint64_t idle_of(const struct cpu_rec *r, uint64_t end) { return r->idle + (end - r->clock); }

FOR_SIZE void timing_report(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	struct profile *p = malloc(sizeof *p);
	if (!p || profile_read(m, p)) {
		sb_puts(b, p ? "profile: only a timed run has one (--schedule timed)\n" : "profile: out of memory\n");
		free(p);
		return;
	}
	sb_printf(b, "# profile: share of simulated cycles (schedule timed, docs/timing.md)\n");
	if (p->work)
		sb_printf(b, "# the requests' other work ('work' ops): %.2f%%, %llu cycles\n",
			  100.0 * share(p->work, p->total), (unsigned long long)p->work);
	if (p->lines_moved)
		sb_printf(b, "# objects' cache lines moving to the CPU that uses them: %.2f%%, %llu cycles\n",
			  100.0 * share(p->lines_moved, p->total), (unsigned long long)p->lines_moved);
	sb_printf(b, "# Overhead       Cycles  Symbol\n");
	for (int i = 0; i < p->n; i++) {
		const struct prof_line *l = &p->lines[i];
		sb_printf(b, "  %6.2f%%  %12llu  %s", 100.0 * share(l->cycles, p->total),
			  (unsigned long long)l->cycles, kfn_names[l->fn]);
		if (l->lock >= 0)
			sb_printf(b, ": spin on %s", lock_names[l->lock]);
		sb_putc(b, '\n');
	}
	sb_printf(b, "# locks: acquisitions, contended (waited), wait cycles total and max\n");
	for (int lk = 1; lk < LK__COUNT; lk++)
		for (int node = 0; node < w->nr_nodes; node++) {
			uint64_t acq = lock_stat(m, lk, node, LOCK_ACQ);
			if (!acq)
				continue; /* the per-CPU locks are not counted */
			sb_printf(b, "%s node %d: acquisitions=%llu contended=%llu wait_total=%llu wait_max=%llu\n",
				  lock_names[lk], node, (unsigned long long)acq,
				  (unsigned long long)lock_stat(m, lk, node, LOCK_CONTENDED),
				  (unsigned long long)lock_stat(m, lk, node, LOCK_WAIT),
				  (unsigned long long)lock_stat(m, lk, node, LOCK_WAIT_MAX));
		}
	sb_printf(b, "# cpus: busy, spin, idle cycles of %llu\n", (unsigned long long)p->makespan);
	for (int c = 0; c < w->nr_cpus; c++) {
		const struct cpu_rec *r = &w->cpus[c];
		if (!r->busy && !r->spin)
			continue;
		uint64_t idle = idle_of(r, p->makespan);
		sb_printf(b, "cpu %d: busy=%llu spin=%llu idle=%llu (%.1f%% %.1f%% %.1f%%)\n", c,
			  (unsigned long long)r->busy, (unsigned long long)r->spin, (unsigned long long)idle,
			  100.0 * share(r->busy, p->makespan), 100.0 * share(r->spin, p->makespan),
			  100.0 * share(idle, p->makespan));
	}
	sb_printf(b, "spin share %.1f%%\nthroughput mops=%.3f\n", 100.0 * p->spin_share, p->mops);
	free(p);
}

static void json_num(struct sbuf *b, double v)
{
	/* JSON has no NaN or infinity */
	sb_printf(b, "%.17g", v == v && v < 1e300 && v > -1e300 ? v : 0.0);
}

FOR_SIZE void timing_report_json(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	struct profile *p = malloc(sizeof *p);
	if (!p || profile_read(m, p)) {
		if (!p)
			b->oom = true;
		sb_puts(b, "{\"schema\":1,\"timed\":false}");
		free(p);
		return;
	}
	sb_puts(b, "{\"schema\":1,\"timed\":true,\"throughput_mops\":");
	json_num(b, p->mops);
	sb_puts(b, ",\"spin_share\":");
	json_num(b, p->spin_share);
	sb_printf(b, ",\"cycles_total\":%llu,\"makespan\":%llu,\"work_cycles\":%llu,\"work_share\":",
		  (unsigned long long)p->total, (unsigned long long)p->makespan, (unsigned long long)p->work);
	json_num(b, share(p->work, p->total));
	sb_printf(b, ",\"object_lines_cycles\":%llu,\"object_lines_share\":", (unsigned long long)p->lines_moved);
	json_num(b, share(p->lines_moved, p->total));
	sb_puts(b, ",\"functions\":[");
	for (int i = 0; i < p->n; i++) {
		const struct prof_line *l = &p->lines[i];
		sb_printf(b, "%s{\"fn\":\"%s\"", i ? "," : "", kfn_names[l->fn]);
		if (l->lock >= 0)
			sb_printf(b, ",\"spin_on\":\"%s\"", lock_names[l->lock]);
		sb_printf(b, ",\"cycles\":%llu,\"share\":", (unsigned long long)l->cycles);
		json_num(b, share(l->cycles, p->total));
		sb_putc(b, '}');
	}
	sb_puts(b, "],\"locks\":[");
	bool first = true;
	for (int lk = 1; lk < LK__COUNT; lk++)
		for (int node = 0; node < w->nr_nodes; node++) {
			uint64_t acq = lock_stat(m, lk, node, LOCK_ACQ);
			if (!acq)
				continue;
			sb_printf(b, "%s{\"lock\":\"%s\",\"node\":%d,\"acquisitions\":%llu,\"contended\":%llu,"
				  "\"wait_total\":%llu,\"wait_max\":%llu}", first ? "" : ",", lock_names[lk], node,
				  (unsigned long long)acq, (unsigned long long)lock_stat(m, lk, node, LOCK_CONTENDED),
				  (unsigned long long)lock_stat(m, lk, node, LOCK_WAIT),
				  (unsigned long long)lock_stat(m, lk, node, LOCK_WAIT_MAX));
			first = false;
		}
	sb_puts(b, "],\"cpus\":[");
	first = true;
	for (int c = 0; c < w->nr_cpus; c++) {
		const struct cpu_rec *r = &w->cpus[c];
		if (!r->busy && !r->spin)
			continue;
		sb_printf(b, "%s{\"cpu\":%d,\"busy\":%llu,\"spin\":%llu,\"idle\":%llu}", first ? "" : ",", c,
			  (unsigned long long)r->busy, (unsigned long long)r->spin,
			  (unsigned long long)idle_of(r, p->makespan));
		first = false;
	}
	sb_puts(b, "]}");
	free(p);
}
