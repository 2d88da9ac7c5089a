/* Trace format v1 (docs/trace-format.md): parsed into a config, cache
 * declarations and a flat list of ops. Repeat blocks are expanded here. */
#ifndef SLUBVIZ_TRACE_H
#define SLUBVIZ_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slubviz/config.h"

enum svz_op_type {
	SVZ_OP_ALLOC,      /* kmem_cache_alloc(cache) -> handle (node >= 0: kmem_cache_alloc_node) */
	SVZ_OP_FREE,       /* kmem_cache_free(cache, handle) */
	SVZ_OP_KMALLOC,    /* kmalloc(size) -> handle (node >= 0: kmalloc_node) */
	SVZ_OP_KFREE,      /* kfree(handle) */
	SVZ_OP_ALLOC_BULK, /* kmem_cache_alloc_bulk(cache, count) -> handle list */
	SVZ_OP_FREE_BULK,  /* kmem_cache_free_bulk(cache, count, handle list) */
	SVZ_OP_FLUSH,      /* flush this CPU's per-CPU caching layer of cache */
	SVZ_OP_FLUSH_ALL,  /* flush_all(cache) */
	SVZ_OP_SHRINK,     /* kmem_cache_shrink(cache) */
	SVZ_OP_DESTROY,    /* kmem_cache_destroy(cache) */
	SVZ_OP_PREFILL,    /* kmem_cache_prefill_sheaf(cache, gfp, count) -> sheaf handle */
	SVZ_OP_ALLOC_FROM_SHEAF, /* kmem_cache_alloc_from_sheaf(cache, gfp, sheaf) -> handle */
	SVZ_OP_RETURN_SHEAF, /* kmem_cache_return_sheaf(cache, gfp, sheaf) */
	SVZ_OP_KFREE_RCU,  /* kfree_rcu(handle): freed after an RCU grace period */
	SVZ_OP_RCU_BARRIER, /* rcu_barrier(): every pending grace period ends */
	SVZ_OP_WORK,       /* CYCLES of non-allocator work (count): the timed schedule's clock */
	SVZ_OP__COUNT
};

#define SVZ_NO_NODE (-1)
#define SVZ_NO_CACHE 0xffffffffu

struct svz_op {
	uint8_t type;
	uint16_t cpu;
	int16_t node;     /* SVZ_NO_NODE or a node id */
	uint16_t col;     /* column of the op's first token (0 = unknown); fills padding */
	uint32_t gfp;
	uint32_t cache;   /* index into trace caches; SVZ_NO_CACHE for kmalloc/kfree */
	uint32_t handle;  /* handle id (single ops) or first index into handle_lists (bulk) */
	uint32_t count;   /* bulk count */
	uint32_t size;    /* kmalloc bytes */
	uint32_t line;    /* source line in the trace */
	uint32_t site;    /* call-site label id (0 = none) */
	uint32_t sheaf;   /* sheaf handle id (prefill/alloc_from/return_sheaf) */
};

/* Limits of the v1 parser (docs/trace-format.md, "Limits"), the same
 * natively and in wasm so the CLI and the page accept the same traces:
 * checked before anything is expanded, so a hostile trace fails in bounded
 * time and memory. The op limit is what the browser's wasm32 heap can replay:
 * an op with its own handle and a live object costs about 160 bytes in wasm
 * (40 in the op array, the rest the handle's name and index and the model's
 * records), 8M ops about 1.3 GB. The importers stop at the same op count.
 * Overridable at build time (fuzzing). */
#ifndef SVZ_TRACE_MAX_OPS
#define SVZ_TRACE_MAX_OPS 8000000u
#endif
#ifndef SVZ_TRACE_MAX_ITERATIONS
#define SVZ_TRACE_MAX_ITERATIONS 20000000u
#endif
/* Distinct handle names and call-site labels together, bytes incl. a NUL each. */
#ifndef SVZ_TRACE_MAX_NAME_BYTES
#define SVZ_TRACE_MAX_NAME_BYTES (128u << 20)
#endif
#define SVZ_TRACE_MAX_CACHES 4096u /* cache declarations, as the importers' default */
#define SVZ_TRACE_MAX_LINE 65536u /* bytes in a line, '\r' included, '\n' not */
#define SVZ_TRACE_MAX_NAME 255u   /* bytes in a handle name or call-site label */
#define SVZ_TRACE_MAX_CACHE_NAME 63u /* bytes in a cache name (struct svz_cache_decl.name) */

struct svz_cache_decl {
	char name[SVZ_TRACE_MAX_CACHE_NAME + 1];
	uint32_t object_size;
	uint32_t align;
	uint32_t flags;          /* SLAB_* from sizing.h */
	bool ctor;
	uint32_t sheaf_capacity; /* requested (kmem_cache_args), 0 = auto */
	uint32_t line;
};

/* One token of an explicit schedule ('steps' lines, docs/trace-format.md). */
enum svz_step_until {
	SVZ_STEP_COUNT = 0, /* "C" or "CxN": N micro-steps of CPU C */
	SVZ_STEP_OPS,       /* "C/" or "C/N": until N of its ops return (or it spins) */
	SVZ_STEP_EVENT,     /* "C:KIND": until a micro-step of KIND (an event kind) */
};
struct svz_sched_step {
	uint16_t cpu;
	uint8_t until;      /* enum svz_step_until */
	uint8_t event;      /* SVZ_STEP_EVENT: index in svz_event_kind_name() */
	uint32_t count;
	uint32_t line, col; /* where it is written */
};

/* The event kinds (docs/events.md) by index; NULL past the end. */
const char *svz_event_kind_name(int i);

struct svz_trace {
	struct svz_config config;
	struct svz_sched_step *steps; /* the explicit schedule, in order */
	uint32_t nr_steps;
	struct svz_cache_decl *caches;
	uint32_t nr_caches;
	struct svz_op *ops;
	uint32_t nr_ops;
	char **handle_names;     /* handle id -> name */
	uint32_t nr_handles;
	uint32_t *handle_lists;  /* bulk ops: handle ids, op.handle indexes here */
	uint32_t nr_handle_lists;
	char **sites;            /* call-site label id -> text; sites[0] = "" */
	uint32_t nr_sites;
	char *description;       /* the opening comment paragraph, '\n' joined */
	struct strblock *name_pool; /* if set, handle_names and sites point into it */
};

struct svz_error {
	uint32_t line, col;  /* 1-based; 0 if not tied to a place */
	char msg[512];       /* e.g. "expected a CPU like 'c3', got 'x3'" */
};

/* Parse a whole trace. `base` is a config to start from (CLI defaults);
 * directives in the trace override it. Returns 0, or -1 with err filled.
 * On failure *out is left empty (nothing to free). */
int svz_trace_parse(const char *text, size_t len, const struct svz_config *base,
		    struct svz_trace *out, struct svz_error *err);
void svz_trace_free(struct svz_trace *t);

/* "file:line:col: error: msg" into buf. */
void svz_error_format(const struct svz_error *e, const char *filename, char *buf,
		      size_t len);

/* v1 cache names (docs/trace-format.md, "Caches"), for the parser and the
 * importers that name caches: 1..SVZ_TRACE_MAX_CACHE_NAME of these
 * characters (letters, digits, '_', '.', ':', '-'), and not one the format
 * keeps for the kmalloc caches the engine creates ("kmalloc-...",
 * "dma-kmalloc-..."). */
bool svz_trace_cache_name_char(char c);
bool svz_trace_cache_name_reserved(const char *s, size_t len);

const char *svz_op_name(enum svz_op_type t);
/* The v1 directives (node, cpus, set, cache, ...), i = 0..; NULL past the end. */
const char *svz_trace_directive_name(int i);

#endif
