/* The views of the model (api/): the kernel's text formats and the JSON
 * snapshot, one file each, written into lib/sbuf.h's string builder.
 *
 *   view_slabinfo.c  /proc/slabinfo
 *   view_sysfs.c     /sys/kernel/slab/<cache>/
 *   view_stats.c     a stats dump for diffs
 *   view_snapshot.c  the JSON snapshot the browser draws from
 *   view_profile.c   the timed schedule's profile, text and JSON
 *
 * Kernel sources of the formats (v7.0-rc1): slab_common.c print_slabinfo_header()
 * / cache_show(), slub.c get_slabinfo() / count_partial_free_approx(),
 * show_slab_objects(), show_stat(), the *_show() attribute functions and the
 * slab_attrs[] array. Config assumed: SLUB_DEBUG, SLUB_STATS, NUMA, SMP,
 * ZONE_DMA, HARDENED_USERCOPY, KFENCE; no FAILSLAB.
 *
 * Nothing here changes the model. */
#ifndef SVZ_VIEWS_H
#define SVZ_VIEWS_H

#include "lib/sbuf.h"
#include "model/engine.h"

void view_slabinfo(struct model *m, struct sbuf *b);
/* -1 if no live cache has that name. */
int view_sysfs(struct model *m, const char *cache, struct sbuf *b);
/* All of /sys/kernel/slab (svz_sysfs_tree()). */
void view_sysfs_tree(struct model *m, struct sbuf *b);
void view_stats(struct model *m, struct sbuf *b);
/* {"slabs_allocated":N,...,"<stat>":N...}: totals over caches and CPUs */
void view_stat_totals_json(struct model *m, struct sbuf *b);
void view_snapshot_json(struct model *m, struct sbuf *b);
/* The owners of each slab id as last sent by view_snapshot_lean_json():
 * (obj, holder, site) per owner, and their version (0: nothing sent). */
struct owners_sent {
	uint32_t ver, n, cap;
	uint32_t *own;
};
struct owners_memo {
	uint32_t len;                /* slab ids covered */
	struct owners_sent *slab;
	uint32_t last_ver;
};
/* The snapshot with each slab's "owners_v", the version of its owners, and
 * its "owners" only when they differ from the ones last sent for that slab
 * id (then recorded in memo). The same text as view_snapshot_json() with
 * "owners_v" taken out and the owners of the version put back. False if
 * memory ran out (nothing written). */
bool view_snapshot_lean_json(struct model *m, struct sbuf *b, struct owners_memo *memo);
void owners_memo_free(struct owners_memo *memo);
/* The timed schedule's profile (view_profile.c): timing_report()'s text,
 * and the same figures as JSON schema 1 ({"timed":false} for other runs). */
void view_profile_text(struct model *m, struct sbuf *b);
void view_profile_json(struct model *m, struct sbuf *b);

/* ---- shared walks ---------------------------------------------------------- */

static inline uint32_t pool_len(struct model *m, enum pool_id p) { return WORLD(m)->pools[p].len; }

/* Next slab on a slab list; NIL at the end or on a broken link (views must
 * not loop or read out of bounds on a corrupted model). */
static inline idx_t slab_next(struct model *m, idx_t s)
{
	idx_t n = slab_r(m, s)->lnext;
	return n < pool_len(m, P_SLAB) ? n : NIL;
}

static inline idx_t slab_prev(struct model *m, idx_t s)
{
	idx_t p = slab_r(m, s)->lprev;
	return p < pool_len(m, P_SLAB) ? p : NIL;
}

static inline idx_t list_first(struct model *m, enum pool_id p, idx_t first)
{
	return first < pool_len(m, p) ? first : NIL;
}

/* count_partial(n, get_count): every slab on n->partial. `what`:
 * 0 count_free, 1 count_inuse, 2 count_total. */
uint64_t count_partial(struct model *m, struct cnode_rec *n, int what);

#endif
