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
static uint64_t line_cost(struct model *m, int cpu, int last)
{
	if (last < 0 || last == cpu)
		return 0;
	return cost(m, cpu_node(m, last) == cpu_node(m, cpu) ? COST_line_node : COST_line_remote);
}

void timing_charge(struct model *m, int cpu)
{
	struct world *w = WORLD(m);
	const struct sched_state *s = &w->sched;
	struct cpu_rec *c = &w->cpus[cpu];
	enum lock_kind lk = s->last_lock < LK__COUNT ? (enum lock_kind)s->last_lock : LK_NONE;
	int node = s->last_node >= 0 && s->last_node < w->nr_nodes ? s->last_node : 0;
	enum kfn fn = s->last_fn < KFN__COUNT ? (enum kfn)s->last_fn : KFN_kmem_cache_alloc;
	uint64_t *spin_since = T(m, spin_since_at(m, cpu));
	uint64_t x;

	switch (s->last_kind) {
	case EV_SPIN: {
		x = cost(m, COST_spin);
		int holder = (int)s->last_value;
		if (holder >= 0 && holder < w->nr_cpus && w->cpus[holder].clock > c->clock + x)
			x = w->cpus[holder].clock - c->clock;
		if (!*spin_since)
			*spin_since = c->clock + 1;
		c->spin += x;
		c->clock += x;
		*T(m, kfn_spin_at(fn, lk)) += x;
		return;
	}
	case EV_LOCK: {
		uint64_t *last = T(m, lock_at(m, lk, node, LOCK_LAST));
		x = cost(m, COST_lock) + line_cost(m, cpu, (int)*last - 1);
		*last = (uint64_t)cpu + 1;
		(*T(m, lock_at(m, lk, node, LOCK_ACQ)))++;
		if (*spin_since) {
			uint64_t wait = c->clock + x - (*spin_since - 1);
			(*T(m, lock_at(m, lk, node, LOCK_CONTENDED)))++;
			*T(m, lock_at(m, lk, node, LOCK_WAIT)) += wait;
			if (wait > *T(m, lock_at(m, lk, node, LOCK_WAIT_MAX)))
				*T(m, lock_at(m, lk, node, LOCK_WAIT_MAX)) = wait;
			*spin_since = 0;
		}
		break;
	}
	case EV_TRYLOCK_FAIL:
		x = cost(m, COST_lock) + line_cost(m, cpu, (int)*T(m, lock_at(m, lk, node, LOCK_LAST)) - 1);
		break;
	case EV_CMPXCHG:
		x = cost(m, COST_cmpxchg);
		break;
	case EV_PAGE_ALLOC:
		x = cost(m, COST_page_alloc);
		break;
	case EV_PAGE_FREE:
		x = cost(m, COST_page_free);
		break;
	default:
		x = cost(m, COST_step);
	}
	c->busy += x;
	c->clock += x;
	*T(m, kfn_busy_at() + fn) += x;
}
