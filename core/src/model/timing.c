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

int svz_cost_info(int i, const char **key, uint64_t *cycles, const char **what)
{
	if (i < 0 || i >= COST__COUNT)
		return -1;
	*key = costs[i].key;
	*cycles = costs[i].cycles;
	*what = costs[i].what;
	return 0;
}

int svz_cost_set(struct svz_schedule *s, const char *key, const char *cycles, char *err, size_t errlen)
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
static uint32_t tables_len(const struct model *m) { return spin_since_at(m, WORLD(m)->nr_cpus); }

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

int timing_pick(struct model *m, const int *cand, int n, const int *blocked, int nb)
{
	struct world *w = WORLD(m);
	/* a CPU that waited starts when the op it waited for returned: no
	 * earlier than that op's CPU's clock, which is that time (the op's
	 * last step was the last thing it ran) */
	for (int i = 0; i < n; i++) {
		struct cpu_rec *c = &w->cpus[cand[i]];
		if (!c->waits_on)
			continue;
		uint64_t t = w->cpus[c->waits_on - 1].clock;
		if (c->clock < t) {
			c->idle += t - c->clock;
			c->clock = t;
		}
		c->waits_on = 0;
	}
	int best = cand[0];
	for (int i = 1; i < n; i++)
		if (w->cpus[cand[i]].clock < w->cpus[best].clock)
			best = cand[i];
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

/* The CPU that last held lock lk of `node` (-1: nobody, or no tables yet:
 * a first step chosen by hand, svz_step_cpu(), runs before timing_wait()). */
static int lock_last(const struct model *m, enum lock_kind lk, int node)
{
	if (!WORLD(m)->sched.timing)
		return -1;
	return (int)*T((struct model *)m, lock_at(m, lk, node, LOCK_LAST)) - 1;
}

/* Taking lock lk of `node` at price x: its statistics, contended if the
 * CPU spun for it (since *spin_since - 1). */
static void lock_taken(struct model *m, int cpu, enum lock_kind lk, int node, uint64_t x)
{
	if (lk == LK_PCS_LOCK) /* local_trylock(): a per-CPU flag, no atomic */
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

uint64_t timing_price(const struct model *m, int cpu)
{
	const struct world *w = WORLD(m);
	const struct sched_state *s = &w->sched;
	const struct cpu_rec *c = &w->cpus[cpu];
	enum lock_kind lk = s->last_lock < LK__COUNT ? (enum lock_kind)s->last_lock : LK_NONE;
	int node = s->last_node >= 0 && s->last_node < w->nr_nodes ? s->last_node : 0;
	enum kfn fn = s->last_fn < KFN__COUNT ? (enum kfn)s->last_fn : KFN_kmem_cache_alloc;

	switch (s->last_kind) {
	case EV_SPIN: {
		/* at least up to the holder's clock: it cannot release earlier */
		uint64_t x = cost(m, COST_spin);
		int holder = (int)s->last_value;
		if (holder >= 0 && holder < w->nr_cpus && w->cpus[holder].clock > c->clock + x)
			x = w->cpus[holder].clock - c->clock;
		return x;
	}
	case EV_LOCK:
		if (lk == LK_PCS_LOCK)
			return cost(m, COST_step);
		return cost(m, COST_lock) + line_cost(m, cpu, lock_last(m, lk, node));
	case EV_TRYLOCK_FAIL:
		return cost(m, COST_lock) + line_cost(m, cpu, lock_last(m, lk, node));
	case EV_CMPXCHG:
		return cost(m, COST_cmpxchg);
	case EV_PAGE_ALLOC:
		return cost(m, COST_page_alloc);
	case EV_PAGE_FREE:
	case EV_DISCARD_SLAB: /* free_slab(): the slab's pages back to the page allocator */
		return cost(m, COST_page_free);
	case EV_RETURN:
		return fn == KFN_work && s->last_value > 0 ? (uint64_t)s->last_value : cost(m, COST_step);
	default:
		return cost(m, COST_step);
	}
}

void timing_charge(struct model *m, int cpu)
{
	struct world *w = WORLD(m);
	const struct sched_state *s = &w->sched;
	struct cpu_rec *c = &w->cpus[cpu];
	enum lock_kind lk = s->last_lock < LK__COUNT ? (enum lock_kind)s->last_lock : LK_NONE;
	int node = s->last_node >= 0 && s->last_node < w->nr_nodes ? s->last_node : 0;
	enum kfn fn = s->last_fn < KFN__COUNT ? (enum kfn)s->last_fn : KFN_kmem_cache_alloc;
	uint64_t x = timing_price(m, cpu);
	/* no tables yet (a first step by hand): the clock only */
	bool tables = w->sched.timing != 0;

	if (s->last_kind == EV_SPIN) {
		if (tables) {
			uint64_t *spin_since = T(m, spin_since_at(m, cpu));
			if (!*spin_since)
				*spin_since = c->clock + 1;
			*T(m, kfn_spin_at(fn, lk)) += x;
		}
		c->spin += x;
		c->clock += x;
		return;
	}
	if (s->last_kind == EV_LOCK && tables)
		lock_taken(m, cpu, lk, node, x);
	c->busy += x;
	c->clock += x;
	if (tables)
		*T(m, kfn_busy_at() + fn) += x;
}

/* ---- what a timed run reports ---- */

/* The run's length: the largest clock. */
static uint64_t makespan(struct model *m)
{
	uint64_t end = 0;
	for (int c = 0; c < WORLD(m)->nr_cpus; c++)
		if (WORLD(m)->cpus[c].clock > end)
			end = WORLD(m)->cpus[c].clock;
	return end;
}

int timing_summary(struct model *m, double *mops, double *spin_share)
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

void timing_report(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	double mops, spin_share;
	if (timing_summary(m, &mops, &spin_share)) {
		sb_puts(b, "profile: only a timed run has one (--schedule timed)\n");
		return;
	}
	uint64_t total = 0, work = 0;
	struct prof_line lines[KFN__COUNT * (1 + LK__COUNT)];
	int n = 0;
	for (int fn = 0; fn < KFN__COUNT; fn++)
		for (int lk = -1; lk < LK__COUNT; lk++) {
			uint64_t c = lk < 0 ? *T(m, kfn_busy_at() + (uint32_t)fn)
					    : *T(m, kfn_spin_at((enum kfn)fn, (enum lock_kind)lk));
			if (!c)
				continue;
			total += c;
			if (fn == KFN_work) { /* not a kernel function: its own line */
				work = c;
				continue;
			}
			lines[n++] = (struct prof_line){ c, (uint16_t)fn, (int8_t)lk };
		}
	qsort(lines, (size_t)n, sizeof lines[0], by_cycles);
	sb_printf(b, "# profile: share of simulated cycles (schedule timed, docs/timing.md)\n");
	if (work)
		sb_printf(b, "# the requests' other work ('work' ops): %.2f%%, %llu cycles\n",
			  total ? 100.0 * (double)work / (double)total : 0.0, (unsigned long long)work);
	sb_printf(b, "# Overhead       Cycles  Symbol\n");
	for (int i = 0; i < n; i++) {
		double pct = total ? 100.0 * (double)lines[i].cycles / (double)total : 0.0;
		if (lines[i].lock < 0)
			sb_printf(b, "  %6.2f%%  %12llu  %s\n", pct, (unsigned long long)lines[i].cycles,
				  kfn_names[lines[i].fn]);
		else
			sb_printf(b, "  %6.2f%%  %12llu  %s: spin on %s\n", pct,
				  (unsigned long long)lines[i].cycles, kfn_names[lines[i].fn],
				  lock_names[lines[i].lock]);
	}
	sb_printf(b, "# locks: acquisitions, contended (waited), wait cycles total and max\n");
	for (int lk = 1; lk < LK__COUNT; lk++)
		for (int node = 0; node < w->nr_nodes; node++) {
			uint64_t acq = *T(m, lock_at(m, (enum lock_kind)lk, node, LOCK_ACQ));
			if (!acq || lk == LK_PCS_LOCK)
				continue;
			sb_printf(b, "%s node %d: acquisitions=%llu contended=%llu wait_total=%llu wait_max=%llu\n",
				  lock_names[lk], node, (unsigned long long)acq,
				  (unsigned long long)*T(m, lock_at(m, (enum lock_kind)lk, node, LOCK_CONTENDED)),
				  (unsigned long long)*T(m, lock_at(m, (enum lock_kind)lk, node, LOCK_WAIT)),
				  (unsigned long long)*T(m, lock_at(m, (enum lock_kind)lk, node, LOCK_WAIT_MAX)));
		}
	uint64_t end = makespan(m);
	sb_printf(b, "# cpus: busy, spin, idle cycles of %llu\n", (unsigned long long)end);
	for (int c = 0; c < w->nr_cpus; c++) {
		const struct cpu_rec *r = &w->cpus[c];
		uint64_t idle = r->idle + (end - r->clock);
		if (!r->busy && !r->spin)
			continue;
		sb_printf(b, "cpu %d: busy=%llu spin=%llu idle=%llu (%.1f%% %.1f%% %.1f%%)\n", c,
			  (unsigned long long)r->busy, (unsigned long long)r->spin, (unsigned long long)idle,
			  end ? 100.0 * (double)r->busy / (double)end : 0.0,
			  end ? 100.0 * (double)r->spin / (double)end : 0.0,
			  end ? 100.0 * (double)idle / (double)end : 0.0);
	}
	sb_printf(b, "spin share %.1f%%\nthroughput mops=%.3f\n", 100.0 * spin_share, mops);
}
