/* The import report as text (slubviz import, the CLI's stderr) and as JSON
 * (the browser's summary before replay). docs/import.md shows both. */
#include "import/importer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slubviz/sizing.h"
#include "lib/sbuf.h"
#include "lib/util.h"

/* The text, or NULL if memory ran out. */
static char *text_done(struct sbuf *b)
{
	if (b->oom) {
		sb_free(b);
		return NULL;
	}
	if (!b->s)
		return calloc(1, 1);
	return b->s;
}

static const struct {
	const char *name, *text;
} skips[SVZ_SKIP__COUNT] = {
#define IMPORT_SKIP(r, name, text) [r] = { name, text },
#include "import/import_skips.def"
#undef IMPORT_SKIP
};

/* every enum value has its row */
enum {
#define IMPORT_SKIP(r, ...) ROW_##r,
#include "import/import_skips.def"
#undef IMPORT_SKIP
	NR_SKIP_ROWS
};
_Static_assert((int)NR_SKIP_ROWS == (int)SVZ_SKIP__COUNT, "import_skips.def: one row per reason");

const char *svz_import_skip_name(enum svz_import_skip r)
{
	return (unsigned)r < SVZ_SKIP__COUNT ? skips[r].name : "?";
}

const char *svz_import_skip_text(enum svz_import_skip r)
{
	return (unsigned)r < SVZ_SKIP__COUNT ? skips[r].text : "?";
}

/* "0,2-3" */
static void cpu_list(const struct svz_import_report *r, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (int c = 0; c < SVZ_MAX_CPUS;) {
		if (!(r->cpus_seen[c / 64] >> (c % 64) & 1)) {
			c++;
			continue;
		}
		int e = c;
		while (e + 1 < SVZ_MAX_CPUS && (r->cpus_seen[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		int n = e > c ? snprintf(buf + o, len - o, "%s%d-%d", o ? "," : "", c, e)
			      : snprintf(buf + o, len - o, "%s%d", o ? "," : "", c);
		if (n < 0 || (size_t)n >= len - o)
			return;
		o += (size_t)n;
		c = e + 1;
	}
}

/* "300" or "256-4095"; empty if every CPU column was within the model's */
static void cpus_beyond(const struct svz_import_report *r, char *buf, size_t len)
{
	buf[0] = 0;
	if (r->cpus_beyond_lo < 0)
		return;
	if (r->cpus_beyond_hi > r->cpus_beyond_lo)
		snprintf(buf, len, "%" PRId64 "-%" PRId64, r->cpus_beyond_lo, r->cpus_beyond_hi);
	else
		snprintf(buf, len, "%" PRId64, r->cpus_beyond_lo);
}

static void cache_origin(const struct svz_import_report *r, const struct svz_import_cache *c,
			 char *buf, size_t len)
{
	if (c->recreates >= 0)
		snprintf(buf, len, "named %s in the trace, with other sizes than that cache "
			 "(re-created?): bytes_req=%u bytes_alloc=%u", r->caches[c->recreates].name,
			 c->bytes_req, c->bytes_alloc);
	else if (c->named_by_free)
		snprintf(buf, len, "kmem_cache_alloc without name=: inferred from bytes_req=%u "
			 "bytes_alloc=%u, named by its kmem_cache_free name=", c->bytes_req, c->bytes_alloc);
	else if (c->inferred)
		snprintf(buf, len, "kmem_cache_alloc without name=: inferred from bytes_req=%u "
			 "bytes_alloc=%u", c->bytes_req, c->bytes_alloc);
	else
		snprintf(buf, len, "named in the trace, bytes_req=%u bytes_alloc=%u", c->bytes_req,
			 c->bytes_alloc);
}

char *svz_import_report_text(const struct svz_import_report *r)
{
	struct sbuf b = { 0 };
	char buf[512], mem[32];

	sb_printf(&b, "format: %s\n", svz_import_format_name(r->format));
	if (r->fatal) {
		sb_printf(&b, "error: %s\n", r->fatal_msg);
	}
	if (r->format == SVZ_FMT_V1) {
		if (!r->fatal)
			sb_printf(&b, "native v1 trace: %u ops, %u caches; %d CPUs, %d nodes\n",
				  r->v1_ops, r->v1_caches, r->nr_cpus, r->nr_nodes);
		return text_done(&b);
	}
	sb_printf(&b, "input: %" PRIu64 " lines, %" PRIu64 " bytes (%" PRIu64
		  " comment/header lines, %" PRIu64 " blank)\n",
		  r->lines, r->bytes, r->comment_lines, r->blank_lines);
	if (r->truncated)
		sb_printf(&b, "input cut: larger than the input limit, the rest was not read\n");
	if (r->cut_line)
		sb_printf(&b, "input cut short: the last line (%" PRIu64 ") ends without a newline "
			  "before its event is complete: not imported\n", r->cut_line);
	uint64_t skipped = r->events - r->kept;
	sb_printf(&b, "events: %" PRIu64 " %s read, %" PRIu64 " kept, %" PRIu64
		  " skipped -> %" PRIu64 " ops\n",
		  r->events, import_formats[(unsigned)r->format < SVZ_FMT__COUNT ? r->format : 0].events,
		  r->kept, skipped, r->ops);
	for (int i = 0; i < SVZ_SKIP__COUNT; i++)
		if (r->skipped[i])
			sb_printf(&b, "  skipped %" PRIu64 " %s [%s]\n", r->skipped[i], skips[i].text,
				  svz_import_skip_name((enum svz_import_skip)i));
	sb_printf(&b, "unpaired allocations: %" PRIu64 " (never freed in the trace)", r->unpaired);
	if (r->rebound)
		sb_printf(&b, "; %" PRIu64 " of them because their pointer was allocated again while "
			  "live (the old object is kept, a new handle is bound)", r->rebound);
	sb_printf(&b, "\n");
	if (r->other_events) {
		sb_printf(&b, "other events ignored: %" PRIu64 " (", r->other_events);
		for (uint32_t i = 0; i < r->nr_other_names; i++)
			sb_printf(&b, "%s%s %" PRIu64, i ? ", " : "", r->other_names[i].name,
				  r->other_names[i].count);
		sb_printf(&b, "%s)\n", r->nr_other_names == SVZ_IMPORT_MAX_NAMES ? ", ..." : "");
	}
	if (r->callchain_lines)
		sb_printf(&b, "stack and callchain lines ignored: %" PRIu64 " (perf -g callchains, "
			  "ftrace ' => ' frames)\n", r->callchain_lines);
	sb_printf(&b, "caches created: %u\n", r->nr_caches);
	for (uint32_t i = 0; i < r->nr_caches; i++) {
		const struct svz_import_cache *c = &r->caches[i];
		char flags[64] = "", align[32] = "", origin[256];
		if (c->flags) {
			svz_slab_flags_format(c->flags, flags + 7, sizeof flags - 7);
			memcpy(flags, " flags=", 7);
		}
		if (c->align)
			snprintf(align, sizeof align, " align=%u", c->align);
		cache_origin(r, c, origin, sizeof origin);
		char fallback[128] = "";
		if (c->size_fallback)
			snprintf(fallback, sizeof fallback, " (no alignment turns %u into %u: declared "
				 "at bytes_alloc)", c->bytes_req, c->bytes_alloc);
		sb_printf(&b, "  %s: object_size=%u%s%s%s%s; %s; %" PRIu64 " allocation%s\n", c->name,
			  c->object_size, align, flags,
			  c->ctor ? " ctor (a constructor: the free pointer sits after the object)" : "",
			  fallback, origin, c->allocs,
			  c->allocs == 1 ? "" : "s");
	}
	if (r->hashed_ptrs)
		sb_printf(&b, "pointers: %" PRIu64 " hashed (%%p): they pair allocations with frees, "
			  "but the kernel's slab layout is lost (the model places objects itself)\n",
			  r->hashed_ptrs);
	if (r->raw_ptrs)
		sb_printf(&b, "pointers: %" PRIu64 " raw addresses: used to pair allocations with "
			  "frees (the model places objects itself)\n", r->raw_ptrs);
	cpu_list(r, buf, sizeof buf);
	sb_printf(&b, "CPUs seen: %s", buf[0] ? buf : r->no_cpu ? "unknown" : "none");
	if (buf[0] && r->no_cpu)
		sb_printf(&b, "; unknown for %" PRIu64 " events", r->no_cpu);
	cpus_beyond(r, buf, sizeof buf);
	if (buf[0])
		sb_printf(&b, "; %s beyond the model's %d CPUs (their events skipped)", buf, SVZ_MAX_CPUS);
	if (r->header_cpus)
		sb_printf(&b, " (%d CPUs in the header)", r->header_cpus);
	sb_printf(&b, "\n");
	size_text(r->node_mem, mem, sizeof mem);
	sb_printf(&b, "suggested topology: %d node%s with %s each, %d CPU%s (%s%d)%s\n",
		  r->nr_nodes, r->nr_nodes == 1 ? "" : "s", mem, r->nr_cpus, r->nr_cpus == 1 ? "" : "s",
		  r->nr_cpus == 1 ? "" : "0-", r->nr_cpus - 1,
		  r->nr_nodes > 1 ? "; nodes from node= values, CPUs spread over them in blocks" : "");
	if (r->no_cpu)
		sb_printf(&b, "note: %" PRIu64 " events had no CPU column (lines trimmed to "
			  "'EVENT: fields' or 'TIMESTAMP: EVENT: fields'): CPU unknown, replayed on "
			  "CPU 0\n", r->no_cpu);
	if (r->gfp_layout)
		sb_printf(&b, "note: %" PRIu64 " allocations have a numeric gfp_flags with __GFP_IO or "
			  "__GFP_FS but no reclaim bit, which no v6 kernel passes: the numbers look like "
			  "another kernel's gfp bit layout (4.x printed GFP_KERNEL as 0x14000c0 or "
			  "0x6000c0) and are replayed as v6 bits\n", r->gfp_layout);
	if (r->gfp_unknown) {
		sb_printf(&b, "note: %" PRIu64 " events had gfp flags the model does not know, dropped "
			  "(known flags kept):", r->gfp_unknown);
		for (uint32_t i = 0; i < r->nr_gfp_names; i++)
			sb_printf(&b, " %s", r->gfp_names[i].name);
		sb_printf(&b, "\n");
	}
	if (r->node_dropped)
		sb_printf(&b, "note: %" PRIu64 " events asked for a node beyond the model's 64: taken as "
			  "node=-1\n", r->node_dropped);
	if (r->free_other_cache)
		sb_printf(&b, "note: %" PRIu64 " kmem_cache_free events named another cache than the "
			  "allocation's: freed to the allocation's cache\n", r->free_other_cache);
	if (r->kmalloc_size_differs)
		sb_printf(&b, "note: %" PRIu64 " kmalloc events show a bytes_alloc the model's kmalloc "
			  "caches do not have (slub_debug or other kmalloc sizes?)\n",
			  r->kmalloc_size_differs);
	if (r->names_adjusted)
		sb_printf(&b, "note: %" PRIu64 " cache names changed to fit v1 (letters, digits, "
			  "_ . : -; kmalloc-* prefixed 'x-'; a name seen again with other sizes, a "
			  "re-created cache, suffixed .2)\n", r->names_adjusted);
	if (r->nr_inputs > 1) {
		/* trace-cmd report -i A -i B merges the inputs by time; their CPU
		 * numbers collide (fmt_trace_cmd.c) */
		sb_printf(&b, "note: %" PRIu32 " input files (trace-cmd report -i ... -i ...), read as "
			  "one trace in the order printed; ", r->nr_inputs);
		if (r->inputs_cpus_shared) {
			sb_printf(&b, "their CPUs are kept as printed, so CPU n of every file replays "
				  "as one CPU (the files cannot all be told apart by name)");
		} else {
			sb_printf(&b, "each file's CPUs replay after the previous files':");
			uint64_t first = 0;
			for (uint32_t i = 0; i < r->nr_inputs && i < SVZ_IMPORT_MAX_NAMES; i++) {
				const struct svz_import_name_count *f = &r->inputs[i];
				sb_printf(&b, "%s %s (cpus=%" PRIu64 ") as CPU%s %" PRIu64, i ? "," : "",
					  f->name, f->count, f->count == 1 ? "" : "s", first);
				if (f->count > 1)
					sb_printf(&b, "-%" PRIu64, first + f->count - 1);
				first += f->count;
			}
			if (r->nr_inputs > SVZ_IMPORT_MAX_NAMES)
				sb_printf(&b, ", and %" PRIu32 " more", r->nr_inputs - SVZ_IMPORT_MAX_NAMES);
		}
		sb_printf(&b, "; allocations and frees pair across the files\n");
	}
	if (r->ts_backwards)
		sb_printf(&b, "note: timestamps went backwards %" PRIu64 " times (several dumps or "
			  "per-CPU buffers in one file?); events are replayed in file order\n",
			  r->ts_backwards);
	/* trace-cmd's "[EVENTS DROPPED]" gives no count: said so, not added in */
	if (r->lost_events && r->lost_unknown)
		sb_printf(&b, "note: the tracer reported %" PRIu64 " lost events and %" PRIu64
			  " %s of an unknown number of events: expect unpaired allocations and "
			  "frees\n", r->lost_events, r->lost_unknown,
			  r->lost_unknown == 1 ? "loss" : "losses");
	else if (r->lost_events)
		sb_printf(&b, "note: the tracer reported %" PRIu64 " lost events: expect unpaired "
			  "allocations and frees\n", r->lost_events);
	else if (r->lost_unknown)
		sb_printf(&b, "note: the tracer reported %" PRIu64 " %s of an unknown number of "
			  "events: expect unpaired allocations and frees\n", r->lost_unknown,
			  r->lost_unknown == 1 ? "loss" : "losses");
	if (r->realloc_in_place)
		sb_printf(&b, "note: %" PRIu64 " reallocs fit their object's kmalloc size (krealloc "
			  "in place, no op)\n", r->realloc_in_place);
	if (r->header_ops >= 0 && (uint64_t)r->header_ops != r->events)
		sb_printf(&b, "note: the malloc-lab header says %" PRId64 " ops, the file has %" PRIu64
			  "\n", r->header_ops, r->events);
	if (!r->fatal && r->events == 0)
		sb_printf(&b, "note: no kmem events: nothing to replay\n");
	if (r->bad_lines) {
		sb_printf(&b, "errors: %" PRIu64 " line%s could not be read%s\n", r->bad_lines,
			  r->bad_lines == 1 ? "" : "s",
			  r->long_lines ? " (incl. lines over the length limit)" : "");
		for (uint32_t i = 0; i < r->nr_errors; i++)
			sb_printf(&b, "  line %" PRIu64 ": %s\n", r->errors[i].line, r->errors[i].msg);
		if (r->bad_lines > r->nr_errors)
			sb_printf(&b, "  ... and %" PRIu64 " more\n", r->bad_lines - r->nr_errors);
	} else {
		sb_printf(&b, "errors: none\n");
	}
	return text_done(&b);
}

/* A JSON string with every byte outside printable ASCII as \u00XX, as the
 * summaries have always been written (sb_json_str() passes UTF-8 through). */
static void json_str(struct sbuf *b, const char *s)
{
	sb_printf(b, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			sb_printf(b, "\\u%04x", *p);
		else
			sb_printf(b, "%c", *p);
	}
	sb_printf(b, "\"");
}

char *svz_import_report_json(const struct svz_import_report *r)
{
	struct sbuf b = { 0 };
	char buf[512];

	sb_printf(&b, "{\"schema\":1,\"format\":\"%s\",\"ok\":%s", svz_import_format_name(r->format),
		  r->fatal ? "false" : "true");
	if (r->fatal) {
		sb_printf(&b, ",\"error\":");
		json_str(&b, r->fatal_msg);
	}
	sb_printf(&b, ",\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"truncated\":%s"
		  ",\"cut_line\":%" PRIu64
		  ",\"comment_lines\":%" PRIu64 ",\"blank_lines\":%" PRIu64
		  ",\"events\":%" PRIu64 ",\"kept\":%" PRIu64 ",\"ops\":%" PRIu64 ",\"skipped\":{",
		  r->bytes, r->lines, r->truncated ? "true" : "false", r->cut_line, r->comment_lines,
		  r->blank_lines,
		  r->events, r->kept, r->format == SVZ_FMT_V1 ? (uint64_t)r->v1_ops : r->ops);
	for (int i = 0; i < SVZ_SKIP__COUNT; i++)
		sb_printf(&b, "%s\"%s\":%" PRIu64, i ? "," : "",
			  svz_import_skip_name((enum svz_import_skip)i), r->skipped[i]);
	sb_printf(&b, "},\"unpaired\":%" PRIu64 ",\"rebound\":%" PRIu64 ",\"other_events\":{",
		  r->unpaired, r->rebound);
	for (uint32_t i = 0; i < r->nr_other_names; i++) {
		sb_printf(&b, "%s", i ? "," : "");
		json_str(&b, r->other_names[i].name);
		sb_printf(&b, ":%" PRIu64, r->other_names[i].count);
	}
	sb_printf(&b, "},\"other_events_total\":%" PRIu64 ",\"callchain_lines\":%" PRIu64
		  ",\"caches\":[", r->other_events, r->callchain_lines);
	for (uint32_t i = 0; i < r->nr_caches; i++) {
		const struct svz_import_cache *c = &r->caches[i];
		char flags[64];
		svz_slab_flags_format(c->flags, flags, sizeof flags);
		sb_printf(&b, "%s{\"name\":", i ? "," : "");
		json_str(&b, c->name);
		sb_printf(&b, ",\"bytes_req\":%u,\"bytes_alloc\":%u,\"object_size\":%u,\"align\":%u"
			  ",\"flags\":\"%s\",\"ctor\":%s,\"origin\":\"%s\",\"size_fallback\":%s"
			  ",\"allocs\":%" PRIu64,
			  c->bytes_req, c->bytes_alloc, c->object_size, c->align, flags,
			  c->ctor ? "true" : "false",
			  c->recreates >= 0 ? "recreated" : c->named_by_free ? "named-by-free"
			  : c->inferred ? "inferred" : "trace",
			  c->size_fallback ? "true" : "false", c->allocs);
		if (c->recreates >= 0) {
			sb_printf(&b, ",\"recreates\":");
			json_str(&b, r->caches[c->recreates].name);
		}
		sb_printf(&b, "}");
	}
	cpu_list(r, buf, sizeof buf);
	sb_printf(&b, "],\"pointers\":{\"hashed\":%" PRIu64 ",\"raw\":%" PRIu64 "},\"cpus_seen\":\"%s\"",
		  r->hashed_ptrs, r->raw_ptrs, buf);
	cpus_beyond(r, buf, sizeof buf);
	sb_printf(&b, ",\"cpus_beyond\":\"%s\""
		  ",\"header_cpus\":%d,\"topology\":{\"nodes\":%d,\"cpus\":%d,\"node_mem\":%" PRIu64 "}",
		  buf, r->header_cpus, r->nr_nodes, r->nr_cpus, r->node_mem);
	sb_printf(&b, ",\"input_files\":{\"count\":%" PRIu32 ",\"cpus_shared\":%s,\"files\":[",
		  r->nr_inputs, r->inputs_cpus_shared ? "true" : "false");
	uint64_t first = 0;
	for (uint32_t i = 0; i < r->nr_inputs && i < SVZ_IMPORT_MAX_NAMES; i++) {
		sb_printf(&b, "%s{\"name\":", i ? "," : "");
		json_str(&b, r->inputs[i].name);
		sb_printf(&b, ",\"cpus\":%" PRIu64 ",\"first_cpu\":%" PRIu64 "}", r->inputs[i].count,
			  r->inputs_cpus_shared ? 0 : first);
		first += r->inputs[i].count;
	}
	sb_printf(&b, "]}");
	sb_printf(&b, ",\"notes\":{\"no_cpu\":%" PRIu64 ",\"gfp_unknown\":%" PRIu64 ",\"gfp_layout\":%" PRIu64
		  ",\"node_dropped\":%" PRIu64 ",\"free_other_cache\":%" PRIu64
		  ",\"kmalloc_size_differs\":%" PRIu64 ",\"names_adjusted\":%" PRIu64
		  ",\"ts_backwards\":%" PRIu64 ",\"lost_events\":%" PRIu64 ",\"lost_unknown\":%" PRIu64
		  ",\"realloc_in_place\":%" PRIu64 ",\"header_ops\":%" PRId64 "},\"gfp_unknown_names\":[",
		  r->no_cpu, r->gfp_unknown, r->gfp_layout, r->node_dropped, r->free_other_cache,
		  r->kmalloc_size_differs, r->names_adjusted, r->ts_backwards, r->lost_events,
		  r->lost_unknown, r->realloc_in_place, r->header_ops);
	for (uint32_t i = 0; i < r->nr_gfp_names; i++) {
		sb_printf(&b, "%s", i ? "," : "");
		json_str(&b, r->gfp_names[i].name);
	}
	sb_printf(&b, "],\"bad_lines\":%" PRIu64 ",\"errors\":[", r->bad_lines);
	for (uint32_t i = 0; i < r->nr_errors; i++) {
		sb_printf(&b, "%s{\"line\":%" PRIu64 ",\"msg\":", i ? "," : "", r->errors[i].line);
		json_str(&b, r->errors[i].msg);
		sb_printf(&b, "}");
	}
	sb_printf(&b, "]}");
	return text_done(&b);
}
