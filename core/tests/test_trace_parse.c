/* Trace format v1: valid traces parse into exactly the expected ops, and
 * malformed ones fail with exactly the expected "file:line:col" message.
 * Also covers the pieces the parser leans on: presets, svz_config_set and
 * the gfp names. */
#include <stdlib.h>

#include "harness.h"
#include "slubviz/config.h"
#include "slubviz/gfp.h"
#include "slubviz/trace.h"

#define HDR "slubviz-trace 1\n"

static int parse(const char *text, struct svz_trace *t, char *msg, size_t len)
{
	struct svz_error e;
	int rc = svz_trace_parse(text, strlen(text), NULL, t, &e);

	if (rc)
		svz_error_format(&e, "t.trace", msg, len);
	else if (len)
		msg[0] = 0;
	return rc;
}

/* Parses text that must be valid; on failure prints why and returns -1. */
static int parse_ok(const char *text, struct svz_trace *t)
{
	char msg[512];
	int rc = parse(text, t, msg, sizeof msg);

	CHECK_EQ_STR(msg, "");
	return rc;
}

#define EXPECT_ERR(text, want) do { \
	struct svz_trace _t; char _m[512]; \
	int _rc = parse((text), &_t, _m, sizeof _m); \
	CHECK_EQ_INT(_rc, -1); \
	if (_rc == 0) svz_trace_free(&_t); \
	else CHECK_EQ_STR(_m, (want)); \
} while (0)

/* One op as text: "L<line> c<cpu> <op> <cache|size> <handle(s)> gfp= node= at=". */
static const char *op_str(const struct svz_trace *t, uint32_t i)
{
	static char buf[512];
	const struct svz_op *o = &t->ops[i];
	char gfp[160];
	int n;

	svz_gfp_format(o->gfp, gfp, sizeof gfp);
	n = snprintf(buf, sizeof buf, "L%u c%u %s", o->line, o->cpu,
		     svz_op_name((enum svz_op_type)o->type));
	if (o->cache != SVZ_NO_CACHE)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %s", t->caches[o->cache].name);
	if (o->type == SVZ_OP_KMALLOC)
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %u", o->size);
	switch (o->type) {
	case SVZ_OP_ALLOC_BULK:
	case SVZ_OP_FREE_BULK:
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %u:%s..%s", o->count,
			      t->handle_names[t->handle_lists[o->handle]],
			      t->handle_names[t->handle_lists[o->handle + o->count - 1]]);
		break;
	case SVZ_OP_ALLOC:
	case SVZ_OP_FREE:
	case SVZ_OP_KMALLOC:
	case SVZ_OP_KFREE:
		n += snprintf(buf + n, sizeof buf - (size_t)n, " %s", t->handle_names[o->handle]);
		break;
	default:
		break;
	}
	snprintf(buf + n, sizeof buf - (size_t)n, " gfp=%s node=%d at=%s", gfp, o->node,
		 t->sites[o->site]);
	return buf;
}

/* ---- config, presets, gfp ------------------------------------------------ */

static void test_config(void)
{
	struct svz_config c;
	char err[256];
	int i;

	svz_config_default(&c);
	CHECK_EQ_INT(c.topo.nr_nodes, 1);
	CHECK_EQ_INT(c.topo.node_mem_bytes[0], 1ull << 30);
	CHECK_EQ_INT(c.topo.nr_cpus, 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ_INT(c.topo.cpu_node[i], 0);
	CHECK_EQ_INT(c.topo.possible, 4);
	CHECK_EQ_INT(c.topo.present, 4);
	CHECK_EQ_INT(c.topo.online, 4);
	CHECK_EQ_INT(c.topo.boot_online, 1);
	CHECK_EQ_INT(c.topo.page_size, 4096);
	CHECK_EQ_INT(c.sw.seed, 1);
	CHECK_EQ_STR(c.preset, svz_newest_preset());
	CHECK_EQ_INT(svz_topology_check(&c.topo, err, sizeof err), 0);

	/* The table: thirteen presets in release order, each setting every switch. */
	static const char *const names[] = { "v5.10", "v5.11-rc4", "v5.11", "v5.12", "v6.6", "v6.8", "v6.19",
					     "v7.0-17c38c88294d", "v7.0-rc1", "v7.0-rc2+fix1",
					     "v7.0+fix1+fix2", "v7.1", "v7.2-candidate" };
	for (i = 0; i < 13; i++) {
		static const char *const keys[] = { "era=", "cpu_source=", "order_form=",
						    "freelist_random=1", "freelist_hardened=1",
						    "fix1=", "fix2=", "memoryless_sheaves=", "deferred_freelist=",
						    "batched_partial=", "cpu_partial_free=" };
		CHECK_EQ_STR(svz_preset_name(i), names[i]);
		CHECK(svz_preset_desc(i) && svz_preset_desc(i)[0]);
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
			CHECK(strstr(svz_preset_settings(i), keys[k]) != NULL);
	}
	CHECK(svz_preset_name(13) == NULL);
	CHECK_EQ_STR(svz_newest_preset(), "v7.2-candidate");
	/* the name v7.2-candidate had before still runs it */
	svz_config_default(&c);
	c.sw.deferred_freelist = false;
	CHECK_EQ_INT(svz_preset_apply(&c, "v7.1-candidate"), 0);
	CHECK_EQ_STR(c.preset, "v7.2-candidate");
	CHECK(c.sw.deferred_freelist && c.sw.batched_partial);

	/* Each preset's switches, as (era, cpu_source, order_form, fix1, fix2, deferred, batched,
	 * cpu_partial_free, memoryless_sheaves). v7.1 has its merged series (e65d430111a5
	 * and its two parents) instead of the fix 2 RFC, and neither seed 000 nor 002
	 * (slab-for-7.1's commits); v7.2-candidate adds both (slab-for-7.2). */
	static const int want[13][9] = {
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_POSSIBLE, SVZ_ORDER_LOOP, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_ONLINE, SVZ_ORDER_LOOP, 0, 0, 0, 0, 0 },
		/* v5.11 itself: 3286222fc609 came in after -rc7 */
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_PRESENT, SVZ_ORDER_LOOP, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_PRESENT, SVZ_ORDER_LOOP, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_PRESENT, SVZ_ORDER_LOOP, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_CLASSIC, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_SHEAVES, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 0, 0, 0, 0, 1 },
		{ SVZ_ERA_SHEAVES, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 0, 0, 0, 0, 0 },
		{ SVZ_ERA_SHEAVES, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 1, 0, 0, 0, 0 },
		{ SVZ_ERA_SHEAVES, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 1, 1, 0, 0, 0 },
		{ SVZ_ERA_SHEAVES, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 1, 0, 0, 0, 0, 1 },
		{ SVZ_ERA_SHEAVES, SVZ_CPUS_PRESENT, SVZ_ORDER_FRACTION, 1, 0, 1, 1, 0, 1 },
	};
	for (i = 0; i < 13; i++) {
		svz_config_default(&c);
		/* Start from the opposite of everything so "sets every switch" shows. */
		c.sw.era = (enum svz_era)!want[i][0];
		c.sw.refill_on_spin = !want[i][3];
		c.sw.barn_all_nodes = !want[i][4];
		c.sw.deferred_freelist = !want[i][5];
		c.sw.batched_partial = !want[i][6];
		c.sw.cpu_partial_free = !want[i][7];
		c.sw.memoryless_sheaves = !want[i][8];
		c.sw.freelist_random = c.sw.freelist_hardened = false;
		c.sw.continue_on_error = true;
		c.sw.seed = 77;
		CHECK_EQ_INT(svz_preset_apply(&c, names[i]), 0);
		CHECK_EQ_STR(c.preset, names[i]);
		CHECK_EQ_INT(c.sw.era, want[i][0]);
		CHECK_EQ_INT(c.sw.cpu_source, want[i][1]);
		CHECK_EQ_INT(c.sw.order_form, want[i][2]);
		CHECK_EQ_INT(c.sw.refill_on_spin, want[i][3]);
		CHECK_EQ_INT(c.sw.barn_all_nodes, want[i][4]);
		CHECK_EQ_INT(c.sw.deferred_freelist, want[i][5]);
		CHECK_EQ_INT(c.sw.batched_partial, want[i][6]);
		CHECK_EQ_INT(c.sw.cpu_partial_free, want[i][7]);
		CHECK_EQ_INT(c.sw.memoryless_sheaves, want[i][8]);
		CHECK(c.sw.freelist_random && c.sw.freelist_hardened);
		/* Run choices are not kernel switches: presets leave them alone. */
		CHECK(c.sw.continue_on_error);
		CHECK_EQ_INT(c.sw.seed, 77);
	}
	CHECK_EQ_INT(svz_preset_apply(&c, "v4.0"), -1);

	svz_config_default(&c);
	CHECK_EQ_INT(svz_config_set(&c, "fix2", "off", err, sizeof err), 0);
	CHECK(!c.sw.barn_all_nodes);
	CHECK_EQ_INT(svz_config_set(&c, "refill_on_spin", "n", err, sizeof err), 0);
	CHECK(!c.sw.refill_on_spin);
	CHECK_EQ_INT(svz_config_set(&c, "continue_on_error", "true", err, sizeof err), 0);
	CHECK(c.sw.continue_on_error);
	CHECK_EQ_INT(svz_config_set(&c, "seed", "0xffffffffffffffff", err, sizeof err), 0);
	CHECK_EQ_INT(c.sw.seed == UINT64_MAX, 1);
	CHECK_EQ_INT(svz_config_set(&c, "seed", "18446744073709551616", err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected seed=an unsigned 64-bit integer, got '18446744073709551616'");
	CHECK_EQ_INT(svz_config_set(&c, "cpu_source", "online", err, sizeof err), 0);
	CHECK_EQ_INT(c.sw.cpu_source, SVZ_CPUS_ONLINE);
	CHECK_EQ_INT(svz_config_set(&c, "order_form", "loop", err, sizeof err), 0);
	CHECK_EQ_INT(c.sw.order_form, SVZ_ORDER_LOOP);
	CHECK_EQ_INT(svz_config_set(&c, "era", "classic", err, sizeof err), 0);
	CHECK_EQ_INT(c.sw.era, SVZ_ERA_CLASSIC);
	CHECK_EQ_INT(svz_config_set(&c, "page_size", "65536", err, sizeof err), 0);
	CHECK_EQ_INT(c.topo.page_size, 65536);
	CHECK_EQ_INT(svz_config_set(&c, "cpu_source", "all", err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected cpu_source=online, present or possible, got 'all'");
	CHECK_EQ_INT(svz_config_set(&c, "order_form", "x", err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected order_form=loop or order_form=fraction, got 'x'");
	CHECK_EQ_INT(svz_config_set(&c, "online", "0", err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected online=1..8192 CPUs, got '0'");

	/* svz_topology_check */
	svz_config_default(&c);
	c.topo.cpu_node[3] = 1;
	CHECK_EQ_INT(svz_topology_check(&c.topo, err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected CPU 3 on a node 0..0, got node 1");
	svz_config_default(&c);
	c.topo.present = 8;
	CHECK_EQ_INT(svz_topology_check(&c.topo, err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected 1 <= online <= present <= possible CPUs, got online=4 present=8 possible=4");
	svz_config_default(&c);
	c.topo.possible = 2;
	CHECK_EQ_INT(svz_topology_check(&c.topo, err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected possible CPUs 4..8192 (every declared CPU is possible), got 2");
}

static void test_gfp(void)
{
	char buf[256], err[256];
	uint32_t g;

	CHECK_EQ_INT(svz_gfp_parse("GFP_KERNEL|__GFP_ZERO", &g, err, sizeof err), 0);
	CHECK_EQ_INT(g, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_INT(svz_gfp_parse("mempool(GFP_NOIO)", &g, err, sizeof err), 0);
	CHECK_EQ_INT(g, svz_gfp_mempool_first(GFP_NOIO));
	CHECK(!svz_gfp_allow_blocking(g) && svz_gfp_allow_spinning(g));
	CHECK_EQ_INT(svz_gfp_parse("0", &g, err, sizeof err), 0);
	CHECK_EQ_INT(g, 0);
	CHECK_EQ_INT(svz_gfp_parse("0x100|GFP_NOWAIT", &g, err, sizeof err), 0);
	CHECK_EQ_INT(g, __GFP_ZERO | GFP_NOWAIT);
	CHECK_EQ_INT(svz_gfp_parse("none", &g, err, sizeof err), 0);
	CHECK_EQ_INT(g, 0);

	/* Every name round-trips through parse. */
	static const struct { const char *name; uint32_t v; } names[] = {
		{ "GFP_ATOMIC", GFP_ATOMIC }, { "GFP_KERNEL", GFP_KERNEL },
		{ "GFP_KERNEL_ACCOUNT", GFP_KERNEL_ACCOUNT }, { "GFP_NOWAIT", GFP_NOWAIT },
		{ "GFP_NOIO", GFP_NOIO }, { "GFP_NOFS", GFP_NOFS }, { "GFP_USER", GFP_USER },
		{ "GFP_DMA", GFP_DMA }, { "GFP_DMA32", GFP_DMA32 }, { "__GFP_RECLAIM", __GFP_RECLAIM },
		{ "__GFP_DMA", __GFP_DMA }, { "__GFP_HIGHMEM", __GFP_HIGHMEM },
		{ "__GFP_DMA32", __GFP_DMA32 }, { "__GFP_MOVABLE", __GFP_MOVABLE },
		{ "__GFP_RECLAIMABLE", __GFP_RECLAIMABLE }, { "__GFP_HIGH", __GFP_HIGH },
		{ "__GFP_IO", __GFP_IO }, { "__GFP_FS", __GFP_FS }, { "__GFP_ZERO", __GFP_ZERO },
		{ "__GFP_DIRECT_RECLAIM", __GFP_DIRECT_RECLAIM },
		{ "__GFP_KSWAPD_RECLAIM", __GFP_KSWAPD_RECLAIM }, { "__GFP_WRITE", __GFP_WRITE },
		{ "__GFP_NOWARN", __GFP_NOWARN }, { "__GFP_RETRY_MAYFAIL", __GFP_RETRY_MAYFAIL },
		{ "__GFP_NOFAIL", __GFP_NOFAIL }, { "__GFP_NORETRY", __GFP_NORETRY },
		{ "__GFP_MEMALLOC", __GFP_MEMALLOC }, { "__GFP_COMP", __GFP_COMP },
		{ "__GFP_NOMEMALLOC", __GFP_NOMEMALLOC }, { "__GFP_HARDWALL", __GFP_HARDWALL },
		{ "__GFP_THISNODE", __GFP_THISNODE }, { "__GFP_ACCOUNT", __GFP_ACCOUNT },
		{ "__GFP_NO_OBJ_EXT", __GFP_NO_OBJ_EXT },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		g = 0xdead;
		CHECK_EQ_INT(svz_gfp_parse(names[i].name, &g, err, sizeof err), 0);
		CHECK_EQ_INT(g, names[i].v);
	}

	/* ftrace's rendering: composites with the most bits first. */
	svz_gfp_format(GFP_KERNEL | __GFP_ZERO, buf, sizeof buf);
	CHECK_EQ_STR(buf, "GFP_KERNEL|__GFP_ZERO");
	svz_gfp_format(svz_gfp_mempool_first(GFP_NOIO), buf, sizeof buf);
	CHECK_EQ_STR(buf, "GFP_NOWAIT|__GFP_NORETRY|__GFP_NOMEMALLOC");
	svz_gfp_format(svz_gfp_mempool_first(GFP_KERNEL), buf, sizeof buf);
	CHECK_EQ_STR(buf, "GFP_NOWAIT|__GFP_FS|__GFP_NORETRY|__GFP_NOMEMALLOC");
	svz_gfp_format(GFP_KERNEL_ACCOUNT, buf, sizeof buf);
	CHECK_EQ_STR(buf, "GFP_KERNEL_ACCOUNT");
	svz_gfp_format(GFP_USER | __GFP_COMP, buf, sizeof buf);
	CHECK_EQ_STR(buf, "GFP_USER|__GFP_COMP");
	svz_gfp_format(GFP_ATOMIC | __GFP_NOWARN, buf, sizeof buf);
	CHECK_EQ_STR(buf, "GFP_ATOMIC|__GFP_NOWARN");
	svz_gfp_format(__GFP_DIRECT_RECLAIM, buf, sizeof buf);
	CHECK_EQ_STR(buf, "__GFP_DIRECT_RECLAIM");
	svz_gfp_format(0, buf, sizeof buf);
	CHECK_EQ_STR(buf, "0");
	svz_gfp_format(__GFP_ZERO | 0x200, buf, sizeof buf);
	CHECK_EQ_STR(buf, "__GFP_ZERO|0x200");
	svz_gfp_format(GFP_KERNEL | __GFP_ZERO, buf, 8); /* truncates, stays terminated */
	CHECK_EQ_STR(buf, "GFP_KER");

	CHECK_EQ_INT(svz_gfp_parse("GFP_KERNEL|GFP_BOGUS", &g, err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected a gfp flag (GFP_KERNEL, GFP_NOWAIT, GFP_ATOMIC, GFP_NOIO, "
			  "__GFP_ZERO, mempool(...), 0x...), got 'GFP_BOGUS'");
	CHECK_EQ_INT(svz_gfp_parse("GFP_KERNEL|", &g, err, sizeof err), -1);
	CHECK_EQ_INT(svz_gfp_parse("mempool(GFP_NOIO", &g, err, sizeof err), -1);
	CHECK_EQ_STR(err, "expected ')' closing mempool(, got end of flags");
	CHECK_EQ_INT(svz_gfp_parse("0x1ffffffff", &g, err, sizeof err), -1);
	CHECK_EQ_INT(svz_gfp_parse("GFP_KERNEL)", &g, err, sizeof err), -1);
	CHECK_EQ_INT(svz_gfp_parse("", &g, err, sizeof err), -1);
}

/* ---- valid traces -------------------------------------------------------- */

static void test_basic(void)
{
	struct svz_trace t;

	if (parse_ok("# bio allocation, one CPU frees what another allocated.\n"
		     "#   indented second line\n"
		     "\n"
		     "# not part of the description\n"
		     "slubviz-trace 1   # header\n"
		     "preset v6.19\n"
		     "seed 42\n"
		     "cache bio-256 size=256 align=64 flags=HWCACHE_ALIGN,TYPESAFE_BY_RCU\n"
		     "cache maple_node size=256 flags=SLAB_ACCOUNT|SLAB_NO_MERGE ctor sheaf_capacity=32\n"
		     "\tc1   alloc bio-256 b1 gfp=mempool(GFP_NOIO) node=0 at=bio_alloc_bioset+0x8c\n"
		     "c0 free bio-256 b1 at=bio_endio+0x20\n"
		     "c2 kmalloc 100 k1\n"
		     "c2 kmalloc 1K k2 gfp=GFP_ATOMIC|__GFP_ZERO node=-1 at=bio_alloc_bioset+0x8c\n"
		     "c3 kfree k1\n"
		     "c0 flush bio-256\n"
		     "c1 flush_all maple_node\n"
		     "c2 shrink bio-256\n"
		     "c3 destroy maple_node\n",
		     &t))
		return;
	CHECK_EQ_STR(t.description, "bio allocation, one CPU frees what another allocated.\n"
				    "  indented second line");
	CHECK_EQ_STR(t.config.preset, "v6.19");
	CHECK_EQ_INT(t.config.sw.era, SVZ_ERA_CLASSIC);
	CHECK_EQ_INT(t.config.sw.seed, 42);
	/* No node/cpus directive: the default topology. */
	CHECK_EQ_INT(t.config.topo.nr_nodes, 1);
	CHECK_EQ_INT(t.config.topo.nr_cpus, 4);
	CHECK_EQ_INT(t.config.topo.online, 4);

	CHECK_EQ_INT(t.nr_caches, 2);
	CHECK_EQ_STR(t.caches[0].name, "bio-256");
	CHECK_EQ_INT(t.caches[0].object_size, 256);
	CHECK_EQ_INT(t.caches[0].align, 64);
	CHECK_EQ_INT(t.caches[0].flags, 0x0010u | 0x0200u); /* HWCACHE_ALIGN | TYPESAFE_BY_RCU */
	CHECK_EQ_INT(t.caches[0].ctor, 0);
	CHECK_EQ_INT(t.caches[0].sheaf_capacity, 0);
	CHECK_EQ_INT(t.caches[0].line, 8);
	CHECK_EQ_STR(t.caches[1].name, "maple_node");
	CHECK_EQ_INT(t.caches[1].flags, 0x2000u | 0x1000u); /* ACCOUNT | NO_MERGE */
	CHECK_EQ_INT(t.caches[1].ctor, 1);
	CHECK_EQ_INT(t.caches[1].sheaf_capacity, 32);
	CHECK_EQ_INT(t.caches[1].align, 0);

	CHECK_EQ_INT(t.nr_ops, 9);
	if (t.nr_ops == 9) {
		CHECK_EQ_STR(op_str(&t, 0), "L10 c1 alloc bio-256 b1 gfp=GFP_NOWAIT|__GFP_NORETRY|"
					    "__GFP_NOMEMALLOC node=0 at=bio_alloc_bioset+0x8c");
		CHECK_EQ_STR(op_str(&t, 1), "L11 c0 free bio-256 b1 gfp=0 node=-1 at=bio_endio+0x20");
		CHECK_EQ_STR(op_str(&t, 2), "L12 c2 kmalloc 100 k1 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 3), "L13 c2 kmalloc 1024 k2 gfp=GFP_ATOMIC|__GFP_ZERO "
					    "node=-1 at=bio_alloc_bioset+0x8c");
		CHECK_EQ_STR(op_str(&t, 4), "L14 c3 kfree k1 gfp=0 node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 5), "L15 c0 flush bio-256 gfp=0 node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 6), "L16 c1 flush_all maple_node gfp=0 node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 7), "L17 c2 shrink bio-256 gfp=0 node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 8), "L18 c3 destroy maple_node gfp=0 node=-1 at=");
		CHECK_EQ_INT(t.ops[0].cache, 0);
		CHECK_EQ_INT(t.ops[6].cache, 1);
		CHECK_EQ_INT(t.ops[2].cache, SVZ_NO_CACHE);
		CHECK_EQ_INT(t.ops[4].cache, SVZ_NO_CACHE);
		CHECK_EQ_INT(t.ops[0].handle, t.ops[1].handle);
		CHECK_EQ_INT(t.ops[2].handle, t.ops[4].handle);
		CHECK_EQ_INT(t.ops[0].site, t.ops[3].site); /* interned once */
	}
	CHECK_EQ_INT(t.nr_handles, 3);
	CHECK_EQ_INT(t.nr_sites, 3);
	CHECK_EQ_STR(t.sites[0], "");
	CHECK_EQ_INT(t.nr_handle_lists, 0);
	svz_trace_free(&t);
	CHECK(t.ops == NULL && t.nr_ops == 0);
	svz_trace_free(&t); /* twice is harmless */
}

static void test_repeat(void)
{
	struct svz_trace t;

	if (parse_ok(HDR
		     "node 0 mem=4G\n"
		     "cpus 0-7 node=0\n"
		     "cache c size=64\n"
		     "repeat 2 cpu {\n"
		     "  repeat 3 {   # inner var defaults to i\n"
		     "    c{2*$cpu+1} alloc c o{$cpu}_{$i} at=site$i\n"
		     "  }\n"
		     "  c$cpu free c o{$cpu}_0\n"
		     "}\n"
		     "repeat 3 n {\n"
		     "  repeat $n {\n" /* a computed count: 0, 1, 2 */
		     "    c0 kmalloc {8*($n+1)} t{$n}.{$i}\n"
		     "  }\n"
		     "}\n"
		     "repeat 0 {\n"
		     "  c0 alloc c never\n"
		     "}\n"
		     "c7 alloc c e{-7/2}:{-7%3}:{7%-3}:{(1+2)*3-4/2}:{--5}:{2-3-4}\n"
		     "repeat 2 i {\n"
		     "  repeat 2 i {\n" /* the inner i shadows the outer one */
		     "    c$i alloc c s$i\n"
		     "  }\n"
		     "}\n",
		     &t))
		return;
	CHECK_EQ_INT(t.nr_ops, 8 + 3 + 1 + 4);
	if (t.nr_ops == 16) {
		CHECK_EQ_STR(op_str(&t, 0), "L7 c1 alloc c o0_0 gfp=GFP_KERNEL node=-1 at=site0");
		CHECK_EQ_STR(op_str(&t, 1), "L7 c1 alloc c o0_1 gfp=GFP_KERNEL node=-1 at=site1");
		CHECK_EQ_STR(op_str(&t, 2), "L7 c1 alloc c o0_2 gfp=GFP_KERNEL node=-1 at=site2");
		CHECK_EQ_STR(op_str(&t, 3), "L9 c0 free c o0_0 gfp=0 node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 4), "L7 c3 alloc c o1_0 gfp=GFP_KERNEL node=-1 at=site0");
		CHECK_EQ_STR(op_str(&t, 6), "L7 c3 alloc c o1_2 gfp=GFP_KERNEL node=-1 at=site2");
		CHECK_EQ_STR(op_str(&t, 7), "L9 c1 free c o1_0 gfp=0 node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 8), "L13 c0 kmalloc 16 t1.0 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 9), "L13 c0 kmalloc 24 t2.0 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 10), "L13 c0 kmalloc 24 t2.1 gfp=GFP_KERNEL node=-1 at=");
		/* C semantics: division truncates toward zero, % takes the dividend's sign. */
		CHECK_EQ_STR(op_str(&t, 11), "L19 c7 alloc c e-3:-1:1:7:5:-5 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 12), "L22 c0 alloc c s0 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 13), "L22 c1 alloc c s1 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_STR(op_str(&t, 14), "L22 c0 alloc c s0 gfp=GFP_KERNEL node=-1 at=");
		CHECK_EQ_INT(t.ops[0].handle != t.ops[1].handle, 1);
		CHECK_EQ_INT(t.ops[0].handle, t.ops[3].handle);
		CHECK_EQ_INT(t.ops[12].handle, t.ops[14].handle);
	}
	/* "never" never appeared in an op, so it was never interned. */
	for (uint32_t i = 0; i < t.nr_handles; i++)
		CHECK(strcmp(t.handle_names[i], "never") != 0);
	svz_trace_free(&t);

	/* A big literal repeat: the same op, parsed once and copied. */
	if (parse_ok(HDR "cache c size=64\nrepeat 100000 {\nc1 alloc c h at=x\nc1 free c h\n}\n", &t))
		return;
	CHECK_EQ_INT(t.nr_ops, 200000);
	CHECK_EQ_INT(t.nr_handles, 1);
	CHECK_EQ_STR(op_str(&t, 199998), "L4 c1 alloc c h gfp=GFP_KERNEL node=-1 at=x");
	CHECK_EQ_STR(op_str(&t, 199999), "L5 c1 free c h gfp=0 node=-1 at=");
	svz_trace_free(&t);
}

static void test_bulk(void)
{
	struct svz_trace t;

	if (parse_ok(HDR
		     "cache bio-256 size=256\n"
		     "c3 alloc_bulk bio-256 51 blk gfp=GFP_NOWAIT at=refill\n"
		     "c3 free_bulk bio-256 51 blk\n"
		     "repeat 2 {\n"
		     "  c0 alloc_bulk bio-256 2 r{$i}\n"
		     "  c0 free_bulk bio-256 2 q\n"
		     "}\n",
		     &t))
		return;
	CHECK_EQ_INT(t.nr_ops, 6);
	CHECK_EQ_STR(op_str(&t, 0), "L3 c3 alloc_bulk bio-256 51:blk[0]..blk[50] gfp=GFP_NOWAIT node=-1 at=refill");
	CHECK_EQ_STR(op_str(&t, 1), "L4 c3 free_bulk bio-256 51:blk[0]..blk[50] gfp=0 node=-1 at=");
	CHECK_EQ_STR(op_str(&t, 2), "L6 c0 alloc_bulk bio-256 2:r0[0]..r0[1] gfp=GFP_KERNEL node=-1 at=");
	CHECK_EQ_STR(op_str(&t, 4), "L6 c0 alloc_bulk bio-256 2:r1[0]..r1[1] gfp=GFP_KERNEL node=-1 at=");
	CHECK_EQ_INT(t.ops[0].handle, 0);
	CHECK_EQ_INT(t.ops[0].count, 51);
	CHECK_EQ_INT(t.ops[1].handle, 51);
	for (uint32_t i = 0; i < 51; i++) {
		char name[16];

		snprintf(name, sizeof name, "blk[%u]", i);
		CHECK_EQ_STR(t.handle_names[t.handle_lists[i]], name);
		CHECK_EQ_INT(t.handle_lists[51 + i], t.handle_lists[i]); /* frees in the same order */
	}
	/* The literal free_bulk in the repeat shares one list. */
	CHECK_EQ_INT(t.ops[3].handle, t.ops[5].handle);
	CHECK_EQ_INT(t.nr_handle_lists, 51 + 51 + 2 + 2 + 2);
	CHECK_EQ_INT(t.nr_handles, 51 + 2 + 2 + 2);
	svz_trace_free(&t);
}

static void test_topology(void)
{
	struct svz_trace t;
	char text[2048];
	int n = snprintf(text, sizeof text, "%s", "# Ming Lei's machine (seed 004)\r\n" HDR "page_size 4096\r\n");

	for (int node = 0; node < 8; node++)
		n += snprintf(text + n, sizeof text - (size_t)n, "node %d mem=%s\n", node,
			      node == 1 || node == 5 ? "128G" : "0");
	for (int node = 0; node < 8; node++)
		n += snprintf(text + n, sizeof text - (size_t)n, "cpus %d-%d,%d-%d node=%d\n",
			      4 * node, 4 * node + 3, 32 + 4 * node, 32 + 4 * node + 3, node);
	snprintf(text + n, sizeof text - (size_t)n,
		 "preset v7.0-rc1\nset fix1=1\n"
		 "cache bio-256 size=256 align=64 flags=HWCACHE_ALIGN,TYPESAFE_BY_RCU\n"
		 "c63 alloc bio-256 b gfp=mempool(GFP_NOIO) node=5\n");
	if (parse_ok(text, &t))
		return;
	CHECK_EQ_STR(t.description, "Ming Lei's machine (seed 004)");
	CHECK_EQ_INT(t.config.topo.nr_nodes, 8);
	CHECK_EQ_INT(t.config.topo.nr_cpus, 64);
	CHECK_EQ_INT(t.config.topo.possible, 64);
	CHECK_EQ_INT(t.config.topo.present, 64);
	CHECK_EQ_INT(t.config.topo.online, 64);
	CHECK_EQ_INT(t.config.topo.boot_online, 1);
	for (int node = 0; node < 8; node++)
		CHECK_EQ_INT(t.config.topo.node_mem_bytes[node],
			     node == 1 || node == 5 ? 128ull << 30 : 0);
	for (int cpu = 0; cpu < 64; cpu++)
		CHECK_EQ_INT(t.config.topo.cpu_node[cpu], (cpu % 32) / 4);
	CHECK_EQ_INT(t.config.sw.era, SVZ_ERA_SHEAVES);
	CHECK_EQ_INT(t.config.sw.refill_on_spin, 1);
	CHECK_EQ_INT(t.config.sw.barn_all_nodes, 0);
	CHECK_EQ_STR(op_str(&t, 0), "L23 c63 alloc bio-256 b gfp=GFP_NOWAIT|__GFP_NORETRY|"
				    "__GFP_NOMEMALLOC node=5 at=");
	svz_trace_free(&t);

	/* Counts: explicit ones stay, the rest default to the CPUs declared;
	 * a preset after a set overrides it. */
	if (parse_ok(HDR "set online=2 fix2=1\npage_size 16384\nnode 0 mem=512M\nnode 1 mem=1T\n"
			 "cpus 0-3 node=1\ncpu_counts possible=128\npreset v5.11-rc4\n", &t))
		return;
	CHECK_EQ_INT(t.config.topo.possible, 128);
	CHECK_EQ_INT(t.config.topo.present, 4);
	CHECK_EQ_INT(t.config.topo.online, 2);
	CHECK_EQ_INT(t.config.topo.page_size, 16384);
	CHECK_EQ_INT(t.config.topo.node_mem_bytes[0], 512ull << 20);
	CHECK_EQ_INT(t.config.topo.node_mem_bytes[1], 1ull << 40);
	CHECK_EQ_INT(t.config.topo.cpu_node[2], 1);
	CHECK_EQ_INT(t.config.sw.cpu_source, SVZ_CPUS_ONLINE);
	CHECK_EQ_INT(t.config.sw.barn_all_nodes, 0);
	CHECK_EQ_INT(t.nr_ops, 0);
	svz_trace_free(&t);

	/* Without topology directives, counts edit the default machine. */
	if (parse_ok(HDR "cpu_counts possible=8 present=4 online=1\n", &t))
		return;
	CHECK_EQ_INT(t.config.topo.nr_cpus, 4);
	CHECK_EQ_INT(t.config.topo.possible, 8);
	CHECK_EQ_INT(t.config.topo.online, 1);
	svz_trace_free(&t);

	/* The base config is where a trace starts (CLI defaults). */
	{
		struct svz_config base;
		struct svz_error e;

		svz_config_default(&base);
		svz_config_set(&base, "preset", "v6.8", NULL, 0);
		base.topo.nr_cpus = 2;
		base.topo.possible = base.topo.present = base.topo.online = 2;
		CHECK_EQ_INT(svz_trace_parse(HDR, strlen(HDR), &base, &t, &e), 0);
		CHECK_EQ_STR(t.config.preset, "v6.8");
		CHECK_EQ_INT(t.config.topo.nr_cpus, 2);
		CHECK_EQ_STR(t.description, "");
		svz_trace_free(&t);
	}
}

/* ---- malformed traces ---------------------------------------------------- */

#define C "cache x size=64\n"

static void test_errors(void)
{
	/* header */
	EXPECT_ERR("", "t.trace:1:1: error: expected the header 'slubviz-trace 1', got end of file");
	EXPECT_ERR("# just a comment\n\n",
		   "t.trace:3:1: error: expected the header 'slubviz-trace 1', got end of file");
	EXPECT_ERR("node 0 mem=1G\n",
		   "t.trace:1:1: error: expected the header 'slubviz-trace 1', got 'node'");
	EXPECT_ERR("slubviz-trace 2\n", "t.trace:1:15: error: expected format version 1, got '2'");
	EXPECT_ERR("slubviz-trace\n", "t.trace:1:14: error: expected format version 1, got end of line");
	EXPECT_ERR("slubviz-trace 1 extra\n", "t.trace:1:17: error: expected end of line, got 'extra'");

	/* directives */
	EXPECT_ERR(HDR "frobnicate 3\n",
		   "t.trace:2:1: error: expected a directive (page_size, node, cpus, cpu_counts, "
		   "preset, set, seed, cache, schedule, steps), an op like 'c0 alloc CACHE HANDLE' or repeat, got "
		   "'frobnicate'");
	EXPECT_ERR(HDR "page_size 8192\n",
		   "t.trace:2:11: error: expected page_size=4096, 16384 or 65536, got '8192'");
	EXPECT_ERR(HDR "node 64 mem=1G\n", "t.trace:2:6: error: expected a node id 0..63, got '64'");
	EXPECT_ERR(HDR "node 0 mem=1G\nnode 2 mem=1G\n",
		   "t.trace:3:6: error: expected node 1 next (node ids are dense from 0), got '2'");
	EXPECT_ERR(HDR "node 0 mem=16Q\n",
		   "t.trace:2:12: error: expected a size like 0, 512M or 16G, got '16Q'");
	EXPECT_ERR(HDR "node 0 mem=99999999999T\n",
		   "t.trace:2:12: error: expected a size like 0, 512M or 16G, got '99999999999T'");
	EXPECT_ERR(HDR "node 0 mem=99999999999999999999\n",
		   "t.trace:2:12: error: expected a size like 0, 512M or 16G, got '99999999999999999999'");
	EXPECT_ERR(HDR "node 0\n", "t.trace:2:7: error: expected mem=SIZE, got end of line");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 3-1 node=0\n",
		   "t.trace:3:6: error: expected a CPU range low-high, got '3-1'");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 0-3,x node=0\n",
		   "t.trace:3:10: error: expected a CPU list like 0-3,32-35, got 'x'");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 0-256 node=0\n",
		   "t.trace:3:6: error: expected CPU ids 0..255, got '0-256'");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 0-3 node=0\ncpus 2 node=0\n",
		   "t.trace:4:6: error: expected each CPU once, got CPU 2 again (declared on line 3)");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 0-3 node=1\n",
		   "t.trace:3:10: error: expected node=N of a declared node (0), got 'node=1'");
	EXPECT_ERR(HDR "cpus 0-3 node=0\n",
		   "t.trace:2:10: error: expected node=N of a declared node (none declared yet), got 'node=0'");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 0-3\n", "t.trace:3:9: error: expected node=N, got end of line");
	EXPECT_ERR(HDR "node 0 mem=1G\n" C "c0 alloc x h\n",
		   "t.trace:4:1: error: expected a 'cpus' directive before the first op (the trace "
		   "declares nodes), got none");
	EXPECT_ERR(HDR "node 0 mem=1G\ncpus 0-1,3 node=0\n",
		   "t.trace:3:1: error: expected CPU ids dense from 0, got no CPU 2 (highest is 3)");
	EXPECT_ERR(HDR "node 0 mem=0\ncpus 0 node=0\n",
		   "t.trace:3:1: error: expected at least one node with memory, got none");
	EXPECT_ERR(HDR "cpu_counts online=8\n",
		   "t.trace:2:1: error: expected 1 <= online <= present <= possible CPUs, got "
		   "online=8 present=4 possible=4");
	EXPECT_ERR(HDR "cpu_counts online=2 online=3\n",
		   "t.trace:2:21: error: expected each option once, got a second 'online='");
	EXPECT_ERR(HDR "cpu_counts offline=2\n",
		   "t.trace:2:12: error: expected possible=N, present=N or online=N, got 'offline=2'");
	EXPECT_ERR(HDR "preset v9\n",
		   "t.trace:2:8: error: expected a preset (v5.10, v5.11-rc4, v5.11, v5.12, v6.6, v6.8, v6.19, "
		   "v7.0-17c38c88294d, v7.0-rc1, v7.0-rc2+fix1, v7.0+fix1+fix2, v7.1, v7.2-candidate), got 'v9'");
	EXPECT_ERR(HDR "set colour=blue\n",
		   "t.trace:2:5: error: expected a setting (preset, kernel, era, cpu_source, order_form, "
		   "freelist_random, freelist_hardened, fix1, fix2, memoryless_sheaves, deferred_freelist, "
		   "batched_partial, cpu_partial_free, cpu_partial_objects, frozen_partial, try_thisnode, slab_nomerge, continue_on_error, seed, page_size, possible, present, online), "
		   "got 'colour'");
	EXPECT_ERR(HDR "set fix1=1 fix2=maybe\n",
		   "t.trace:2:12: error: expected fix2=0/1, on/off, true/false or y/n, got 'maybe'");
	EXPECT_ERR(HDR "set fix1\n", "t.trace:2:5: error: expected KEY=VALUE, got 'fix1'");
	EXPECT_ERR(HDR "set era=modern\n",
		   "t.trace:2:5: error: expected era=sheaves or era=classic, got 'modern'");
	EXPECT_ERR(HDR "seed -1\n",
		   "t.trace:2:6: error: expected seed=an unsigned 64-bit integer, got '-1'");

	/* caches */
	EXPECT_ERR(HDR C "cache x size=32\n",
		   "t.trace:3:7: error: expected a new cache name, got 'x' (declared on line 2)");
	EXPECT_ERR(HDR "cache y\n", "t.trace:2:8: error: expected size=BYTES for cache 'y', got end of line");
	EXPECT_ERR(HDR "cache y align=8\n",
		   "t.trace:2:16: error: expected size=BYTES for cache 'y', got no size=");
	EXPECT_ERR(HDR "cache y size=0\n",
		   "t.trace:2:9: error: expected size=1..67108864 bytes, got 'size=0'");
	EXPECT_ERR(HDR "cache y size=100000000\n",
		   "t.trace:2:9: error: expected size=1..67108864 bytes, got 'size=100000000'");
	EXPECT_ERR(HDR "cache y size=64 align=48\n",
		   "t.trace:2:17: error: expected align=0 or a power of two up to 65536, got 'align=48'");
	EXPECT_ERR(HDR "cache y size=64 flags=HWCACHE_ALIGN,FROB\n",
		   "t.trace:2:37: error: expected a slab flag (HWCACHE_ALIGN, TYPESAFE_BY_RCU, "
		   "ACCOUNT, RECLAIM_ACCOUNT, ...), got 'FROB'");
	EXPECT_ERR(HDR "cache kmalloc-64 size=64\n",
		   "t.trace:2:7: error: expected a cache name outside the kmalloc caches' names, got "
		   "'kmalloc-64'");
	EXPECT_ERR(HDR "cache y/z size=64\n",
		   "t.trace:2:7: error: expected a cache name of 1..63 letters, digits, '_', '.', ':' "
		   "or '-', got 'y/z'");
	EXPECT_ERR(HDR "cache y size=64 ctor ctor\n",
		   "t.trace:2:22: error: expected each option once, got a second 'ctor'");
	EXPECT_ERR(HDR "cache y size=64 colour=3\n",
		   "t.trace:2:17: error: expected a cache option (size=, align=, flags=, ctor, "
		   "sheaf_capacity=), got 'colour=3'");

	/* ops */
	EXPECT_ERR(HDR C "c0 alloc nope h\n",
		   "t.trace:3:10: error: expected a cache declared with 'cache', got 'nope'");
	EXPECT_ERR(HDR C "c1x alloc x h\n", "t.trace:3:1: error: expected a CPU like 'c3', got 'c1x'");
	EXPECT_ERR(HDR C "cpu1 alloc x h\n", "t.trace:3:1: error: expected a CPU like 'c3', got 'cpu1'");
	EXPECT_ERR(HDR C "c9 alloc x h\n", "t.trace:3:1: error: expected a declared CPU (c0-c3), got 'c9'");
	EXPECT_ERR(HDR C "c0 malloc x h\n",
		   "t.trace:3:4: error: expected an op (alloc, free, kmalloc, kfree, alloc_bulk, "
		   "free_bulk, flush, flush_all, shrink, destroy, prefill_sheaf, alloc_from_sheaf, "
		   "return_sheaf, kfree_rcu, rcu_barrier, work), got 'malloc'");
	EXPECT_ERR(HDR C "c0 alloc x\n", "t.trace:3:11: error: expected a handle name, got end of line");
	EXPECT_ERR(HDR C "c0 alloc x h/2\n",
		   "t.trace:3:12: error: expected a handle name of letters, digits, '_', '.', ':', "
		   "'[', ']' or '-', got 'h/2'");
	EXPECT_ERR(HDR C "c0 free x h junk\n",
		   "t.trace:3:13: error: expected end of line or an option (at=), got 'junk'");
	EXPECT_ERR(HDR C "c0 flush x junk\n", "t.trace:3:12: error: expected end of line, got 'junk'");
	EXPECT_ERR(HDR C "c0 alloc x h gfp=GFP_KERNEL|GFP_FROB\n",
		   "t.trace:3:18: error: expected a gfp flag (GFP_KERNEL, GFP_NOWAIT, GFP_ATOMIC, "
		   "GFP_NOIO, __GFP_ZERO, mempool(...), 0x...), got 'GFP_FROB'");
	EXPECT_ERR(HDR C "c0 alloc x h node=1\n",
		   "t.trace:3:14: error: expected node=-1 or a declared node (0), got 'node=1'");
	EXPECT_ERR(HDR C "c0 kmalloc 0 h\n",
		   "t.trace:3:12: error: expected a kmalloc size of 1..67108864 bytes, got '0'");
	EXPECT_ERR(HDR C "c0 alloc_bulk x 0 b\n",
		   "t.trace:3:17: error: expected a bulk count of 1..65536, got '0'");
	EXPECT_ERR(HDR C "c0 alloc_bulk x 3 b node=0\n",
		   "t.trace:3:21: error: expected an option of alloc_bulk (gfp=, at=), got 'node=0'");
	EXPECT_ERR(HDR C "c0 alloc x h gfp=GFP_KERNEL gfp=GFP_ATOMIC\n",
		   "t.trace:3:29: error: expected each option once, got a second 'gfp='");
	EXPECT_ERR(HDR C "c0 alloc x h colour=3\n",
		   "t.trace:3:14: error: expected an option of alloc (gfp=, node=, at=), got 'colour=3'");
	EXPECT_ERR(HDR C "c0 alloc x h at=\n",
		   "t.trace:3:14: error: expected a call site after at=, got nothing");
	EXPECT_ERR(HDR C "c0 alloc x h\nnode 0 mem=1G\n",
		   "t.trace:4:1: error: expected an op or repeat (directives go before the first op, "
		   "line 3), got 'node'");
	EXPECT_ERR(HDR C "c0 alloc x h\xc3\xa9\n",
		   "t.trace:3:13: error: expected printable ASCII text, got byte 0xC3");
	EXPECT_ERR(HDR C "c0 alloc\tx h\x01\n",
		   "t.trace:3:13: error: expected printable ASCII text, got byte 0x01");

	/* repeat blocks and expressions */
	EXPECT_ERR(HDR C "repeat 3 {\nc0 alloc x h\n",
		   "t.trace:3:10: error: expected '}' closing this repeat, got end of file");
	EXPECT_ERR(HDR C "}\n",
		   "t.trace:3:1: error: expected a directive or an op, got '}' (no repeat is open)");
	EXPECT_ERR(HDR C "repeat -3 {\n}\n",
		   "t.trace:3:8: error: expected a repeat count of 0..20000000, got '-3'");
	EXPECT_ERR(HDR C "repeat 3 i\n}\n",
		   "t.trace:3:11: error: expected '{' at the end of the repeat line, got end of line");
	EXPECT_ERR(HDR C "repeat 3 { c0 alloc x h\n}\n",
		   "t.trace:3:12: error: expected end of line after '{', got 'c0'");
	EXPECT_ERR(HDR C "repeat 2 {\n} x\n", "t.trace:4:3: error: expected end of line after '}', got 'x'");
	EXPECT_ERR(HDR C "repeat 2 {\ncache y size=8\n}\n",
		   "t.trace:4:1: error: expected an op, a nested repeat or '}' inside a repeat, got 'cache'");
	EXPECT_ERR(HDR C "repeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\n"
		   "repeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\n",
		   "t.trace:11:1: error: expected at most 8 nested repeats, got a 9th");
	EXPECT_ERR(HDR C "repeat 2 {\nc0 alloc x h{$j}\n}\n",
		   "t.trace:4:14: error: expected a repeat variable ($i), got '$j'");
	EXPECT_ERR(HDR C "c0 alloc x h$n\n",
		   "t.trace:3:13: error: expected a repeat variable (none in scope), got '$n'");
	EXPECT_ERR(HDR C "repeat 2 {\nc0 alloc x h{1/$i}\n}\n",
		   "t.trace:4:15: error: expected a non-zero divisor, got 0");
	EXPECT_ERR(HDR C "repeat 2 {\nc{$i-1} flush x\n}\n",
		   "t.trace:4:1: error: expected a CPU like 'c3', got 'c-1'");
	EXPECT_ERR(HDR C "repeat 5 {\nc{$i} flush x\n}\n",
		   "t.trace:4:1: error: expected a declared CPU (c0-c3), got 'c4'");
	EXPECT_ERR(HDR C "c0 alloc x h{1+2\n",
		   "t.trace:3:17: error: expected '}' closing the '{' at column 13, got end of token");
	EXPECT_ERR(HDR C "c0 alloc x h{2*}\n",
		   "t.trace:3:16: error: expected a number, $VAR, '-' or '(', got '}'");
	EXPECT_ERR(HDR C "c0 alloc x h{(2}\n", "t.trace:3:16: error: expected an operator or ')', got '}'");
	EXPECT_ERR(HDR C "c0 alloc x h}\n", "t.trace:3:13: error: expected '{' before '}', got a stray '}'");
	EXPECT_ERR(HDR C "c0 alloc x h{9223372036854775807+1}\n",
		   "t.trace:3:33: error: expected a result within 64 bits, got an overflow");
	EXPECT_ERR(HDR C "c0 alloc x h{99999999999999999999}\n",
		   "t.trace:3:14: error: expected a number below 2^63, got '99999999999999999999'");
	EXPECT_ERR(HDR C "repeat 4000000 {\nc0 flush x\nc0 flush x\n}\nc0 flush x\n",
		   "t.trace:7:1: error: trace expands to more than 8000000 ops (the limit)");
	EXPECT_ERR(HDR C "repeat 4000001 {\nc0 flush x\nc0 flush x\n}\n",
		   "t.trace:3:1: error: trace expands to more than 8000000 ops (the limit)");
	/* counted before expansion: computed counts, bulk handles */
	EXPECT_ERR(HDR C "repeat 10000 {\nrepeat {$i*10000} j {\nc0 flush x\n}\n}\n",
		   "t.trace:3:1: error: trace expands to more than 8000000 ops (the limit)");
	EXPECT_ERR(HDR C "repeat 1000 {\nc0 alloc_bulk x {65536-$i} p\n}\n",
		   "t.trace:3:1: error: trace expands to more than 8000000 bulk handles (the limit)");
	/* lines of 65536 bytes ('\r' included) pass, longer ones do not */
	{
		static char text[65536 + 64];
		struct svz_trace t;
		char msg[512];
		size_t n = (size_t)snprintf(text, sizeof text, HDR "#");

		memset(text + n, 'y', 65535 - 1);
		n += 65535 - 1;
		text[n++] = '\r';
		memcpy(text + n, "\nc0 rcu_barrier\n", 17);
		CHECK_EQ_INT(svz_trace_parse(text, n + 16, NULL, &t, NULL), 0);
		if (t.nr_ops == 1)
			CHECK_EQ_INT(t.ops[0].line, 3);
		svz_trace_free(&t);
		memmove(text + 17, text + 16, n + 16 - 16);
		CHECK_EQ_INT(parse(text, &t, msg, sizeof msg), -1);
		CHECK_EQ_STR(msg, "t.trace:2:65537: error: expected lines of at most 65536 bytes, got a longer line");
	}
	/* an empty repeat block with no token recorded at all (fuzz finding:
	 * clang UBSan, NULL + 0 in tally_chain) */
	{
		struct svz_trace t;

		if (parse_ok(HDR "repeat 6 {\n}", &t) == 0) {
			CHECK_EQ_INT(t.nr_ops, 0);
			svz_trace_free(&t);
		}
	}
	/* repeats of a computed repeat, with no op anywhere (fuzz finding) */
	{
		struct svz_trace t;

		if (parse_ok(HDR "repeat 2 {\nrepeat {$i} {\n}\n}\n", &t) == 0) {
			CHECK_EQ_INT(t.nr_ops, 0);
			svz_trace_free(&t);
		}
	}
	/* a UTF-8 byte order mark may open the text (Notepad writes one), and
	 * only there */
	{
		struct svz_trace t;

		if (parse_ok("\xEF\xBB\xBF" HDR C "c0 alloc x h\n", &t) == 0) {
			CHECK_EQ_INT(t.nr_ops, 1);
			svz_trace_free(&t);
		}
	}
	EXPECT_ERR(HDR "\xEF\xBB\xBF" C, "t.trace:2:1: error: expected printable ASCII text, got byte 0xEF");
	/* 32 nested parentheses are allowed (as documented), 33 are not */
	{
		struct svz_trace t;

		if (parse_ok(HDR C "c0 alloc x h{" "((((((((((((((((((((((((((((((((" "1"
			     "))))))))))))))))))))))))))))))))" "}\n", &t) == 0) {
			CHECK_EQ_STR(t.handle_names[t.ops[0].handle], "h1");
			svz_trace_free(&t);
		}
	}
	EXPECT_ERR(HDR C "c0 alloc x h{" "(((((((((((((((((((((((((((((((((" "1"
		   ")))))))))))))))))))))))))))))))))" "}\n",
		   "t.trace:3:46: error: expected at most 32 nested parentheses or signs, got more");
	EXPECT_ERR(HDR C "repeat 100000 {\nrepeat 100000 {\n}\n}\n",
		   "t.trace:3:1: error: trace expands to more than 20000000 repeat iterations (the limit)");
	/* An error in a literal op of a repeat shows even if the body never runs. */
	EXPECT_ERR(HDR C "repeat 0 {\nc0 zap x\n}\n",
		   "t.trace:4:4: error: expected an op (alloc, free, kmalloc, kfree, alloc_bulk, "
		   "free_bulk, flush, flush_all, shrink, destroy, prefill_sheaf, alloc_from_sheaf, "
		   "return_sheaf, kfree_rcu, rcu_barrier, work), got 'zap'");
	/* prefilled sheaves and kfree_rcu */
	EXPECT_ERR(HDR C "c0 prefill_sheaf x 0 sh\n",
		   "t.trace:3:20: error: expected a bulk count of 1..65536, got '0'");
	EXPECT_ERR(HDR C "c0 alloc_from_sheaf x sh\n",
		   "t.trace:3:25: error: expected a handle name, got end of line");
	EXPECT_ERR(HDR C "c0 kfree_rcu\n", "t.trace:3:13: error: expected a handle name, got end of line");
}

/* Parsing must not depend on a terminating NUL, and errors must not leak:
 * every prefix of a valid trace parses or fails cleanly (ASan checks). */
static void test_prefixes(void)
{
	static const char text[] = HDR "node 0 mem=1G\ncpus 0-3 node=0\n" C
				   "repeat 3 {\n  c{$i} alloc x h{$i} gfp=GFP_KERNEL|__GFP_ZERO\n}\n"
				   "c0 alloc_bulk x 4 b\n";
	int ok = 0;

	for (size_t len = 0; len <= sizeof text - 1; len++) {
		char *copy = malloc(len ? len : 1);
		struct svz_trace t;
		struct svz_error e;

		memcpy(copy, text, len);
		if (svz_trace_parse(copy, len, NULL, &t, &e) == 0) {
			ok++;
			svz_trace_free(&t);
		} else {
			CHECK(e.msg[0] != 0);
		}
		free(copy);
	}
	CHECK(ok > 0);
}

/* The sheaf API and kfree_rcu ops parse into their fields. */
static void test_sheaf_and_rcu_ops(void)
{
	const char *text = "slubviz-trace 1\ncache x size=64\nc1 prefill_sheaf x 12 sh gfp=GFP_NOWAIT\n"
			   "c1 alloc_from_sheaf x sh o\nc1 return_sheaf x sh\nc2 kfree_rcu o\nc3 rcu_barrier\n";
	struct svz_config cfg;
	struct svz_trace t;
	struct svz_error e;
	svz_config_default(&cfg);
	CHECK_EQ_INT(svz_trace_parse(text, strlen(text), &cfg, &t, &e), 0);
	CHECK_EQ_INT(t.nr_ops, 5);
	CHECK_EQ_INT(t.ops[0].type, SVZ_OP_PREFILL);
	CHECK_EQ_INT(t.ops[0].count, 12);
	CHECK_EQ_INT(t.ops[0].gfp, GFP_NOWAIT);
	CHECK_EQ_STR(t.handle_names[t.ops[0].sheaf], "sh");
	CHECK_EQ_INT(t.ops[1].type, SVZ_OP_ALLOC_FROM_SHEAF);
	CHECK_EQ_INT(t.ops[1].sheaf, t.ops[0].sheaf);
	CHECK_EQ_STR(t.handle_names[t.ops[1].handle], "o");
	CHECK_EQ_INT(t.ops[2].type, SVZ_OP_RETURN_SHEAF);
	CHECK_EQ_INT(t.ops[3].type, SVZ_OP_KFREE_RCU);
	CHECK_EQ_INT(t.ops[3].handle, t.ops[1].handle);
	CHECK_EQ_INT(t.ops[4].type, SVZ_OP_RCU_BARRIER);
	CHECK_EQ_INT(t.ops[4].cpu, 3);
	svz_trace_free(&t);
}

int main(void)
{
	test_sheaf_and_rcu_ops();
	test_config();
	test_gfp();
	test_basic();
	test_repeat();
	test_bulk();
	test_topology();
	test_errors();
	test_prefixes();
	return svz_t_done();
}
