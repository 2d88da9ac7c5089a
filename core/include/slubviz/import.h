/* Importing real allocation traces (docs/import.md): ftrace text from
 * `trace` / `trace_pipe`, `trace-cmd report`, `perf script`, the
 * options/fields form, the published bpftrace one-liner, CS:APP malloc-lab
 * .rep files, and native v1 (handed to svz_trace_parse()).
 *
 * An import turns the kmem events into a struct svz_trace exactly like the
 * v1 parser's (config with a suggested topology, caches, ops, handles,
 * call-site labels) plus a report: what was read, kept and skipped and why.
 * Bad lines never stop an import; only an empty input, an unrecognised
 * format or (for native v1) a parse error is fatal.
 *
 * Streaming: svz_importer_feed() takes the text in chunks of any size
 * (lines may straddle chunks); memory is the output trace plus one entry
 * per distinct pointer, never the input (except native v1, which is parsed
 * whole). Time is linear in the input. */
#ifndef SLUBVIZ_IMPORT_H
#define SLUBVIZ_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slubviz/config.h"
#include "slubviz/trace.h"

enum svz_import_format {
	SVZ_FMT_AUTO,
	SVZ_FMT_V1,         /* slubviz-trace 1 */
	SVZ_FMT_FTRACE,     /* /sys/kernel/tracing/trace or trace_pipe */
	SVZ_FMT_TRACE_CMD,  /* trace-cmd report */
	SVZ_FMT_PERF,       /* perf script */
	SVZ_FMT_BPFTRACE,   /* the one-liner of docs/import.md */
	SVZ_FMT_MALLOC_LAB, /* CS:APP malloc-lab .rep */
	SVZ_FMT__COUNT
};

/* The table core/src/import/import_formats.def: "auto", "v1", "ftrace", ... */
const char *svz_import_format_name(enum svz_import_format f);
const char *svz_import_format_aliases(enum svz_import_format f); /* space-separated */
const char *svz_import_format_label(enum svz_import_format f);   /* for a format picker */
const char *svz_import_format_list(void); /* "auto, v1, ftrace, ...": the names, for messages */
/* A name or an alias ("rep" for malloc-lab). 0, or -1 if unknown. */
int svz_import_format_parse(const char *name, enum svz_import_format *out);

struct svz_import_limits {
	uint32_t max_line;   /* bytes per line (65536); longer lines are skipped */
	uint32_t max_ops;    /* ops kept (50000000, the v1 limit); later events are counted, not kept */
	uint64_t max_bytes;  /* input bytes read (2 GiB); the rest is ignored */
	uint32_t max_errors; /* bad lines described in the report (20); the rest are counted */
	uint32_t max_caches; /* caches created (4096) */
};
void svz_import_limits_default(struct svz_import_limits *l);

/* Why a kmem event (or a malloc-lab op) was not kept. */
enum svz_import_skip {
	SVZ_SKIP_FREE_NULL,      /* kfree(NULL) / kfree(ZERO_SIZE_PTR): a no-op */
	SVZ_SKIP_FREE_UNKNOWN,   /* free of an object allocated before the trace began */
	SVZ_SKIP_FREE_TWICE,     /* free of an object the trace already freed */
	SVZ_SKIP_FREE_REBOUND,   /* another free of a pointer allocated again while live: the
				  * older object at that pointer may be the one freed */
	SVZ_SKIP_FREE_SKIPPED,   /* free of an object whose allocation was skipped */
	SVZ_SKIP_ALLOC_FAILED,   /* allocation returned NULL */
	SVZ_SKIP_ZERO_SIZE,      /* kmalloc(0): ZERO_SIZE_PTR, no object */
	SVZ_SKIP_TOO_LARGE,      /* size above 64 MiB, or no slab can hold it */
	SVZ_SKIP_CPU_LIMIT,      /* CPU id >= SVZ_MAX_CPUS */
	SVZ_SKIP_CACHE_LIMIT,    /* more caches than limits.max_caches */
	SVZ_SKIP_OP_LIMIT,       /* more ops than limits.max_ops */
	SVZ_SKIP__COUNT
};
const char *svz_import_skip_name(enum svz_import_skip r); /* short label, e.g. "free-before-trace" */
const char *svz_import_skip_text(enum svz_import_skip r); /* what it counts, as the summary says */

struct svz_import_error {
	uint64_t line;
	char msg[200];
};

/* How a cache's declaration was chosen (docs/import.md). */
struct svz_import_cache {
	char name[64];
	uint32_t bytes_req, bytes_alloc; /* as the trace showed them (0 = not shown) */
	uint32_t object_size, align, flags; /* the declaration */
	bool inferred;       /* kmem_cache_alloc without name=: named from the sizes */
	bool named_by_free;  /* ... then named by the name= of its kmem_cache_free events */
	bool size_fallback;  /* no (align, HWCACHE_ALIGN, ctor) reproduced bytes_alloc: object_size = bytes_alloc */
	bool ctor;           /* declared with a constructor: its free pointer sits after the object */
	int32_t recreates;   /* a name seen again with other sizes (a re-created cache, NAME.2):
			      * the index of the name's first cache; -1 otherwise */
	uint64_t allocs;
};

struct svz_import_name_count {
	char name[48];
	uint64_t count;
};

#define SVZ_IMPORT_MAX_NAMES 8

struct svz_import_report {
	enum svz_import_format format;
	bool fatal;              /* nothing imported: see fatal_msg */
	char fatal_msg[640]; /* a v1 error: "trace:L:C: error: " + svz_error.msg */
	bool truncated;          /* max_bytes reached: the rest of the input was ignored */

	uint64_t bytes, lines;
	uint64_t blank_lines, comment_lines; /* incl. ftrace headers, bpftrace banners */
	uint64_t bad_lines;      /* unparseable / too long / binary: in errors[] */
	uint64_t long_lines;     /* of bad_lines: longer than max_line */
	uint64_t callchain_lines;/* perf script -g callchain lines, ftrace " => func" stack frames (ignored) */
	uint64_t other_events;   /* well-formed events that are not kmem alloc/free; function-tracer
				  * lines count as "function", ftrace stack traces as "<stack trace>" */
	uint64_t cut_line;       /* the last line, cut short (no '\n', fields incomplete): not
				  * imported; 0 if the input ended cleanly */
	struct svz_import_name_count other_names[SVZ_IMPORT_MAX_NAMES];
	uint32_t nr_other_names;

	uint64_t events;         /* kmem events (malloc-lab: op lines) read */
	uint64_t kept;           /* events that became ops; events = kept + sum(skipped) */
	uint64_t skipped[SVZ_SKIP__COUNT];
	uint64_t ops;            /* ops produced (a malloc-lab realloc makes 0..2) */

	uint64_t unpaired;       /* allocations the trace never frees */
	uint64_t rebound;        /* of those: the pointer was allocated again while live */
	uint64_t gfp_unknown;    /* events with gfp names the model does not know (dropped; known bits kept) */
	uint64_t gfp_layout;     /* numeric gfp values with __GFP_IO/__GFP_FS but no reclaim bit: another
				    kernel's bit layout? (4.x GFP_KERNEL: 0x14000c0, 0x6000c0) */
	struct svz_import_name_count gfp_names[SVZ_IMPORT_MAX_NAMES];
	uint32_t nr_gfp_names;
	uint64_t no_cpu;         /* kmem events without a CPU column (trimmed lines): CPU unknown,
				  * replayed on CPU 0; not in cpus_seen */
	uint64_t node_dropped;   /* node= beyond the model's nodes: taken as NUMA_NO_NODE */
	uint64_t free_other_cache; /* kmem_cache_free name= differs from the allocating cache */
	uint64_t kmalloc_size_differs; /* kmalloc bytes_alloc != the model's kmalloc size */
	uint64_t ts_backwards;   /* timestamps that go back (merged or multiple dumps) */
	uint64_t lost_events;    /* "[LOST n EVENTS]" / bpftrace "Lost n events" /
				  * trace-cmd "CPU:1 [n EVENTS DROPPED]" */
	uint64_t lost_unknown;   /* trace-cmd "CPU:2 [EVENTS DROPPED]": lost events, count
				  * not given (each line counts 1) */
	uint64_t names_adjusted; /* cache names changed to fit v1 (letters, digits, _ . : -) */
	uint64_t realloc_in_place; /* malloc-lab reallocs that fit the object's kmalloc size */
	uint64_t hashed_ptrs, raw_ptrs; /* pointer values seen: hashed %p or real addresses */
	int64_t header_ops;      /* malloc-lab header num_ops (-1 if none) */
	int header_cpus;         /* "#P:N" / "cpus=N" in a header, 0 if none (several inputs:
				  * their sum, unless inputs_cpus_shared: the largest) */
	/* trace-cmd report -i A -i B: the inputs' "A: cpus=N" headers, in order
	 * (name; count: its cpus), the first SVZ_IMPORT_MAX_NAMES kept */
	struct svz_import_name_count inputs[SVZ_IMPORT_MAX_NAMES];
	uint32_t nr_inputs;      /* inputs named in headers (0: a single input) */
	bool inputs_cpus_shared; /* two inputs print one name (or more than 64 inputs): their CPUs
				  * are kept as printed, shared, not renumbered */

	uint64_t cpus_seen[SVZ_MAX_CPUS / 64]; /* CPU columns of the kmem events read, kept or not */
	int64_t cpus_beyond_lo, cpus_beyond_hi; /* CPU columns >= SVZ_MAX_CPUS (their events
						 * skipped as cpu-limit); -1 if none */
	int max_node;            /* highest node= seen, -1 if none */
	int nr_cpus, nr_nodes;   /* suggested topology */
	uint64_t node_mem;       /* bytes per node */
	uint64_t peak_live_bytes;

	struct svz_import_cache *caches;
	uint32_t nr_caches;

	struct svz_import_error *errors; /* the first max_errors bad lines */
	uint32_t nr_errors;

	uint32_t v1_ops, v1_caches; /* native v1 inputs */
};
void svz_import_report_free(struct svz_import_report *r);

/* Human-readable summary / JSON ({"schema":1,...}); malloc'd, NULL on OOM. */
char *svz_import_report_text(const struct svz_import_report *r);
char *svz_import_report_json(const struct svz_import_report *r);

/* Streaming import. `base` (NULL: defaults) gives the page size and the
 * kernel switches; the topology is replaced by the suggested one. */
struct svz_importer;
struct svz_importer *svz_importer_new(enum svz_import_format fmt, const struct svz_config *base,
				      const struct svz_import_limits *lim);
void svz_importer_feed(struct svz_importer *im, const char *data, size_t len);
uint64_t svz_importer_lines(const struct svz_importer *im);
uint64_t svz_importer_bytes(const struct svz_importer *im);
/* Ends the input. Returns 0 with *out filled, or -1 (report->fatal, or out
 * of memory in err). The report is filled either way; free it with
 * svz_import_report_free(). The importer must still be freed. */
int svz_importer_finish(struct svz_importer *im, struct svz_trace *out,
			struct svz_import_report *report, struct svz_error *err);
void svz_importer_free(struct svz_importer *im);

/* One-shot import of a whole text. */
int svz_import(const char *text, size_t len, enum svz_import_format fmt,
	       const struct svz_config *base, const struct svz_import_limits *lim,
	       struct svz_trace *out, struct svz_import_report *report, struct svz_error *err);

/* The format auto-detection would pick for a text's start; SVZ_FMT_AUTO if
 * it cannot tell (empty, or only comments and blank lines). */
enum svz_import_format svz_import_detect(const char *text, size_t len);

/* A trace as native v1 text that parses back into the same config, caches
 * and ops (docs/import.md). malloc'd, NUL-terminated; NULL on OOM. */
char *svz_trace_to_v1(const struct svz_trace *t, size_t *len);

/* A synthetic n-line ftrace log (kmem events on 4 CPUs, with a header) for
 * benchmarks; malloc'd, NULL on OOM. */
char *svz_import_synth_ftrace(uint64_t n, size_t *len);

#endif
