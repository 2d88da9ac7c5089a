/* A page allocator per NUMA node: a page budget (the node's memory), blocks
 * handed out by order, freed blocks reused per order (LIFO). No buddy
 * merging: SLUB asks for few distinct orders. __GFP_THISNODE forbids the
 * zonelist fallback; a node without memory never serves pages. */
#include "model/engine.h"
#include "model/page_alloc.h"

static bool node_can_take(struct model *m, int node, int order)
{
	struct node_rec *nr = &WORLD(m)->nodes[node];
	return nr->mem_pages && nr->used_pages + (1ull << order) <= nr->mem_pages;
}

static uint64_t take_block(struct model *m, int node, int order)
{
	struct node_rec *nr = &WORLD(m)->nodes[node];
	nr->used_pages += 1ull << order;
	nr->alloc_calls[order]++;
	idx_t b = nr->free_blocks[order];
	if (b != NIL) {
		nr->free_blocks[order] = (idx_t)*u64_at(m, b + 1);
		return *u64_at(m, b);
	}
	uint64_t pfn = nr->next_pfn;
	nr->next_pfn += 1ull << order;
	return pfn;
}

uint64_t page_alloc(struct model *m, int node, int order, uint32_t gfp, int *got_node)
{
	int zl[SVZ_MAX_NODES], nz;
	/* __alloc_pages(): "There are several places where we assume that the
	 * order value is sane so bail out early if the request is out of
	 * bound": WARN_ON_ONCE_GFP(order > MAX_PAGE_ORDER, gfp), NULL. The
	 * warning is once per boot and not at all with __GFP_NOWARN. */
	if (order < 0 || order > SVZ_MAX_PAGE_ORDER) {
		struct world *w = WORLD(m);
		if (!(gfp & __GFP_NOWARN) && !w->warned_max_order) {
			w->warned_max_order = true;
			model_report(m, "WARNING: mm/page_alloc.c: __alloc_pages: order %d > MAX_PAGE_ORDER (%d): allocation fails",
				     order, SVZ_MAX_PAGE_ORDER);
		}
		w->nodes[node >= 0 ? node : 0].failed_calls++;
		return PFN_NONE;
	}
	if (node >= 0 && node_can_take(m, node, order)) {
		*got_node = node;
		return take_block(m, node, order);
	}
	if (node >= 0 && (gfp & __GFP_THISNODE))
		goto fail;
	nz = zonelist(m, node >= 0 ? node : 0, zl);
	for (int i = 0; i < nz; i++) {
		if (node_can_take(m, zl[i], order)) {
			*got_node = zl[i];
			return take_block(m, zl[i], order);
		}
	}
fail:
	WORLD(m)->nodes[node >= 0 ? node : 0].failed_calls++;
	return PFN_NONE;
}

ARENA_MOVES void page_free(struct model *m, int node, int order, uint64_t pfn)
{
	struct node_rec *nr = &WORLD(m)->nodes[node];
	nr->used_pages -= 1ull << order;
	nr->free_calls[order]++;
	idx_t b = pool_alloc(m, P_U64, 2);
	nr = &WORLD(m)->nodes[node];
	*u64_at(m, b) = pfn;
	*u64_at(m, b + 1) = nr->free_blocks[order];
	nr->free_blocks[order] = b;
}
