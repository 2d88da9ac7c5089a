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
