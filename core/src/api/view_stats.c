/* The stats dump (views.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/views.h"

/* ---- stats dump ------------------------------------------------------------ */

/* Plain text, one cache per block in creation order, every stat item (even
 * zero) so that two dumps diff line by line:
 *   cache <name>
 *     <stat> <total> C<cpu>=<n>...      (CPUs with a non-zero count)
 *     node<N> list_lock=.. ...          (nodes where a model counter is non-zero)
 *     fp_writes <n>
 *     slabs_allocated <n> slabs_freed <n>
 *   page_alloc
 *     node<N> alloc order<k>=<n>... free order<k>=<n>... failed=<n>
 * Counts here are the model's full 64-bit values (sysfs truncates per CPU). */
void view_stats(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);

	sb_puts(b, "");
	for (uint32_t ci = 0; ci < w->nr_caches; ci++) {
		if (!cache_r(m, ci)->alive)
			continue;
		sb_printf(b, "cache %s\n", cache_r(m, ci)->name);
		for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
			if (!stat_in_kernel((enum stat_item)si, &w->cfg.sw))
				continue;
			uint64_t sum = 0;
			for (int cpu = 0; cpu < w->nr_cpus; cpu++)
				sum += *stat_ptr(m, ci, cpu, (enum stat_item)si);
			sb_printf(b, "  %s %" PRIu64, stat_names[si], sum);
			for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
				uint64_t x = *stat_ptr(m, ci, cpu, (enum stat_item)si);
				if (x)
					sb_printf(b, " C%d=%" PRIu64, cpu, x);
			}
			sb_putc(b, '\n');
		}
		for (int node = 0; node < w->nr_nodes; node++) {
			struct cnode_rec *n = get_node(m, ci, node);
			if (!n)
				continue;
			bool any = false;
			for (int k = 0; k < NR_NODE_COUNTERS; k++)
				any |= n->counters[k] != 0;
			if (!any)
				continue;
			sb_printf(b, "  node%d", node);
			for (int k = 0; k < NR_NODE_COUNTERS; k++)
				sb_printf(b, " %s=%" PRIu64, node_counter_names[k], n->counters[k]);
			sb_putc(b, '\n');
		}
		struct cache_rec *c = cache_r(m, ci);
		sb_printf(b, "  fp_writes %" PRIu64 "\n", c->fp_writes);
		sb_printf(b, "  slabs_allocated %" PRIu64 " slabs_freed %" PRIu64 "\n",
			  c->slabs_allocated, c->slabs_freed);
	}
	sb_puts(b, "page_alloc\n");
	for (int node = 0; node < w->nr_nodes; node++) {
		struct node_rec *nr = &w->nodes[node];
		sb_printf(b, "  node%d alloc", node);
		for (int o = 0; o <= SVZ_MAX_PAGE_ORDER; o++)
			if (nr->alloc_calls[o])
				sb_printf(b, " order%d=%" PRIu64, o, nr->alloc_calls[o]);
		sb_puts(b, " free");
		for (int o = 0; o <= SVZ_MAX_PAGE_ORDER; o++)
			if (nr->free_calls[o])
				sb_printf(b, " order%d=%" PRIu64, o, nr->free_calls[o]);
		sb_printf(b, " failed=%" PRIu64 "\n", nr->failed_calls);
	}
}

/* The stat totals the page's pre-pass samples at each timeline bucket (its
 * markers and sparklines), without a whole snapshot (issue 14: 400 snapshots
 * of a 64-CPU run were most of opening it). The same numbers and keys as
 * summing the snapshot: slabs_allocated and slabs_freed over every cache
 * (if any), then each SLUB_STATS item over the live caches' CPUs (if any
 * cache is live). */
void view_stat_totals_json(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	uint64_t allocated = 0, freed = 0;
	bool alive = false;
	for (uint32_t ci = 0; ci < w->nr_caches; ci++) {
		allocated += cache_r(m, ci)->slabs_allocated;
		freed += cache_r(m, ci)->slabs_freed;
		alive |= cache_r(m, ci)->alive;
	}
	sb_puts(b, "{");
	if (w->nr_caches)
		sb_printf(b, "\"slabs_allocated\":%" PRIu64 ",\"slabs_freed\":%" PRIu64, allocated, freed);
	for (int si = 0; alive && si < NR_SLUB_STAT_ITEMS; si++) {
		uint64_t sum = 0;
		for (uint32_t ci = 0; ci < w->nr_caches; ci++)
			for (int cpu = 0; cache_r(m, ci)->alive && cpu < w->nr_cpus; cpu++)
				sum += *stat_ptr(m, ci, cpu, (enum stat_item)si);
		sb_printf(b, ",\"%s\":%" PRIu64, stat_names[si], sum);
	}
	sb_puts(b, "}");
}
