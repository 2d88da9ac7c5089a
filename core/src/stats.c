/* SLUB_STATS items of v7.0 under their sysfs names, and the model's own
 * counters. Increments happen in the paths (STAT() in engine.h), each one a
 * micro-step, exactly where mm/slub.c calls stat(). */
#include "engine.h"

const char *const stat_names[NR_SLUB_STAT_ITEMS] = {
	[ALLOC_FASTPATH] = "alloc_fastpath", [ALLOC_SLOWPATH] = "alloc_slowpath",
	[FREE_RCU_SHEAF] = "free_rcu_sheaf", [FREE_RCU_SHEAF_FAIL] = "free_rcu_sheaf_fail",
	[FREE_FASTPATH] = "free_fastpath", [FREE_SLOWPATH] = "free_slowpath",
	[FREE_ADD_PARTIAL] = "free_add_partial", [FREE_REMOVE_PARTIAL] = "free_remove_partial",
	[ALLOC_SLAB] = "alloc_slab", [ALLOC_NODE_MISMATCH] = "alloc_node_mismatch",
	[FREE_SLAB] = "free_slab", [ORDER_FALLBACK] = "order_fallback",
	[CMPXCHG_DOUBLE_FAIL] = "cmpxchg_double_fail", [SHEAF_FLUSH] = "sheaf_flush",
	[SHEAF_REFILL] = "sheaf_refill", [SHEAF_ALLOC] = "sheaf_alloc", [SHEAF_FREE] = "sheaf_free",
	[BARN_GET] = "barn_get", [BARN_GET_FAIL] = "barn_get_fail", [BARN_PUT] = "barn_put",
	[BARN_PUT_FAIL] = "barn_put_fail", [SHEAF_PREFILL_FAST] = "sheaf_prefill_fast",
	[SHEAF_PREFILL_SLOW] = "sheaf_prefill_slow",
	[SHEAF_PREFILL_OVERSIZE] = "sheaf_prefill_oversize",
	[SHEAF_RETURN_FAST] = "sheaf_return_fast", [SHEAF_RETURN_SLOW] = "sheaf_return_slow",
	[FREE_FROZEN] = "free_frozen", [ALLOC_FROM_PARTIAL] = "alloc_from_partial",
	[ALLOC_REFILL] = "alloc_refill", [CPUSLAB_FLUSH] = "cpuslab_flush",
	[DEACTIVATE_FULL] = "deactivate_full", [DEACTIVATE_EMPTY] = "deactivate_empty",
	[DEACTIVATE_TO_HEAD] = "deactivate_to_head", [DEACTIVATE_TO_TAIL] = "deactivate_to_tail",
	[DEACTIVATE_REMOTE_FREES] = "deactivate_remote_frees",
	[DEACTIVATE_BYPASS] = "deactivate_bypass",
	[CMPXCHG_DOUBLE_CPU_FAIL] = "cmpxchg_double_cpu_fail",
	[CPU_PARTIAL_ALLOC] = "cpu_partial_alloc", [CPU_PARTIAL_FREE] = "cpu_partial_free",
	[CPU_PARTIAL_NODE] = "cpu_partial_node", [CPU_PARTIAL_DRAIN] = "cpu_partial_drain",
	[ALLOC_PCS] = "alloc_cpu_sheaf", [FREE_PCS] = "free_cpu_sheaf",
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
	[NC_LIST_LOCK] = "list_lock", [NC_LIST_LOCK_TRYFAIL] = "list_lock_trylock_fail",
	[NC_LIST_LOCK_SPIN] = "list_lock_spin", [NC_BARN_LOCK] = "barn_lock",
	[NC_BARN_LOCK_TRYFAIL] = "barn_lock_trylock_fail", [NC_BARN_LOCK_SPIN] = "barn_lock_spin",
	[NC_LIST_WRITES] = "list_writes_locked", [NC_LIST_OPS] = "list_ops_locked",
	[NC_RUN_1] = "bulk_run_1", [NC_RUN_2] = "bulk_run_2", [NC_RUN_3] = "bulk_run_3",
	[NC_RUN_4PLUS] = "bulk_run_4plus",
};
