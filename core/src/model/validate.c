/* The model's invariants, checked after every op in test builds
 * (SVZ_VALIDATE_EVERY_OP, sched.c) and on demand (svz_validate).
 *
 * Each violation is reported the way the kernel reports the corruption
 * (slab_err(), object_err(), CONFIG_DEBUG_LIST, lockdep), appended to the
 * model's report log (model_report) and to `out`. Nothing aborts: the run
 * stops because model_validate() returns non-zero.
 *
 * Notation: for a slab S, FL(S) is the walk of S->freelist; for a
 * (cache, node) pair N, P(N) the walk of N->partial.
 *
 *   slab      FL(S) ⊆ objects(S), every o ∈ FL(S) has state FREE, no cycle
 *             S.inuse + |FL(S)| == S.objects
 *             quiescent: #{o ∈ objects(S) : state FREE} == |FL(S)|
 *   node      P(N) is a well formed list (prev/next agree, first/last, len)
 *             every S ∈ P(N): alive, S.cache == N.cache, S.node == N.node,
 *             S.list == LIST_PARTIAL
 *             |P(N)| == N.nr_partial
 *             S alive ∧ S.list == LIST_PARTIAL  ⇒  S ∈ P(S.cache, S.node)
 *             quiescent: N.nr_slabs == #{S alive on N}, N.total_objects ==
 *             Σ S.objects (allocate_slab() creates a slab before
 *             inc_slabs_node() counts it, dec_slabs_node() runs before
 *             free_slab(): mid-op the two may differ)
 *   sheaf     size <= capacity; slots[0..size) hold objects with state
 *             SHEAF and holder == the sheaf; where/where_id agree with the
 *             pcs main/spare or the barn list the sheaf is on
 *   barn      full list: where BARN_FULL; empty list: where BARN_EMPTY and
 *             size 0; |list| == nr_full / nr_empty
 *   handle    obj != NIL  ⇒  obj's state USER and holder == the handle
 *   object    refs(o) = [o ∈ some FL] + [o in some sheaf slot] + [o held by
 *             a handle] + [o in the bulk buffer / free chain of a CPU that
 *             runs an op];  refs(o) <= 1 always, and when quiescent
 *             refs(o) == 1, or 0 for state LOST
 *   locks     quiescent  ⇒  every list_lock, barn lock and pcs lock is -1
 *   cpu       (classic era) c->slab alive; frozen and list CPU_SLAB unless
 *             its local lock is held (___slab_alloc() clears it there); every
 *             o on c->freelist is an object of c->slab with state
 *             CPU_FREELIST, holder == cpu; c->partial chain: alive,
 *             frozen iff frozen_partial (before v6.8; delayed
 *             freezing since), list CPU_PARTIAL,
 *             |chain| == head->slabs; quiescent: every slab marked
 *             CPU_SLAB / CPU_PARTIAL is on exactly one CPU
 *
 * "Quiescent" is world.inflight == 0. Between the micro-steps of an op,
 * objects may sit in a coroutine's locals (a freelist detached by
 * get_freelist_nofreeze() and not yet spread into a sheaf), invisible to
 * these checks; so checks that need every object accounted for only run
 * when no op is in flight. The rest hold at every micro-step boundary. */
/* Test builds are Debug (-O0) and run this after every op, where it costs
 * more than the model itself; optimise this file anyway (GCC only: clang
 * has no per-file pragma for it). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC optimize("O2")
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/engine.h"
#include "model/model.h"

#define MAX_REPORTS 32

/* Addresses for records the model does not place in memory: kmem_cache_node
 * structs (the list heads) and kmalloc'ed slab_sheaf structs. Made up but
 * kernel-looking, and stable for a given record. */
#define CNODE_ADDR_BASE 0xffff888003000000ull
#define SHEAF_ADDR_BASE 0xffff888005000000ull
#define BARN_ADDR_BASE 0xffff888004000000ull

struct vctx {
	struct model *m;
	char *out;
	size_t outlen, outpos;
	int count;
	bool quiet;            /* no op in flight */
	uint8_t *refs;         /* per P_OBJ record, saturating */
	uint8_t *on_partial;   /* per P_SLAB record */
	uint8_t *bad_freelist; /* per P_SLAB record: walk gave up, refs unusable */
	uint8_t *sheaf_seen;   /* per P_SHEAF record: 1 + list (0 full, 1 empty) */
	uint32_t *sheaf_barn_node;
	/* The pools, fixed for the whole check (nothing allocates in it). */
	struct obj_rec *objs;
	struct slab_rec *slabs;
	struct sheaf_rec *sheaves;
	struct handle_rec *handles;
	uint32_t *u32;
	uint32_t nobj, nslab, nsh, nu32, nhandle;
};

#define VOBJ(v, i) (&(v)->objs[(i)])
#define VSLAB(v, i) (&(v)->slabs[(i)])
#define VSHEAF(v, i) (&(v)->sheaves[(i)])
#define VHANDLE(v, i) (&(v)->handles[(i)])
#define VU32(v, i) (&(v)->u32[(i)])

static void violation(struct vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(struct vctx *v, const char *fmt, ...)
{
	v->count++;
	if (v->count > MAX_REPORTS)
		return;
	char buf[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	model_report(v->m, "%s", buf);
	if (v->out && v->outlen && v->outpos + 1 < v->outlen) {
		int n = snprintf(v->out + v->outpos, v->outlen - v->outpos, "%s\n", buf);
		if (n > 0)
			v->outpos += (size_t)n;
		if (v->outpos >= v->outlen)
			v->outpos = v->outlen - 1;
	}
}

static uint32_t pool_len(struct model *m, enum pool_id p)
{
	return WORLD(m)->pools[p].len;
}

static const char *cname(struct model *m, idx_t c)
{
	if (c == NIL || c >= WORLD(m)->nr_caches)
		return "<no cache>";
	return cache_r(m, c)->name;
}

static const char *state_name(uint8_t st)
{
	static const char *const names[] = {
#define X(state, name, code) [state] = name,
		OBJ_STATES(X)
#undef X
	};
	return st < sizeof names / sizeof names[0] ? names[st] : "?";
}

static unsigned long long saddr(struct model *m, idx_t s) { return slab_addr(m, s); }
static unsigned long long cnode_addr(idx_t cn) { return CNODE_ADDR_BASE + (unsigned long long)cn * 0x80 + 0x10; }
static unsigned long long sheaf_addr(idx_t sh) { return SHEAF_ADDR_BASE + (unsigned long long)sh * 0x100; }
static unsigned long long barn_addr(idx_t b, int list) { return BARN_ADDR_BASE + (unsigned long long)b * 0x40 + 0x8 + (unsigned)list * 0x10; }

/* The object record o is a live object: index in range and its slab alive,
 * and o within that slab's objects. */
static bool obj_live(const struct vctx *v, idx_t o)
{
	if (o == NIL || o >= v->nobj)
		return false;
	idx_t s = VOBJ(v, o)->slab;
	if (s >= v->nslab || !VSLAB(v, s)->alive)
		return false;
	struct slab_rec *sr = VSLAB(v, s);
	return o >= sr->obj0 && o - sr->obj0 < sr->objects;
}

static void ref(struct vctx *v, idx_t o)
{
	if (v->refs[o] < 255)
		v->refs[o]++;
}

/* ---- lists ------------------------------------------------------------------ */

struct list_ops {
	enum pool_id pool;
	unsigned long long head;   /* address of the list head */
	idx_t (*prev)(struct model *, idx_t);
	idx_t (*next)(struct model *, idx_t);
	unsigned long long (*addr)(struct model *, idx_t);
};

static idx_t slab_prev(struct model *m, idx_t i) { return slab_r(m, i)->lprev; }
static idx_t slab_next(struct model *m, idx_t i) { return slab_r(m, i)->lnext; }
static unsigned long long slab_list_addr(struct model *m, idx_t i) { return slab_addr(m, i); }
static idx_t sheaf_prev(struct model *m, idx_t i) { return sheaf_r(m, i)->lprev; }
static idx_t sheaf_next(struct model *m, idx_t i) { return sheaf_r(m, i)->lnext; }
static unsigned long long sheaf_list_addr(struct model *m, idx_t i) { (void)m; return sheaf_addr(i); }

static unsigned long long laddr(struct model *m, const struct list_ops *ops, idx_t i)
{
	if (i == NIL)
		return ops->head;
	if (i >= pool_len(m, ops->pool))
		return 0xdead000000000100ull; /* LIST_POISON1 */
	return ops->addr(m, i);
}

/* Walk a dlist like CONFIG_DEBUG_LIST would when each entry is deleted:
 * entry->prev->next == entry and entry->next->prev == entry, head
 * included. Calls visit() for every entry; stops at a bad link or after
 * pool-length entries (a cycle). Returns the number of entries walked. */
static uint32_t walk_list(struct vctx *v, const struct list_ops *ops, const struct dlist *l,
			  const char *cache, void (*visit)(struct vctx *, idx_t, void *), void *arg)
{
	struct model *m = v->m;
	uint32_t limit = pool_len(m, ops->pool), n = 0;
	idx_t prev = NIL, cur = l->first;
	while (cur != NIL) {
		if (cur >= limit) {
			violation(v, "list_del corruption, %016llx->next is LIST_POISON1 (%016llx)",
				  laddr(m, ops, prev), 0xdead000000000100ull);
			return n;
		}
		if (ops->prev(m, cur) != prev) {
			/* list_del(prev): prev->next->prev should be prev. A slab's
			 * prev overwritten by put_cpu_partial() (GARBAGE_IDX) holds
			 * slab->slabs in its low half (x86-64, little endian) and the
			 * old prev's high half. */
			unsigned long long want = laddr(m, ops, prev), was = laddr(m, ops, ops->prev(m, cur));
			if (ops->pool == P_SLAB && ops->prev(m, cur) == GARBAGE_IDX)
				was = (want & 0xffffffff00000000ull) | slab_r(m, cur)->slabs;
			violation(v, "list_del corruption. next->prev should be %016llx, but was %016llx. (next=%016llx)",
				  want, was, laddr(m, ops, cur));
			return n;
		}
		if (++n > limit) {
			violation(v, "BUG %s (Not tainted): list at %016llx is circular (more than %u entries)",
				  cache, ops->head, limit);
			return n;
		}
		if (visit)
			visit(v, cur, arg);
		prev = cur;
		cur = ops->next(m, cur);
	}
	if (l->last != prev) {
		/* list_del(last): last->next (the head) ->prev should be last */
		violation(v, "list_del corruption. next->prev should be %016llx, but was %016llx. (next=%016llx)",
			  laddr(m, ops, prev), laddr(m, ops, l->last), ops->head);
	}
	if (l->len != n)
		violation(v, "BUG %s (Not tainted): list at %016llx has %u entries but its length says %u",
			  cache, ops->head, n, l->len);
	return n;
}

/* ---- slabs ------------------------------------------------------------------ */

static void check_slab(struct vctx *v, idx_t s)
{
	struct model *m = v->m;
	struct slab_rec *sr = VSLAB(v, s);
	const char *cn = cname(m, sr->cache);
	unsigned long long sa = slab_addr(m, s);
	if (sr->cache >= WORLD(m)->nr_caches) {
		violation(v, "BUG: slab %016llx belongs to no cache (cache %u)", sa, sr->cache);
		return;
	}
	if (sr->obj0 >= pool_len(m, P_OBJ) || sr->objects > pool_len(m, P_OBJ) - sr->obj0) {
		violation(v, "BUG %s (Not tainted): slab %016llx objects out of range", cn, sa);
		return;
	}
	/* check_slab(): inuse <= objects */
	if (sr->inuse > sr->objects)
		violation(v, "BUG %s (Not tainted): slab %016llx inuse %u > max %u", cn, sa, sr->inuse,
			  sr->objects);
	/* on_freelist(): walk, at most objects entries */
	uint32_t nr = 0;
	bool corrupt = false;
	for (idx_t o = sr->freelist; o != NIL; o = VOBJ(v, o)->next) {
		if (o < sr->obj0 || o - sr->obj0 >= sr->objects) {
			violation(v, "BUG %s (Not tainted): Freechain corrupt (slab %016llx, entry %u)",
				  cn, sa, nr);
			corrupt = true;
			break;
		}
		if (nr >= sr->objects) {
			violation(v, "BUG %s (Not tainted): Freelist cycle detected (slab %016llx)", cn, sa);
			corrupt = true;
			break;
		}
		if (VOBJ(v, o)->state != OBJ_FREE)
			violation(v, "BUG %s (Not tainted): Object at %016llx on the freelist is %s, not free",
				  cn, (unsigned long long)obj_addr(m, o), state_name(VOBJ(v, o)->state));
		ref(v, o);
		nr++;
	}
	if (corrupt) {
		v->bad_freelist[s] = 1;
		return;
	}
	/* inuse + |freelist| == objects */
	if (sr->inuse != sr->objects - nr)
		violation(v, "BUG %s (Not tainted): Wrong object count. Counter is %u but counted were %u",
			  cn, sr->inuse, sr->objects - nr);
	uint32_t nfree = 0;
	for (uint32_t i = 0; i < sr->objects; i++) {
		struct obj_rec *or = VOBJ(v, sr->obj0 + i);
		if (or->slab != s || or->index != i)
			violation(v, "BUG %s (Not tainted): object record %u of slab %016llx says slab %u index %u",
				  cn, i, sa, or->slab, or->index);
		nfree += or->state == OBJ_FREE;
	}
	/* #FREE == |freelist| */
	if (v->quiet && nfree != nr)
		violation(v, "BUG %s (Not tainted): slab %016llx has %u objects marked free but %u on its freelist",
			  cn, sa, nfree, nr);
}

/* ---- nodes ------------------------------------------------------------------- */

struct node_arg { idx_t cache; int node; };

static void visit_partial(struct vctx *v, idx_t s, void *arg)
{
	struct model *m = v->m;
	struct node_arg *na = arg;
	struct slab_rec *sr = VSLAB(v, s);
	const char *cn = cname(m, na->cache);
	if (v->on_partial[s]++)
		return;
	if (!sr->alive)
		violation(v, "BUG %s (Not tainted): freed slab %016llx on the partial list of node %d",
			  cn, saddr(m, s), na->node);
	else if (sr->cache != na->cache)
		violation(v, "BUG %s (Not tainted): slab %016llx of cache %s on the partial list of node %d",
			  cn, saddr(m, s), cname(m, sr->cache), na->node);
	else if (sr->node != na->node)
		violation(v, "BUG %s (Not tainted): slab %016llx of node %d on the partial list of node %d",
			  cn, saddr(m, s), sr->node, na->node);
	else if (sr->list != LIST_PARTIAL)
		violation(v, "BUG %s (Not tainted): slab %016llx on the partial list of node %d is not marked partial",
			  cn, saddr(m, s), na->node);
}

static void check_nodes(struct vctx *v, const uint64_t *nr_slabs, const uint64_t *nr_objs)
{
	struct model *m = v->m;
	struct world *w = WORLD(m);
	for (idx_t c = 0; c < w->nr_caches; c++) {
		if (!cache_r(m, c)->alive)
			continue;
		for (int n = 0; n < w->nr_nodes; n++) {
			idx_t ci = cnode_idx(m, c, n);
			struct cnode_rec *cn = cnode_r(m, ci);
			if (!cn->exists)
				continue;
			const char *name = cname(m, c);
			struct list_ops ops = { P_SLAB, cnode_addr(ci), slab_prev, slab_next, slab_list_addr };
			struct node_arg na = { c, n };
			uint32_t len = walk_list(v, &ops, &cn->partial, name, visit_partial, &na);
			cn = cnode_r(m, ci);
			/* partial.len == nr_partial */
			if (len != cn->nr_partial)
				violation(v, "SLUB %s: %u partial slabs counted but counter=%u (node %d)",
					  name, len, cn->nr_partial, n);
			/* nr_slabs, total_objects over alive slabs of (c, n); an op
			 * in flight may hold a slab not yet (or no longer) counted */
			if (!v->quiet)
				continue;
			size_t k = (size_t)c * (size_t)w->nr_nodes + (size_t)n;
			if (cn->nr_slabs != nr_slabs[k])
				violation(v, "SLUB: %s %llu slabs counted but counter=%llu (node %d)", name,
					  (unsigned long long)nr_slabs[k], (unsigned long long)cn->nr_slabs, n);
			if (cn->total_objects != nr_objs[k])
				violation(v, "SLUB: %s %llu objects counted but total_objects=%llu (node %d)", name,
					  (unsigned long long)nr_objs[k], (unsigned long long)cn->total_objects, n);
		}
	}
}

/* ---- sheaves and barns ---------------------------------------------------------- */

struct barn_arg { idx_t cache; int node; int list; idx_t barn; };

static void visit_barn(struct vctx *v, idx_t sh, void *arg)
{
	struct model *m = v->m;
	struct barn_arg *ba = arg;
	struct sheaf_rec *r = VSHEAF(v, sh);
	const char *cn = cname(m, ba->cache);
	static const char *const lname[] = { "full", "empty" };
	if (v->sheaf_seen[sh]) {
		violation(v, "BUG %s (Not tainted): sheaf %016llx on two barn lists", cn, sheaf_addr(sh));
		return;
	}
	v->sheaf_seen[sh] = (uint8_t)(1 + ba->list);
	v->sheaf_barn_node[sh] = (uint32_t)ba->node;
	if (!r->alive) {
		violation(v, "BUG %s (Not tainted): freed sheaf %016llx on the %s list of the barn of node %d",
			  cn, sheaf_addr(sh), lname[ba->list], ba->node);
		return;
	}
	if (r->cache != ba->cache)
		violation(v, "BUG %s (Not tainted): sheaf %016llx of cache %s in the barn of node %d",
			  cn, sheaf_addr(sh), cname(m, r->cache), ba->node);
	uint8_t want = ba->list ? SH_BARN_EMPTY : SH_BARN_FULL;
	if (r->where != want || r->where_id != ba->node)
		violation(v, "BUG %s (Not tainted): sheaf %016llx on the %s list of the barn of node %d says where=%u/%d",
			  cn, sheaf_addr(sh), lname[ba->list], ba->node, r->where, r->where_id);
	if (ba->list == 1 && r->size != 0)
		violation(v, "BUG %s (Not tainted): sheaf %016llx on the empty list of the barn of node %d holds %u objects",
			  cn, sheaf_addr(sh), ba->node, r->size);
}

/* The kernel's barn_put_full_sheaf()/barn_put_empty_sheaf() do not enforce
 * MAX_FULL_SHEAVES/MAX_EMPTY_SHEAVES themselves: callers check the counts
 * without the lock (data_race()) and may overshoot. So no upper bound is
 * checked here, only that the lists and their counters agree. */
static void check_barns(struct vctx *v)
{
	struct model *m = v->m;
	struct world *w = WORLD(m);
	for (idx_t c = 0; c < w->nr_caches; c++) {
		if (!cache_r(m, c)->alive)
			continue;
		const char *name = cname(m, c);
		for (int n = 0; n < w->nr_nodes; n++) {
			idx_t b = cnode_r(m, cnode_idx(m, c, n))->barn;
			if (b == NIL)
				continue;
			if (b >= pool_len(m, P_BARN)) {
				violation(v, "BUG %s (Not tainted): node %d has barn %u out of range", name, n, b);
				continue;
			}
			struct barn_rec *br = barn_r(m, b);
			if (br->node != n)
				violation(v, "BUG %s (Not tainted): barn of node %d says node %d", name, n, br->node);
			struct list_ops full = { P_SHEAF, barn_addr(b, 0), sheaf_prev, sheaf_next, sheaf_list_addr };
			struct list_ops empty = { P_SHEAF, barn_addr(b, 1), sheaf_prev, sheaf_next, sheaf_list_addr };
			struct barn_arg fa = { c, n, 0, b }, ea = { c, n, 1, b };
			uint32_t nf = walk_list(v, &full, &barn_r(m, b)->sheaves_full, name, visit_barn, &fa);
			uint32_t ne = walk_list(v, &empty, &barn_r(m, b)->sheaves_empty, name, visit_barn, &ea);
			br = barn_r(m, b);
			if (nf != br->nr_full)
				violation(v, "BUG %s (Not tainted): barn of node %d: nr_full=%u but %u full sheaves listed",
					  name, n, br->nr_full, nf);
			if (ne != br->nr_empty)
				violation(v, "BUG %s (Not tainted): barn of node %d: nr_empty=%u but %u empty sheaves listed",
					  name, n, br->nr_empty, ne);
		}
	}
}

static void check_sheaves(struct vctx *v)
{
	struct model *m = v->m;
	struct world *w = WORLD(m);
	uint32_t nsh = pool_len(m, P_SHEAF), nu32 = pool_len(m, P_U32);
	for (idx_t sh = 0; sh < nsh; sh++) {
		struct sheaf_rec *r = VSHEAF(v, sh);
		if (!r->alive)
			continue;
		if (r->cache >= w->nr_caches) {
			violation(v, "BUG: sheaf %016llx belongs to no cache (cache %u)", sheaf_addr(sh), r->cache);
			continue;
		}
		const char *cn = cname(m, r->cache);
		if (r->size > r->capacity) {
			violation(v, "BUG %s (Not tainted): sheaf %016llx size %u > capacity %u", cn,
				  sheaf_addr(sh), r->size, r->capacity);
			continue;
		}
		if (r->size && (r->slots >= nu32 || r->size > nu32 - r->slots)) {
			violation(v, "BUG %s (Not tainted): sheaf %016llx slots out of range", cn, sheaf_addr(sh));
			continue;
		}
		for (uint32_t i = 0; i < r->size; i++) {
			idx_t o = *VU32(v, r->slots + i);
			if (!obj_live(v, o)) {
				violation(v, "BUG %s (Not tainted): sheaf %016llx slot %u holds no live object (%u)",
					  cn, sheaf_addr(sh), i, o);
				continue;
			}
			struct obj_rec *or = VOBJ(v, o);
			if (or->state != OBJ_SHEAF || or->holder != sh)
				violation(v, "BUG %s (Not tainted): Object at %016llx in sheaf %016llx is %s (holder %u)",
					  cn, (unsigned long long)obj_addr(m, o), sheaf_addr(sh),
					  state_name(or->state), or->holder);
			else if (VSLAB(v, or->slab)->cache != r->cache)
				violation(v, "BUG %s (Not tainted): Object at %016llx of cache %s in sheaf %016llx",
					  cn, (unsigned long long)obj_addr(m, o),
					  cname(m, VSLAB(v, or->slab)->cache), sheaf_addr(sh));
			ref(v, o);
		}
		if (!cache_r(m, r->cache)->alive)
			continue;
		switch (r->where) {
		case SH_MAIN:
		case SH_SPARE:
			if (r->where_id < 0 || r->where_id >= w->nr_cpus) {
				violation(v, "BUG %s (Not tainted): sheaf %016llx on cpu %d", cn, sheaf_addr(sh),
					  r->where_id);
				break;
			}
			{
				struct pcs_rec *p = pcs_r(m, pcs_idx(m, r->cache, r->where_id));
				idx_t at = r->where == SH_MAIN ? p->main : p->spare;
				if (at != sh)
					violation(v, "BUG %s (Not tainted): sheaf %016llx says %s of cpu %d, which is %s",
						  cn, sheaf_addr(sh), r->where == SH_MAIN ? "main" : "spare",
						  r->where_id, at == NIL ? "none" : "another sheaf");
			}
			break;
		case SH_BARN_FULL:
		case SH_BARN_EMPTY:
			if (v->sheaf_seen[sh] != (r->where == SH_BARN_FULL ? 1 : 2) ||
			    (int32_t)v->sheaf_barn_node[sh] != r->where_id)
				violation(v, "BUG %s (Not tainted): sheaf %016llx says barn %s list of node %d but is not on it",
					  cn, sheaf_addr(sh), r->where == SH_BARN_FULL ? "full" : "empty",
					  r->where_id);
			break;
		case SH_PREFILLED:
			if (r->where_id < 0 || (uint32_t)r->where_id >= v->nhandle ||
			    v->handles[r->where_id].sheaf != sh)
				violation(v, "BUG %s (Not tainted): prefilled sheaf %016llx is held by no handle",
					  cn, sheaf_addr(sh));
			break;
		case SH_RCU_FREE:
			if (r->where_id < 0 || r->where_id >= w->nr_cpus ||
			    pcs_r(m, pcs_idx(m, r->cache, r->where_id))->rcu_free != sh)
				violation(v, "BUG %s (Not tainted): sheaf %016llx says rcu_free of cpu %d but is not",
					  cn, sheaf_addr(sh), r->where_id);
			break;
		case SH_RCU_PENDING:
			break;
		default: /* SH_DETACHED: in a coroutine's hands */
			if (v->quiet)
				violation(v, "BUG %s (Not tainted): sheaf %016llx leaked (on no CPU, barn or handle)",
					  cn, sheaf_addr(sh));
			break;
		}
	}
	/* pcs -> sheaf */
	for (idx_t c = 0; c < w->nr_caches; c++) {
		if (!cache_r(m, c)->alive)
			continue;
		for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
			struct pcs_rec *p = pcs_r(m, pcs_idx(m, c, cpu));
			idx_t which[2] = { p->main, p->spare };
			for (int k = 0; k < 2; k++) {
				idx_t sh = which[k];
				if (sh == NIL)
					continue;
				uint8_t want = k ? SH_SPARE : SH_MAIN;
				if (sh >= nsh || !VSHEAF(v, sh)->alive)
					violation(v, "BUG %s (Not tainted): cpu %d %s sheaf is freed (#%u)",
						  cname(m, c), cpu, k ? "spare" : "main", sh);
				/* a CPU holding pcs->lock may be between the halves of a swap
				 * (barn_replace_empty_sheaf() took the old main, pcs->main is
				 * set after it returns): no other CPU reads them unlocked */
				else if (VSHEAF(v, sh)->cache != c ||
					 (p->lock < 0 && (VSHEAF(v, sh)->where != want || VSHEAF(v, sh)->where_id != cpu)))
					violation(v, "BUG %s (Not tainted): cpu %d %s sheaf %016llx says cache %s where=%u/%d",
						  cname(m, c), cpu, k ? "spare" : "main", sheaf_addr(sh),
						  cname(m, VSHEAF(v, sh)->cache), VSHEAF(v, sh)->where,
						  VSHEAF(v, sh)->where_id);
			}
		}
	}
}

/* ---- handles and CPU buffers ------------------------------------------------------ */

/* One handle that holds an object or a large kmalloc. */
static void check_handle(struct vctx *v, idx_t h)
{
	struct model *m = v->m;
	struct handle_rec *hr = VHANDLE(v, h);
	const char *hn = m->trace->handle_names ? m->trace->handle_names[h] : "?";
	if (hr->obj != NIL) {
		if (!obj_live(v, hr->obj)) {
			violation(v, "BUG: handle %s holds no live object (%u)", hn, hr->obj);
			return;
		}
		struct obj_rec *or = VOBJ(v, hr->obj);
		if (or->state != OBJ_USER || or->holder != h)
			violation(v, "BUG %s (Not tainted): Object at %016llx held by handle %s is %s (holder %u)",
				  cname(m, VSLAB(v, or->slab)->cache),
				  (unsigned long long)obj_addr(m, hr->obj), hn, state_name(or->state),
				  or->holder);
		ref(v, hr->obj);
	}
	if (hr->large != NIL && (hr->large >= pool_len(m, P_LARGE) || !large_r(m, hr->large)->alive))
		violation(v, "BUG: handle %s holds a freed large kmalloc (#%u)", hn, hr->large);
}

/* Every handle of the trace, most of them holding nothing: the scan skips
 * those in a few instructions (it runs after every micro-step of the
 * interleaving schedules, and a trace names each object it allocates:
 * 27,500 handles, 60% of the validator's instructions on a 55,000-op
 * churn under round-robin when each handle looked its name up). */
_Static_assert(NIL == UINT32_MAX, "obj & large == NIL: both NIL");
static void check_handles(struct vctx *v)
{
	struct model *m = v->m;
	uint32_t nh = m->trace ? m->trace->nr_handles : 0;
	if (nh > pool_len(m, P_HANDLE))
		nh = pool_len(m, P_HANDLE);
	const struct handle_rec *hs = v->handles;
	for (idx_t h = 0; h < nh; h++)
		if ((hs[h].obj & hs[h].large) != NIL)
			check_handle(v, h);
}

/* Bulk buffers and free chains are an op's scratch space: they only hold
 * objects while that CPU runs an op (their lengths are not reset at the
 * end of one). An entry counts when its object says so (state and holder):
 * an entry handed on later in the same op is stale, not a second place. */
static void check_cpus(struct vctx *v)
{
	struct model *m = v->m;
	struct world *w = WORLD(m);
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		struct cpu_rec *c = &w->cpus[cpu];
		if (c->depth == 0)
			continue;
		if (c->bulk != NIL && c->bulk_len <= c->bulk_cap)
			for (uint32_t i = 0; i < c->bulk_len; i++) {
				idx_t o = *VU32(v, c->bulk + i);
				if (obj_live(v, o) && VOBJ(v, o)->state == OBJ_BULK &&
				    VOBJ(v, o)->holder == (idx_t)cpu)
					ref(v, o);
			}
		uint32_t n = 0;
		for (idx_t o = c->chain_head; o != NIL && n < c->chain_len; o = VOBJ(v, o)->next, n++) {
			if (!obj_live(v, o)) {
				violation(v, "BUG: cpu %d free chain holds no live object (%u)", cpu, o);
				break;
			}
			if (VOBJ(v, o)->state == OBJ_CHAIN)
				ref(v, o);
			if (o == c->chain_tail)
				break;
		}
	}
}

/* kfree_rcu() objects waiting for the grace period. */
static void check_rcu_objects(struct vctx *v)
{
	struct model *m = v->m;
	uint32_t n = 0;
	for (idx_t o = WORLD(m)->rcu_objects; o != NIL; o = VOBJ(v, o)->next, n++) {
		if (!obj_live(v, o) || n > v->nobj) {
			violation(v, "BUG: kfree_rcu batch list corrupt (entry %u)", n);
			return;
		}
		if (VOBJ(v, o)->state != OBJ_RCU)
			violation(v, "BUG %s (Not tainted): Object at %016llx on the kfree_rcu list is %s",
				  cname(m, VSLAB(v, VOBJ(v, o)->slab)->cache), (unsigned long long)obj_addr(m, o),
				  state_name(VOBJ(v, o)->state));
		ref(v, o);
	}
}

/* kmem_cache_cpu of the classic era. */
static void check_kmem_cache_cpu(struct vctx *v)
{
	struct model *m = v->m;
	struct world *w = WORLD(m);
	uint32_t ns = pool_len(m, P_SLAB);
	uint8_t *owned = calloc(ns ? ns : 1, 1);
	if (!owned)
		return;
	for (idx_t c = 0; c < w->nr_caches; c++) {
		const char *cn = cname(m, c);
		for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
			struct pcs_rec *p = pcs_r(m, pcs_idx(m, c, cpu));
			if (p->c_slab != NIL) {
				struct slab_rec *sr = p->c_slab < ns ? VSLAB(v, p->c_slab) : NULL;
				if (!sr || !sr->alive || sr->cache != c) {
					violation(v, "BUG %s (Not tainted): cpu %d c->slab %u is not a slab of this cache",
						  cn, cpu, p->c_slab);
				} else {
					/* a c->slab get_freelist() unfroze (below) is
					 * no longer this CPU's: another CPU's free may
					 * already have put it on its partial list (and
					 * before v6.8 frozen it again), as in the kernel */
					if (sr->list == LIST_CPU_SLAB && owned[p->c_slab]++)
						violation(v, "BUG %s (Not tainted): slab %016llx is c->slab of two CPUs",
							  cn, saddr(m, p->c_slab));
					/* ___slab_alloc(): get_freelist() unfreezes an
					 * exhausted c->slab and c->slab = NULL follows
					 * under the same local lock: check it unlocked */
					if ((!sr->frozen || sr->list != LIST_CPU_SLAB) && p->c_lock < 0)
						violation(v, "BUG %s (Not tainted): cpu %d c->slab %016llx is not frozen",
							  cn, cpu, saddr(m, p->c_slab));
				}
			}
			uint32_t n = 0;
			for (idx_t o = p->c_freelist; o != NIL; o = VOBJ(v, o)->next, n++) {
				if (!obj_live(v, o) || VOBJ(v, o)->slab != p->c_slab || n > 65536) {
					violation(v, "BUG %s (Not tainted): cpu %d c->freelist corrupt (entry %u)", cn, cpu, n);
					break;
				}
				if (VOBJ(v, o)->state != OBJ_CPU_FREELIST || VOBJ(v, o)->holder != (idx_t)cpu)
					violation(v, "BUG %s (Not tainted): Object at %016llx on cpu %d c->freelist is %s",
						  cn, (unsigned long long)obj_addr(m, o), cpu, state_name(VOBJ(v, o)->state));
				ref(v, o);
			}
			n = 0;
			uint32_t head_slabs = p->c_partial != NIL && p->c_partial < ns ? VSLAB(v, p->c_partial)->slabs : 0;
			for (idx_t s = p->c_partial; s != NIL; s = VSLAB(v, s)->next_partial, n++) {
				if (s >= ns || !VSLAB(v, s)->alive || VSLAB(v, s)->cache != c || n > ns) {
					violation(v, "BUG %s (Not tainted): cpu %d c->partial chain corrupt (entry %u)", cn, cpu, n);
					break;
				}
				if (owned[s]++)
					violation(v, "BUG %s (Not tainted): slab %016llx on two CPU partial chains", cn, saddr(m, s));
				/* frozen before v6.8, not since (delayed freezing) */
				if (VSLAB(v, s)->frozen != WORLD(m)->cfg.sw.frozen_partial ||
				    VSLAB(v, s)->list != LIST_CPU_PARTIAL)
					violation(v, "BUG %s (Not tainted): slab %016llx on cpu %d partial chain is %s",
						  cn, saddr(m, s), cpu,
						  VSLAB(v, s)->list != LIST_CPU_PARTIAL ? "not marked cpu partial"
						  : VSLAB(v, s)->frozen ? "frozen" : "not frozen");
			}
			if (n != head_slabs)
				violation(v, "BUG %s (Not tainted): cpu %d partial chain has %u slabs but head->slabs is %u",
					  cn, cpu, n, head_slabs);
		}
	}
	if (v->quiet)
		for (idx_t s = 0; s < ns; s++) {
			struct slab_rec *sr = VSLAB(v, s);
			if (sr->alive && (sr->list == LIST_CPU_SLAB || sr->list == LIST_CPU_PARTIAL) && !owned[s])
				violation(v, "BUG %s (Not tainted): slab %016llx marked %s but on no CPU",
					  cname(m, sr->cache), saddr(m, s),
					  sr->list == LIST_CPU_SLAB ? "cpu slab" : "cpu partial");
		}
	free(owned);
}

/* Every object of every alive slab is in exactly one place. */
static void check_places(struct vctx *v)
{
	struct model *m = v->m;
	uint32_t ns = pool_len(m, P_SLAB);
	for (idx_t s = 0; s < ns; s++) {
		struct slab_rec *sr = VSLAB(v, s);
		if (!sr->alive || v->bad_freelist[s] || sr->cache >= WORLD(m)->nr_caches ||
		    sr->obj0 >= pool_len(m, P_OBJ) ||
		    sr->objects > pool_len(m, P_OBJ) - sr->obj0)
			continue;
		for (uint32_t i = 0; i < sr->objects; i++) {
			idx_t o = sr->obj0 + i;
			int r = v->refs[o];
			uint8_t st = VOBJ(v, o)->state;
			int want = st == OBJ_LOST ? 0 : 1;
			if (r > 1 || (v->quiet && r != want))
				violation(v, "BUG %s (Not tainted): Object at %016llx is in %d places (%s)",
					  cname(m, sr->cache), (unsigned long long)obj_addr(m, o), r,
					  state_name(st));
		}
	}
}

/* ---- locks ---------------------------------------------------------------------- */

static void check_locks(struct vctx *v)
{
	struct model *m = v->m;
	struct world *w = WORLD(m);
	for (idx_t c = 0; c < w->nr_caches; c++) {
		const char *name = cname(m, c);
		for (int n = 0; n < w->nr_nodes; n++) {
			struct cnode_rec *cn = cnode_r(m, cnode_idx(m, c, n));
			if (cn->exists && cn->list_lock != -1)
				violation(v, "WARNING: lock held when returning to user space! %s n->list_lock (node %d) held by cpu %d",
					  name, n, cn->list_lock);
			if (cn->barn != NIL && cn->barn < pool_len(m, P_BARN) && barn_r(m, cn->barn)->lock != -1)
				violation(v, "WARNING: lock held when returning to user space! %s barn->lock (node %d) held by cpu %d",
					  name, n, barn_r(m, cn->barn)->lock);
		}
		for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
			struct pcs_rec *p = pcs_r(m, pcs_idx(m, c, cpu));
			if (p->lock != -1)
				violation(v, "WARNING: lock held when returning to user space! %s s->cpu_sheaves->lock (cpu %d) held by cpu %d",
					  name, cpu, p->lock);
			if (p->c_lock != -1)
				violation(v, "WARNING: lock held when returning to user space! %s s->cpu_slab->lock (cpu %d) held by cpu %d",
					  name, cpu, p->c_lock);
		}
	}
}

/* The validator's scratch tables. */
static void release(struct vctx *v, void *nr_slabs, void *nr_objs)
{
	free(v->refs);
	free(v->on_partial);
	free(v->bad_freelist);
	free(v->sheaf_seen);
	free(v->sheaf_barn_node);
	free(nr_slabs);
	free(nr_objs);
}

/* (Out of line in wasm, as step_on(), its per-step caller: wasm.cmake.) */
WASM_NOINLINE int model_validate(struct model *m, char *out, size_t outlen)
{
	struct world *w = WORLD(m);
	struct vctx ctx = { .m = m, .out = out, .outlen = outlen, .quiet = w->inflight == 0 };
	struct vctx *v = &ctx;
	if (out && outlen)
		out[0] = 0;
	/* every record lookup goes through the pool bases struct model keeps
	 * (arena_rebase()): each is mem + its pool's offset, or nothing else
	 * can be checked */
	for (int p = 0; p < P__COUNT; p++)
		if (m->pool_base[p] != m->mem + w->pools[p].off) {
			violation(v, "BUG: pool %d's base is %p, not the arena's %p + %zu", p, m->pool_base[p],
				  (void *)m->mem, w->pools[p].off);
			return v->count;
		}
	uint32_t nobj = pool_len(m, P_OBJ), nslab = pool_len(m, P_SLAB), nsh = pool_len(m, P_SHEAF);
	size_t ncn = (size_t)w->nr_caches * (size_t)w->nr_nodes;
	v->refs = calloc(nobj ? nobj : 1, 1);
	v->on_partial = calloc(nslab ? nslab : 1, 1);
	v->bad_freelist = calloc(nslab ? nslab : 1, 1);
	v->sheaf_seen = calloc(nsh ? nsh : 1, 1);
	v->sheaf_barn_node = calloc(nsh ? nsh : 1, sizeof *v->sheaf_barn_node);
	uint64_t *nr_slabs = calloc(ncn ? ncn : 1, sizeof *nr_slabs);
	uint64_t *nr_objs = calloc(ncn ? ncn : 1, sizeof *nr_objs);
	v->objs = POOL(m, P_OBJ, struct obj_rec);
	v->slabs = POOL(m, P_SLAB, struct slab_rec);
	v->sheaves = POOL(m, P_SHEAF, struct sheaf_rec);
	v->handles = POOL(m, P_HANDLE, struct handle_rec);
	v->u32 = POOL(m, P_U32, uint32_t);
	v->nobj = nobj;
	v->nslab = nslab;
	v->nsh = nsh;
	v->nu32 = pool_len(m, P_U32);
	v->nhandle = pool_len(m, P_HANDLE);
	if (!v->refs || !v->on_partial || !v->bad_freelist || !v->sheaf_seen || !v->sheaf_barn_node ||
	    !nr_slabs || !nr_objs) {
		release(v, nr_slabs, nr_objs);
		return 0; /* cannot check: not a violation of the model */
	}

	/* Slabs: freelists (refs), per-node counts. */
	for (idx_t s = 0; s < nslab; s++) {
		struct slab_rec *sr = VSLAB(v, s);
		if (!sr->alive)
			continue;
		check_slab(v, s);
		sr = VSLAB(v, s);
		if (sr->cache >= w->nr_caches)
			continue;
		/* slabs of a destroyed cache that still had objects are leaked on
		 * purpose, as kmem_cache_destroy() leaks them */
		if (sr->node < 0 || sr->node >= w->nr_nodes) {
			violation(v, "BUG %s (Not tainted): slab %016llx on node %d", cname(m, sr->cache),
				  saddr(m, s), sr->node);
			continue;
		}
		if (!cnode_r(m, cnode_idx(m, sr->cache, sr->node))->exists)
			violation(v, "BUG %s (Not tainted): slab %016llx on node %d, which has no kmem_cache_node",
				  cname(m, sr->cache), saddr(m, s), sr->node);
		size_t k = (size_t)sr->cache * (size_t)w->nr_nodes + (size_t)sr->node;
		nr_slabs[k]++;
		nr_objs[k] += sr->objects;
	}
	check_nodes(v, nr_slabs, nr_objs);
	/* Slabs marked partial are on their node's list. */
	for (idx_t s = 0; s < nslab; s++) {
		struct slab_rec *sr = VSLAB(v, s);
		if (sr->alive && sr->list == LIST_PARTIAL && !v->on_partial[s] && sr->cache < w->nr_caches &&
		    cache_r(m, sr->cache)->alive)
			violation(v, "BUG %s (Not tainted): slab %016llx is marked partial but not on the partial list of node %d",
				  cname(m, sr->cache), saddr(m, s), sr->node);
	}
	check_barns(v);
	check_sheaves(v);
	check_handles(v);
	check_cpus(v);
	check_kmem_cache_cpu(v);
	check_rcu_objects(v);
	check_places(v);
	if (v->quiet)
		check_locks(v);
	int kt;
	unsigned ki;
	idx_t kc;
	if (kmalloc_caches_check(m, &kt, &ki, &kc))
		violation(v, "BUG: kmalloc type %d index %u is kept as cache %u, which its name does not find", kt, ki, kc);

	if (v->count > MAX_REPORTS) {
		char buf[96];
		snprintf(buf, sizeof buf, "... and %d more violations", v->count - MAX_REPORTS);
		model_report(m, "%s", buf);
		if (out && outlen && v->outpos + 1 < outlen)
			snprintf(out + v->outpos, outlen - v->outpos, "%s\n", buf);
	}
	release(v, nr_slabs, nr_objs);
	return v->count;
}
