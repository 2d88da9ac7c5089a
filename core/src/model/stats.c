/* SLUB_STATS items of v7.0 under their sysfs names, and the model's own
 * counters. Increments happen in the paths (STAT() in engine.h), each one a
 * micro-step, exactly where mm/slub.c calls stat(). */
#include "model/engine.h"

const char *const stat_names[NR_SLUB_STAT_ITEMS] = {
#define STAT_ITEM(item, sysfs) [item] = sysfs,
#include "model/stat_items.def"
#undef STAT_ITEM
};

/* Which stat files an era's sysfs shows: v7.0 has the 26 items up to
 * SHEAF_RETURN_SLOW; v6.19 has those minus nothing plus the ERA A items
 * (its enum keeps every classic item and adds the sheaf family). */
bool stat_in_era(enum stat_item si, enum svz_era era)
{
	if (era == SVZ_ERA_SHEAVES)
		return si < NR_SHEAVES_STAT_ITEMS;
	return true;
}

const char *const node_counter_names[NR_NODE_COUNTERS] = {
#define X(item, name) [item] = name,
	NODE_COUNTERS(X)
#undef X
};

double alloc_slow_share(const uint64_t stat[NR_SLUB_STAT_ITEMS])
{
	/* ALLOC_PCS is 0 but in a classic cache with sheaves (v6.18+), where a
	 * sheaf hit counts alloc_cpu_sheaf and not alloc_fastpath */
	double all = (double)(stat[ALLOC_FASTPATH] + stat[ALLOC_SLOWPATH] + stat[ALLOC_PCS]);
	return all ? 100.0 * (double)stat[ALLOC_SLOWPATH] / all : 0;
}

double per_kop(uint64_t v, uint64_t ops) { return ops ? 1000.0 * (double)v / (double)ops : 0; }

void cache_stat_sums(struct model *m, idx_t cache, uint64_t stat[NR_SLUB_STAT_ITEMS])
{
	for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
		stat[si] = 0;
		for (int cpu = 0; cpu < WORLD(m)->nr_cpus; cpu++)
			stat[si] += *stat_ptr(m, cache, cpu, (enum stat_item)si);
	}
}

uint64_t cache_node_counter(struct model *m, idx_t cache, int counter)
{
	uint64_t v = 0;
	for (int n = 0; n < WORLD(m)->nr_nodes; n++)
		v += cnode_r(m, cnode_idx(m, cache, n))->counters[counter];
	return v;
}
