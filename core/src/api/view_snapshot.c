/* The JSON snapshot (views.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/views.h"
#include "lib/util.h"

#include "slubviz/config.h"

/* The names and codes the snapshot uses, from types.h's tables. */
static const char *const sheaf_where_names[] = {
#define X(w, name) [w] = name,
	SHEAF_WHERES(X)
#undef X
};

static const char *const list_id_names[] = {
#define X(id, name) [id] = name,
	LIST_IDS(X)
#undef X
};

static char obj_state_char(uint8_t st)
{
	static const char map[] = {
#define X(state, name, code) [state] = code,
		OBJ_STATES(X)
#undef X
	};
	return st < sizeof map && map[st] ? map[st] : '?';
}

static void json_idx(struct sbuf *b, idx_t i)
{
	if (i == NIL)
		sb_puts(b, "null");
	else
		sb_printf(b, "%u", i);
}

/* Slab ids on a slab list, head first. */
static void json_slab_list(struct model *m, struct sbuf *b, const struct dlist *l)
{
	uint32_t guard = pool_len(m, P_SLAB);
	bool first = true;
	sb_putc(b, '[');
	for (idx_t s = list_first(m, P_SLAB, l->first); s != NIL && guard--; s = slab_next(m, s)) {
		sb_printf(b, "%s%u", first ? "" : ",", s);
		first = false;
	}
	sb_putc(b, ']');
}

/* Sheaf ids on a barn list, head first. */
static void json_sheaf_list(struct model *m, struct sbuf *b, const struct dlist *l)
{
	uint32_t n = pool_len(m, P_SHEAF), guard = n;
	bool first = true;
	sb_putc(b, '[');
	for (idx_t s = list_first(m, P_SHEAF, l->first); s != NIL && guard--;) {
		sb_printf(b, "%s%u", first ? "" : ",", s);
		first = false;
		idx_t nx = sheaf_r(m, s)->lnext;
		s = nx < n ? nx : NIL;
	}
	sb_putc(b, ']');
}

static void json_hex(struct sbuf *b, uint64_t v)
{
	sb_printf(b, "\"%016" PRIx64 "\"", v);
}

/* The word value switch `key` has for value v (switches.def lists a
 * switch's choices in its C enum's order), or "?". */
static const char *switch_word(const char *key, int v, char *buf, size_t len)
{
	const char *name, *alias, *choices, *what;

	for (int i = 0; svz_switch_info(i, &name, &alias, &choices, &what) >= 0; i++)
		if (strcmp(name, key) == 0 && word_at(choices, v, buf, len))
			return buf;
	return "?";
}

static void json_config(struct model *m, struct sbuf *b)
{
	const struct svz_config *cfg = &WORLD(m)->cfg;
	const struct svz_switches *sw = &cfg->sw;
	char era[16], src[16], form[16];

	sb_puts(b, "\"config\":{\"preset\":");
	sb_json_str(b, cfg->preset);
	sb_printf(b, ",\"era\":\"%s\",\"page_size\":%u,\"switches\":{",
		  switch_word("era", (int)sw->era, era, sizeof era), cfg->topo.page_size);
	sb_printf(b, "\"cpu_source\":\"%s\",\"order_form\":\"%s\"",
		  switch_word("cpu_source", (int)sw->cpu_source, src, sizeof src),
		  switch_word("order_form", (int)sw->order_form, form, sizeof form));
	/* every on/off switch, by its key, in switches.def's order */
	const char *key, *alias, *choices, *what;
	for (int i = 0; svz_switch_info(i, &key, &alias, &choices, &what) >= 0; i++)
		if (svz_switch_bool(sw, i) >= 0)
			sb_printf(b, ",\"%s\":%s", key, svz_switch_bool(sw, i) ? "true" : "false");
	sb_printf(b, ",\"seed\":\"%" PRIu64 "\"}", sw->seed);
	/* the schedule (not a kernel switch): svz_schedule_parse()'s words */
	const char *kind = svz_sched_kind_name(cfg->sched.kind);
	sb_printf(b, ",\"schedule\":{\"kind\":\"%s\"", kind ? kind : "?");
	if (cfg->sched.kind == SVZ_SCHED_RANDOM)
		sb_printf(b, ",\"seed\":\"%" PRIu64 "\"", cfg->sched.seed);
	sb_printf(b, ",\"steps\":%u}}", m->trace ? m->trace->nr_steps : 0);
}

static void json_topology(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	const struct svz_topology *t = &w->cfg.topo;

	sb_printf(b, "\"topology\":{\"nr_cpus\":%d,\"possible\":%d,\"present\":%d,\"online\":%d,"
		  "\"nodes\":[", w->nr_cpus, t->possible, t->present, t->online);
	for (int node = 0; node < w->nr_nodes; node++) {
		struct node_rec *nr = &w->nodes[node];
		sb_printf(b, "%s{\"id\":%d,\"mem_pages\":%" PRIu64 ",\"used_pages\":%" PRIu64
			  ",\"has_memory\":%s,\"cpus\":[", node ? "," : "", node, nr->mem_pages,
			  nr->used_pages, nr->mem_pages ? "true" : "false");
		bool first = true;
		for (int cpu = 0; cpu < w->nr_cpus; cpu++)
			if (w->cpus[cpu].node == node) {
				sb_printf(b, "%s%d", first ? "" : ",", cpu);
				first = false;
			}
		sb_puts(b, "]}");
	}
	sb_puts(b, "]}");
}

static void json_cache(struct model *m, struct sbuf *b, idx_t ci)
{
	struct world *w = WORLD(m);
	struct cache_rec *c = cache_r(m, ci);
	char flags[256];

	svz_slab_flags_format(c->flags, flags, sizeof flags);
	sb_printf(b, "{\"id\":%u,\"name\":", ci);
	sb_json_str(b, c->name);
	sb_printf(b, ",\"alive\":%s,\"kmalloc\":%s,\"has_sheaves\":%s,\"ctor\":%s,\"flags\":",
		  c->alive ? "true" : "false", c->is_kmalloc ? "true" : "false",
		  c->has_sheaves ? "true" : "false", c->ctor ? "true" : "false");
	sb_json_str(b, flags);
	sb_printf(b, ",\"size\":%u,\"object_size\":%u,\"align\":%u,\"offset\":%u,\"order\":%u,"
		  "\"objects\":%u,\"min_order\":%u,\"min_objects\":%u,\"min_partial\":%u,"
		  "\"sheaf_capacity\":%u,\"remote_node_defrag_ratio\":%u",
		  c->g.size, c->g.object_size, c->g.align, c->g.offset, c->g.order, c->g.objects,
		  c->g.min_order, c->g.min_objects, c->min_partial, c->g.sheaf_capacity,
		  c->remote_node_defrag_ratio);
	sb_printf(b, ",\"fp_writes\":%" PRIu64 ",\"slabs_allocated\":%" PRIu64
		  ",\"slabs_freed\":%" PRIu64, c->fp_writes, c->slabs_allocated, c->slabs_freed);
	if (!c->alive) {
		sb_putc(b, '}');
		return;
	}

	sb_puts(b, ",\"stats\":{");
	for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
		sb_printf(b, "%s\"%s\":[", si ? "," : "", stat_names[si]);
		for (int cpu = 0; cpu < w->nr_cpus; cpu++)
			sb_printf(b, "%s%" PRIu64, cpu ? "," : "",
				  *stat_ptr(m, ci, cpu, (enum stat_item)si));
		sb_putc(b, ']');
	}
	sb_putc(b, '}');
	{
		uint64_t sums[NR_SLUB_STAT_ITEMS];
		cache_stat_sums(m, ci, sums);
		sb_printf(b, ",\"alloc_slow_share\":%.4f,\"list_lock_per_kop\":%.4f", alloc_slow_share(sums),
			  per_kop(cache_node_counter(m, ci, NC_LIST_LOCK), w->ops_done));
	}

	sb_puts(b, ",\"nodes\":[");
	bool first = true;
	for (int node = 0; node < w->nr_nodes; node++) {
		struct cnode_rec *n = get_node(m, ci, node);
		if (!n)
			continue;
		sb_printf(b, "%s{\"node\":%d,\"list_lock\":%d,\"nr_partial\":%u,\"nr_slabs\":%" PRIu64
			  ",\"total_objects\":%" PRIu64 ",\"partial\":", first ? "" : ",", node,
			  n->list_lock, n->nr_partial, n->nr_slabs, n->total_objects);
		first = false;
		json_slab_list(m, b, &n->partial);
		sb_puts(b, ",\"full\":");
		json_slab_list(m, b, &n->full);
		sb_puts(b, ",\"counters\":{");
		for (int k = 0; k < NR_NODE_COUNTERS; k++)
			sb_printf(b, "%s\"%s\":%" PRIu64, k ? "," : "", node_counter_names[k],
				  n->counters[k]);
		sb_puts(b, "},\"barn\":");
		if (n->barn == NIL || n->barn >= pool_len(m, P_BARN)) {
			sb_puts(b, "null");
		} else {
			struct barn_rec *br = barn_r(m, n->barn);
			sb_printf(b, "{\"id\":%u,\"lock\":%d,\"nr_full\":%u,\"nr_empty\":%u,\"full\":",
				  n->barn, br->lock, br->nr_full, br->nr_empty);
			json_sheaf_list(m, b, &br->sheaves_full);
			sb_puts(b, ",\"empty\":");
			json_sheaf_list(m, b, &br->sheaves_empty);
			sb_putc(b, '}');
		}
		sb_putc(b, '}');
	}
	sb_puts(b, "],\"cpus\":[");
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		struct pcs_rec *p = pcs_r(m, pcs_idx(m, ci, cpu));
		sb_printf(b, "%s{\"cpu\":%d,\"lock\":%d,\"cpu_slab_lock\":%d,\"main\":", cpu ? "," : "", cpu, p->lock,
			  p->c_lock);
		json_idx(b, p->main);
		sb_puts(b, ",\"spare\":");
		json_idx(b, p->spare);
		sb_puts(b, ",\"rcu_free\":");
		json_idx(b, p->rcu_free);
		/* kmem_cache_cpu (classic era): c->freelist, c->slab, c->partial, tid */
		sb_puts(b, ",\"freelist\":[");
		uint32_t nobj = pool_len(m, P_OBJ), guard = nobj;
		for (idx_t o = p->c_freelist; o != NIL && o < nobj && guard--; o = obj_r(m, o)->next)
			sb_printf(b, "%s%u", o == p->c_freelist ? "" : ",", o);
		sb_puts(b, "],\"slab\":");
		json_idx(b, p->c_slab);
		sb_puts(b, ",\"partial\":[");
		guard = pool_len(m, P_SLAB);
		for (idx_t s = p->c_partial; s != NIL && s < pool_len(m, P_SLAB) && guard-- > 0;
		     s = slab_r(m, s)->next_partial)
			sb_printf(b, "%s%u", s == p->c_partial ? "" : ",", s);
		sb_printf(b, "],\"tid\":%" PRIu64 "}", p->tid);
	}
	sb_puts(b, "]}");
}

/* One element of a JSON list; *first says whether a comma goes before it. */
static void json_sheaf(struct model *m, struct sbuf *b, idx_t sh, bool *first)
{
	bool comma = !*first;

	*first = false;
	struct sheaf_rec *s = sheaf_r(m, sh);
	sb_printf(b, "%s{\"id\":%u,\"cache\":%u,\"size\":%u,\"capacity\":%u,\"node\":%d,"
		  "\"where\":\"%s\",\"where_id\":%d", comma ? "," : "", sh, s->cache,
		  s->size, s->capacity, s->node,
		  s->where < sizeof sheaf_where_names / sizeof *sheaf_where_names ?
			  sheaf_where_names[s->where] : "?", s->where_id);
	/* a prefilled sheaf's where_id is the trace's handle: its name too */
	if (s->where == SH_PREFILLED && m->trace && s->where_id >= 0 &&
	    (uint32_t)s->where_id < m->trace->nr_handles) {
		sb_puts(b, ",\"handle\":");
		sb_json_str(b, m->trace->handle_names[s->where_id]);
	}
	sb_puts(b, ",\"objects\":[");
	uint32_t n = s->size < s->capacity ? s->size : s->capacity;
	if (s->slots != NIL && s->slots + n <= pool_len(m, P_U32))
		for (uint32_t i = 0; i < n; i++)
			sb_printf(b, "%s%u", i ? "," : "", *u32_at(m, s->slots + i));
	sb_puts(b, "]}");
}

/* The owner of allocated object oi (a handle holds it): its handle and call
 * site, as the trace's indices. */
static bool obj_owner(struct model *m, idx_t oi, uint32_t *holder, uint32_t *site)
{
	struct obj_rec *or = obj_r(m, oi);
	if (!m->trace || or->state != OBJ_USER || or->holder >= m->trace->nr_handles)
		return false;
	*holder = or->holder;
	*site = or->site;
	return true;
}

/* Whether slab si's owners are the ones last sent for its id; if not, they
 * are recorded as sent, under a new version. One walk: the owners agree up
 * to k, and from the first difference on are written over the old ones. */
static bool owners_unchanged(struct model *m, idx_t si, bool objs_ok, struct owners_memo *memo)
{
	struct slab_rec *s = slab_r(m, si);
	struct owners_sent *sent = &memo->slab[si];
	bool same = sent->ver != 0;
	uint32_t k = 0;

	for (uint32_t i = 0; objs_ok && i < s->objects; i++) {
		uint32_t t[3] = { s->obj0 + i };
		if (!obj_owner(m, t[0], &t[1], &t[2]))
			continue;
		if (same && k < sent->n && !memcmp(&sent->own[3 * k], t, sizeof t)) {
			k++;
			continue;
		}
		same = false;
		if (k == sent->cap) {
			uint32_t cap = sent->cap ? 2 * sent->cap : 16;
			uint32_t *own = realloc(sent->own, sizeof *own * 3 * cap);
			if (!own) {
				sent->ver = 0; /* not recorded: sent in full next time */
				return false;
			}
			sent->own = own;
			sent->cap = cap;
		}
		memcpy(&sent->own[3 * k++], t, sizeof t);
	}
	if (same && k == sent->n)
		return true;
	sent->n = k;
	sent->ver = ++memo->last_ver;
	return false;
}

static void json_slab(struct model *m, struct sbuf *b, idx_t si, bool *first_in_list,
		      struct owners_memo *memo)
{
	bool comma = !*first_in_list;

	*first_in_list = false;
	struct slab_rec *s = slab_r(m, si);
	uint32_t nobj = pool_len(m, P_OBJ);
	bool objs_ok = s->obj0 != NIL && s->obj0 + s->objects <= nobj;

	sb_printf(b, "%s{\"id\":%u,\"cache\":%u,\"node\":%d,\"order\":%u,\"objects\":%u,"
		  "\"inuse\":%u,\"frozen\":%s,\"list\":\"%s\",\"pfn\":%" PRIu64 ",\"base\":",
		  comma ? "," : "", si, s->cache, s->node, s->order, s->objects, s->inuse,
		  s->frozen ? "true" : "false",
		  s->list < sizeof list_id_names / sizeof *list_id_names ? list_id_names[s->list] : "?",
		  s->pfn);
	json_hex(b, slab_base(m, si));
	sb_puts(b, ",\"slab\":");
	json_hex(b, slab_addr(m, si));
	sb_printf(b, ",\"obj0\":%u,\"freelist\":[", s->obj0);
	uint32_t steps = 0;
	idx_t o = s->freelist;
	for (; o != NIL && o < nobj && steps <= s->objects; o = obj_r(m, o)->next, steps++)
		sb_printf(b, "%s%u", steps ? "," : "", o);
	/* a free pointer that leaves the pool or a list longer than the slab */
	sb_printf(b, "],\"freelist_broken\":%s,\"state\":\"",
		  (o != NIL && o >= nobj) || steps > s->objects ? "true" : "false");
	for (uint32_t i = 0; objs_ok && i < s->objects; i++)
		sb_putc(b, obj_state_char(obj_r(m, s->obj0 + i)->state));
	sb_puts(b, "\",\"free\":[");
	bool first = true;
	for (uint32_t i = 0; objs_ok && i < s->objects; i++) {
		idx_t oi = s->obj0 + i;
		struct obj_rec *or = obj_r(m, oi);
		if (or->state != OBJ_FREE)
			continue;
		sb_printf(b, "%s{\"obj\":%u,\"raw\":", first ? "" : ",", oi);
		first = false;
		if (or->next == NIL || or->next < nobj) {
			json_hex(b, freeptr_raw(m, oi));
			sb_puts(b, ",\"next\":");
			json_hex(b, or->next == NIL ? 0 : obj_addr(m, or->next));
		} else {
			sb_puts(b, "null,\"next\":null");
		}
		sb_putc(b, '}');
	}
	sb_putc(b, ']');
	if (memo) {
		bool same = owners_unchanged(m, si, objs_ok, memo);
		sb_printf(b, ",\"owners_v\":%u", memo->slab[si].ver);
		if (same) {
			sb_putc(b, '}');
			return;
		}
	}
	/* who holds each allocated object: the trace's handle and call site */
	sb_puts(b, ",\"owners\":[");
	first = true;
	for (uint32_t i = 0; objs_ok && i < s->objects; i++) {
		idx_t oi = s->obj0 + i;
		uint32_t holder, site;
		if (!obj_owner(m, oi, &holder, &site))
			continue;
		sb_printf(b, "%s{\"obj\":%u,\"handle\":", first ? "" : ",", oi);
		sb_json_str(b, m->trace->handle_names[holder]);
		sb_puts(b, ",\"site\":");
		sb_json_str(b, site && site < m->trace->nr_sites ? m->trace->sites[site] : "");
		sb_putc(b, '}');
		first = false;
	}
	sb_puts(b, "]}");
}

/* The lock a CPU spins on: its top frame is co_LOCK (not a trylock) and
 * another CPU holds the lock, or it was released since the CPU's last
 * poll (the CPU takes it at its next step). */
static void json_lock_wait(struct model *m, struct sbuf *b, int cpu, int depth)
{
	sb_puts(b, ",\"lock_wait\":");
	struct frame *f = depth > 0 ? frame_r(m, (idx_t)cpu * FRAME_DEPTH + (idx_t)(depth - 1)) : NULL;
	if (!f || f->fn != CO_LOCK || f->flag1 || f->pc == 0 || f->k <= LK_NONE || f->k >= LK__COUNT) {
		sb_puts(b, "null");
		return;
	}
	enum lock_kind lk = (enum lock_kind)f->k;
	int owner = *lock_owner(m, lk, f->a);
	if (owner == cpu) {
		sb_puts(b, "null");
		return;
	}
	sb_printf(b, "{\"lock\":\"%s\",\"node\":%d,\"cache\":%u,\"owner\":%d}", lock_names[lk],
		  lock_node(m, lk, f->a), f->cache, owner);
}

static void json_cpus(struct model *m, struct sbuf *b)
{
	struct world *w = WORLD(m);
	sb_puts(b, "\"cpus\":[");
	for (int cpu = 0; cpu < w->nr_cpus; cpu++) {
		struct cpu_rec *c = &w->cpus[cpu];
		int depth = c->depth < 0 ? 0 : c->depth > FRAME_DEPTH ? FRAME_DEPTH : c->depth;
		sb_printf(b, "%s{\"cpu\":%d,\"node\":%d,\"op\":", cpu ? "," : "", cpu, c->node);
		if (depth > 0)
			sb_printf(b, "%u", c->op);
		else
			sb_puts(b, "null");
		sb_puts(b, ",\"frames\":[");
		for (int i = 0; i < depth; i++) {
			uint8_t k = frame_r(m, (idx_t)cpu * FRAME_DEPTH + (idx_t)i)->k_fn;
			sb_printf(b, "%s\"%s\"", i ? "," : "", k < KFN__COUNT ? kfn_names[k] : "?");
		}
		sb_puts(b, "],\"bulk\":[");
		if (c->bulk != NIL && c->bulk + c->bulk_len <= pool_len(m, P_U32))
			for (uint32_t i = 0; i < c->bulk_len; i++)
				sb_printf(b, "%s%u", i ? "," : "", *u32_at(m, c->bulk + i));
		sb_printf(b, "],\"chain_len\":%u,\"pending\":", c->chain_len);
		json_idx(b, c->pending);
		sb_puts(b, ",\"private\":");
		json_slab_list(m, b, &c->private_list);
		sb_puts(b, ",\"sheaf_stash\":");
		json_sheaf_list(m, b, &c->sheaf_stash);
		json_lock_wait(m, b, cpu, depth);
		if (w->cfg.sched.kind == SVZ_SCHED_TIMED)
			sb_printf(b, ",\"clock\":%" PRIu64 ",\"busy\":%" PRIu64 ",\"spin\":%" PRIu64
				  ",\"idle\":%" PRIu64, c->clock, c->busy, c->spin, c->idle);
		sb_putc(b, '}');
	}
	sb_putc(b, ']');
}

/* The first op not done yet: all ops below it have returned (where
 * svz_run_to_op() of that op stops); nr_ops at the end. */
static uint32_t first_pending(struct model *m)
{
	struct world *w = WORLD(m);
	uint32_t n = m->trace ? m->trace->nr_ops : 0, i = w->sched.unstarted;
	if (w->started == NIL)
		return 0;
	while (i < n && (*u32_at(m, w->started + i / 32) >> (i % 32) & 1))
		i++;
	for (int c = 0; c < w->nr_cpus; c++)
		if (w->cpus[c].depth > 0 && w->cpus[c].op < i)
			i = w->cpus[c].op;
	return i;
}

/* The whole model state for the browser.
 *
 * Schema 1 (SVZ_SNAPSHOT_SCHEMA). Ids are indices into the model's pools and
 * match the ids in events ("cache", "slab", "obj", "sheaf"). Addresses are
 * 16-digit hex strings without 0x, like events' "addr". 64-bit counts are
 * JSON numbers, except config.switches.seed (a decimal string).
 * {
 *   "schema": 1, "seq": micro-steps so far, "ops_done", "inflight",
 *   "first_pending": the first op that has not returned (every op below
 *   it has; svz_run_to_op() of it stops here; ops_total at the end),
 *   "stopped": bool, "reports": count,
 *   "config": { "preset", "era": "sheaves"|"classic", "page_size",
 *               "switches": { "cpu_source", "order_form", "freelist_random",
 *                 "freelist_hardened", "fix1", "fix2", "memoryless_sheaves",
 *                 "deferred_freelist", "batched_partial", "cpu_partial_free",
 *                 "continue_on_error", "seed" },
 *               "schedule": { "kind": "serial"|"round-robin"|"random"|"timed"|
 *                 "explicit", "seed": random only (a decimal string),
 *                 "steps": the trace's 'steps' tokens } },
 *   "topology": { "nr_cpus", "possible", "present", "online",
 *                 "nodes": [ { "id", "mem_pages", "used_pages", "has_memory",
 *                              "cpus": [cpu...] } ] },
 *   "caches": [ { "id", "name", "alive", "kmalloc", "has_sheaves", "ctor",
 *       "flags": "HWCACHE_ALIGN|..." or "0", "size", "object_size", "align",
 *       "offset", "order", "objects", "min_order", "min_objects",
 *       "min_partial", "sheaf_capacity", "remote_node_defrag_ratio",
 *       "fp_writes", "slabs_allocated", "slabs_freed",
 *       live caches only:
 *       "stats": { "<stat name>": [count per cpu] },
 *       "alloc_slow_share": % of allocations that took the slow path,
 *       "list_lock_per_kop": n->list_lock acquisitions (all nodes) per
 *                            1000 ops done (as `slubviz diff` prints them),
 *       "nodes": [ { "node", "list_lock": owner cpu or -1, "nr_partial",
 *                    "nr_slabs", "total_objects", "partial": [slab ids, head
 *                    first], "full": [slab ids], "counters": {name: n},
 *                    "barn": null | { "id", "lock", "nr_full", "nr_empty",
 *                                     "full": [sheaf ids], "empty": [...] } } ]
 *                  (only nodes with a kmem_cache_node, i.e. with memory),
 *       "cpus": [ { "cpu", "lock": s->cpu_sheaves->lock owner or -1,
 *                   "cpu_slab_lock": c->lock (classic) owner or -1,
 *                   "main": sheaf id | null (bootstrap sheaf),
 *                   "spare": sheaf id | null, "rcu_free": sheaf id | null,
 *                   kmem_cache_cpu of the classic era: "freelist": [object
 *                   ids of c->freelist], "slab": c->slab id | null,
 *                   "partial": [slab ids of c->partial, head first],
 *                   "tid" } ] } ],
 *   "sheaves": [ { "id", "cache", "size", "capacity", "node", "where":
 *       "none"|"main"|"spare"|"barn_full"|"barn_empty"|"detached"|"prefilled"|
 *       "rcu_free"|"rcu_pending", "where_id":
 *       cpu (main, spare, rcu_free; rcu_pending: the CPU that queued it),
 *       node (barn lists) or the trace's handle (prefilled, also named in
 *       "handle"), "objects": [object ids, bottom of the stack first] } ],
 *   "slabs": [ { "id", "cache", "node", "order", "objects", "inuse", "frozen",
 *       "list": "none"|"partial"|"full"|"private"|"cpu_slab"|"cpu_partial",
 *       "pfn", "base": first byte,
 *       "slab": struct slab address, "obj0": id of object 0,
 *       "freelist": [object ids in freelist order], "freelist_broken": bool,
 *       "state": one char per object: f free, u user, s sheaf, b bulk,
 *                c chain, l lost, p on a CPU's c->freelist, r kfree_rcu
 *                batch,
 *       "owners": [ { "obj", "handle": the trace's name, "site": call site
 *                     label or "" } ] for objects held by handles,
 *       "free": [ { "obj", "raw": stored free pointer (hardened encoding when
 *                   freelist_hardened), "next": decoded next address, 0 at
 *                   the end } ] } ],
 *   "large": [ { "id", "node", "order", "pfn", "size" } ],
 *   "cpus": [ { "cpu", "node", "op": op index or null when idle, "frames":
 *       [kfn names, outermost first], "bulk": [object ids], "chain_len",
 *       "pending": object id | null, "private": [slab ids],
 *       "sheaf_stash": [sheaf ids],
 *       "lock_wait": null | { "lock": event lock name, "node" (-1 for the
 *         per-CPU lock), "cache", "owner": cpu or -1 (released since the
 *         CPU's last spin: it takes the lock at its next step) }: the lock
 *         the CPU spins on,
 *       timed runs only (docs/timing.md): "clock", "busy", "spin", "idle":
 *         the CPU's simulated cycles, of which working, spinning, waiting } ]
 * }
 * Sheaves, slabs and large allocations list live records only, by id. */
static void snapshot_json(struct model *m, struct sbuf *b, struct owners_memo *memo)
{
	struct world *w = WORLD(m);

	sb_printf(b, "{\"schema\":1,\"seq\":%" PRId64 ",\"ops_done\":%u,\"inflight\":%u,"
		  "\"first_pending\":%u,\"stopped\":%s,\"reports\":%" PRIu64 ",", w->seq, w->ops_done,
		  w->inflight, first_pending(m), w->stopped ? "true" : "false", w->reports);
	json_config(m, b);
	sb_putc(b, ',');
	json_topology(m, b);

	sb_puts(b, ",\"caches\":[");
	for (uint32_t ci = 0; ci < w->nr_caches; ci++) {
		if (ci)
			sb_putc(b, ',');
		json_cache(m, b, ci);
	}

	sb_puts(b, "],\"sheaves\":[");
	bool first = true;
	for (idx_t sh = 0; sh < pool_len(m, P_SHEAF); sh++)
		if (sheaf_r(m, sh)->alive)
			json_sheaf(m, b, sh, &first);

	sb_puts(b, "],\"slabs\":[");
	first = true;
	for (idx_t s = 0; s < pool_len(m, P_SLAB); s++)
		if (slab_r(m, s)->alive)
			json_slab(m, b, s, &first, memo);
		else if (memo)
			memo->slab[s].ver = 0; /* a freed slab's id comes back with all its owners */

	sb_puts(b, "],\"large\":[");
	first = true;
	for (idx_t l = 0; l < pool_len(m, P_LARGE); l++) {
		struct large_rec *lr = large_r(m, l);
		if (!lr->alive)
			continue;
		sb_printf(b, "%s{\"id\":%u,\"node\":%d,\"order\":%u,\"pfn\":%" PRIu64 ",\"size\":%u}",
			  first ? "" : ",", l, lr->node, lr->order, lr->pfn, lr->size);
		first = false;
	}
	sb_puts(b, "],");
	json_cpus(m, b);
	sb_puts(b, "}\n");
}

void view_snapshot_json(struct model *m, struct sbuf *b)
{
	snapshot_json(m, b, NULL);
}

bool view_snapshot_lean_json(struct model *m, struct sbuf *b, struct owners_memo *memo)
{
	uint32_t n = pool_len(m, P_SLAB);
	if (memo->len < n) {
		struct owners_sent *grown = realloc(memo->slab, sizeof *grown * n);
		if (!grown)
			return false;
		memset(grown + memo->len, 0, sizeof *grown * (n - memo->len));
		memo->slab = grown;
		memo->len = n;
	}
	/* ids past the pool (a restore shrank it) come back as other slabs */
	for (uint32_t s = n; s < memo->len; s++)
		memo->slab[s].ver = 0;
	snapshot_json(m, b, memo);
	return true;
}

void owners_memo_free(struct owners_memo *memo)
{
	for (uint32_t i = 0; i < memo->len; i++)
		free(memo->slab[i].own);
	free(memo->slab);
	memset(memo, 0, sizeof *memo);
}
