/* A synthetic ftrace kmem log for the import benchmark (slubviz import
 * --bench N): a `trace` header, then N-11 event lines on 4 CPUs in the v6.x
 * TP_printk format: kmem_cache_alloc/free of three named caches, kmalloc /
 * kfree of assorted sizes, and a few sched_switch lines. About 1000 objects
 * stay live; every object allocated is freed later (or stays live at the
 * end). Deterministic. */
#include "slubviz/import.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 1024

struct obj {
	uint32_t ptr;
	int cache; /* -1: kmalloc */
};

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

char *svz_import_synth_ftrace(uint64_t n, size_t *len)
{
	static const char header[] =
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 0/0   #P:4\n"
		"#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n";
	static const struct {
		const char *name;
		unsigned req, alloc;
	} caches[] = { { "names_cache", 4096, 4096 }, { "filp", 360, 384 }, { "dentry", 192, 192 } };
	static const unsigned sizes[] = { 8, 24, 64, 100, 192, 256, 500, 1024, 2312, 4000 };
	static const char *const sites[] = { "getname_flags+0x47/0x1f0", "alloc_empty_file+0x6b/0x110",
					     "d_alloc+0x30/0x2a0", "kmalloc_reserve+0x81/0x110",
					     "seq_open+0x33/0xa0", "load_elf_binary+0x21d/0x1750" };
	size_t cap = (size_t)(n < 11 ? 11 : n) * 180 + sizeof header;
	char *buf = malloc(cap);
	if (!buf)
		return NULL;
	size_t o = 0;
	uint64_t lines = 0, seed = 0x9e3779b97f4a7c15ull, ts = 4582696626ull; /* us */
	uint32_t next_ptr = 0x1000;
	struct obj live[LIVE];
	int nlive = 0;

	for (const char *p = header; *p && lines < n; p++) {
		buf[o++] = *p;
		if (*p == '\n')
			lines++;
	}
	while (lines < n) {
		uint64_t r = xorshift(&seed);
		int cpu = (int)(r % 4);
		ts += 1 + (r >> 8) % 40;
		char prefix[96];
		snprintf(prefix, sizeof prefix, "%16s-%-7d [%03d] ..... %6" PRIu64 ".%06" PRIu64 ": ",
			 cpu == 3 ? "kworker/3:1" : "bash", 1200 + cpu, cpu, ts / 1000000, ts % 1000000);
		int kind = (int)((r >> 20) % 16);
		int w;
		if (kind == 0) {
			w = snprintf(buf + o, cap - o,
				     "%ssched_switch: prev_comm=bash prev_pid=%d prev_prio=120 prev_state=S "
				     "==> next_comm=swapper/%d next_pid=0 next_prio=120\n",
				     prefix, 1200 + cpu, cpu);
		} else if (nlive > 0 && (nlive >= LIVE || kind < 8)) {
			int i = (int)((r >> 32) % (uint64_t)nlive);
			struct obj ob = live[i];
			live[i] = live[--nlive];
			const char *site = sites[(r >> 40) % 6];
			/* "00000000" + 8 hex digits: what hashed %p looks like */
			uint32_t h = ob.ptr * 2654435761u;
			if (ob.cache >= 0)
				w = snprintf(buf + o, cap - o,
					     "%skmem_cache_free: call_site=%s ptr=00000000%08x name=%s\n",
					     prefix, site, h, caches[ob.cache].name);
			else
				w = snprintf(buf + o, cap - o, "%skfree: call_site=%s ptr=00000000%08x\n",
					     prefix, site, h);
		} else {
			struct obj ob = { next_ptr++, (int)((r >> 32) % 5) - 2 };
			if (ob.cache < 0)
				ob.cache = -1;
			uint32_t h = ob.ptr * 2654435761u;
			const char *site = sites[(r >> 40) % 6];
			if (ob.cache >= 0)
				w = snprintf(buf + o, cap - o,
					     "%skmem_cache_alloc: call_site=%s ptr=00000000%08x name=%s "
					     "bytes_req=%u bytes_alloc=%u gfp_flags=GFP_KERNEL node=-1 "
					     "accounted=false\n",
					     prefix, site, h, caches[ob.cache].name, caches[ob.cache].req,
					     caches[ob.cache].alloc);
			else {
				unsigned sz = sizes[(r >> 44) % 10];
				unsigned al = 8;
				while (al < sz)
					al *= 2;
				if (sz > 64 && sz <= 96)
					al = 96;
				else if (sz > 128 && sz <= 192)
					al = 192;
				w = snprintf(buf + o, cap - o,
					     "%skmalloc: call_site=%s ptr=00000000%08x bytes_req=%u "
					     "bytes_alloc=%u gfp_flags=GFP_KERNEL%s node=-1 accounted=false\n",
					     prefix, site, h, sz, al, (r >> 50) & 1 ? "|__GFP_ZERO" : "");
			}
			live[nlive++] = ob;
		}
		if (w < 0 || (size_t)w >= cap - o) {
			free(buf);
			return NULL;
		}
		o += (size_t)w;
		lines++;
	}
	buf[o] = 0;
	if (len)
		*len = o;
	return buf;
}
