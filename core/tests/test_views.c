/* api/view_*.c: the kernel text formats against real dumps.
 *
 * - sb_printf growth (short, long, many appends); the rest of lib/ (size_text,
 *   grow, join_names, word_at).
 * - /sys/kernel/slab/bio-256: a model state built by hand to match seed 004's
 *   v7.0-rc2 dump (in the LKML thread "[Regression] mm:slab/sheaves: severe
 *   performance regression in cross-CPU slab allocation", March 2026,
 *   copied below verbatim) must print that dump byte for byte: attribute
 *   order (kernfs name hash), " N<node>=" and " C<cpu>=" breakdowns, sums.
 *   The per-CPU stat counts are taken from the dump's C<cpu>= fields; the
 *   totals and every other value are computed by view_sysfs.c. The dump has no
 *   cache_dma line; with CONFIG_ZONE_DMA (our config) the kernel prints it
 *   last (v6.19 block of the same mail, line 3402), so it is appended.
 * - /proc/slabinfo rows against seed 003 (RAWv6, request_sock_TCPv6) and the
 *   bio-256 figures above, newest cache first.
 * - view_stats and view_snapshot_json: shape checks; svz_snapshot_lean_json
 *   against svz_snapshot_json through a run, seeks back included.
 *
 * The model is assembled with the arena functions, not model_init(), so this
 * test does not depend on the allocator paths. TODO(lead): once model_init()
 * and the paths run, add a trace-driven check (e.g. slabinfo after a few
 * allocations equals the counts the paths leave). */
#include "harness.h"

#include <slubviz/slubviz.h>

#include <stdbool.h>
#include <stdlib.h>

#include "model/engine.h"
#include "model/model.h"
#include "api/views.h"
#include "lib/util.h"

static const char seed004_bio256[] =
	"./remote_node_defrag_ratio:100\n"
	"./total_objects:9078 N1=4233 N5=4845\n"
	"./alloc_fastpath:897715187 C1=45250242 C3=50602079 C5=89955493 C6=128 C7=81923744 C8=128"
	" C9=46275792 C10=128 C11=46037573 C12=128 C13=53037806 C14=128 C15=49291969 C16=128"
	" C17=49716073 C18=4 C19=45475417 C20=130 C21=75693223 C22=128 C23=69595236 C24=128"
	" C25=52992066 C26=1 C27=51082176 C28=66 C29=44931239 C30=2 C31=45853827 C48=2 C59=2"
	" C63=1\n"
	"./cpu_slabs:0\n"
	"./objects:5404 N1=2665 N5=2739\n"
	"./sheaf_return_slow:0\n"
	"./objects_partial:3772 N1=1849 N5=1923\n"
	"./sheaf_return_fast:0\n"
	"./cpu_partial:0\n"
	"./free_slowpath:580544104 C0=45249992 C2=50601817 C4=2 C6=2 C8=46275666 C10=46037443"
	" C12=53037685 C14=49291858 C16=49715937 C18=45475167 C20=13 C22=21 C24=52991949"
	" C26=51081920 C28=44931147 C30=45853478 C49=2 C59=2 C61=2 C63=1\n"
	"./barn_get_fail:20733914 C1=1616081 C3=1807218 C5=23 C6=1 C7=10 C8=5 C9=1652707 C10=5"
	" C11=1644200 C12=5 C13=1894208 C14=5 C15=1760428 C16=5 C17=1775575 C18=1 C19=1624123"
	" C20=4 C21=6 C22=5 C23=21 C24=5 C25=1892574 C26=1 C27=1824364 C28=3 C29=1604692"
	" C31=1637636 C48=1 C59=1 C63=1\n"
	"./sheaf_prefill_oversize:0\n"
	"./skip_kfence:0\n"
	"./min_partial:5\n"
	"./order_fallback:0\n"
	"./sheaf_capacity:28\n"
	"./sheaf_flush:84 C4=28 C20=28 C22=28\n"
	"./free_rcu_sheaf:0\n"
	"./sheaf_alloc:120 C1=1 C3=1 C4=10 C5=1 C6=3 C8=1 C9=1 C10=1 C11=1 C12=1 C13=1 C14=1 C15=2"
	" C16=1 C17=1 C18=65 C19=1 C20=6 C22=7 C23=1 C24=1 C25=1 C26=1 C27=2 C28=1 C29=3 C31=1"
	" C48=1 C59=1 C63=1\n"
	"./sheaf_free:0\n"
	"./sheaf_prefill_slow:0\n"
	"./sheaf_prefill_fast:0\n"
	"./poison:0\n"
	"./red_zone:0\n"
	"./free_slab:2252626 C0=217768 C2=178064 C8=177352 C10=188763 C12=172593 C14=195156"
	" C16=189975 C18=178757 C24=179036 C26=187498 C28=189290 C30=198374\n"
	"./slabs:178 N1=83 N5=95\n"
	"./barn_get:11327366 C5=3212674 C6=4 C7=2925838 C20=1 C21=2703324 C23=2485524 C31=1\n"
	"./alloc_slowpath:0\n"
	"./destroy_by_rcu:1\n"
	"./free_rcu_sheaf_fail:0\n"
	"./barn_put:11327384 C4=3212682 C6=2925843 C20=2703321 C22=2485537 C28=1\n"
	"./usersize:0\n"
	"./sanity_checks:0\n"
	"./barn_put_fail:3 C4=1 C20=1 C22=1\n"
	"./align:64\n"
	"./alloc_node_mismatch:0\n"
	"./alloc_slab:2252805 C1=175514 C3=194092 C5=9 C8=2 C9=178894 C10=1 C11=177472 C12=5"
	" C13=202580 C14=1 C15=190184 C16=2 C17=194266 C18=1 C19=179219 C20=1 C24=1 C25=205268"
	" C27=197542 C29=177638 C30=1 C31=180109 C48=1 C59=1 C63=1\n"
	"./free_remove_partial:2252626 C0=217768 C2=178064 C8=177352 C10=188763 C12=172593"
	" C14=195156 C16=189975 C18=178757 C24=179036 C26=187498 C28=189290 C30=198374\n"
	"./aliases:0\n"
	"./store_user:0\n"
	"./trace:0\n"
	"./reclaim_account:0\n"
	"./order:2\n"
	"./sheaf_refill:580549592 C1=45250268 C3=50602104 C5=644 C6=28 C7=280 C8=140 C9=46275796"
	" C10=140 C11=46037600 C12=140 C13=53037824 C14=140 C15=49291984 C16=140 C17=49716100"
	" C18=28 C19=45475444 C20=112 C21=168 C22=140 C23=588 C24=140 C25=52992072 C26=28"
	" C27=51082192 C28=140 C29=44931264 C30=56 C31=45853808 C48=28 C59=28 C63=28\n"
	"./object_size:256\n"
	"./free_fastpath:317166967 C4=89955177 C6=81923631 C20=75693051 C22=69595106 C53=2\n"
	"./hwcache_align:1\n"
	"./cmpxchg_double_fail:2518173 C0=176664 C1=2695 C2=217757 C3=3198 C5=1 C7=2 C8=201087"
	" C9=2783 C10=199017 C11=2839 C12=222146 C13=3146 C14=215883 C15=3113 C16=208327 C17=3279"
	" C18=199045 C19=3150 C21=1 C24=225357 C25=3445 C26=218118 C27=3183 C28=197089 C29=3083"
	" C30=200710 C31=3055\n"
	"./objs_per_slab:51\n"
	"./partial:146 N1=67 N5=79\n"
	"./slabs_cpu_partial:0(0)\n"
	"./free_add_partial:29301755 C0=958223 C1=1323669 C2=1094832 C3=1480537 C4=1 C5=11 C7=7"
	" C8=990458 C9=1354237 C10=983110 C11=1348401 C12=1142550 C13=1553516 C14=1063308"
	" C15=1441153 C16=1029143 C17=1463851 C18=949985 C19=1335529 C20=7 C21=3 C22=7 C23=17"
	" C24=1107242 C25=1562991 C26=1056543 C27=1505571 C28=939243 C29=1319586 C30=948581"
	" C31=1349443\n"
	"./slab_size:320\n";

/* ---- sb_printf --------------------------------------------------------- */

static void test_sbuf(void)
{
	struct sbuf b = {0};
	sb_printf(&b, "%s", "");
	CHECK(b.s != NULL);
	CHECK_EQ_INT(b.len, 0);
	CHECK_EQ_STR(b.s, "");

	for (int i = 0; i < 5000; i++)
		sb_printf(&b, "%d,", i % 10);
	CHECK_EQ_INT(b.len, 10000);
	CHECK_EQ_INT(strlen(b.s), 10000);
	CHECK(b.cap > b.len);
	CHECK(strncmp(b.s, "0,1,2,3,4,5,6,7,8,9,0,", 22) == 0);
	CHECK(strcmp(b.s + 9980, "0,1,2,3,4,5,6,7,8,9,") == 0);

	char big[3001];
	memset(big, 'x', 3000);
	big[3000] = 0;
	sb_printf(&b, "[%s]%u", big, 42u); /* longer than the stack buffer */
	CHECK_EQ_INT(b.len, 10000 + 3000 + 4);
	CHECK(b.s[10000] == '[' && b.s[13000] == 'x' && strcmp(b.s + 13001, "]42") == 0);
	sb_free(&b);
	CHECK(b.s == NULL && b.len == 0 && b.cap == 0);
	sb_free(&b); /* twice is harmless */
}

/* ---- the rest of lib/: one size formatter, one grow(), name lists ------- */

static const char *three(int i)
{
	static const char *const n[] = { "a", "b", "c" };
	return i < 3 ? n[i] : NULL;
}

static const char *none(int i) { (void)i; return NULL; }

static void test_lib(void)
{
	char buf[32];

	/* the v1 size syntax (docs/trace-format.md, "Sizes"): the largest binary
	 * suffix that divides exactly; parse_size() reads each back */
	size_text(64ull << 20, buf, sizeof buf);
	CHECK_EQ_STR(buf, "64M");
	size_text(1536ull << 10, buf, sizeof buf); /* 1.5 MiB: not a whole M */
	CHECK_EQ_STR(buf, "1536K");
	size_text(16ull << 30, buf, sizeof buf);
	CHECK_EQ_STR(buf, "16G");
	size_text(1024ull << 40, buf, sizeof buf); /* T is the largest suffix */
	CHECK_EQ_STR(buf, "1024T");
	size_text(1000, buf, sizeof buf);
	CHECK_EQ_STR(buf, "1000");
	size_text(0, buf, sizeof buf); /* 0 is a memoryless node's mem=0 */
	CHECK_EQ_STR(buf, "0");

	struct sbuf b = { 0 };
	sb_size(&b, 4096);
	sb_puts(&b, " ");
	sb_json_str(&b, "a\"b\\\n\x01");
	CHECK_EQ_STR(b.s, "4K \"a\\\"b\\\\\\n\\u0001\"");
	CHECK(!b.oom);
	sb_free(&b);

	/* grow(): room for what is asked, doubling; a jump past twice the
	 * capacity takes exactly what it needs */
	int *arr = NULL;
	uint32_t cap = 0;
	CHECK(GROW(arr, cap, 1) && cap == 16);
	CHECK(GROW(arr, cap, 17) && cap == 32);
	CHECK(GROW(arr, cap, 1000) && cap == 1000);
	CHECK(GROW(arr, cap, 1000) && cap == 1000);
	arr[999] = 7;
	CHECK(!GROW(arr, cap, (uint64_t)UINT32_MAX + 1) && cap == 1000 && arr[999] == 7);
	free(arr);

	join_names(buf, sizeof buf, three, ", ", " or ");
	CHECK_EQ_STR(buf, "a, b or c");
	join_names(buf, sizeof buf, none, ", ", " or ");
	CHECK_EQ_STR(buf, "");
	join_names(buf, 5, three, ", ", " or "); /* cut, still terminated */
	CHECK_EQ_STR(buf, "a, b");

	CHECK(word_at("sheaves classic", 1, buf, sizeof buf));
	CHECK_EQ_STR(buf, "classic");
	CHECK(!word_at("sheaves classic", 2, buf, sizeof buf));
	CHECK_EQ_STR(buf, "");
	CHECK(!word_at("", 0, buf, sizeof buf));
}

/* ---- a hand-built model -------------------------------------------------- */

static struct model M;

static void setup_world(int nr_nodes, int nr_cpus)
{
	struct svz_config cfg;
	svz_config_default(&cfg);
	cfg.topo.nr_nodes = nr_nodes;
	cfg.topo.nr_cpus = nr_cpus;
	cfg.topo.possible = cfg.topo.present = cfg.topo.online = nr_cpus;
	for (int n = 0; n < nr_nodes; n++)
		cfg.topo.node_mem_bytes[n] = 1ull << 32;
	for (int c = 0; c < nr_cpus; c++)
		cfg.topo.cpu_node[c] = c % nr_nodes;
	memset(&M, 0, sizeof M);
	CHECK_EQ_INT(arena_init(&M, &cfg, 16), 0);
	struct world *w = WORLD(&M);
	w->nr_nodes = nr_nodes;
	w->nr_cpus = nr_cpus;
	for (int n = 0; n < nr_nodes; n++)
		w->nodes[n].mem_pages = (1ull << 32) / cfg.topo.page_size;
	for (int c = 0; c < nr_cpus; c++) {
		struct cpu_rec *cr = &w->cpus[c];
		cr->node = c % nr_nodes;
		cr->bulk = NIL;
		cr->private_list = (struct dlist){ NIL, NIL, 0 };
		cr->pending = NIL;
		cr->sheaf_stash = (struct dlist){ NIL, NIL, 0 };
	}
}

static idx_t add_cache(const char *name, uint32_t size, uint32_t object_size, unsigned order,
		       unsigned objects, uint32_t align, uint32_t flags)
{
	/* the arena rule (types.h): nothing from before a pool_alloc() after it */
	const uint32_t nr_nodes = (uint32_t)WORLD(&M)->nr_nodes, nr_cpus = (uint32_t)WORLD(&M)->nr_cpus;
	idx_t ci = pool_alloc(&M, P_CACHE, 1);
	idx_t cn = pool_alloc(&M, P_CNODE, nr_nodes);
	idx_t pcs = pool_alloc(&M, P_PCS, nr_cpus);
	idx_t st = pool_alloc(&M, P_U64, nr_cpus * NR_SLUB_STAT_ITEMS);
	struct world *w = WORLD(&M);
	w->nr_caches++;
	struct cache_rec *c = cache_r(&M, ci);
	snprintf(c->name, sizeof c->name, "%s", name);
	c->alive = true;
	c->flags = flags;
	c->g.size = size;
	c->g.object_size = object_size;
	c->g.order = c->g.min_order = order;
	c->g.objects = c->g.min_objects = objects;
	c->g.align = align;
	c->g.sheaf_capacity = 28;
	c->has_sheaves = true;
	c->min_partial = c->g.min_partial = 5;
	c->remote_node_defrag_ratio = 1000;
	c->random_seq = NIL;
	c->decl = NIL;
	c->cnode = cn;
	c->pcs = pcs;
	c->stats = st;
	for (int n = 0; n < w->nr_nodes; n++) {
		struct cnode_rec *r = cnode_r(&M, cn + (idx_t)n);
		r->exists = w->nodes[n].mem_pages > 0;
		r->node = n;
		r->list_lock = -1;
		r->partial = r->full = (struct dlist){ NIL, NIL, 0 };
		r->barn = NIL;
	}
	for (int cpu = 0; cpu < w->nr_cpus; cpu++)
		*pcs_r(&M, pcs + (idx_t)cpu) = (struct pcs_rec){ .lock = -1, .main = NIL, .spare = NIL };
	return ci;
}

/* `count` slab records (no objects) with `inuse` in use on node's partial list. */
static void add_partial_slabs(idx_t ci, int node, int count, uint32_t inuse)
{
	for (int i = 0; i < count; i++) {
		idx_t s = pool_alloc(&M, P_SLAB, 1);
		struct slab_rec *sr = slab_r(&M, s);
		sr->cache = ci;
		sr->alive = true;
		sr->node = node;
		sr->order = (uint8_t)cache_r(&M, ci)->g.order;
		sr->objects = cache_r(&M, ci)->g.objects;
		sr->inuse = inuse;
		sr->freelist = sr->obj0 = NIL;
		sr->list = LIST_PARTIAL;
		sr->pfn = 0x100000 + s * 4;
		struct cnode_rec *n = get_node(&M, ci, node);
		dlist_add(&M, P_SLAB, &n->partial, s, true);
		n->nr_partial++;
	}
}

static void set_node_totals(idx_t ci, int node, uint64_t slabs)
{
	struct cnode_rec *n = get_node(&M, ci, node);
	n->nr_slabs = slabs;
	n->total_objects = slabs * cache_r(&M, ci)->g.objects;
}

/* Per-CPU stat counts from the dump's " C<cpu>=<n>" fields. */
static void load_stats(idx_t ci, const char *dump)
{
	for (const char *line = dump; *line;) {
		const char *end = strchr(line, '\n');
		for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
			size_t nl = strlen(stat_names[si]);
			if (strncmp(line + 2, stat_names[si], nl) || line[2 + nl] != ':')
				continue;
			for (const char *p = line; p < end; p++) {
				int cpu;
				unsigned long long v;
				if (p[0] == ' ' && p[1] == 'C' && sscanf(p, " C%d=%llu", &cpu, &v) == 2)
					*stat_ptr(&M, ci, cpu, (enum stat_item)si) = v;
			}
		}
		line = end + 1;
	}
}

static idx_t build_bio256(void)
{
	/* seed 004: 64 CPUs (C0..C63), slabs on nodes 1 and 5 only. */
	setup_world(8, 64);
	idx_t ci = add_cache("bio-256", 320, 256, 2, 51, 64,
			     SLAB_HWCACHE_ALIGN | SLAB_TYPESAFE_BY_RCU);
	/* partial 146 N1=67 N5=79, objects_partial 3772 N1=1849 N5=1923 */
	add_partial_slabs(ci, 1, 40, 28);
	add_partial_slabs(ci, 1, 27, 27);
	add_partial_slabs(ci, 5, 27, 25);
	add_partial_slabs(ci, 5, 52, 24);
	/* slabs 178 N1=83 N5=95; total_objects 9078 N1=4233 N5=4845 */
	set_node_totals(ci, 1, 83);
	set_node_totals(ci, 5, 95);
	load_stats(ci, seed004_bio256);
	return ci;
}

static void test_sysfs_seed004(void)
{
	idx_t ci = build_bio256();
	struct sbuf b = {0}, want = {0};
	sb_printf(&want, "%s./cache_dma:0\n", seed004_bio256);
	CHECK_EQ_INT(view_sysfs(&M, "bio-256", &b), 0);
	CHECK_EQ_STR(b.s, want.s);
	sb_free(&b);

	CHECK_EQ_INT(view_sysfs(&M, "no-such-cache", &b), -1);
	CHECK_EQ_INT(view_sysfs(&M, "bio-25", &b), -1);

	/* A ctor prints a symbol (hash order: between free_add_partial and
	 * slab_size); kmalloc caches have usersize = object size; per-CPU stat
	 * counts are unsigned int in the kernel. */
	cache_r(&M, ci)->ctor = true;
	cache_r(&M, ci)->is_kmalloc = true;
	*stat_ptr(&M, ci, 0, SHEAF_RETURN_SLOW) = (1ull << 32) + 5;
	*stat_ptr(&M, ci, 7, SHEAF_RETURN_SLOW) = 3;
	b.len = 0;
	CHECK_EQ_INT(view_sysfs(&M, "bio-256", &b), 0);
	CHECK(strstr(b.s, "\n./free_add_partial:29301755 C0=958223 ") != NULL);
	CHECK(strstr(b.s, "\n./ctor:bio_256_ctor+0x0/0x20\n./slab_size:320\n./cache_dma:0\n") != NULL);
	CHECK(strstr(b.s, "\n./usersize:256\n") != NULL);
	CHECK(strstr(b.s, "\n./sheaf_return_slow:8 C0=5 C7=3\n") != NULL);
	sb_free(&b);

	/* view_stats keeps the full 64-bit count. */
	view_stats(&M, &b);
	CHECK(strncmp(b.s, "cache bio-256\n  alloc_fastpath 897715187 C1=45250242 C3=", 56) == 0);
	CHECK(strstr(b.s, "\n  sheaf_return_slow 4294967304 C0=4294967301 C7=3\n") != NULL);
	CHECK(strstr(b.s, "\n  sheaf_prefill_fast 0\n") != NULL);
	CHECK(strstr(b.s, "\n  fp_writes 0\n  slabs_allocated 0 slabs_freed 0\npage_alloc\n"
			  "  node0 alloc free failed=0\n") != NULL);
	sb_free(&b);

	/* A destroyed cache has no directory. */
	cache_r(&M, ci)->alive = false;
	CHECK_EQ_INT(view_sysfs(&M, "bio-256", &b), -1);
	sb_free(&b);
	sb_free(&want);
	arena_free(&M);
}

static void test_slabinfo(void)
{
	struct sbuf b = {0};
	setup_world(1, 4);
	/* no cache yet: the kernel never has an empty slab_caches (the boot
	 * caches), so print_slabinfo_header()'s two lines are always there */
	view_slabinfo(&M, &b);
	CHECK_EQ_STR(b.s,
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
		" : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs>"
		" <num_slabs> <sharedavail>\n");
	b.len = 0;

	/* seed 003 rows: RAWv6 3 full slabs; request_sock_TCPv6 no slabs. */
	idx_t raw = add_cache("RAWv6", 1216, 1200, 1, 26, 8, SLAB_HWCACHE_ALIGN);
	set_node_totals(raw, 0, 3);
	add_cache("request_sock_TCPv6", 312, 304, 0, 52, 8, SLAB_HWCACHE_ALIGN);
	idx_t dead = add_cache("dead", 64, 64, 0, 64, 8, 0);
	cache_r(&M, dead)->alive = false;
	idx_t bio = add_cache("bio-256", 320, 256, 2, 51, 64, SLAB_HWCACHE_ALIGN);
	add_partial_slabs(bio, 0, 67, 1849 / 67);
	add_partial_slabs(bio, 0, 1, 1849 % 67); /* 68 partial slabs, 1849 in use */
	set_node_totals(bio, 0, 178);
	/* free on partial: 68 * 51 - 1849 = 1619; active 9078 - 1619 = 7459 */
	view_slabinfo(&M, &b);
	CHECK_EQ_STR(b.s,
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
		" : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs>"
		" <num_slabs> <sharedavail>\n"
		"bio-256             7459   9078    320   51    4 : tunables    0    0    0 : slabdata    178    178      0\n"
		"request_sock_TCPv6      0      0    312   52    1 : tunables    0    0    0 : slabdata      0      0      0\n"
		"RAWv6                 78     78   1216   26    2 : tunables    0    0    0 : slabdata      3      3      0\n");
	sb_free(&b);
	arena_free(&M);
}

/* Brackets and braces balance outside strings; strings close. */
static bool json_balanced(const char *s)
{
	char stack[64];
	int depth = 0;
	bool in_str = false;
	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_str = false;
			else if ((unsigned char)*s < 0x20)
				return false;
			continue;
		}
		if (*s == '"')
			in_str = true;
		else if (*s == '{' || *s == '[') {
			if (depth == 64)
				return false;
			stack[depth++] = *s;
		} else if (*s == '}' || *s == ']') {
			if (!depth || stack[--depth] != (*s == '}' ? '{' : '['))
				return false;
		}
	}
	return depth == 0 && !in_str;
}

static void test_snapshot(void)
{
	struct sbuf b = {0};
	setup_world(2, 2);
	idx_t ci = add_cache("odd\"name\\\n", 64, 64, 0, 64, 8, SLAB_HWCACHE_ALIGN);
	idx_t s = slab_create(&M, ci, 0, 0, 0x1234);
	idx_t o0 = slab_pop_object(&M, s), o1 = slab_pop_object(&M, s);
	obj_r(&M, o0)->state = OBJ_USER;
	obj_r(&M, o1)->state = OBJ_SHEAF;
	struct cnode_rec *n = get_node(&M, ci, 0);
	dlist_add(&M, P_SLAB, &n->partial, s, false);
	n->nr_partial = 1;
	slab_r(&M, s)->list = LIST_PARTIAL;
	set_node_totals(ci, 0, 1);
	struct frame *f = frame_r(&M, 1 * FRAME_DEPTH + 0);
	f->k_fn = KFN_kmem_cache_free;
	frame_r(&M, 1 * FRAME_DEPTH + 1)->k_fn = KFN___slab_free;
	WORLD(&M)->cpus[1].depth = 2;
	WORLD(&M)->cpus[1].op = 7;

	view_snapshot_json(&M, &b);
	CHECK(b.s && strncmp(b.s, "{\"schema\":1,", 12) == 0);
	CHECK(json_balanced(b.s));
	CHECK(strstr(b.s, "\"name\":\"odd\\\"name\\\\\\n\"") != NULL);
	CHECK(strstr(b.s, "\"state\":\"us") != NULL);
	CHECK(strstr(b.s, "\"partial\":[0]") != NULL);
	CHECK(strstr(b.s, "\"freelist\":[2,3,4,") != NULL);
	CHECK(strstr(b.s, "\"op\":7,\"frames\":[\"kmem_cache_free\",\"__slab_free\"]") != NULL);
	CHECK(strstr(b.s, "\"base\":\"ffff888001234000\"") != NULL);
	/* object 2's next is object 3: base + 3 * 64 */
	CHECK(strstr(b.s, "{\"obj\":2,\"raw\":") != NULL);
	CHECK(strstr(b.s, "\"next\":\"ffff8880012340c0\"") != NULL);
	CHECK(strstr(b.s, "\"nodes\":[{\"id\":0,") != NULL);
	sb_free(&b);
	arena_free(&M);
}

/* The end of the JSON value starting at p ('[' or '{'): strings skipped,
 * escapes included. */
static const char *json_value_end(const char *p)
{
	int depth = 0;
	for (; *p; p++) {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
		} else if (*p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ']' || *p == '}') && --depth == 0) {
			return p + 1;
		}
	}
	return p;
}

/* What the lean snapshot sent for a slab id: its owners' version and text. */
struct sent_owners {
	unsigned ver;
	char *text;
};

/* lean (svz_snapshot_lean_json) against full (svz_snapshot_json) taken at the
 * same point: the same text once each slab's ,"owners_v":V is taken out and,
 * where lean leaves a slab's ,"owners":[...] out, full's is skipped; the
 * owners left out must be the text sent earlier for that slab id with the
 * same version (kept in sent[]), and a version once sent names those owners
 * only. Returns how many slabs' owners were left out, -1 on a mismatch. */
static int lean_matches_full(const char *lean, const char *full, struct sent_owners *sent, unsigned nsent)
{
	static const char ver_key[] = ",\"owners_v\":", own_key[] = ",\"owners\":[", id_key[] = "{\"id\":";
	unsigned id = 0, ver = 0;
	int left_out = 0;
	while (*full || *lean) {
		if (strncmp(lean, id_key, sizeof id_key - 1) == 0 && strncmp(full, id_key, sizeof id_key - 1) == 0)
			id = (unsigned)strtoul(lean + sizeof id_key - 1, NULL, 10);
		if (strncmp(lean, ver_key, sizeof ver_key - 1) == 0) {
			char *end;
			ver = (unsigned)strtoul(lean + sizeof ver_key - 1, &end, 10);
			lean = end;
			if (id >= nsent || ver == 0)
				return -1;
			bool sends = strncmp(lean, own_key, sizeof own_key - 1) == 0;
			bool has = strncmp(full, own_key, sizeof own_key - 1) == 0;
			if (!has)
				return -1;
			const char *own_end = json_value_end(full + sizeof own_key - 2);
			size_t len = (size_t)(own_end - full);
			if (sends) {
				/* a new version, or the same owners again under theirs */
				if (sent[id].ver == ver && (strlen(sent[id].text) != len || strncmp(sent[id].text, full, len)))
					return -1;
				free(sent[id].text);
				sent[id].text = malloc(len + 1);
				memcpy(sent[id].text, full, len);
				sent[id].text[len] = '\0';
				sent[id].ver = ver;
				continue; /* the two owners arrays compare as text below */
			}
			if (sent[id].ver != ver || strlen(sent[id].text) != len || strncmp(sent[id].text, full, len))
				return -1;
			full = own_end;
			left_out++;
			continue;
		}
		if (*lean != *full)
			return -1;
		lean++;
		full++;
	}
	return left_out;
}

/* svz_snapshot_lean_json() through a run that frees slabs (their ids come
 * back), seeks back to checkpoints and steps on (the owners it sent last are
 * then another timeline's), under both eras. */
static void test_snapshot_lean(void)
{
	char *text = svz_t_read_file("scenarios/partial-churn.trace", NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	const char *presets[] = { "v6.19", "v7.0-rc1" };
	for (unsigned pi = 0; pi < sizeof presets / sizeof *presets; pi++) {
		int h = svz_open(text, presets[pi], "");
		CHECK(h > 0);
		if (h <= 0)
			continue;
		enum { NSENT = 4096 };
		struct sent_owners *sent = calloc(NSENT, sizeof *sent);
		int cps[4], ncp = 0, bad = 0, calls = 0, left_out = 0, first = -1;
		int total = svz_ops_total(h);
		for (int round = 0; round < 3; round++) {
			for (int op = 0; op <= total; op += 1 + total / 40) {
				svz_run_to_op(h, op);
				/* a step apart, most slabs' owners did not change */
				for (int k = 0; k < 3; k++) {
					svz_step(h);
					const char *lean_text = svz_snapshot_lean_json(h);
					size_t lean_len = strlen(lean_text);
					char *lean = malloc(lean_len + 1);
					memcpy(lean, lean_text, lean_len + 1);
					int r = lean_matches_full(lean, svz_snapshot_json(h), sent, NSENT);
					free(lean);
					if (first < 0)
						first = r;
					bad += r < 0;
					left_out += r > 0 ? r : 0;
					calls++;
				}
				if (round == 0 && ncp < 4 && op % (1 + total / 4) == 0)
					cps[ncp++] = svz_checkpoint(h);
			}
			/* back to a checkpoint: the model's state is an earlier one */
			if (ncp)
				CHECK_EQ_INT(svz_restore(h, cps[round % ncp]), 0);
		}
		CHECK_EQ_INT(bad, 0);
		CHECK_EQ_INT(first, 0); /* the first call sends every slab's owners */
		CHECK(left_out > 0);    /* and later calls leave unchanged ones out */
		CHECK(calls > 100);
		for (int i = 0; i < NSENT; i++)
			free(sent[i].text);
		free(sent);
		svz_close(h);
	}
	free(text);
}

int main(void)
{
	test_sbuf();
	test_lib();
	test_sysfs_seed004();
	test_slabinfo();
	test_snapshot();
	test_snapshot_lean();
	return svz_t_done();
}
