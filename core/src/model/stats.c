/* SLUB_STATS items of v7.0 under their sysfs names, and the model's own
 * counters. Increments happen in the paths (STAT() in engine.h), each one a
 * micro-step, exactly where mm/slub.c calls stat(). */
#include "model/engine.h"

const char *const stat_names[NR_SLUB_STAT_ITEMS] = {
#define STAT_ITEM(item, sysfs) [item] = sysfs,
#include "model/stat_items.def"
#undef STAT_ITEM
};

/* stat_items.def is enum stat_item, row for row: same order, same count. */
enum {
#define STAT_ITEM(item, sysfs) ROW_##item,
#include "model/stat_items.def"
#undef STAT_ITEM
	NR_STAT_ROWS
};
_Static_assert((int)NR_STAT_ROWS == (int)NR_SLUB_STAT_ITEMS, "stat_items.def misses an enum stat_item");
#define STAT_ITEM(item, sysfs) _Static_assert((int)ROW_##item == (int)item, #item " is out of enum order");
#include "model/stat_items.def"
#undef STAT_ITEM

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
	[NC_LIST_LOCK] = "list_lock", [NC_LIST_LOCK_TRYFAIL] = "list_lock_trylock_fail",
	[NC_LIST_LOCK_SPIN] = "list_lock_spin", [NC_BARN_LOCK] = "barn_lock",
	[NC_BARN_LOCK_TRYFAIL] = "barn_lock_trylock_fail", [NC_BARN_LOCK_SPIN] = "barn_lock_spin",
	[NC_LIST_WRITES] = "list_writes_locked", [NC_LIST_OPS] = "list_ops_locked",
	[NC_RUN_1] = "bulk_run_1", [NC_RUN_2] = "bulk_run_2", [NC_RUN_3] = "bulk_run_3",
	[NC_RUN_4PLUS] = "bulk_run_4plus",
};
