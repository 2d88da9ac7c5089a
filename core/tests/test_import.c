/* Importers (docs/import.md): every fixture in core/tests/data/ftrace with
 * counts taken from the files by hand, more than 60 malformed or hostile
 * inputs each with its diagnostic, streaming in odd chunk sizes, and the
 * round trips v1 -> export -> parse and import -> export -> parse with
 * identical replays. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>

#include "harness.h"
#include "api/session.h"
#include "slubviz/gfp.h"
#include "slubviz/import.h"
#include "slubviz/sizing.h"
#include "slubviz/slubviz.h"
#include "slubviz/trace.h"

#define DATA "core/tests/data/ftrace/"

struct imp {
	int rc;
	struct svz_trace t;
	struct svz_import_report r;
	char *text; /* summary */
};

static void imp_free(struct imp *x)
{
	if (x->rc == 0)
		svz_trace_free(&x->t);
	svz_import_report_free(&x->r);
	free(x->text);
}

static struct imp imp_lim(const char *text, size_t len, enum svz_import_format f,
			  const struct svz_import_limits *lim)
{
	struct imp x;
	struct svz_error e;
	x.rc = svz_import(text, len, f, NULL, lim, &x.t, &x.r, &e);
	x.text = svz_import_report_text(&x.r);
	return x;
}

static struct imp imp(const char *text)
{
	return imp_lim(text, strlen(text), SVZ_FMT_AUTO, NULL);
}

static struct imp imp_file(const char *name)
{
	char path[256];
	size_t len = 0;
	snprintf(path, sizeof path, DATA "%s", name);
	char *text = svz_t_read_file(path, &len);
	struct imp x = imp_lim(text ? text : "", text ? len : 0, SVZ_FMT_AUTO, NULL);
	free(text);
	return x;
}

static uint64_t skipped(const struct imp *x, enum svz_import_skip s) { return x->r.skipped[s]; }

static uint64_t skipped_total(const struct imp *x)
{
	uint64_t n = 0;
	for (int i = 0; i < SVZ_SKIP__COUNT; i++)
		n += x->r.skipped[i];
	return n;
}

/* Does the report hold an error for `line` whose message contains `want`? */
static bool has_error(const struct imp *x, uint64_t line, const char *want)
{
	for (uint32_t i = 0; i < x->r.nr_errors; i++)
		if (x->r.errors[i].line == line && strstr(x->r.errors[i].msg, want))
			return true;
	fprintf(stderr, "  no error '%s' on line %" PRIu64 "; errors:\n", want, line);
	for (uint32_t i = 0; i < x->r.nr_errors; i++)
		fprintf(stderr, "    line %" PRIu64 ": %s\n", x->r.errors[i].line, x->r.errors[i].msg);
	return false;
}

static bool summary_has(const struct imp *x, const char *want)
{
	if (x->text && strstr(x->text, want))
		return true;
	fprintf(stderr, "  summary lacks '%s':\n%s", want, x->text ? x->text : "(null)");
	return false;
}

static const char *cache_of(const struct imp *x, uint32_t op)
{
	uint32_t c = x->t.ops[op].cache;
	return c < x->t.nr_caches ? x->t.caches[c].name : "-";
}

static const char *handle_of(const struct imp *x, uint32_t op)
{
	return x->t.handle_names[x->t.ops[op].handle];
}

static const char *site_of(const struct imp *x, uint32_t op)
{
	return x->t.sites[x->t.ops[op].site];
}

/* Events must add up: every kmem event is kept or skipped for one reason. */
static void check_balance(const struct imp *x)
{
	CHECK_EQ_INT(x->r.events, x->r.kept + skipped_total(x));
}

/* ---- the fixtures --------------------------------------------------------- */

static void test_v3_elinux(void)
{
	/* 7 kmalloc, 1 kfree of (null), 1 kmem_cache_alloc; #P:1; CPU [000] */
	struct imp x = imp_file("ftrace-kmem-v3.x-i386-elinux.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_FTRACE);
	CHECK_EQ_INT(x.r.lines, 25);
	CHECK_EQ_INT(x.r.comment_lines, 16);
	CHECK_EQ_INT(x.r.events, 9);
	CHECK_EQ_INT(x.r.kept, 8);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 1);
	check_balance(&x);
	CHECK_EQ_INT(x.r.unpaired, 8);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.raw_ptrs, 8);
	CHECK_EQ_INT(x.r.hashed_ptrs, 0);
	CHECK_EQ_INT(x.r.header_cpus, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_nodes, 1);
	CHECK_EQ_INT(x.t.nr_ops, 8);
	CHECK_EQ_INT(x.t.nr_caches, 1);
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-64-64");
	CHECK_EQ_INT(x.t.caches[0].object_size, 64);
	CHECK_EQ_INT(x.t.ops[0].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[0].size, 29);
	CHECK_EQ_INT(x.t.ops[0].line, 17);
	CHECK_EQ_STR(handle_of(&x, 0), "pc147dd20");
	CHECK_EQ_STR(site_of(&x, 0), "c104deff");
	/* GFP_ZERO is the old spelling of __GFP_ZERO */
	CHECK_EQ_INT(x.t.ops[4].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_INT(x.r.gfp_unknown, 0);
	CHECK_EQ_INT(x.t.ops[7].type, SVZ_OP_ALLOC);
	CHECK_EQ_STR(cache_of(&x, 7), "inferred-64-64");
	/* kmalloc(6) shows bytes_alloc=32 on that i386 kernel; the model says 8 */
	CHECK_EQ_INT(x.r.kmalloc_size_differs, 2);
	CHECK(summary_has(&x, "inferred from bytes_req=64 bytes_alloc=64"));
	imp_free(&x);
}

static void test_v54_changbin(void)
{
	/* kmem_cache_free, kfree, kmem_cache_free of objects from before the
	 * trace; then 2 kmem_cache_alloc + 1 kmalloc, freed again; CPU [002] */
	struct imp x = imp_file("ftrace-kmem-v5.4-changbin-pS-mixed.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.events, 9);
	CHECK_EQ_INT(x.r.kept, 6);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_UNKNOWN), 3);
	check_balance(&x);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.r.hashed_ptrs, 9);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 3);
	CHECK_EQ_INT(x.r.cpus_seen[0], 1u << 2);
	CHECK_EQ_INT(x.t.nr_caches, 2);
	/* slub_debug strides: no alignment turns 168 into 576 */
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-168-576");
	CHECK_EQ_INT(x.t.caches[0].object_size, 576);
	CHECK(x.r.caches[0].size_fallback);
	CHECK_EQ_STR(x.t.caches[1].name, "inferred-4096-4480");
	CHECK_EQ_INT(x.t.ops[0].cpu, 2);
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[1].size, 8);
	CHECK_EQ_INT(x.t.ops[3].type, SVZ_OP_FREE);
	CHECK_EQ_INT(x.t.ops[4].type, SVZ_OP_KFREE);
	CHECK_EQ_STR(site_of(&x, 3), "putname+0x47/0x50");
	CHECK(summary_has(&x, "skipped 3 frees of objects allocated before the trace began"));
	imp_free(&x);
}

static void test_v54_vmware(void)
{
	/* 15 kmem_cache_alloc in two header blocks, #P:4, CPUs 0,2,3; two
	 * pointers allocated twice without a free in between */
	struct imp x = imp_file("ftrace-kmem-v5.4-x86_64-vmware-liulangrenaaa.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.lines, 44);
	CHECK_EQ_INT(x.r.comment_lines, 29);
	CHECK_EQ_INT(x.r.events, 15);
	CHECK_EQ_INT(x.r.kept, 15);
	check_balance(&x);
	CHECK_EQ_INT(x.r.rebound, 2);
	CHECK_EQ_INT(x.r.unpaired, 15);
	CHECK_EQ_INT(x.r.header_cpus, 4);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 4);
	CHECK_EQ_INT(x.r.cpus_seen[0], 0xdu);
	CHECK_EQ_INT(x.t.nr_caches, 5);
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-224-256");
	CHECK_EQ_INT(x.t.caches[0].flags, SLAB_HWCACHE_ALIGN);
	CHECK_EQ_STR(x.t.caches[4].name, "inferred-5678-10320");
	CHECK_EQ_INT(x.r.caches[4].allocs, 9);
	CHECK_EQ_STR(handle_of(&x, 1), "p873301d3");
	CHECK_EQ_STR(handle_of(&x, 4), "p873301d3.1");
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_ATOMIC);
	/* the module name stays in the label, without the blank */
	CHECK_EQ_STR(site_of(&x, 6), "memleak_task_test+0x70/0xb0[memleak]");
	CHECK(summary_has(&x, "2 of them because their pointer was allocated again"));
	imp_free(&x);
}

static void test_v612_rostedt(void)
{
	/* 3 kmem_cache_alloc + kmem_cache_free name=names_cache, twice: TP_printk
	 * (hashed) and options/fields (raw, hex (decimal)); no CPU column */
	struct imp x = imp_file("ftrace-kmem-v6.12-rostedt-node-accounted-name.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.events, 8);
	CHECK_EQ_INT(x.r.kept, 8);
	check_balance(&x);
	CHECK_EQ_INT(x.r.unpaired, 4);
	CHECK_EQ_INT(x.r.no_cpu, 8);
	CHECK_EQ_INT(x.r.hashed_ptrs, 4);
	CHECK_EQ_INT(x.r.raw_ptrs, 4);
	CHECK_EQ_INT(x.r.ts_backwards, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 1);
	CHECK_EQ_INT(x.t.nr_caches, 3);
	/* named by its kmem_cache_free events */
	CHECK_EQ_STR(x.t.caches[0].name, "names_cache");
	CHECK(x.r.caches[0].named_by_free);
	CHECK_EQ_STR(x.t.caches[1].name, "inferred-360-384");
	CHECK_EQ_INT(x.t.caches[1].flags, SLAB_HWCACHE_ALIGN);
	CHECK_EQ_STR(x.t.caches[2].name, "inferred-16-16");
	/* fields form: gfp_flags=0xdc0 (3520) is GFP_KERNEL|__GFP_ZERO, node=0xffffffff (-1) */
	CHECK_EQ_INT(x.t.ops[6].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_INT(x.t.ops[6].node, -1);
	CHECK_EQ_STR(handle_of(&x, 4), "pffff9e0e8571e000");
	CHECK_EQ_STR(site_of(&x, 4), "0xffffffff92d10d97");
	CHECK_EQ_INT(x.t.ops[7].type, SVZ_OP_FREE);
	CHECK_EQ_STR(cache_of(&x, 7), "names_cache");
	CHECK(summary_has(&x, "named by its kmem_cache_free name="));
	imp_free(&x);
}

static void test_trace_cmd(void)
{
	struct imp x = imp_file("trace-cmd-report.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_TRACE_CMD);
	CHECK_EQ_INT(x.r.header_cpus, 2);
	CHECK_EQ_INT(x.r.events, 4);
	CHECK_EQ_INT(x.r.kept, 4);
	CHECK_EQ_INT(x.r.other_events, 1);
	CHECK_EQ_STR(x.r.other_names[0].name, "sched_switch");
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 2);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_INT(x.t.ops[0].cpu, 1);
	CHECK_EQ_INT(x.t.ops[2].cpu, 0);
	CHECK_EQ_INT(x.t.ops[3].type, SVZ_OP_FREE);
	imp_free(&x);
}

static void test_perf(void)
{
	struct imp x = imp_file("perf-script-callchain.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_PERF);
	CHECK_EQ_INT(x.r.events, 3);
	CHECK_EQ_INT(x.r.kept, 3);
	CHECK_EQ_INT(x.r.callchain_lines, 4);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.unpaired, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 2);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_NOFS | __GFP_ZERO);
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-104-128");
	imp_free(&x);

	/* perf script -F comm,tid,cpu,event,trace: no time column. The event is
	 * named with its subsystem, so "[002] kmem:kmalloc:" is the anchor:
	 * CPU 2, then CPU 1, so 3 CPUs suggested */
	x = imp("     Web Content  1718 [002] kmem:kmalloc: call_site=__alloc_skb+0x8e "
		"ptr=0xffff888103a4c800 bytes_req=640 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 "
		"accounted=false\n"
		"     Web Content  1718 [001] kmem:kfree: call_site=skb_free_head+0x22 "
		"ptr=0xffff888103a4c800\n"
		"     Web Content  1718 [001] sched:sched_switch: prev_comm=x prev_pid=1\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_PERF);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 2);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.r.other_events, 1);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.t.ops[0].cpu, 2);
	CHECK_EQ_INT(x.t.ops[0].size, 640);
	CHECK_EQ_INT(x.t.ops[1].cpu, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 3);
	imp_free(&x);
	/* ... and -F comm,tid,event,trace (no CPU either): the CPU is unknown */
	x = imp("bash  1718 kmem:kfree: call_site=f ptr=0xffff888103a4c800\n");
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(x.r.no_cpu, 1);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	imp_free(&x);
}

static void test_bpftrace(void)
{
	struct imp x = imp_file("bpftrace-oneliner.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_BPFTRACE);
	CHECK_EQ_INT(x.r.events, 6);
	CHECK_EQ_INT(x.r.kept, 6);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.r.lost_events, 2);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 4);
	CHECK_EQ_INT(x.t.nr_caches, 2);
	CHECK_EQ_STR(x.t.caches[0].name, "names_cache");
	CHECK_EQ_STR(x.t.caches[1].name, "filp");
	CHECK_EQ_INT(x.t.ops[1].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_INT(x.t.ops[1].size, 2312);
	CHECK_EQ_INT(x.t.ops[2].node, 0);
	CHECK_EQ_STR(site_of(&x, 0), "getname_flags");
	imp_free(&x);
}

static void test_malloc_lab(void)
{
	struct imp x = imp_file("malloc-lab-short.rep");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_MALLOC_LAB);
	CHECK_EQ_INT(x.r.events, 8);
	CHECK_EQ_INT(x.r.kept, 8);
	CHECK_EQ_INT(x.r.header_ops, 8);
	CHECK_EQ_INT(x.r.realloc_in_place, 1);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 2);
	/* a0 a1 | r0 640: kmalloc id0.1 + kfree id0 | a2@1 f1 | r0 768 in place | f0@1 f2 */
	CHECK_EQ_INT(x.t.nr_ops, 8);
	CHECK_EQ_INT(x.t.ops[2].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[2].size, 640);
	CHECK_EQ_STR(handle_of(&x, 2), "id0.1");
	CHECK_EQ_INT(x.t.ops[3].type, SVZ_OP_KFREE);
	CHECK_EQ_STR(handle_of(&x, 3), "id0");
	CHECK_EQ_INT(x.t.ops[4].cpu, 1);
	CHECK_EQ_STR(handle_of(&x, 6), "id0.1");
	CHECK_EQ_INT(x.t.ops[6].cpu, 1);
	imp_free(&x);
}

/* ---- real formats: printers, tracers, trimmed and cut lines (issue 9) ---------- */

#define PFX "          bash-1200  [001] ..... 100.000001: "
#define KMA(ptr, req, alloc) PFX "kmalloc: call_site=f+0x1/0x2 ptr=" ptr " bytes_req=" req \
	" bytes_alloc=" alloc " gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
#define KM(ptr, req) KMA(ptr, req, "64")
#define KF(ptr) PFX "kfree: call_site=g+0x1/0x2 ptr=" ptr "\n"


/* The text fed in chunks of `chunk` bytes through the streaming API. */
static struct imp imp_stream(const char *text, size_t len, size_t chunk)
{
	struct svz_importer *im = svz_importer_new(SVZ_FMT_AUTO, NULL, NULL);
	for (size_t i = 0; i < len; i += chunk)
		svz_importer_feed(im, text + i, len - i < chunk ? len - i : chunk);
	struct imp x;
	struct svz_error e;
	x.rc = svz_importer_finish(im, &x.t, &x.r, &e);
	x.text = svz_import_report_text(&x.r);
	svz_importer_free(im);
	return x;
}

/* The file imported one byte at a time gives the same summary and ops. */
static void check_bytewise(const char *name, const struct imp *one)
{
	size_t len;
	char path[256];
	snprintf(path, sizeof path, DATA "%s", name);
	char *text = svz_t_read_file(path, &len);
	struct imp x = imp_stream(text, len, 1);
	CHECK_EQ_INT(x.rc, one->rc);
	CHECK_EQ_STR(x.text, one->text);
	if (x.rc == 0 && one->rc == 0) {
		CHECK_EQ_INT(x.t.nr_ops, one->t.nr_ops);
		CHECK(!x.t.nr_ops ||
		      memcmp(x.t.ops, one->t.ops, sizeof *x.t.ops * x.t.nr_ops) == 0);
	}
	imp_free(&x);
	free(text);
}

static void test_kmem_plugin(void)
{
	/* trace-cmd report, 6.x fields, libtraceevent's kmem plugin: every kmem
	 * line but the last has "(func+0xoff) " before call_site=. 7 kmem
	 * events: kmalloc 88, kmem_cache_alloc 576/584, its kmem_cache_free,
	 * kmalloc 4096, its kfree, the kfree of the first kmalloc, and a kfree
	 * of a pointer never allocated (no prefix: the plugin found no symbol)
	 * -> 6 kept, 1 free-before-trace; sched_switch is another event. */
	struct imp x = imp_file("trace-cmd-report-kmem-plugin-v6.x.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_TRACE_CMD);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 7);
	CHECK_EQ_INT(x.r.kept, 6);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_UNKNOWN), 1);
	check_balance(&x);
	CHECK_EQ_INT(x.r.other_events, 1);
	CHECK_EQ_STR(x.r.other_names[0].name, "sched_switch");
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.r.header_cpus, 4);
	/* [000], [001] (the skipped kfree's CPU is seen too), [002] */
	CHECK_EQ_INT(x.r.cpus_seen[0], 0x7u);
	CHECK_EQ_INT(x.t.nr_ops, 6);
	CHECK_EQ_INT(x.t.ops[0].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[0].size, 88);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_ATOMIC);
	CHECK_EQ_INT(x.t.ops[0].cpu, 2);
	CHECK_EQ_STR(site_of(&x, 0), "fw_core_handle_request+0x7b");
	/* radix_tree_node: a constructor moves the free pointer after the
	 * object (calculate_sizes(): offset = ALIGN(576, 8) = 576, size = 584);
	 * s->object_size stays 576, as /sys/kernel/slab/radix_tree_node shows */
	CHECK_EQ_INT(x.t.nr_caches, 1);
	CHECK_EQ_STR(x.t.caches[0].name, "radix_tree_node");
	CHECK_EQ_INT(x.t.caches[0].object_size, 576);
	CHECK(x.t.caches[0].ctor);
	CHECK_EQ_INT(x.t.caches[0].flags, 0);
	CHECK(x.r.caches[0].ctor);
	CHECK(!x.r.caches[0].size_fallback);
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_ALLOC);
	CHECK_EQ_INT(x.t.ops[1].gfp, GFP_NOWAIT | __GFP_ACCOUNT);
	CHECK_EQ_STR(site_of(&x, 1), "xas_alloc+0x9f");
	CHECK_EQ_INT(x.t.ops[2].type, SVZ_OP_FREE);
	CHECK_EQ_INT(x.t.ops[5].type, SVZ_OP_KFREE);
	CHECK_EQ_STR(handle_of(&x, 5), "pffff99e93f007300");
	CHECK(summary_has(&x, "radix_tree_node: object_size=576 ctor"));
	CHECK(summary_has(&x, "CPUs seen: 0-2 (4 CPUs in the header)"));
	{
		char *json = svz_import_report_json(&x.r);
		CHECK(json && strstr(json, "\"object_size\":576,\"align\":0,\"flags\":\"0\",\"ctor\":true"));
		free(json);
	}
	/* the model's geometry, as sysfs shows it: object_size 576, slab_size 584 */
	{
		size_t len;
		char *text = svz_t_read_file(DATA "trace-cmd-report-kmem-plugin-v6.x.txt", &len);
		int h = svz_open_any(text, NULL, NULL);
		CHECK(h > 0);
		if (h > 0) {
			svz_run_all(h);
			const char *sys = svz_sysfs(h, "radix_tree_node");
			CHECK(sys && strstr(sys, "/object_size:576\n"));
			CHECK(sys && strstr(sys, "/slab_size:584\n"));
			svz_close(h);
		}
		free(text);
	}
	check_bytewise("trace-cmd-report-kmem-plugin-v6.x.txt", &x);
	imp_free(&x);

	/* perf script -g, 2.6.32 fields (call_site=%lx), the plugin's prefix:
	 * kmalloc_node 640, kmem_cache_alloc_node 232/256 (HWCACHE_ALIGN: 232
	 * rounds up to the 64-byte line), their kfree and kmem_cache_free
	 * (no name= before ~5.12), then kmalloc 640 never freed; 3 callchain
	 * lines. The call site comes from the plugin: call_site= is a number. */
	x = imp_file("perf-script-kmem-plugin-v2.6.32.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_PERF);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 5);
	CHECK_EQ_INT(x.r.kept, 5);
	CHECK_EQ_INT(x.r.callchain_lines, 3);
	CHECK_EQ_INT(x.r.unpaired, 1);
	CHECK_EQ_INT(x.r.cpus_seen[0], 0xbu);
	CHECK_EQ_INT(x.t.ops[0].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[0].size, 640);
	CHECK_EQ_INT(x.t.ops[0].node, -1);
	CHECK_EQ_STR(site_of(&x, 0), "__alloc_skb+0x4e");
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-232-256");
	CHECK_EQ_INT(x.t.caches[0].flags, SLAB_HWCACHE_ALIGN);
	CHECK(!x.t.caches[0].ctor);
	CHECK_EQ_INT(x.t.ops[3].type, SVZ_OP_FREE);
	CHECK_EQ_STR(site_of(&x, 3), "__kfree_skb+0x44");
	CHECK_EQ_INT(x.t.ops[4].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_STR(site_of(&x, 4), "alloc_pipe_info+0x1c");
	check_bytewise("perf-script-kmem-plugin-v2.6.32.txt", &x);
	imp_free(&x);

	/* a symbol call_site= is kept over the plugin's; a "(" that is not the
	 * plugin's "(sym) " is still a bad line */
	x = imp("kfree: (a+0x1) call_site=b+0x2/0x10 ptr=0xffff888000001000\n"
		"kfree: (a+0x1)call_site=b ptr=0xffff888000001000\n");
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(x.r.bad_lines, 1);
	CHECK(has_error(&x, 2, "kfree: expected key=value fields, got '(a+0x1)call_site=b"));
	imp_free(&x);
}

static void test_tracer_lines(void)
{
	/* the function tracer with kmem events and options/stacktrace: 6
	 * function lines ("func <-parent"), one "<stack trace>" with 9 " => "
	 * frames, 3 kmem events (kmem_cache_alloc filp, kfree(NULL), its
	 * kmem_cache_free on [003]); #P:8 */
	struct imp x = imp_file("ftrace-function-stacktrace-v6.x.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 3);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 1);
	check_balance(&x);
	CHECK_EQ_INT(x.r.other_events, 7);
	CHECK_EQ_INT(x.r.nr_other_names, 2);
	CHECK_EQ_STR(x.r.other_names[0].name, "function");
	CHECK_EQ_INT(x.r.other_names[0].count, 6);
	CHECK_EQ_STR(x.r.other_names[1].name, "<stack trace>");
	CHECK_EQ_INT(x.r.other_names[1].count, 1);
	CHECK_EQ_INT(x.r.callchain_lines, 9);
	CHECK_EQ_INT(x.r.cpus_seen[0], (1u << 3) | (1u << 5));
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 8);
	CHECK_EQ_STR(x.t.caches[0].name, "filp");
	CHECK(summary_has(&x, "other events ignored: 7 (function 6, <stack trace> 1)"));
	CHECK(summary_has(&x, "stack and callchain lines ignored: 9"));
	imp_free(&x);

	/* variants: print-parent off, sym-offset, a user stack, trace-cmd's
	 * "=> func (addr)" frames; a lone word or "func <-" junk stays bad */
	x = imp("  ls-9 [001] ...1. 5.000001: do_filp_open\n"
		"  ls-9 [001] ...1. 5.000002: do_filp_open+0x4/0xd0 <-do_sys_openat2+0x83/0x140\n"
		"  ls-9 [001] ...1. 5.000003: <user stack trace>\n"
		" =>  <00007f3a1c2e4b17>\n"
		"=> __kmalloc (ffffffff8124d0a0)\n"
		"  ls-9 [001] ..... 5.000004: kfree: call_site=f+0x1/0x2 ptr=0000000012345678\n"
		"  ls-9 [001] ...1. 5.000005: do_filp_open extra words\n"
		"=>\n");
	CHECK_EQ_INT(x.r.other_events, 3);
	CHECK_EQ_STR(x.r.other_names[0].name, "function");
	CHECK_EQ_INT(x.r.other_names[0].count, 2);
	CHECK_EQ_STR(x.r.other_names[1].name, "<user stack trace>");
	CHECK_EQ_INT(x.r.callchain_lines, 2);
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(x.r.bad_lines, 2);
	CHECK(has_error(&x, 7, "expected an event line"));
	CHECK(has_error(&x, 8, "expected an event line"));
	imp_free(&x);
}

static void test_trimmed(void)
{
	/* "EVENT: fields" lines: 4 kmem events, all kept, CPU unknown (replayed
	 * on CPU 0, CPUs seen "unknown"); mm_page_alloc is another event */
	struct imp x = imp_file("ftrace-trimmed-event-lines.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_FTRACE);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 4);
	CHECK_EQ_INT(x.r.kept, 4);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.r.no_cpu, 4);
	CHECK_EQ_INT(x.r.cpus_seen[0], 0);
	CHECK_EQ_INT(x.r.other_events, 1);
	CHECK_EQ_STR(x.r.other_names[0].name, "mm_page_alloc");
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 1);
	CHECK_EQ_STR(x.t.caches[0].name, "names_cache");
	CHECK_EQ_INT(x.t.ops[1].size, 2312);
	CHECK_EQ_INT(x.t.ops[1].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK_EQ_INT(x.t.ops[3].type, SVZ_OP_KFREE);
	CHECK(summary_has(&x, "CPUs seen: unknown\n"));
	CHECK(summary_has(&x, "note: 4 events had no CPU column"));
	{
		char *json = svz_import_report_json(&x.r);
		CHECK(json && strstr(json, "\"cpus_seen\":\"\""));
		CHECK(json && strstr(json, "\"notes\":{\"no_cpu\":4,"));
		free(json);
	}
	imp_free(&x);

	/* mixed with full lines: the seen CPU and the unknown ones both shown */
	x = imp("kmem_cache_free: call_site=putname+0x5d/0x70 ptr=000000000f4d22f4 name=names_cache\n"
		KF("0000000012345678"));
	CHECK_EQ_INT(x.r.events, 2);
	CHECK_EQ_INT(x.r.no_cpu, 1);
	CHECK(summary_has(&x, "CPUs seen: 1; unknown for 1 events"));
	imp_free(&x);
}

/* The latency format, whose CPU column has no brackets: "%8.8s-%-5d %3d"
 * and the latency flags right after the CPU (trace-cmd report -l; ftrace's
 * options/latency-format prints "%8.8s-%-7d %3d" and the same flags). */
static void test_latency(void)
{
	/* trace-cmd report -l: kmalloc on CPU 2, its kfree on CPU 3 */
	static const char lat[] =
		"cpus=4\n"
		"    bash-1718    2d..2.  2275.416428: kmalloc:              call_site=__alloc_skb+0x8e/0x1d0 "
		"ptr=0xffff888103a4c800 bytes_req=640 bytes_alloc=1024 gfp_flags=GFP_KERNEL|__GFP_NOWARN "
		"node=-1 accounted=false\n"
		"    bash-1718    3....   2275.416440: kfree:                call_site=skb_release_data+0x128/0x1a0 "
		"ptr=0xffff888103a4c800\n";
	struct imp x = imp(lat);
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_TRACE_CMD);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 2);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.r.no_cpu, 0);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.t.ops[0].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[0].cpu, 2);
	CHECK_EQ_INT(x.t.ops[0].size, 640);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL | __GFP_NOWARN);
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_KFREE);
	CHECK_EQ_INT(x.t.ops[1].cpu, 3);
	/* CPUs 2 and 3 seen, cpus=4 in the header: 4 CPUs */
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 4);
	CHECK(summary_has(&x, "CPUs seen: 2-3 (4 CPUs in the header)\n"));
	imp_free(&x);

	/* trace-cmd report -l -R: the flags as "-0x%x"; a two-digit CPU; a
	 * comm of 8 bytes with a blank ("%8.8s" of "Web Content") */
	x = imp("cpus=16\n"
		"Web Cont-1718   12-0x1  2275.416428: kmalloc: call_site=ffffffff81a2b3c4 "
		"ptr=0xffff888103a4c800 bytes_req=64 bytes_alloc=64 gfp_flags=3264 node=-1 accounted=0\n");
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK_EQ_INT(x.t.ops[0].cpu, 12);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL); /* 3264 = 0xcc0 */
	imp_free(&x);

	/* ftrace's options/latency-format: its header is comments (#P:8 read),
	 * the time is " %4lldus%c: " from the trace's start, with a mark
	 * (' ', '+', '!' ...) for the gap to the next event */
	x = imp("# tracer: nop\n"
		"#\n"
		"# nop latency trace v1.1.5 on 6.8.0\n"
		"# latency: 0 us, #3/3, CPU#1 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:8)\n"
		"#  cmd     pid     |||||| time  |   caller\n"
		"    bash-1200      5d..2.    0us : kmalloc: call_site=f ptr=0xffff888103a4c800 bytes_req=640 "
		"bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		"    bash-1200      5d..2.    3us+: kmem_cache_alloc: call_site=g ptr=0xffff888104a2b000 "
		"bytes_req=360 bytes_alloc=384 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		"  <idle>-0         7.Ns1.  102us!: kfree: call_site=h ptr=0xffff888103a4c800\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_FTRACE);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.kept, 3);
	CHECK_EQ_INT(x.r.no_cpu, 0);
	CHECK_EQ_INT(x.r.ts_backwards, 0);
	CHECK_EQ_INT(x.t.ops[0].cpu, 5);
	CHECK_EQ_INT(x.t.ops[1].cpu, 5);
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_ALLOC);
	CHECK_EQ_INT(x.t.ops[2].cpu, 7);
	CHECK_EQ_INT(x.t.ops[2].type, SVZ_OP_KFREE);
	/* the kmalloc is freed, the kmem_cache_alloc object is not */
	CHECK_EQ_INT(x.r.unpaired, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 8);
	imp_free(&x);

	/* the relative times are read: 5us after 9us went backwards once */
	x = imp("    bash-1200      0....    9us : kfree: call_site=f ptr=0xffff888103a4c800\n"
		"    bash-1200      0....    5us : kfree: call_site=f ptr=0xffff888103a4c900\n");
	CHECK_EQ_INT(x.r.events, 2);
	CHECK_EQ_INT(x.r.ts_backwards, 1);
	imp_free(&x);

	/* "2d2" is not a CPU with latency flags (a digit in the irqs-off
	 * column, too short): that line's CPU stays unknown */
	x = imp("    bash-1718    2d2  2275.416428: kfree: call_site=f ptr=0xffff888103a4c800\n"
		"    bash-1718    3....   2275.416440: kfree: call_site=f ptr=0xffff888103a4c900\n");
	CHECK_EQ_INT(x.r.events, 2);
	CHECK_EQ_INT(x.r.no_cpu, 1);
	imp_free(&x);
}

/* A file whose last line stops mid-event, without a newline. */
static void test_cut(void)
{
	/* "bytes_req=224 " and "bytes_req=5" (of 512): kmalloc prints
	 * bytes_alloc and gfp_flags after bytes_req on every kernel, so neither
	 * is kmalloc(224) or kmalloc(5): line 15 is named and not imported */
	static const char *const files[] = { "ftrace-cut-after-bytes_req.txt",
					     "ftrace-cut-in-bytes_req.txt" };
	for (int f = 0; f < 2; f++) {
		struct imp x = imp_file(files[f]);
		CHECK_EQ_INT(x.rc, 0);
		CHECK_EQ_INT(x.r.lines, 15);
		CHECK_EQ_INT(x.r.cut_line, 15);
		CHECK_EQ_INT(x.r.events, 2);
		CHECK_EQ_INT(x.r.kept, 2);
		CHECK_EQ_INT(x.r.bad_lines, 1);
		CHECK_EQ_INT(x.t.nr_ops, 2);
		CHECK(has_error(&x, 15, "kmalloc cut short: no bytes_alloc= (the input ends in this "
			       "line, without a newline): not imported"));
		CHECK(summary_has(&x, "input cut short: the last line (15) ends without a newline"));
		char *json = svz_import_report_json(&x.r);
		CHECK(json && strstr(json, "\"truncated\":false,\"cut_line\":15,"));
		free(json);
		check_bytewise(files[f], &x);
		imp_free(&x);
	}

	/* more places a cut shows, each the last line without '\n' */
	static const struct {
		const char *last, *why;
	} cuts[] = {
		{ PFX "kmalloc: call_site=f+0x1/0x2 ptr=00000000a0a0a0a0 bytes_req=512 bytes_alloc=512 "
		      "gfp_flags=GFP_KERNEL|__GF", "gfp_flags= ends in a name" },
		{ PFX "kmalloc: call_site=f+0x1/0x2 ptr=00000000a0a0a0a0 bytes_req=512 bytes_alloc=512 "
		      "gfp_flags=GFP_KERNEL node=-1", "node= without the accounted=" },
		{ PFX "kmalloc: call_site=f+0x1/0x2 ptr=00000000a0a0a0a0 bytes_req=512 bytes_alloc=512 "
		      "gfp_flags=GFP_KERNEL node=-1 accounted=fa", "accounted= is neither" },
		{ PFX "kfree: call_site=f+0x1/0x2 ptr=00000000a0a0", "ptr= shorter" },
		{ PFX "kfree: call_site=f+0x1/0", "no ptr=" },
		{ PFX "kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000b0b0b0b0 bytes_req=64",
		  "no bytes_alloc=" },
	};
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		char text[512];
		snprintf(text, sizeof text, "%s%s", KM("00000000c0c0c0c0", "64"), cuts[i].last);
		struct imp x = imp(text);
		CHECK_EQ_INT(x.r.cut_line, 2);
		CHECK_EQ_INT(x.r.events, 1);
		CHECK(has_error(&x, 2, cuts[i].why));
		imp_free(&x);
	}

	/* complete last lines without '\n' are whole: the 6.x form ending in
	 * accounted=, the pre-5.19 form ending in gfp_flags=, a *_node event
	 * ending in node=, kfree and kmem_cache_free */
	static const char *const whole[] = {
		KM("00000000a0a0a0a0", "64"),
		PFX "kmalloc: call_site=c104deff ptr=c147dd20 bytes_req=29 bytes_alloc=32 "
		    "gfp_flags=GFP_KERNEL",
		PFX "kmalloc_node: call_site=ffffffff813f6c2e ptr=ffff88007c8d1800 bytes_req=640 "
		    "bytes_alloc=1024 gfp_flags=GFP_KERNEL node=1",
		PFX "kfree: call_site=f+0x1/0x2 ptr=00000000c0c0c0c0",
		PFX "kmem_cache_free: call_site=f+0x1/0x2 ptr=00000000c0c0c0c0 name=x",
	};
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		char text[512];
		snprintf(text, sizeof text, "%s", whole[i]);
		size_t n = strlen(text);
		if (text[n - 1] == '\n')
			text[n - 1] = 0;
		struct imp x = imp(text);
		CHECK_EQ_INT(x.r.cut_line, 0);
		CHECK_EQ_INT(x.r.events, 1);
		CHECK_EQ_INT(x.r.bad_lines, 0);
		imp_free(&x);
	}

	/* the same cut line followed by '\n' is a line like any other */
	struct imp x = imp(PFX "kmalloc: call_site=f+0x1/0x2 ptr=00000000a0a0a0a0 bytes_req=224 \n");
	CHECK_EQ_INT(x.r.cut_line, 0);
	CHECK_EQ_INT(x.r.kept, 1);
	imp_free(&x);
}

static void test_bom_free_only(void)
{
	/* a BOM before "# tracer: nop"; only frees, on [004]: 3 events, all
	 * freed before the trace began; CPUs seen 4; #P:8 gives 8 CPUs */
	struct imp x = imp_file("ftrace-bom-free-only.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_FTRACE);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.comment_lines, 14);
	CHECK_EQ_INT(x.r.events, 3);
	CHECK_EQ_INT(x.r.kept, 0);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_UNKNOWN), 3);
	CHECK_EQ_INT(x.r.cpus_seen[0], 1u << 4);
	CHECK_EQ_INT(x.r.header_cpus, 8);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 8);
	CHECK(summary_has(&x, "CPUs seen: 4 (8 CPUs in the header)"));
	check_bytewise("ftrace-bom-free-only.txt", &x);
	imp_free(&x);

	/* a v1 text keeps its BOM for the v1 parser, which skips it as
	 * svz_open() does (every entry point reads a file the same way) */
	static const char bom_v1[] = "\xEF\xBB\xBFslubviz-trace 1\ncache c size=8\nc0 alloc c a\n";
	x = imp(bom_v1);
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_V1);
	int bom_h = svz_open(bom_v1, NULL, NULL);
	CHECK(bom_h > 0);
	if (bom_h > 0)
		svz_close(bom_h);
	imp_free(&x);
	/* the BOM before an event line; only at the start */
	x = imp("\xEF\xBB\xBF" KF("0000000012345678") "\xEF\xBB\xBF# tracer: nop\n");
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(x.r.comment_lines, 0);
	CHECK(has_error(&x, 2, "expected an event line"));
	imp_free(&x);
	CHECK_EQ_INT(svz_import_detect("\xEF\xBB\xBF# tracer: nop\n", 17), SVZ_FMT_FTRACE);
}

/* A pointer allocated twice (its first object never freed in the trace),
 * then freed three times: the first free frees the newer object; the second
 * may be the older object's (a hashed %p collision or lost events), not a
 * double free; only the third is "already freed". */
static void test_rebound_label(void)
{
	struct imp x = imp(
		PFX "kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000deadbeef bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		PFX "kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000deadbeef bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		PFX "kmem_cache_free: call_site=g+0x1/0x2 ptr=00000000deadbeef name=dentry\n"
		PFX "kmem_cache_free: call_site=g+0x1/0x2 ptr=00000000deadbeef name=dentry\n"
		PFX "kmem_cache_free: call_site=g+0x1/0x2 ptr=00000000deadbeef name=dentry\n");
	CHECK_EQ_INT(x.r.events, 5);
	CHECK_EQ_INT(x.r.kept, 3);
	CHECK_EQ_INT(x.r.rebound, 1);
	CHECK_EQ_INT(x.r.unpaired, 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_REBOUND), 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_TWICE), 1);
	check_balance(&x);
	CHECK_EQ_STR(handle_of(&x, 2), "pdeadbeef.1");
	CHECK(summary_has(&x, "[free-rebound]"));
	CHECK(summary_has(&x, "skipped 1 frees of objects the trace had already freed [free-not-live]"));
	imp_free(&x);
}

/* find_mergeable() under the default (slab_nomerge off): two named caches
 * of 192 bytes, no flags, no constructor: "bar" (created second) fits
 * "foo" exactly (same size, 8-byte alignment, the same SLAB_MERGE_SAME
 * flags: none), so it becomes foo's alias, and the summary says so in
 * text and JSON. With slab_nomerge=1 each keeps its own slabs: no line. */
static void test_alias_summary(void)
{
	static const char text[] =
		PFX "kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000aaaa0000 bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=foo\n"
		PFX "kmem_cache_alloc: call_site=f+0x1/0x2 ptr=00000000bbbb0000 bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=bar\n";
	int h = svz_open_any(text, "v6.19", NULL);
	CHECK(h > 0);
	if (h > 0) {
		CHECK(strstr(svz_import_summary(h), "merged caches (find_mergeable(); slab_nomerge=1 keeps "
				 "them apart): 1\n  bar: an alias of foo") != NULL);
		CHECK(strstr(svz_import_summary_json(h), "\"aliases\":[{\"cache\":\"bar\",\"of\":\"foo\"}]}") != NULL);
		svz_close(h);
	}
	h = svz_open_any(text, "v6.19", "slab_nomerge=1");
	CHECK(h > 0);
	if (h > 0) {
		CHECK(strstr(svz_import_summary(h), "merged caches") == NULL);
		CHECK(strstr(svz_import_summary_json(h), "aliases") == NULL);
		svz_close(h);
	}
}

/* ---- hostile and malformed inputs --------------------------------------------- */

static void test_hostile(void)
{
	struct imp x;

	/* 1. empty input */
	x = imp("");
	CHECK_EQ_INT(x.rc, -1);
	CHECK(x.r.fatal);
	CHECK_EQ_STR(x.r.fatal_msg, "empty input: nothing to import");
	imp_free(&x);

	/* 2. only an ftrace header: imports, nothing to replay */
	x = imp("# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:8\n#\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_FTRACE);
	CHECK_EQ_INT(x.r.events, 0);
	CHECK_EQ_INT(x.t.nr_ops, 0);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 8);
	CHECK(summary_has(&x, "no kmem events: nothing to replay"));
	imp_free(&x);

	/* 3. only blank lines */
	x = imp("\n   \n\t\n");
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_STR(x.r.fatal_msg, "no trace lines: only blank lines and comments");
	imp_free(&x);

	/* 4. binary junk */
	{
		char junk[300];
		for (int i = 0; i < 300; i++)
			junk[i] = (char)((i * 37 + 11) & 0xff);
		x = imp_lim(junk, sizeof junk, SVZ_FMT_AUTO, NULL);
		CHECK_EQ_INT(x.rc, -1);
		CHECK(strstr(x.r.fatal_msg, "no trace lines recognised") != NULL);
		CHECK(has_error(&x, 1, "binary data: byte 0x0B at column 1"));
		imp_free(&x);
	}

	/* 5. a NUL byte inside an otherwise good line; the rest imports */
	{
		static const char t[] = KM("00000000000000a0", "16") KM("00000000000000b0", "16");
		char buf[sizeof t];
		memcpy(buf, t, sizeof t);
		buf[40] = 0;
		x = imp_lim(buf, sizeof t - 1, SVZ_FMT_AUTO, NULL);
		CHECK_EQ_INT(x.rc, 0);
		CHECK_EQ_INT(x.r.bad_lines, 1);
		CHECK(has_error(&x, 1, "binary data: byte 0x00 at column 41"));
		CHECK_EQ_INT(x.r.kept, 1);
		imp_free(&x);
	}

	/* 6. a line cut inside the fields */
	x = imp(KM("00000000000000a0", "16") PFX "kmalloc: call_si\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK(has_error(&x, 2, "kmalloc: expected key=value fields, got 'call_si'"));
	CHECK_EQ_INT(x.r.kept, 1);
	imp_free(&x);

	/* 7. a line cut before the event */
	x = imp(KM("00000000000000a0", "16") "          bash-1200  [001] ..... 100.0\n");
	CHECK(has_error(&x, 2, "expected an event line 'TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: FIELDS'"));
	imp_free(&x);

	/* 8. a last line without '\n' still counts */
	x = imp(KM("00000000000000a0", "16") PFX "kfree: call_site=g+0x1/0x2 ptr=00000000000000a0");
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.r.lines, 2);
	CHECK_EQ_INT(x.r.unpaired, 0);
	imp_free(&x);

	/* 9. a number beyond 64 bits */
	x = imp(KM("00000000000000a0", "99999999999999999999999"));
	CHECK(has_error(&x, 1, "expected bytes_req=NUMBER below 2^63, got 'bytes_req=99999999999999999999999'"));
	CHECK_EQ_INT(x.rc, -1); /* nothing else in the file */
	imp_free(&x);

	/* 10. a size beyond 64 MiB: skipped, and so is its free (bytes_alloc:
	 * the page allocator's 2^order pages, 128 MiB and 64 MiB) */
	x = imp(KMA("00000000000000a0", "67108865", "134217728") KF("00000000000000a0")
		KMA("00000000000000b0", "67108864", "67108864"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_TOO_LARGE), 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_SKIPPED), 1);
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK_EQ_INT(x.t.ops[0].size, 67108864);
	check_balance(&x);
	imp_free(&x);

	/* 11. a pointer of 17 hex digits (after its leading zeros; 0x or not),
	 * said to be too wide; a non-hex one stays "expected" */
	x = imp(KM("1ffffffffffffffff", "16") KM("00000000000000b0", "16") KM("0x0001ffffffffffffffff", "16")
		KM("0xffff88810000004g", "16"));
	CHECK(has_error(&x, 1, "ptr=1ffffffffffffffff is wider than 64 bits (17 hex digits after the "
			"leading zeros, at most 16)"));
	CHECK(has_error(&x, 3, "ptr=0x0001ffffffffffffffff is wider than 64 bits (17 hex digits after the "
			"leading zeros, at most 16)"));
	CHECK(has_error(&x, 4, "expected ptr=HEX, (null) or (nil), got 'ptr=0xffff88810000004g'"));
	CHECK_EQ_INT(x.r.kept, 1);
	imp_free(&x);

	/* 12. a 10 MB single line between good ones */
	{
		size_t big = 10u << 20;
		const char *a = KM("00000000000000a0", "16");
		size_t al = strlen(a);
		char *t = malloc(al + big + 1 + al + 1);
		memcpy(t, a, al);
		memset(t + al, 'x', big);
		t[al + big] = '\n';
		memcpy(t + al + big + 1, KM("00000000000000b0", "16"), al + 1);
		x = imp_lim(t, strlen(t), SVZ_FMT_AUTO, NULL);
		CHECK_EQ_INT(x.rc, 0);
		CHECK(has_error(&x, 2, "line longer than the limit of 65536 bytes (10485760 bytes): skipped"));
		CHECK_EQ_INT(x.r.long_lines, 1);
		CHECK_EQ_INT(x.r.kept, 2);
		CHECK_EQ_INT(x.r.lines, 3);
		/* 13. the same fed in 4 KiB chunks */
		imp_free(&x);
		struct svz_importer *im = svz_importer_new(SVZ_FMT_AUTO, NULL, NULL);
		size_t n = strlen(t);
		for (size_t o = 0; o < n; o += 4096)
			svz_importer_feed(im, t + o, n - o < 4096 ? n - o : 4096);
		struct svz_error e;
		x.rc = svz_importer_finish(im, &x.t, &x.r, &e);
		x.text = NULL;
		svz_importer_free(im);
		CHECK_EQ_INT(x.rc, 0);
		CHECK(has_error(&x, 2, "line longer than the limit of 65536 bytes (10485760 bytes): skipped"));
		CHECK_EQ_INT(x.r.kept, 2);
		imp_free(&x);
		free(t);
	}

	/* 14. an event we do not model */
	x = imp(PFX "sched_switch: prev_comm=bash prev_pid=1 ==> next_comm=x next_pid=0\n"
		PFX "mm_page_alloc: page=0xffffea0004e58c00 pfn=0x139630 order=0 migratetype=1 gfp_flags=GFP_KERNEL\n"
		KM("00000000000000a0", "16"));
	CHECK_EQ_INT(x.r.other_events, 2);
	CHECK_EQ_STR(x.r.other_names[0].name, "sched_switch");
	CHECK_EQ_STR(x.r.other_names[1].name, "mm_page_alloc");
	CHECK(summary_has(&x, "other events ignored: 2 (sched_switch 1, mm_page_alloc 1)"));
	imp_free(&x);

	/* 15. only unknown events: imports, nothing to replay */
	x = imp(PFX "sched_wakeup: comm=x pid=1 prio=120 target_cpu=001\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.events, 0);
	imp_free(&x);

	/* 16. a free without an alloc */
	x = imp(KF("00000000000000c0") KM("00000000000000a0", "16"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_UNKNOWN), 1);
	CHECK(summary_has(&x, "skipped 1 frees of objects allocated before the trace began"));
	imp_free(&x);

	/* 17. two allocs of one live pointer */
	x = imp(KM("00000000000000a0", "16") KM("00000000000000a0", "32") KF("00000000000000a0"));
	CHECK_EQ_INT(x.r.rebound, 1);
	CHECK_EQ_INT(x.r.unpaired, 1);
	CHECK_EQ_STR(handle_of(&x, 0), "pa0");
	CHECK_EQ_STR(handle_of(&x, 1), "pa0.1");
	CHECK_EQ_STR(handle_of(&x, 2), "pa0.1");
	imp_free(&x);

	/* 18. a double free */
	x = imp(KM("00000000000000a0", "16") KF("00000000000000a0") KF("00000000000000a0"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_TWICE), 1);
	CHECK_EQ_INT(x.r.kept, 2);
	imp_free(&x);

	/* 19. CRLF line ends: same as LF */
	{
		struct imp lf = imp(KM("00000000000000a0", "16") KF("00000000000000a0"));
		x = imp("          bash-1200  [001] ..... 100.000001: kmalloc: call_site=f+0x1/0x2 "
			"ptr=00000000000000a0 bytes_req=16 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 "
			"accounted=false\r\n"
			"          bash-1200  [001] ..... 100.000001: kfree: call_site=g+0x1/0x2 "
			"ptr=00000000000000a0\r\n");
		CHECK_EQ_INT(x.r.kept, 2);
		CHECK_EQ_INT(x.r.bad_lines, 0);
		CHECK_EQ_INT(x.t.ops[0].gfp, lf.t.ops[0].gfp);
		CHECK_EQ_STR(site_of(&x, 1), "g+0x1/0x2");
		imp_free(&lf);
		imp_free(&x);
	}

	/* 20. a negative CPU */
	x = imp("   bash-1 [-01] .... 1.0: kmalloc: ptr=00000000000000a0 bytes_req=8\n" KM("00000000000000b0", "8"));
	CHECK(has_error(&x, 1, "expected a CPU like [003], got '[-01]'"));
	imp_free(&x);

	/* 21. a CPU beyond the model's 256; its free is skipped too */
	x = imp("   bash-1 [300] .... 1.0: kmalloc: ptr=00000000000000a0 bytes_req=8\n"
		"   bash-1 [300] .... 1.1: kfree: ptr=00000000000000a0\n" KM("00000000000000b0", "8"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_CPU_LIMIT), 2);
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 2);
	/* CPU 300 was seen, though not replayed: the summary says so (KM is on [001]) */
	CHECK(summary_has(&x, "CPUs seen: 1; 300 beyond the model's 256 CPUs (their events skipped)\n"));
	{
		char *json = svz_import_report_json(&x.r);
		CHECK(json && strstr(json, "\"cpus_seen\":\"1\",\"cpus_beyond\":\"300\","));
		free(json);
	}
	imp_free(&x);
	/* ... a range of them: lowest and highest */
	x = imp("   bash-1 [4095] .... 1.0: kmalloc: ptr=00000000000000a0 bytes_req=8\n"
		"   bash-1 [256] .... 1.1: kmalloc: ptr=00000000000000c0 bytes_req=8\n"
		"   bash-1 [300] .... 1.2: kmalloc: ptr=00000000000000d0 bytes_req=8\n" KM("00000000000000b0", "8"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_CPU_LIMIT), 3);
	CHECK(summary_has(&x, "CPUs seen: 1; 256-4095 beyond the model's 256 CPUs"));
	imp_free(&x);
	/* ... and none: the JSON field is empty, the text says nothing */
	x = imp(KM("00000000000000b0", "8"));
	CHECK(!summary_has(&x, "beyond the model's"));
	{
		char *json = svz_import_report_json(&x.r);
		CHECK(json && strstr(json, "\"cpus_beyond\":\"\","));
		free(json);
	}
	imp_free(&x);

	/* 22. an absurd CPU number: Linux's NR_CPUS is at most 8192, so a CPU
	 * above 65535 is a corrupt column and the line is bad, like [-01]
	 * (2^31, 2^32, 20 digits, 65536; the latency format's CPU before its
	 * flags; bpftrace's CPU). 65535 is a CPU, beyond the model's 256. */
	x = imp("   bash-1 [99999999999999999999] .... 1.0: kmalloc: ptr=00000000000000a0 bytes_req=8\n"
		"   bash-1 [2147483648] .... 1.0: kmalloc: ptr=00000000000000c0 bytes_req=8\n"
		"   bash-1 [4294967296] .... 1.0: kmalloc: ptr=00000000000000d0 bytes_req=8\n"
		"   bash-1 [65536] .... 1.0: kmalloc: ptr=00000000000000e0 bytes_req=8\n"
		"   bash-1 70000d..2. 1.0: kmalloc: ptr=00000000000000f0 bytes_req=8\n"
		"   bash-1 [65535] .... 1.0: kmalloc: ptr=0000000000000100 bytes_req=8\n" KM("b0", "8"));
	CHECK_EQ_INT(x.r.bad_lines, 5);
	CHECK(has_error(&x, 1, "CPU out of range: expected at most 65535, got '[99999999999999999999]'"));
	CHECK(has_error(&x, 2, "CPU out of range: expected at most 65535, got '[2147483648]'"));
	CHECK(has_error(&x, 3, "CPU out of range: expected at most 65535, got '[4294967296]'"));
	CHECK(has_error(&x, 4, "CPU out of range: expected at most 65535, got '[65536]'"));
	CHECK(has_error(&x, 5, "CPU out of range: expected at most 65535, got '70000d..2.'"));
	CHECK_EQ_INT(x.r.events, 2); /* [65535] and KM's [001] */
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_CPU_LIMIT), 1);
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK(summary_has(&x, "CPUs seen: 1; 65535 beyond the model's 256 CPUs (their events skipped)\n"));
	imp_free(&x);
	x = imp("svz 4294967296 kmalloc ptr=0xa0 bytes_req=8\nsvz 1 kmalloc ptr=0xb0 bytes_req=8\n");
	CHECK_EQ_INT(x.r.format, SVZ_FMT_BPFTRACE);
	CHECK(has_error(&x, 1, "CPU out of range: expected at most 65535, got '4294967296'"));
	CHECK_EQ_INT(x.r.events, 1);
	imp_free(&x);

	/* 23. an unknown gfp name: dropped, known flags kept */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 gfp_flags=GFP_KERNEL|__GFP_FROB|__GFP_ZERO\n");
	CHECK_EQ_INT(x.r.gfp_unknown, 1);
	CHECK_EQ_STR(x.r.gfp_names[0].name, "__GFP_FROB");
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL | __GFP_ZERO);
	CHECK(summary_has(&x, "gfp flags the model does not know, dropped (known flags kept): __GFP_FROB"));
	imp_free(&x);

	/* 24. numeric gfp in the v6.x layout; bit 0x200 is not one */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 gfp_flags=0xcc0 (3264)\n"
		PFX "kmalloc: ptr=b0 bytes_req=8 gfp_flags=0xec0\n"
		PFX "kmalloc: ptr=c0 bytes_req=8 gfp_flags=GFP_KERNEL|0x400000\n");
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL);
	CHECK_EQ_INT(x.t.ops[1].gfp, GFP_KERNEL);
	CHECK_EQ_INT(x.r.gfp_unknown, 1);
	CHECK_EQ_INT(x.t.ops[2].gfp, GFP_KERNEL | __GFP_ACCOUNT);
	CHECK_EQ_INT(x.r.gfp_layout, 0); /* 0xcc0 = reclaim 0xc00 | IO 0x40 | FS 0x80 */
	imp_free(&x);
	/* 24b. a 4.x kernel's GFP_KERNEL, printed as numbers (OOM reports of
	 * 4.17 and RHEL 8's 4.18 show 0x14000c0 and 0x6000c0): read in v6's
	 * layout both keep IO 0x40 | FS 0x80 and lose every reclaim bit (0x400,
	 * 0x800): the layout note, one per allocation. v6's GFP_NOWAIT (0x800)
	 * and GFP_ATOMIC (0xa20) ask for no IO/FS, and a named GFP_KERNEL
	 * is not numeric: no note for those. */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 gfp_flags=0x6000c0\n"
		PFX "kmalloc: ptr=b0 bytes_req=8 gfp_flags=0x14000c0\n"
		PFX "kmalloc: ptr=c0 bytes_req=8 gfp_flags=0x800\n"
		PFX "kmalloc: ptr=d0 bytes_req=8 gfp_flags=0xa20\n"
		PFX "kmalloc: ptr=e0 bytes_req=8 gfp_flags=__GFP_IO|__GFP_FS\n");
	CHECK_EQ_INT(x.r.gfp_layout, 2);
	CHECK(summary_has(&x, "note: 2 allocations have a numeric gfp_flags with __GFP_IO or __GFP_FS but no reclaim bit"));
	/* a number's unknown bits are named alone, not the whole value: the
	 * model knows bits 0x1 .. 0x400000 (__GFP_ACCOUNT) but 0x200, so
	 * 0x14000c0 has 0x1000000 unknown, 0xa20 (v6.3's GFP_ATOMIC, with
	 * ___GFP_ATOMIC 0x200) has 0x200, 0x6000c0 and 0x800 none */
	CHECK_EQ_INT(x.r.gfp_unknown, 2);
	CHECK_EQ_INT(x.r.nr_gfp_names, 2);
	CHECK_EQ_STR(x.r.gfp_names[0].name, "0x1000000");
	CHECK_EQ_STR(x.r.gfp_names[1].name, "0x200");
	CHECK_EQ_INT(x.t.ops[3].gfp, 0x820);
	CHECK(summary_has(&x, "gfp flags the model does not know, dropped (known flags kept): 0x1000000 0x200\n"));
	imp_free(&x);

	/* 25. kfree(NULL), hashed and old-style, and kfree(ZERO_SIZE_PTR) */
	x = imp(KF("0000000000000000") KF("  (null)") KF("0x10") KM("a0", "8"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 3);
	imp_free(&x);

	/* 26. kmalloc(0) returns ZERO_SIZE_PTR; its kfree is a no-op */
	x = imp(KM("00000000000000a0", "0") KF("00000000000000a0") KM("b0", "8"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_ZERO_SIZE), 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 1);
	check_balance(&x);
	imp_free(&x);

	/* 27. an allocation that failed */
	x = imp(KM("0000000000000000", "8") KM("b0", "8"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_ALLOC_FAILED), 1);
	imp_free(&x);

	/* 28. kmem_cache_alloc with neither name= nor sizes */
	x = imp(PFX "kmem_cache_alloc: call_site=f ptr=a0 gfp_flags=GFP_KERNEL\n" KM("b0", "8"));
	CHECK(has_error(&x, 1, "kmem_cache_alloc without name= or bytes_alloc="));
	imp_free(&x);

	/* 29, 30. fields missing */
	x = imp(PFX "kmalloc: call_site=f bytes_req=8\n" PFX "kmalloc: call_site=f ptr=a0\n" KM("b0", "8"));
	CHECK(has_error(&x, 1, "kmalloc without ptr="));
	CHECK(has_error(&x, 2, "kmalloc without bytes_req="));
	CHECK_EQ_INT(x.r.bad_lines, 2);
	imp_free(&x);

	/* 31. node= targets: the topology grows to cover them */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 node=5\n");
	CHECK_EQ_INT(x.t.ops[0].node, 5);
	CHECK_EQ_INT(x.t.config.topo.nr_nodes, 6);
	imp_free(&x);

	/* 32. a node beyond the model's 64 */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 node=100\n");
	CHECK_EQ_INT(x.r.node_dropped, 1);
	CHECK_EQ_INT(x.t.ops[0].node, -1);
	CHECK_EQ_INT(x.t.config.topo.nr_nodes, 1);
	imp_free(&x);

	/* 33. accounted=true picks the kmalloc-cg caches */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 gfp_flags=GFP_KERNEL node=-1 accounted=true\n");
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL | __GFP_ACCOUNT);
	imp_free(&x);

	/* 34. cache names: odd characters, kmalloc caches by name */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=my cache! bytes_req=100 bytes_alloc=104\n"
		PFX "kmem_cache_alloc: ptr=b0 name=kmalloc-cg-1k bytes_req=1024 bytes_alloc=1024\n"
		PFX "kmem_cache_free: ptr=b0 name=kmalloc-cg-1k\n");
	CHECK_EQ_INT(x.t.nr_caches, 1);
	CHECK_EQ_STR(x.t.caches[0].name, "my");
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[1].size, 1024);
	CHECK_EQ_INT(x.t.ops[1].gfp, GFP_KERNEL | __GFP_ACCOUNT);
	CHECK_EQ_INT(x.t.ops[2].type, SVZ_OP_KFREE);
	imp_free(&x);
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=TCP/v6 bytes_req=100 bytes_alloc=104\n");
	CHECK_EQ_STR(x.t.caches[0].name, "TCP_v6");
	CHECK_EQ_INT(x.r.names_adjusted, 1);
	imp_free(&x);

	/* 35. task names with ':' and blanks, and one that looks like columns */
	x = imp("        test:.sh-1299    [004] .....  2886.040608: kmem_cache_free: call_site=putname+0xa4/0xc8 ptr=000000000f4d22f4 name=names_cache\n"
		"   my task: x-12  [002] d..1. 5.5: kmalloc: ptr=a0 bytes_req=8\n"
		"   1.5: fake: -12  [003] .... 5.6: kmalloc: ptr=b0 bytes_req=8\n");
	CHECK_EQ_INT(x.r.events, 3);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_UNKNOWN), 1);
	CHECK_EQ_INT(x.t.ops[0].cpu, 2);
	CHECK_EQ_INT(x.t.ops[1].cpu, 3);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	imp_free(&x);

	/* 36. flags columns of 4 and 5 characters, none, and record-tgid */
	x = imp("  a-1 [000] .N.. 1.0: kmalloc: ptr=a0 bytes_req=8\n"
		"  a-1 [001] d..1. 1.1: kmalloc: ptr=b0 bytes_req=8\n"
		"  a-1 [002] 1.2: kmalloc: ptr=c0 bytes_req=8\n"
		"  a-1 (    1) [003] .... 1.3: kmalloc: ptr=d0 bytes_req=8\n");
	CHECK_EQ_INT(x.r.kept, 4);
	CHECK_EQ_INT(x.t.ops[3].cpu, 3);
	imp_free(&x);

	/* 37. the options/fields form: node=0xffffffff (-1), accounted=(1) */
	x = imp("  4582.696626: kmem_cache_alloc: call_site=0xffffffff92d10d97 (-1831793257) "
		"ptr=0xffff9e0e8571e000 (-107689771147264) bytes_req=0x1000 (4096) bytes_alloc=0x1000 "
		"(4096) gfp_flags=0xcc0 (3264) node=0xffffffff (-1) accounted=(1)\n");
	CHECK_EQ_INT(x.t.ops[0].node, -1);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL | __GFP_ACCOUNT);
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-4096-4096");
	imp_free(&x);
	/* 37b. accounted= that is neither: the kernel prints only "true" or
	 * "false" (kmem.h, v6.1 on), so the line is damaged and not imported;
	 * the lines around it are, "false"/"0" without __GFP_ACCOUNT */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		PFX "kmalloc: ptr=b0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=maybe\n"
		PFX "kmalloc: ptr=c0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=0\n");
	CHECK(has_error(&x, 2, "expected accounted=true or false, got 'accounted=maybe'"));
	CHECK_EQ_INT(x.r.bad_lines, 1);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL);
	CHECK_EQ_INT(x.t.ops[1].gfp, GFP_KERNEL);
	CHECK_EQ_INT(x.t.ops[1].line, 3);
	imp_free(&x);

	/* 38. ftrace's lost-events marker */
	x = imp(KM("a0", "8") "CPU:3 [LOST 10 EVENTS]\n" KF("a0"));
	CHECK_EQ_INT(x.r.lost_events, 10);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK(summary_has(&x, "the tracer reported 10 lost events"));
	imp_free(&x);

	/* 39. bpftrace: a bad CPU and an unknown event */
	x = imp("svz 1 kmalloc ptr=0xa0 bytes_req=8\nsvz x kmalloc ptr=0xb0 bytes_req=8\nsvz 1 mm_page_free page=0x1\n");
	CHECK_EQ_INT(x.r.format, SVZ_FMT_BPFTRACE);
	CHECK(has_error(&x, 2, "expected a CPU number after 'svz', got 'x'"));
	CHECK_EQ_INT(x.r.other_events, 1);
	imp_free(&x);

	/* 40. malloc-lab: bad op, bad id, free of an unknown id, header count off */
	x = imp("100\n3\n9\n1\na 0 8\nx 1 2\na y 8\nf 7\na 1 8 extra\nf 0 @999\n");
	CHECK_EQ_INT(x.r.format, SVZ_FMT_MALLOC_LAB);
	CHECK(has_error(&x, 6, "expected a malloc-lab op (a ID BYTES, r ID BYTES, f ID), got 'x'"));
	CHECK(has_error(&x, 7, "expected an id (a number), got 'y'"));
	CHECK(has_error(&x, 9, "expected 'a ID BYTES [@CPU]', got 'a 1 8 extra'"));
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_UNKNOWN), 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_CPU_LIMIT), 1);
	CHECK(summary_has(&x, "the malloc-lab header says 9 ops, the file has 3"));
	imp_free(&x);

	/* 41. malloc-lab with an incomplete header */
	x = imp("20000\n3\n");
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_STR(x.r.fatal_msg, "malloc-lab header incomplete: 2 of 4 numbers");
	imp_free(&x);

	/* 42. the op limit */
	{
		struct svz_import_limits lim;
		svz_import_limits_default(&lim);
		lim.max_ops = 3;
		const char *t = KM("a0", "8") KM("b0", "8") KM("c0", "8") KM("d0", "8") KF("d0");
		x = imp_lim(t, strlen(t), SVZ_FMT_AUTO, &lim);
		CHECK_EQ_INT(x.t.nr_ops, 3);
		CHECK_EQ_INT(skipped(&x, SVZ_SKIP_OP_LIMIT), 2);
		check_balance(&x);
		imp_free(&x);

		/* 43. the byte limit */
		svz_import_limits_default(&lim);
		lim.max_bytes = strlen(KM("a0", "8")) + 10;
		x = imp_lim(t, strlen(t), SVZ_FMT_AUTO, &lim);
		CHECK(x.r.truncated);
		CHECK_EQ_INT(x.r.kept, 1);
		CHECK(summary_has(&x, "input cut: larger than the input limit"));
		imp_free(&x);

		/* 44. errors beyond max_errors are counted, not kept */
		svz_import_limits_default(&lim);
		lim.max_errors = 2;
		const char *j = "junk 1\njunk 2\njunk 3\njunk 4\n" KM("a0", "8");
		x = imp_lim(j, strlen(j), SVZ_FMT_AUTO, &lim);
		CHECK_EQ_INT(x.r.bad_lines, 4);
		CHECK_EQ_INT(x.r.nr_errors, 2);
		CHECK(summary_has(&x, "... and 2 more"));
		imp_free(&x);

		/* 45. the cache limit */
		svz_import_limits_default(&lim);
		lim.max_caches = 1;
		const char *c = PFX "kmem_cache_alloc: ptr=a0 bytes_req=8 bytes_alloc=8\n"
				PFX "kmem_cache_alloc: ptr=b0 bytes_req=16 bytes_alloc=16\n";
		x = imp_lim(c, strlen(c), SVZ_FMT_AUTO, &lim);
		CHECK_EQ_INT(skipped(&x, SVZ_SKIP_CACHE_LIMIT), 1);
		CHECK_EQ_INT(x.t.nr_caches, 1);
		imp_free(&x);
	}

	/* 46. native v1 without its header: the v1 parser's error */
	x = imp("node 0 mem=1G\n");
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_V1);
	CHECK_EQ_STR(x.r.fatal_msg, "trace:1:1: error: expected the header 'slubviz-trace 1', got 'node'");
	imp_free(&x);

	/* 47. a v1 error is passed on unchanged */
	x = imp("# d\nslubviz-trace 1\nc0 alloc nope h\n");
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_STR(x.r.fatal_msg, "trace:3:10: error: expected a cache declared with 'cache', got 'nope'");
	imp_free(&x);

	/* 48. a kmem_cache_free naming another cache than the allocation's */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=foo bytes_req=8 bytes_alloc=8\n"
		PFX "kmem_cache_free: ptr=a0 name=bar\n");
	CHECK_EQ_INT(x.r.free_other_cache, 1);
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_FREE);
	CHECK_EQ_STR(cache_of(&x, 1), "foo");
	imp_free(&x);

	/* 49. frees disagreeing on an inferred cache's name: it keeps its own */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 bytes_req=8 bytes_alloc=8\n"
		PFX "kmem_cache_alloc: ptr=b0 bytes_req=8 bytes_alloc=8\n"
		PFX "kmem_cache_free: ptr=a0 name=one\n" PFX "kmem_cache_free: ptr=b0 name=two\n");
	/* the first free names it "one"; "two" disagrees: 1 counted */
	CHECK_EQ_INT(x.r.free_other_cache, 1);
	CHECK(summary_has(&x, "note: 1 kmem_cache_free events named another cache"));
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-8-8");
	imp_free(&x);

	/* 49b. kmem_cache_free of kmalloc objects: the name must be a kmalloc
	 * cache of the object's size. kmalloc(640) is in kmalloc-1k, so
	 * name=filp (line 2) disagrees, name=kmalloc-1k (line 4) agrees, and
	 * name=kmalloc-512 (line 6) disagrees: 2 counted. A kmem_cache_alloc
	 * from kmalloc-cg-64 is a kmalloc op; its free by that name agrees. */
	x = imp(KMA("a0", "640", "1024") PFX "kmem_cache_free: ptr=a0 name=filp\n"
		KMA("b0", "640", "1024") PFX "kmem_cache_free: ptr=b0 name=kmalloc-1k\n"
		KMA("c0", "640", "1024") PFX "kmem_cache_free: ptr=c0 name=kmalloc-512\n"
		PFX "kmem_cache_alloc: ptr=d0 name=kmalloc-cg-64 bytes_req=64 bytes_alloc=64\n"
		PFX "kmem_cache_free: ptr=d0 name=kmalloc-cg-64\n");
	CHECK_EQ_INT(x.r.kept, 8);
	CHECK_EQ_INT(x.r.free_other_cache, 2);
	CHECK_EQ_INT(x.r.unpaired, 0);
	imp_free(&x);

	/* 49c. a named cache whose name had to change ("kmalloc-foo" is not a
	 * kmalloc cache: declared "x-kmalloc-foo"): its free by the trace's
	 * name agrees with it */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=kmalloc-foo bytes_req=8 bytes_alloc=8\n"
		PFX "kmem_cache_free: ptr=a0 name=kmalloc-foo\n");
	CHECK_EQ_STR(x.t.caches[0].name, "x-kmalloc-foo");
	CHECK_EQ_INT(x.r.free_other_cache, 0);
	imp_free(&x);

	/* 49d. one name, two object sizes (a module reloaded re-creates its
	 * cache): the second gets its own declaration, "foo.2", sized 200; its
	 * 2 allocations count as renamed; frees by "foo" agree with either */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=foo bytes_req=100 bytes_alloc=104\n"
		PFX "kmem_cache_free: ptr=a0 name=foo\n"
		PFX "kmem_cache_alloc: ptr=b0 name=foo bytes_req=200 bytes_alloc=200\n"
		PFX "kmem_cache_alloc: ptr=c0 name=foo bytes_req=200 bytes_alloc=200\n"
		PFX "kmem_cache_free: ptr=b0 name=foo\n"
		PFX "kmem_cache_alloc: ptr=d0 name=foo bytes_req=100 bytes_alloc=104\n");
	CHECK_EQ_INT(x.r.kept, 6);
	CHECK_EQ_INT(x.t.nr_caches, 2);
	CHECK_EQ_STR(x.t.caches[0].name, "foo");
	CHECK_EQ_INT(x.t.caches[0].object_size, 100);
	CHECK_EQ_STR(x.t.caches[1].name, "foo.2");
	CHECK_EQ_INT(x.t.caches[1].object_size, 200);
	CHECK_EQ_STR(cache_of(&x, 2), "foo.2");
	CHECK_EQ_STR(cache_of(&x, 3), "foo.2");
	CHECK_EQ_STR(cache_of(&x, 4), "foo.2"); /* b0's free goes to b0's cache */
	CHECK_EQ_STR(cache_of(&x, 5), "foo");
	CHECK_EQ_INT(x.r.names_adjusted, 2);
	CHECK_EQ_INT(x.r.free_other_cache, 0);
	CHECK(summary_has(&x, "foo: object_size=100; named in the trace, bytes_req=100 "
			  "bytes_alloc=104; 2 allocations\n"));
	CHECK(summary_has(&x, "foo.2: object_size=200; named foo in the trace, with other sizes "
			  "than that cache (re-created?): bytes_req=200 bytes_alloc=200; 2 allocations\n"));
	CHECK(summary_has(&x, "a name seen again with other sizes, a re-created cache, suffixed .2)"));
	CHECK_EQ_INT(x.r.caches[0].recreates, -1);
	CHECK_EQ_INT(x.r.caches[1].recreates, 0);
	{
		char *json = svz_import_report_json(&x.r);
		CHECK(json && strstr(json, "\"origin\":\"recreated\",\"size_fallback\":false,"
				     "\"allocs\":2,\"recreates\":\"foo\"}"));
		CHECK(json && strstr(json, "\"origin\":\"trace\",\"size_fallback\":false,"
				     "\"allocs\":2}"));
		free(json);
	}
	imp_free(&x);
	/* ... but an event without sizes (bpftrace without bytes) is the first cache's */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=foo bytes_req=100 bytes_alloc=104\n"
		PFX "kmem_cache_alloc: ptr=b0 name=foo\n");
	CHECK_EQ_INT(x.t.nr_caches, 1);
	CHECK_EQ_INT(x.r.names_adjusted, 0);
	imp_free(&x);

	/* 50. bytes_alloc below bytes_req: no allocator gives less than asked,
	 * so the line is corrupt (bug 2), for kmalloc too; the good line
	 * after them imports alone (no cache declared) */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 bytes_req=2000 bytes_alloc=1024\n"
		KM("b0", "100") KM("c0", "8"));
	CHECK_EQ_INT(x.r.bad_lines, 2);
	CHECK(has_error(&x, 1, "kmem_cache_alloc: bytes_req=2000 is larger than bytes_alloc=1024"));
	CHECK(has_error(&x, 2, "kmalloc: bytes_req=100 is larger than bytes_alloc=64"));
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(x.t.nr_caches, 0);
	CHECK_EQ_INT(x.t.nr_ops, 1);
	CHECK_EQ_INT(x.t.ops[0].size, 8);
	imp_free(&x);

	/* 51. a large kmalloc goes to the page allocator in the model */
	x = imp(KMA("a0", "1048576", "1048576") KF("a0"));
	CHECK_EQ_INT(x.t.ops[0].size, 1048576);
	CHECK_EQ_INT(x.r.kept, 2);
	imp_free(&x);

	/* 52. UTF-8 in a task name */
	x = imp("  caf\xc3\xa9-7 [000] .... 1.0: kmalloc: ptr=a0 bytes_req=8\n");
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	imp_free(&x);

	/* 53. a line of 100 blank-separated words */
	{
		char t[1024] = "";
		for (int i = 0; i < 100; i++)
			strcat(t, "w ");
		strcat(t, "\n" KM("a0", "8"));
		x = imp(t);
		CHECK(has_error(&x, 1, "expected an event line"));
		CHECK_EQ_INT(x.r.kept, 1);
		imp_free(&x);
	}

	/* 54. an escape sequence (terminal junk) */
	x = imp(KM("a0", "8") "\x1b[31mred\x1b[0m\n");
	CHECK(has_error(&x, 2, "binary data: byte 0x1B at column 1"));
	imp_free(&x);

	/* 55. an unknown --format name */
	{
		enum svz_import_format f;
		CHECK_EQ_INT(svz_import_format_parse("ftrace", &f), 0);
		CHECK_EQ_INT(f, SVZ_FMT_FTRACE);
		CHECK_EQ_INT(svz_import_format_parse("rep", &f), 0);
		CHECK_EQ_INT(f, SVZ_FMT_MALLOC_LAB);
		CHECK_EQ_INT(svz_import_format_parse("csv", &f), -1);
	}

	/* 56. a forced format that does not fit */
	{
		const char *t = KM("a0", "8");
		x = imp_lim(t, strlen(t), SVZ_FMT_MALLOC_LAB, NULL);
		CHECK_EQ_INT(x.rc, -1);
		CHECK(strstr(x.r.fatal_msg, "expected the malloc-lab header's suggested heap size") != NULL);
		imp_free(&x);
	}

	/* 57. a huge node number and a non-numeric one */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 node=99999999999999999999\n"
		PFX "kmalloc: ptr=b0 bytes_req=8 node=abc\n" KM("c0", "8"));
	CHECK(has_error(&x, 1, "expected node=NUMBER, got 'node=99999999999999999999'"));
	CHECK(has_error(&x, 2, "expected node=NUMBER, got 'node=abc'"));
	imp_free(&x);

	/* 59. DEL in a line; tabs between columns are fine */
	x = imp("\tbash-1\t[001]\t....\t1.0:\tkmalloc:\tptr=a0\tbytes_req=8\n"
		"  bash-1 [001] .... 1.1: kmalloc: ptr=b\x7f" "0 bytes_req=8\n");
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK(has_error(&x, 2, "binary data: byte 0x7F at column 40"));
	imp_free(&x);

	/* 60. a trace naming a cache like an inferred one: names stay unique */
	x = imp(PFX "kmem_cache_alloc: ptr=a0 name=inferred-8-8 bytes_req=16 bytes_alloc=16\n"
		PFX "kmem_cache_alloc: ptr=b0 bytes_req=8 bytes_alloc=8\n");
	CHECK_EQ_INT(x.t.nr_caches, 2);
	CHECK_EQ_STR(x.t.caches[0].name, "inferred-8-8");
	CHECK_EQ_STR(x.t.caches[1].name, "inferred-8-8.2");
	{
		char *v1 = svz_trace_to_v1(&x.t, NULL);
		struct svz_trace t2;
		CHECK_EQ_INT(svz_trace_parse(v1, strlen(v1), NULL, &t2, NULL), 0);
		svz_trace_free(&t2);
		free(v1);
	}
	imp_free(&x);

	/* 61. a binary line before a v1 header: the v1 parser reports it */
	x = imp("\x01\nslubviz-trace 1\n");
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_STR(x.r.fatal_msg, "trace:1:1: error: expected printable ASCII text, got byte 0x01");
	imp_free(&x);

	/* 62. every gfp bit at once: the export still parses (gfp= as a number) */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 gfp_flags=0x7ffdff\n");
	CHECK_EQ_INT(x.t.ops[0].gfp, 0x7ffdffu);
	{
		char *v1 = svz_trace_to_v1(&x.t, NULL);
		struct svz_trace t2;
		CHECK(strstr(v1, " gfp=0x7ffdff\n") != NULL);
		CHECK_EQ_INT(svz_trace_parse(v1, strlen(v1), NULL, &t2, NULL), 0);
		CHECK_EQ_INT(t2.ops[0].gfp, 0x7ffdffu);
		svz_trace_free(&t2);
		free(v1);
	}
	imp_free(&x);

	/* 63. two events on one line (a lost newline): call_site= comes twice,
	 * so neither event is trusted; the line is bad, the next one imports */
	x = imp(PFX "kmalloc: call_site=a ptr=0xffff888100000000 bytes_req=64 bytes_alloc=64 "
		"gfp_flags=GFP_KERNEL node=-1 accounted=false  bash-1 [001] ..... 1.0: kmalloc: "
		"call_site=b ptr=0xffff888100001000 bytes_req=2000 bytes_alloc=2048 gfp_flags=GFP_KERNEL "
		"node=-1 accounted=false\n" KM("c0", "8"));
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.bad_lines, 1);
	CHECK(has_error(&x, 1, "kmalloc: call_site= given twice (two events on one line?)"));
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(x.t.nr_ops, 1);
	CHECK_EQ_INT(x.t.ops[0].size, 8);
	imp_free(&x);
	/* the same in a bpftrace line, ptr= repeated */
	x = imp("svz 1 kfree ptr=0xa0 call_site=f ptr=0xb0\n");
	CHECK(has_error(&x, 1, "kfree: ptr= given twice"));
	CHECK_EQ_INT(x.r.events, 0);
	imp_free(&x);

	/* 58. a negative size */
	x = imp(KM("a0", "-5") KM("b0", "8"));
	CHECK(has_error(&x, 1, "expected sizes >= 0, got bytes_req=-5"));
	imp_free(&x);

	/* 64. ptr=(nil): libtraceevent (trace-cmd, perf) prints a NULL %p
	 * through glibc's printf, which writes "(nil)". As (null): a kfree of
	 * it is kfree(NULL), also after the kmem plugin's "(sym+0x..) "; a
	 * kmalloc that returned it failed. A cut-short check must not take
	 * the short "(nil)" for a cut pointer (the last line has no '\n'). */
	x = imp("<idle>-0 [001] 1000.000002: kfree: call_site=ffffffff81a0b5aa ptr=(nil)\n"
		"<idle>-0     [001]  1000.000003: kfree:                (rcu_do_batch+0x1aa) "
		"call_site=ffffffff81a0b5aa ptr=(nil)\n"
		"<idle>-0 [001] 1000.000004: kmalloc: call_site=ffffffff81a0b5aa ptr=(nil) bytes_req=64 "
		"bytes_alloc=64 gfp_flags=GFP_ATOMIC\n" KM("00000000000000b0", "8")
		"<idle>-0 [001] 1000.000005: kfree: call_site=ffffffff81a0b5aa ptr=(nil)");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.cut_line, 0);
	CHECK_EQ_INT(x.r.events, 5);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 3);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_ALLOC_FAILED), 1);
	CHECK_EQ_INT(x.r.kept, 1);
	check_balance(&x);
	imp_free(&x);

	/* 65. a hashed ZERO_SIZE_PTR: %p hashes the same value to the same
	 * hash, so every kmalloc(0) prints one pointer, and each kfree of it
	 * is a no-op: 2 zero-size, 3 free-null (not 1 free-null and 2
	 * free-not-live). A kmalloc(8) the trace shows at that value (no real
	 * object has it) is an object like any other: its kfree is kept, and
	 * the kfree after that finds nothing live. */
	x = imp(PFX "kmalloc: call_site=f ptr=00000000deadbeef bytes_req=0 bytes_alloc=0 gfp_flags=GFP_KERNEL\n"
		PFX "kmalloc: call_site=f ptr=00000000deadbeef bytes_req=0 bytes_alloc=0 gfp_flags=GFP_KERNEL\n"
		KF("00000000deadbeef") KF("00000000deadbeef") KF("00000000deadbeef")
		KM("00000000deadbeef", "8") KF("00000000deadbeef") KF("00000000deadbeef"));
	CHECK_EQ_INT(x.r.events, 8);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_ZERO_SIZE), 2);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 3);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_TWICE), 1);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.r.unpaired, 0);
	check_balance(&x);
	imp_free(&x);

	/* 66. GFP_TEMPORARY, a show_gfp_flags() name of 2.6.32-4.13: gfp.h
	 * defined it as __GFP_RECLAIM | __GFP_IO | __GFP_FS |
	 * __GFP_RECLAIMABLE (__GFP_WAIT for __GFP_RECLAIM before 4.4) */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_TEMPORARY\n"
		PFX "kmalloc: ptr=b0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_TEMPORARY|__GFP_ZERO\n");
	CHECK_EQ_INT(x.r.gfp_unknown, 0);
	CHECK_EQ_INT(x.t.ops[0].gfp, __GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_RECLAIMABLE);
	CHECK_EQ_INT(x.t.ops[1].gfp, __GFP_RECLAIM | __GFP_IO | __GFP_FS | __GFP_RECLAIMABLE | __GFP_ZERO);
	imp_free(&x);

	/* 67. malloc-lab: a realloc too large to allocate (100000000 bytes,
	 * above 64 MiB = 67108864) fails, as realloc() does, and leaves the
	 * old block live: a 0 512 -> kmalloc 512 id0 (kept); r 0 100000000 ->
	 * too-large (skipped), id0 unchanged; f 0 -> kfree id0 (kept). 3
	 * events, 2 kept, 1 skipped, nothing unpaired or rebound. */
	x = imp("20000\n1\n3\n1\na 0 512\nr 0 100000000\nf 0\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.events, 3);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_TOO_LARGE), 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_SKIPPED), 0);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.r.rebound, 0);
	CHECK_EQ_INT(x.t.nr_ops, 2);
	CHECK_EQ_INT(x.t.ops[0].type, SVZ_OP_KMALLOC);
	CHECK_EQ_INT(x.t.ops[0].size, 512);
	CHECK_EQ_INT(x.t.ops[1].type, SVZ_OP_KFREE);
	CHECK_EQ_STR(handle_of(&x, 1), "id0");
	check_balance(&x);
	imp_free(&x);

	/* 68. perf script --show-task-events / --show-mmap-events: perf's own
	 * records (COMM and FORK synthesised at 0.000000, MMAP2 with no ':'
	 * after its name) after a kmem event at 5678.1: 3 other events by
	 * record name, no bad line, and no "timestamps went backwards" (the
	 * kfree at 5678.2 follows the kmalloc at 5678.1) */
	x = imp("bash 4242 [001] 5678.1: kmem:kmalloc: call_site=f ptr=0xffff888100000000 "
		"bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL\n"
		"perf-exec 123 [000] 0.000000: PERF_RECORD_COMM: perf-exec:123/123\n"
		"perf-exec 123 [000] 0.000000: PERF_RECORD_MMAP2 123/123: [0x55d0c0a00000(0x1000) @ 0 "
		"fd:01 1234 0]: r-xp /usr/bin/x\n"
		"perf-exec 123 [000] 0.000000: PERF_RECORD_FORK(123:123):(1:1)\n"
		"bash 4242 [001] 5678.2: kmem:kfree: call_site=f ptr=0xffff888100000000\n");
	CHECK_EQ_INT(x.r.format, SVZ_FMT_PERF);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.ts_backwards, 0);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.r.other_events, 3);
	CHECK(summary_has(&x, "(PERF_RECORD_COMM 1, PERF_RECORD_MMAP2 1, PERF_RECORD_FORK 1)"));
	imp_free(&x);

	/* 69. node=0 alone asks for one node: the topology line does not say
	 * nodes came from node= values; node=1 asks for 2, and it does */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 bytes_alloc=8 node=0\n");
	CHECK_EQ_INT(x.t.config.topo.nr_nodes, 1);
	CHECK(summary_has(&x, "suggested topology: 1 node with 1G each, 2 CPUs (0-1)\n"));
	imp_free(&x);
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 bytes_alloc=8 node=1\n");
	CHECK_EQ_INT(x.t.config.topo.nr_nodes, 2);
	CHECK(summary_has(&x, "2 nodes with 1G each, 2 CPUs (0-1); nodes from node= values, CPUs "
			  "spread over them in blocks\n"));
	imp_free(&x);
}

/* Feeding one byte at a time gives the same import as one piece. */
static void test_streaming(void)
{
	size_t len;
	struct imp one = imp_file("ftrace-kmem-v5.4-changbin-pS-mixed.txt");
	CHECK_EQ_INT(one.rc, 0);
	CHECK_EQ_INT(one.r.lines, 16);
	check_bytewise("ftrace-kmem-v5.4-changbin-pS-mixed.txt", &one);
	imp_free(&one);

	/* the synthetic benchmark log imports cleanly */
	char *text = svz_import_synth_ftrace(20000, &len);
	struct imp x = imp_lim(text, len, SVZ_FMT_AUTO, NULL);
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.lines, 20000);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.kmalloc_size_differs, 0);
	CHECK_EQ_INT(x.r.events + x.r.other_events + x.r.comment_lines, 20000);
	CHECK_EQ_INT(x.r.events, x.r.kept);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 4);
	imp_free(&x);
	free(text);
}

/* Mutated fixtures (flipped, inserted and deleted bytes, cut and repeated
 * lines) in random chunk sizes: no crash (the ASan build runs this too),
 * events always add up, and whatever imports exports as valid v1 that
 * parses back to the same ops. */
static uint64_t rnd_state = 42;
static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state >> 16);
}

static void test_fuzz(void)
{
	static const char *const files[] = {
		"ftrace-kmem-v3.x-i386-elinux.txt", "ftrace-kmem-v5.4-changbin-pS-mixed.txt",
		"ftrace-kmem-v5.4-x86_64-vmware-liulangrenaaa.txt",
		"ftrace-kmem-v6.12-rostedt-node-accounted-name.txt", "trace-cmd-report.txt",
		"perf-script-callchain.txt", "bpftrace-oneliner.txt", "malloc-lab-short.rep",
	};
	static const char alphabet[] = " \t\n\r=:[]()|#{}$-.0123456789abcdefxGFP_\x00\x7f\xff";
	int imported = 0, total = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char path[256];
		size_t len;
		snprintf(path, sizeof path, DATA "%s", files[f]);
		char *orig = svz_t_read_file(path, &len);
		if (!orig)
			continue;
		for (int round = 0; round < 150; round++) {
			size_t cap = len * 2 + 64, n = len;
			char *t = malloc(cap);
			memcpy(t, orig, len);
			int muts = 1 + (int)(rnd() % 8);
			for (int m = 0; m < muts && n > 0; m++) {
				size_t at = rnd() % n;
				switch (rnd() % 5) {
				case 0: /* replace */
					t[at] = alphabet[rnd() % (sizeof alphabet - 1)];
					break;
				case 1: /* insert */
					if (n + 1 < cap) {
						memmove(t + at + 1, t + at, n - at);
						t[at] = alphabet[rnd() % (sizeof alphabet - 1)];
						n++;
					}
					break;
				case 2: /* delete a run */
				{
					size_t k = 1 + rnd() % 20;
					if (k > n - at)
						k = n - at;
					memmove(t + at, t + at + k, n - at - k);
					n -= k;
					break;
				}
				case 3: /* cut */
					n = at;
					break;
				default: /* repeat a stretch */
				{
					size_t k = 1 + rnd() % 200;
					if (k > n - at)
						k = n - at;
					if (n + k <= cap) {
						memmove(t + at + k, t + at, n - at);
						n += k;
					}
				}
				}
			}
			struct svz_importer *im = svz_importer_new(SVZ_FMT_AUTO, NULL, NULL);
			for (size_t o = 0; o < n;) {
				size_t k = 1 + rnd() % 97;
				if (k > n - o)
					k = n - o;
				svz_importer_feed(im, t + o, k);
				o += k;
			}
			struct imp x;
			struct svz_error e;
			x.rc = svz_importer_finish(im, &x.t, &x.r, &e);
			x.text = svz_import_report_text(&x.r);
			svz_importer_free(im);
			total++;
			CHECK(x.text != NULL);
			if (x.rc == 0 && x.r.format != SVZ_FMT_V1) {
				imported++;
				if (x.r.events != x.r.kept + skipped_total(&x))
					check_balance(&x);
				char *v1 = svz_trace_to_v1(&x.t, NULL);
				struct svz_trace t2;
				struct svz_config base;
				svz_config_default(&base);
				int rc = svz_trace_parse(v1, strlen(v1), &base, &t2, &e);
				if (rc) {
					fprintf(stderr, "  fuzz %s round %d: export does not parse: %u:%u %s\n",
						files[f], round, e.line, e.col, e.msg);
					CHECK_EQ_INT(rc, 0);
				} else {
					if (t2.nr_ops != x.t.nr_ops)
						CHECK_EQ_INT(t2.nr_ops, x.t.nr_ops);
					svz_trace_free(&t2);
				}
				free(v1);
			}
			imp_free(&x);
			free(t);
		}
		free(orig);
	}
	CHECK(imported > total / 2);
}

/* ---- round trips -------------------------------------------------------------- */

static char *strdup_(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

struct replay {
	int ops, rc;
	int64_t seq;
	char *stats, *slabinfo;
};

static struct replay replay_of(int h)
{
	struct replay r = { 0, -1, 0, NULL, NULL };
	if (h < 0)
		return r;
	r.rc = svz_run_all(h);
	r.ops = svz_ops_done(h);
	r.seq = svz_seq(h);
	r.stats = strdup_(svz_stats_text(h));
	r.slabinfo = strdup_(svz_slabinfo(h));
	return r;
}

static void replay_free(struct replay *r)
{
	free(r->stats);
	free(r->slabinfo);
}

static void check_same_replay(const struct replay *a, const struct replay *b, const char *what)
{
	bool same = a->rc == b->rc && a->ops == b->ops && a->seq == b->seq && a->stats && b->stats &&
		    strcmp(a->stats, b->stats) == 0 && strcmp(a->slabinfo, b->slabinfo) == 0;
	if (!same)
		fprintf(stderr, "  %s: replays differ (rc %d/%d ops %d/%d seq %lld/%lld)\n", what, a->rc,
			b->rc, a->ops, b->ops, (long long)a->seq, (long long)b->seq);
	CHECK(same);
	CHECK(a->ops > 0 || a->rc == 0);
}

/* Parsed ops of the export equal the original's, line numbers aside. */
static void check_same_ops(const struct svz_trace *a, const struct svz_trace *b, const char *what)
{
	bool same = a->nr_ops == b->nr_ops && a->nr_caches == b->nr_caches &&
		    memcmp(&a->config, &b->config, sizeof a->config) == 0;
	for (uint32_t i = 0; same && i < a->nr_caches; i++) {
		struct svz_cache_decl x = a->caches[i], y = b->caches[i];
		x.line = y.line = 0;
		same = memcmp(&x, &y, sizeof x) == 0;
	}
	for (uint32_t i = 0; same && i < a->nr_ops; i++) {
		const struct svz_op *x = &a->ops[i], *y = &b->ops[i];
		same = x->type == y->type && x->cpu == y->cpu && x->node == y->node &&
		       x->gfp == y->gfp && x->cache == y->cache && x->size == y->size &&
		       x->count == y->count && strcmp(a->sites[x->site], b->sites[y->site]) == 0;
		if (same && (x->type <= SVZ_OP_KFREE || x->type == SVZ_OP_ALLOC_FROM_SHEAF ||
			     x->type == SVZ_OP_KFREE_RCU))
			same = strcmp(a->handle_names[x->handle], b->handle_names[y->handle]) == 0;
		if (same && (x->type == SVZ_OP_PREFILL || x->type == SVZ_OP_ALLOC_FROM_SHEAF ||
			     x->type == SVZ_OP_RETURN_SHEAF))
			same = strcmp(a->handle_names[x->sheaf], b->handle_names[y->sheaf]) == 0;
		if (!same)
			fprintf(stderr, "  %s: op %u differs\n", what, i);
	}
	if (!same)
		fprintf(stderr, "  %s: export does not parse back the same\n", what);
	CHECK(same);
}

static void roundtrip_v1(const char *path)
{
	size_t len;
	char *text = svz_t_read_file(path, &len);
	CHECK(text != NULL);
	if (!text)
		return;
	int h = svz_open(text, NULL, NULL);
	CHECK(h > 0);
	char *v1 = strdup_(svz_export_v1(h));
	struct replay a = replay_of(h);
	svz_close(h);
	h = svz_open(v1, NULL, NULL);
	if (h < 0)
		fprintf(stderr, "  %s: export does not parse: %s\n", path, svz_last_error());
	CHECK(h > 0);
	struct replay b = replay_of(h);
	svz_close(h);
	check_same_replay(&a, &b, path);

	struct svz_trace ta, tb;
	struct svz_config base;
	svz_config_default(&base);
	CHECK_EQ_INT(svz_trace_parse(text, len, &base, &ta, NULL), 0);
	CHECK_EQ_INT(svz_trace_parse(v1, strlen(v1), &base, &tb, NULL), 0);
	check_same_ops(&ta, &tb, path);
	/* exporting the export changes nothing */
	char *again = svz_trace_to_v1(&tb, NULL);
	CHECK_EQ_STR(again, v1);
	free(again);
	svz_trace_free(&ta);
	svz_trace_free(&tb);
	replay_free(&a);
	replay_free(&b);
	free(v1);
	free(text);
}

static void test_roundtrip(void)
{
	/* every scenario */
	DIR *d = opendir(SVZ_SOURCE_DIR "/scenarios");
	CHECK(d != NULL);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 7 || strcmp(e->d_name + l - 6, ".trace") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "scenarios/%s", e->d_name);
		roundtrip_v1(path);
		n++;
	}
	if (d)
		closedir(d);
	CHECK(n >= 6);

	/* a v1 trace with every kind of line the exporter writes */
	static const char all[] =
		"# Every op.\n#\n#  indented description line\nslubviz-trace 1\npage_size 16384\n"
		"node 0 mem=512M\nnode 1 mem=0\nnode 2 mem=3G\ncpus 0-1,4 node=0\ncpus 2-3 node=2\n"
		"cpu_counts possible=16 present=8 online=6\npreset v6.8\nset fix2=1 order_form=loop\n"
		"seed 0x1234\ncache a size=100 align=64 flags=HWCACHE_ALIGN|ACCOUNT ctor sheaf_capacity=32\n"
		"cache b size=24\n"
		"c0 alloc a x gfp=GFP_NOWAIT|__GFP_ZERO node=2 at=f+0x1\nc1 kmalloc 9000 y gfp=0 at=g\n"
		"c4 alloc_bulk b 3 blk gfp=mempool(GFP_NOIO) at=h\nc4 free_bulk b 3 blk at=h2\n"
		"c2 free a x at=i\nc3 kfree y\n"
		"c0 prefill_sheaf a 4 sh gfp=GFP_NOWAIT at=p\nc0 alloc_from_sheaf a sh o1 at=q\n"
		"c0 return_sheaf a sh gfp=GFP_ATOMIC\nc1 kfree_rcu o1 at=r\nc0 rcu_barrier\n"
		"c0 flush b\nc0 flush_all b\nc0 shrink b\nc0 destroy b\n";
	struct svz_trace ta, tb;
	struct svz_config base;
	svz_config_default(&base);
	CHECK_EQ_INT(svz_trace_parse(all, strlen(all), &base, &ta, NULL), 0);
	char *v1 = svz_trace_to_v1(&ta, NULL);
	struct svz_error e;
	int rc = svz_trace_parse(v1, strlen(v1), &base, &tb, &e);
	if (rc)
		fprintf(stderr, "  export: %s\n%s", e.msg, v1);
	CHECK_EQ_INT(rc, 0);
	if (!rc) {
		check_same_ops(&ta, &tb, "all ops");
		CHECK_EQ_STR(tb.description, ta.description);
		svz_trace_free(&tb);
	}
	svz_trace_free(&ta);
	free(v1);

	/* every kernel switch a trace sets beside its preset comes back (the
	 * exporter once wrote a hand list of 7 and lost try_thisnode, the
	 * per-CPU partial switches, slab_nomerge and kernel=) */
	static const char sets[] =
		"slubviz-trace 1\nnode 0 mem=1G\ncpus 0-1 node=0\npreset v6.8\n"
		"set kernel=6.6 try_thisnode=1 frozen_partial=1 cpu_partial_objects=1 cpu_partial_free=1 "
		"memoryless_sheaves=1 slab_nomerge=1 freelist_random=0\nc0 kmalloc 8 a\n";
	CHECK_EQ_INT(svz_trace_parse(sets, strlen(sets), &base, &ta, NULL), 0);
	v1 = svz_trace_to_v1(&ta, NULL);
	rc = svz_trace_parse(v1, strlen(v1), &base, &tb, &e);
	CHECK_EQ_INT(rc, 0);
	if (!rc) {
		const struct svz_switches *x = &ta.config.sw, *y = &tb.config.sw;
		CHECK_EQ_INT(x->kernel, 606);
		CHECK_EQ_INT(y->kernel, 606);
		CHECK(y->try_thisnode && y->frozen_partial && y->cpu_partial_objects && y->cpu_partial_free &&
		      y->memoryless_sheaves && y->slab_nomerge && !y->freelist_random);
		CHECK_EQ_INT(y->deferred_freelist, x->deferred_freelist);
		CHECK_EQ_INT(y->refill_on_spin, x->refill_on_spin);
		CHECK_EQ_INT((int)y->era, (int)x->era);
		svz_trace_free(&tb);
	}
	svz_trace_free(&ta);
	free(v1);

	/* imported fixtures: replay == replay of the exported v1 */
	static const char *const files[] = {
		"ftrace-kmem-v3.x-i386-elinux.txt", "ftrace-kmem-v5.4-changbin-pS-mixed.txt",
		"ftrace-kmem-v5.4-x86_64-vmware-liulangrenaaa.txt",
		"ftrace-kmem-v6.12-rostedt-node-accounted-name.txt", "trace-cmd-report.txt",
		"perf-script-callchain.txt", "bpftrace-oneliner.txt", "malloc-lab-short.rep",
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[256];
		snprintf(path, sizeof path, DATA "%s", files[i]);
		char *text = svz_t_read_file(path, NULL);
		int h = svz_open_any(text, NULL, NULL);
		if (h < 0)
			fprintf(stderr, "  %s: %s\n", files[i], svz_last_error());
		CHECK(h > 0);
		CHECK(strncmp(svz_import_summary(h), "format: ", 8) == 0);
		CHECK(strncmp(svz_import_summary_json(h), "{\"schema\":1,", 12) == 0);
		char *v1x = strdup_(svz_export_v1(h));
		struct replay a = replay_of(h);
		CHECK_EQ_INT(a.rc, a.ops);
		CHECK_EQ_STR(svz_run_error(h), "");
		svz_close(h);
		h = svz_open(v1x, NULL, NULL);
		if (h < 0)
			fprintf(stderr, "  %s: export: %s\n", files[i], svz_last_error());
		struct replay b = replay_of(h);
		svz_close(h);
		check_same_replay(&a, &b, files[i]);
		/* the same through the streaming API, 7 bytes at a time */
		int imp_id = svz_import_begin("");
		CHECK(imp_id > 0);
		size_t n = strlen(text);
		for (size_t o = 0; o < n; o += 7)
			CHECK_EQ_INT(svz_import_feed(imp_id, text + o, (int)(n - o < 7 ? n - o : 7)), 0);
		CHECK(svz_import_lines(imp_id) > 0);
		h = svz_import_end(imp_id, NULL, NULL);
		CHECK(h > 0);
		struct replay c = replay_of(h);
		svz_close(h);
		check_same_replay(&a, &c, files[i]);
		replay_free(&a);
		replay_free(&b);
		replay_free(&c);
		free(v1x);
		free(text);
	}
}

static void test_api(void)
{
	/* junk: -1 and the reason */
	CHECK_EQ_INT(svz_open_any("hello\nworld\n", NULL, NULL), -1);
	CHECK_EQ_STR(svz_last_error(), "import (ftrace): no kmem events recognised as ftrace: 2 lines "
		     "could not be read (line 1: expected an event line 'TASK-PID [CPU] FLAGS "
		     "TIMESTAMP: EVENT: FIELDS', got 'hello')");
	CHECK_EQ_INT(svz_open_any("", NULL, NULL), -1);
	CHECK_EQ_STR(svz_last_error(), "import (auto): empty input: nothing to import");
	CHECK_EQ_INT(svz_open_any(NULL, NULL, NULL), -1);
	/* v1: the same errors as svz_open */
	const char *bad = "slubviz-trace 2\n";
	CHECK_EQ_INT(svz_open(bad, NULL, NULL), -1);
	char want[1100];
	snprintf(want, sizeof want, "%s", svz_last_error());
	CHECK_EQ_INT(svz_open_any(bad, NULL, NULL), -1);
	CHECK_EQ_STR(svz_last_error(), want);
	/* v1 sessions opened with svz_open_any have a short summary */
	int h = svz_open_any("slubviz-trace 1\ncache c size=8\nc0 alloc c a\n", "v6.19", "seed=5");
	CHECK(h > 0);
	CHECK(strstr(svz_import_summary(h), "native v1 trace: 1 ops, 1 caches") != NULL);
	CHECK(strstr(svz_export_v1(h), "preset v6.19\n") != NULL);
	CHECK(strstr(svz_export_v1(h), "seed 5\n") != NULL);
	svz_close(h);
	/* a preset given at open applies to imports too */
	h = svz_open_any(KM("a0", "8"), "nope", NULL);
	CHECK_EQ_INT(h, -1);
	CHECK_EQ_STR(svz_last_error(), "unknown preset 'nope' (try: slubviz presets)");
	/* streaming: bad ids and formats */
	CHECK_EQ_INT(svz_import_begin("csv"), -1);
	CHECK(strstr(svz_last_error(), "unknown trace format 'csv'") != NULL);
	CHECK_EQ_INT(svz_import_feed(999, "x", 1), -1);
	CHECK_EQ_INT(svz_import_lines(999), -1);
	CHECK_EQ_INT(svz_import_end(999, NULL, NULL), -1);
	int id = svz_import_begin("malloc-lab");
	CHECK(id > 0);
	CHECK_EQ_INT(svz_import_feed(id, "1\n2\n", 4), 0);
	svz_import_cancel(id);
	CHECK_EQ_INT(svz_import_feed(id, "3\n", 2), -1);
	/* summaries of a plain svz_open session are empty */
	h = svz_open("slubviz-trace 1\n", NULL, NULL);
	CHECK_EQ_STR(svz_import_summary(h), "");
	CHECK_EQ_STR(svz_import_summary_json(h), "");
	svz_close(h);
	CHECK_EQ_STR(svz_import_summary(12345), "");
	CHECK_EQ_STR(svz_export_v1(12345), "");
}

/* Detection from a first content line (docs/import.md): each format's
 * detector in import_formats.def, the strongest claim winning. */
static void test_detect(void)
{
	static const struct {
		const char *text;
		enum svz_import_format want;
	} cases[] = {
		{ "slubviz-trace 1\n", SVZ_FMT_V1 },
		{ "\n# a v1 description\ncache c size=8\n", SVZ_FMT_V1 },
		/* op words are the parser's: the sheaf and RCU ops too */
		{ "c0 alloc c a\n", SVZ_FMT_V1 },
		{ "c3 prefill_sheaf c 4 s\n", SVZ_FMT_V1 },
		{ "c0 kfree_rcu a\n", SVZ_FMT_V1 },
		{ "c0 allocate c a\n", SVZ_FMT_FTRACE },
		{ "  20000\n", SVZ_FMT_MALLOC_LAB },
		{ "Attaching 4 probes...\n", SVZ_FMT_BPFTRACE },
		/* a line only bpftrace has beats perf's "kmem:" event names */
		{ "svz 0 kmem:kmalloc ptr=0x10 bytes_req=8\n", SVZ_FMT_BPFTRACE },
		{ "cpus=4\n", SVZ_FMT_TRACE_CMD },
		{ "version = 6\n", SVZ_FMT_TRACE_CMD },
		{ "jbd2/dm-3-8  7666 [000]  4666.621521: kmem:kmalloc: ptr=0xc000000fcd646360\n",
		  SVZ_FMT_PERF },
		{ "  bash-1 [000] ..... 1.000001: kmalloc: ptr=00000000a0a0a0a0\n", SVZ_FMT_FTRACE },
		/* perf script prints the task name unpadded: a v1 word ("node",
		 * "cache") or "svz" (bpftrace) there is a task, not a claim, when
		 * the line carries a kmem event column (with or without the
		 * time, after a sample period) */
		{ "node  4242 [001]  5678.123456: kmem:kmalloc: call_site=ffffffff81a0b5aa "
		  "ptr=0xffff888100000000 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n", SVZ_FMT_PERF },
		{ "cache 7 [000] 1.5: 1 kmem:kfree: call_site=f ptr=0xffff888100000000\n", SVZ_FMT_PERF },
		{ "set 7 [000] kmem:kfree: call_site=f ptr=0xffff888100000000\n", SVZ_FMT_PERF },
		{ "svz 7 [000] 1.5: kmem:kfree: call_site=f ptr=0xffff888100000000\n", SVZ_FMT_PERF },
		/* ... and a v1 line stays v1 */
		{ "node 0 mem=1G\n", SVZ_FMT_V1 },
		{ "cache kmalloc: size=8\n", SVZ_FMT_V1 },
		{ "# tracer: nop\n#\n", SVZ_FMT_FTRACE },
		{ "# just a comment\n\n", SVZ_FMT_AUTO },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK_EQ_INT(svz_import_detect(cases[i].text, strlen(cases[i].text)), cases[i].want);

	/* an import tells perf from ftrace by its events: the same perf line
	 * imports as perf, and an ftrace line as ftrace */
	struct imp x = imp("jbd2/dm-3-8  7666 [000]  4666.621521: kmem:kmalloc: call_site=c0000000003ce108 "
			   "ptr=0xc000000fcd646360 bytes_req=96 bytes_alloc=96 gfp_flags=GFP_NOFS\n");
	CHECK_EQ_INT(x.r.format, SVZ_FMT_PERF);
	CHECK_EQ_INT(x.r.kept, 1);
	imp_free(&x);
	/* a perf task named like a v1 directive, or "svz": one kmalloc,
	 * imported as perf (its event is named kmem:kmalloc:) */
	static const char *const tasks[] = { "node", "cache", "cpus", "preset", "set", "seed",
					     "page_size", "steps", "repeat", "svz" };
	for (size_t i = 0; i < sizeof tasks / sizeof tasks[0]; i++) {
		char line[256];
		snprintf(line, sizeof line, "%s  4242 [001]  5678.123456: kmem:kmalloc: call_site=ffffffff81a0b5aa "
			 "ptr=0xffff888100000000 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n", tasks[i]);
		x = imp(line);
		CHECK_EQ_INT(x.rc, 0);
		CHECK_EQ_INT(x.r.format, SVZ_FMT_PERF);
		CHECK_EQ_INT(x.r.bad_lines, 0);
		CHECK_EQ_INT(x.r.kept, 1);
		imp_free(&x);
	}
	/* the summary names a malloc-lab event by the table's word */
	x = imp("20000\n2\n2\n1\na 0 512\nf 0\n");
	CHECK_EQ_INT(x.r.format, SVZ_FMT_MALLOC_LAB);
	CHECK(summary_has(&x, "events: 2 malloc-lab ops read, 2 kept, 0 skipped -> 2 ops"));
	imp_free(&x);
}

/* trace-cmd report's own shapes and the value edge cases an audit found. */
static void test_trace_cmd_shapes(void)
{
	/* 1. trace-cmd report --ts-diff: "(+N)" (the us since the previous
	 * record; blanks for the first) between the time and the event
	 * (trace-read.c trace_show_data()). Three lines: kmalloc 83800 on CPU
	 * 1, kmalloc 84000 on CPU 1, kfree 83800 on CPU 2: 3 events, all
	 * kept, 84000 never freed (1 unpaired), no bad line; the cpus= header
	 * makes it trace-cmd. */
	struct imp x = imp(
		"cpus=4\n"
		"       trace-cmd-13543 [001] 106260.693809:          kmalloc:              "
		"call_site=81128dd4 ptr=0xffff88003dd83800 bytes_req=768 bytes_alloc=1024 "
		"gfp_flags=GFP_KERNEL|GFP_ZERO\n"
		"       trace-cmd-13543 [001] 106260.693812: (+3000)  kmalloc:              "
		"call_site=81128dd4 ptr=0xffff88003dd84000 bytes_req=768 bytes_alloc=1024 "
		"gfp_flags=GFP_KERNEL|GFP_ZERO\n"
		"                  ls-13545 [002] 106260.693900: (+88000) kfree:                "
		"call_site=810a7abb ptr=0xffff88003dd83800\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_TRACE_CMD);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.events, 3);
	CHECK_EQ_INT(x.r.kept, 3);
	CHECK_EQ_INT(x.r.unpaired, 1);
	CHECK_EQ_INT(x.r.ts_backwards, 0);
	CHECK_EQ_INT(x.t.ops[1].cpu, 1);
	CHECK_EQ_INT(x.t.ops[1].size, 768);
	CHECK_EQ_INT(x.t.ops[2].cpu, 2);
	CHECK_EQ_INT(x.t.ops[2].type, SVZ_OP_KFREE);
	imp_free(&x);
	/* not a gap: "(+3x)", "(3000)" stay bad lines (2 of 3; the first,
	 * without one, is kept) */
	x = imp(KM("a0", "8")
		"          bash-1200  [001] ..... 100.000002: (+3x) kfree: call_site=g ptr=a0\n"
		"          bash-1200  [001] ..... 100.000003: (3000) kfree: call_site=g ptr=a0\n");
	CHECK_EQ_INT(x.r.bad_lines, 2);
	CHECK_EQ_INT(x.r.kept, 1);
	imp_free(&x);

	/* 2. trace-cmd's dropped-events lines (trace-read.c: "CPU:%d [%lld
	 * EVENTS DROPPED]", "CPU:%d [EVENTS DROPPED]") are lost events: 120
	 * counted, and one loss without a count, said as such (not added to
	 * the 120); "CPU:%d [SUBBUFFER START]" is a header line (1 comment
	 * line). The kmalloc and kfree around them: 2 kept, no bad line. */
	x = imp(KM("a0", "8") "CPU:1 [120 EVENTS DROPPED]\n" "CPU:2 [SUBBUFFER START]\n"
		"CPU:2 [EVENTS DROPPED]\n" KF("a0"));
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.r.lost_events, 120);
	CHECK_EQ_INT(x.r.lost_unknown, 1);
	CHECK_EQ_INT(x.r.comment_lines, 1);
	CHECK(summary_has(&x, "note: the tracer reported 120 lost events and 1 loss of an unknown "
			  "number of events: expect unpaired allocations and frees\n"));
	imp_free(&x);
	/* two count-less drops alone: 0 counted, 2 losses of unknown size */
	x = imp(KM("a0", "8") "CPU:0 [EVENTS DROPPED]\n" "  CPU:3 [EVENTS DROPPED]\n" KF("a0"));
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.lost_events, 0);
	CHECK_EQ_INT(x.r.lost_unknown, 2);
	CHECK(summary_has(&x, "note: the tracer reported 2 losses of an unknown number of events"));
	CHECK(x.text && !strstr(x.text, "lost events:")); /* no count made up */
	imp_free(&x);
	/* not the shape: no CPU number, a count that is not a number */
	x = imp(KM("a0", "8") "CPU: [EVENTS DROPPED]\n" "CPU:1 [12x EVENTS DROPPED]\n" KF("a0"));
	CHECK_EQ_INT(x.r.bad_lines, 2);
	CHECK_EQ_INT(x.r.lost_events, 0);
	CHECK_EQ_INT(x.r.lost_unknown, 0);
	imp_free(&x);

	/* 3. NULL and ZERO_SIZE_PTR on a last line without '\n': line 1's
	 * pointer has 18 characters, "0x0" 3, but NULL is whole, so the kfree
	 * is read (skipped as a free of NULL), nothing is cut: 2 events, 1
	 * kept, 1 free-null, no bad line */
	static const char *const nulls[] = { "0x0", "0", "(null)", "(nil)", "0x10", "0x00", "00",
					     "00000010", "0x010", "0000000000000000" };
	for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
		char t[512];
		snprintf(t, sizeof t,
			 "           trace-cmd-13543 [001] 106260.693809: kmalloc: call_site=81128dd4 "
			 "ptr=0xffff88003dd83800 bytes_req=768 bytes_alloc=1024 gfp_flags=GFP_KERNEL|GFP_ZERO\n"
			 "                  ls-13545 [002] 106260.693809: kfree: call_site=810a7abb ptr=%s",
			 nulls[i]);
		x = imp(t);
		CHECK_EQ_INT(x.rc, 0);
		CHECK_EQ_INT(x.r.bad_lines, 0);
		CHECK_EQ_INT(x.r.cut_line, 0);
		CHECK_EQ_INT(x.r.events, 2);
		CHECK_EQ_INT(x.r.kept, 1);
		CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 1);
		imp_free(&x);
	}
	/* a kmalloc(0) whose ZERO_SIZE_PTR ends the input: whole (skipped as
	 * zero-size) */
	x = imp(KM("0xffff88003dd83800", "8")
		PFX "kmalloc: call_site=f ptr=0x10 bytes_req=0 bytes_alloc=0 gfp_flags=GFP_KERNEL");
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.cut_line, 0);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_ZERO_SIZE), 1);
	imp_free(&x);
	/* ... also written "00000010" (8 digits, by value 16) */
	x = imp(KM("0xffff88003dd83800", "8")
		PFX "kmalloc: call_site=f ptr=00000010 bytes_req=0 bytes_alloc=0 gfp_flags=GFP_KERNEL");
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.cut_line, 0);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_ZERO_SIZE), 1);
	imp_free(&x);
	/* a pointer cut short is still found, even after a 0x10 or a 0x010
	 * (4 and 5 characters, not a pointer's length): the others have 18,
	 * the last line's 7 -> line 4 is cut */
	x = imp(KM("0xffff88003dd83800", "8") KF("0x10") KF("0x010") PFX "kfree: call_site=g ptr=0xffff8");
	CHECK_EQ_INT(x.r.bad_lines, 1);
	CHECK_EQ_INT(x.r.cut_line, 4);
	CHECK(has_error(&x, 4, "kfree cut short: ptr= shorter than the trace's other pointers"));
	imp_free(&x);

	/* 4. UTF-16 (a byte-order mark FF FE / FE FF first): every other byte
	 * is 0x00, so the import stops at once with one fatal message, no bad
	 * lines; also when the mark arrives one byte at a time */
	static const char le[] = "\xFF\xFE" "c\0p\0u\0s\0=\0" "4\0\n\0";
	static const char be[] = "\xFE\xFF" "\0c\0p\0u\0s\0=\0" "4\0\n";
	const char *want_le = "UTF-16 text (byte-order mark FF FE): convert it to UTF-8, e.g. "
			      "iconv -f utf-16 -t utf-8 FILE";
	x = imp_lim(le, sizeof le - 1, SVZ_FMT_AUTO, NULL);
	CHECK_EQ_INT(x.rc, -1);
	CHECK(x.r.fatal);
	CHECK_EQ_STR(x.r.fatal_msg, want_le);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	imp_free(&x);
	x = imp_stream(le, sizeof le - 1, 1);
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_STR(x.r.fatal_msg, want_le);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	imp_free(&x);
	x = imp_lim(be, sizeof be - 1, SVZ_FMT_FTRACE, NULL);
	CHECK_EQ_INT(x.rc, -1);
	CHECK_EQ_STR(x.r.fatal_msg, "UTF-16 text (byte-order mark FE FF): convert it to UTF-8, e.g. "
		     "iconv -f utf-16 -t utf-8 FILE");
	imp_free(&x);
	/* FF or FE alone, or later in the input, is not a mark: binary data */
	x = imp("\xFF" "x\n");
	CHECK(!x.r.fatal || !strstr(x.r.fatal_msg, "UTF-16"));
	imp_free(&x);

	/* 5. GFP_KMEMCG, show_gfp_flags()'s name for __GFP_KMEMCG in 3.8-3.14
	 * (charge to the memory cgroup), is __GFP_ACCOUNT: GFP_KERNEL |
	 * __GFP_ACCOUNT, nothing unknown */
	x = imp(PFX "kmalloc: ptr=a0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL|GFP_KMEMCG\n");
	CHECK_EQ_INT(x.r.gfp_unknown, 0);
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK_EQ_INT(x.t.ops[0].gfp, GFP_KERNEL | __GFP_ACCOUNT);
	imp_free(&x);
}

/* trace-cmd report -i A -i B: each input's lines start with its base name
 * (trace-read.c print_handle_file(): "%*s: "); the inputs' CPUs replay one
 * input after another */
static void test_input_files(void)
{
	/* the fixture: host.dat cpus=2, guest.dat cpus=4, so guest's CPU n is
	 * CPU 2+n. Ops in file order: host kmalloc [001] -> 1, guest kmalloc
	 * [001] -> 3, guest kmem_cache_alloc [003] -> 5, host kfree [000] -> 0,
	 * guest kfree [000] -> 2, guest kmem_cache_free [003] -> 5. Seen: 0, 1,
	 * 2, 3, 5 = 0x2f; header 2 + 4 = 6 CPUs; 6 comment lines + 2 headers */
	struct imp x = imp_file("trace-cmd-report-two-inputs.txt");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.format, SVZ_FMT_TRACE_CMD);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.comment_lines, 8);
	CHECK_EQ_INT(x.r.events, 6);
	CHECK_EQ_INT(x.r.kept, 6);
	CHECK_EQ_INT(x.r.unpaired, 0);
	CHECK_EQ_INT(x.r.header_cpus, 6);
	CHECK_EQ_INT(x.r.nr_inputs, 2);
	CHECK(!x.r.inputs_cpus_shared);
	CHECK_EQ_STR(x.r.inputs[0].name, "host.dat");
	CHECK_EQ_INT(x.r.inputs[0].count, 2);
	CHECK_EQ_STR(x.r.inputs[1].name, "guest.dat");
	CHECK_EQ_INT(x.r.inputs[1].count, 4);
	CHECK_EQ_INT(x.r.cpus_seen[0], 0x2fu);
	CHECK_EQ_INT(x.t.config.topo.nr_cpus, 6);
	static const int cpu[] = { 1, 3, 5, 0, 2, 5 };
	CHECK_EQ_INT(x.t.nr_ops, 6);
	for (uint32_t i = 0; i < 6 && i < x.t.nr_ops; i++)
		CHECK_EQ_INT(x.t.ops[i].cpu, cpu[i]);
	CHECK(strstr(x.text, "host.dat (cpus=2) as CPUs 0-1, guest.dat (cpus=4) as CPUs 2-5") != NULL);
	imp_free(&x);
	CHECK_EQ_INT(svz_import_detect("guest.dat: cpus=4\n", 18), SVZ_FMT_TRACE_CMD);

	/* a/trace.dat and b/trace.dat both print "trace.dat": their events
	 * cannot be told apart, so CPUs stay as printed: [001] is CPU 1 in both,
	 * the header the larger cpus=, 4 */
	x = imp("trace.dat: cpus=2\ntrace.dat: cpus=4\n"
		"trace.dat: bash-1 [001] 5.000001: kmalloc: call_site=f ptr=0xffff888000001000 "
		"bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n"
		"trace.dat: bash-2 [003] 5.000002: kfree: call_site=g ptr=0xffff888000001000\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.bad_lines, 0);
	CHECK_EQ_INT(x.r.nr_inputs, 2);
	CHECK(x.r.inputs_cpus_shared);
	CHECK_EQ_INT(x.r.header_cpus, 4);
	CHECK_EQ_INT(x.r.kept, 2);
	CHECK_EQ_INT(x.t.ops[0].cpu, 1);
	CHECK_EQ_INT(x.t.ops[1].cpu, 3);
	CHECK(strstr(x.text, "their CPUs are kept as printed") != NULL);
	imp_free(&x);

	/* a single input prints no name: no note, CPUs as printed */
	x = imp_file("trace-cmd-report.txt");
	CHECK_EQ_INT(x.r.nr_inputs, 0);
	CHECK(strstr(x.text, "input files") == NULL);
	imp_free(&x);

	/* a line naming an input that had no header keeps its CPU: the name is
	 * read as part of the task column ([002] -> CPU 2) */
	x = imp("a.dat: cpus=1\nb.dat: cpus=1\n"
		"c.dat: bash-1 [002] 5.000001: kmalloc: call_site=f ptr=0xffff888000001000 "
		"bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.kept, 1);
	CHECK_EQ_INT(x.t.ops[0].cpu, 2);
	imp_free(&x);
}

/* Lines no tracer prints, each with a message that names what it is */
static void test_foreign_shapes(void)
{
	/* perf trace (builtin-trace.c trace__event_handler()): "%10.3f " ms,
	 * "(         ): " when syscalls are traced too, "comm/tid ", then
	 * "SYS:EVENT(" fields ")" (trace__fprintf_tp_fields() "name: value", or
	 * the event's format with --libtraceevent_print); "?" for no time */
	static const char *const pt[] = {
		"     0.000 bash/1234 kmem:kmalloc(call_site: 0xffffffff81a0b5aa, ptr: "
		"0xffff888100000000, bytes_req: 64, bytes_alloc: 64, gfp_flags: 3264)\n",
		"     0.004 (         ): bash/1234 kmem:kfree(call_site: 0xffffffff81a0b5aa, ptr: "
		"0xffff888100000000)\n",
		"         ? kmem:kmalloc(call_site=ffffffff81a0b5aa ptr=0xffff888100000000 "
		"bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL)\n",
	};
	for (size_t i = 0; i < sizeof pt / sizeof pt[0]; i++) {
		struct imp x = imp(pt[i]);
		CHECK_EQ_INT(x.rc, -1);
		CHECK_EQ_INT(x.r.bad_lines, 1);
		CHECK(has_error(&x, 1, "'perf trace' output (no CPU column, fields that are 0 left "
				   "out): record with 'perf record -e kmem:kmalloc -e kmem:kfree ...' "
				   "and convert with 'perf script'"));
		imp_free(&x);
	}

	/* "kmalloc:call_site=" (no blank after the event's colon, as a book
	 * quotes it): the kernel prints "%s: " (trace_raw_output_prep()). Line
	 * 1 is bad, line 2's kfree of (null) is read: 1 event, skipped */
	struct imp x = imp("     cat-382   [000] ...1  2935.586706: kmalloc:call_site=c0554644 "
			   "ptr=de515a00 bytes_req=384 bytes_alloc=512 gfp_flags=GFP_ATOMIC\n"
			   "     cat-382   [000] ...1  2935.586718: kfree: call_site=c059c2d8 ptr=(null)\n");
	CHECK_EQ_INT(x.rc, 0);
	CHECK_EQ_INT(x.r.bad_lines, 1);
	CHECK_EQ_INT(x.r.events, 1);
	CHECK_EQ_INT(skipped(&x, SVZ_SKIP_FREE_NULL), 1);
	CHECK(has_error(&x, 1, "expected a blank between the event name 'kmalloc:' and its fields "
			   "(tracers print 'kmalloc: call_site=...'), got 'kmalloc:call_site=c0554644'"));
	imp_free(&x);
	/* the same in a line trimmed to the event, and perf's "kmem:kfree:" */
	x = imp("kmalloc:call_site=c0554644 ptr=de515a00 bytes_req=384 bytes_alloc=512\n"
		"  bash  4242 [001]  5678.123456: kmem:kfree:ptr=0xffff888100000000\n");
	CHECK_EQ_INT(x.r.bad_lines, 2);
	CHECK(has_error(&x, 1, "the event name 'kmalloc:' and its fields (tracers print "
			   "'kmalloc: call_site=...')"));
	CHECK(has_error(&x, 2, "the event name 'kmem:kfree:' and its fields (tracers print "
			   "'kmem:kfree: ptr=...')"));
	imp_free(&x);
}

int main(void)
{
	test_alias_summary();
	test_v3_elinux();
	test_v54_changbin();
	test_v54_vmware();
	test_v612_rostedt();
	test_trace_cmd();
	test_perf();
	test_bpftrace();
	test_malloc_lab();
	test_kmem_plugin();
	test_tracer_lines();
	test_trimmed();
	test_latency();
	test_cut();
	test_bom_free_only();
	test_rebound_label();
	test_detect();
	test_hostile();
	test_streaming();
	test_fuzz();
	test_roundtrip();
	test_api();
	test_trace_cmd_shapes();
	test_input_files();
	test_foreign_shapes();
	return svz_t_done();
}
