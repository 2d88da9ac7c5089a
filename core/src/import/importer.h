/* The importer's private parts (docs/import.md), shared by its files:
 *
 *   framing.c      chunks to lines: carried partial lines, BOM, CR, control
 *                  bytes, blank and comment lines, the undecided prefix,
 *                  over-long lines, the cut last line; the format's line
 *                  parser gets every content line
 *   formats.c      the format table (import_formats.def): names, aliases,
 *                  labels, detection
 *   pointers.c     the pointer table: pairs allocations with frees, binds
 *                  handles, counts live bytes; the ops
 *   caches.c       cache inference: a declaration the model sizes as the
 *                  trace showed it; kmalloc cache names
 *   kmem.c         one kmem event (kmalloc, kmem_cache_alloc, kfree,
 *                  kmem_cache_free): its key=value fields, gfp flags,
 *                  checks, then an op
 *   finish.c       the end of the input: fatal cases, the suggested
 *                  topology, the trace handed out
 *   fmt_*.c        one file per format: its detector and line parser
 *
 * Pointers pair allocations with frees through a hash table (one entry per
 * distinct pointer). Each pointer's object is a handle "p<hex>"; an
 * allocation of a pointer that is still live leaves the old object unpaired
 * and binds a fresh handle "p<hex>.<n>". */
#ifndef SVZ_IMPORTER_H
#define SVZ_IMPORTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "slubviz/import.h"
#include "lib/sbuf.h"
#include "lib/strtab.h"
#include "lib/util.h" /* GROW(), the character classes */

#define NONE UINT32_MAX
#define MAX_OBJECT (64u << 20) /* the v1 limit on sizes */
#define MAX_SITE 128           /* call-site labels are cut here */
#define MAX_CPU_ID 65535       /* above: a corrupt CPU column (Linux's NR_CPUS is at most 8192) */
#define UNDECIDED_MAX (1u << 20) /* comment lines buffered before the format is known */
#define MAX_INPUTS 64          /* trace-cmd report -i ... -i ...: files whose CPUs are renumbered */


enum pstate { PS_LIVE = 1, PS_FREED, PS_SKIPPED, PS_ZERO };

/* One distinct pointer (or malloc-lab id) of the trace. */
struct pent {
	uint64_t key;
	uint32_t handle;  /* current handle id */
	uint32_t cache;   /* trace cache index, NONE for kmalloc */
	uint32_t bytes;   /* object size while live (peak accounting, krealloc) */
	uint32_t gen;     /* handles made for this pointer so far - 1 */
	uint32_t older;   /* older objects still live here (allocated again while live) */
	uint8_t state;    /* 0 = empty slot */
};

struct cache_x {
	struct svz_import_cache info;
	uint32_t first;     /* named: the first cache of its name (itself, unless sizes differ) */
	uint32_t vote;      /* inferred: free-name id + 1 from kmem_cache_free name=, 0 = none */
	bool vote_conflict;
};

/* A gfp string seen before: its value and whether it had unknown names. */
struct gfp_memo {
	uint32_t gfp;
	bool unknown;
};

/* One input of trace-cmd report -i A -i B, from its "A: cpus=N" header:
 * its CPUs replay as first_cpu .. first_cpu + cpus - 1. */
struct input_file {
	char name[256];
	uint32_t len;
	int first_cpu, cpus;
};

struct svz_importer {
	enum svz_import_format fmt;
	bool fmt_given;
	struct svz_config base;
	struct svz_import_limits lim;
	struct svz_import_report rep;
	bool oom;

	struct sbuf carry;       /* a partial line */
	bool carry_long;         /* the line in progress is over max_line */
	uint64_t carry_total;    /* its length so far */

	struct sbuf text;        /* undecided prefix, then the whole v1 text */
	bool ftrace_hint;
	unsigned char head[2];   /* the input's first two bytes (a UTF-16 byte-order mark?) */

	struct svz_op *ops;
	uint32_t nr_ops, cap_ops;
	struct svz_cache_decl *caches;
	struct cache_x *cx;
	uint32_t nr_caches, cap_caches, cap_cx;
	struct strtab cache_index; /* name -> cache; inferred ones as "\1REQ-ALLOC" */
	char **handles;
	uint32_t nr_handles, cap_handles;
	struct strtab sites;
	struct strtab votes;
	struct strtab shown;       /* cache names as declared (unique) */
	struct strtab gfps;
	struct gfp_memo *gfp_vals;
	uint32_t cap_gfp_vals;

	struct pent *ptab;
	uint32_t pslots, pused;  /* pslots: power of two */
	uint64_t live_bytes;
	uint64_t live;           /* live entries */

	int max_cpu;
	struct input_file *inputs; /* MAX_INPUTS, allocated at the first "NAME: cpus=N" */
	uint32_t nr_inputs;
	int cpu_base;            /* added to the CPU column of the line in hand (its input's first CPU) */
	bool at_eof;             /* handling a last line that had no '\n' */
	uint32_t ptr_min;        /* the shortest non-NULL ptr= token so far (0: none yet) */
	uint64_t last_ts;
	bool have_ts;

	int ml_header;           /* malloc-lab header numbers read (0..4) */
	uint64_t ml_hdr[4];
};

/* ---- the format table (formats.c, import_formats.def) ------------------------- */

/* How strongly a first content line claims a format: the strongest claim
 * wins, ties go to the earlier row. */
enum claim {
	CLAIM_NONE,
	CLAIM_ANY,   /* any line may be one of this format's (ftrace: "anything else") */
	CLAIM_NAMES, /* an event line of the ftrace family naming this format's events */
	CLAIM_SURE,  /* a line only this format has */
};

struct import_format {
	const char *name, *aliases, *label;
	const char *events; /* what one event is, for the summary: "kmem events" */
	/* the claim of a first content line; NULL: never detected */
	enum claim (*detect)(const char *s, size_t n);
	/* one content line (no '\n', no BOM, not blank, not a comment); NULL:
	 * the text is kept whole (v1) */
	void (*line)(struct svz_importer *im, const char *s, size_t n, uint64_t line);
	/* at the end of the input: a fatal message if the input cannot be
	 * imported as this format (set_fatal()), else nothing; may be NULL */
	void (*end)(struct svz_importer *im);
};
extern const struct import_format import_formats[SVZ_FMT__COUNT];

/* The format a first content line implies: the row with the strongest
 * claim. by_names: take CLAIM_NAMES claims too (svz_import_detect(); the
 * importer tells perf script from ftrace by its events instead). */
enum svz_import_format imp_detect_line(const char *s, size_t n, bool by_names);

/* The rows' functions (fmt_*.c). */
enum claim v1_detect(const char *s, size_t n);
enum claim ftrace_detect(const char *s, size_t n);
void ftrace_line(struct svz_importer *im, const char *s, size_t n, uint64_t line);
/* A kmem event in the ftrace family's columns? Other formats' detectors
 * leave such a line alone, whatever word its task name is (fmt_ftrace.c). */
bool ftrace_kmem_event_line(const char *s, size_t n);
enum claim trace_cmd_detect(const char *s, size_t n);
/* trace-cmd report with several inputs: a "NAME: cpus=N" header line is
 * taken (true); an event line's "NAME: " prefix is skipped, its length
 * returned (0 if none) and im->cpu_base set to the input's first CPU. */
bool trace_cmd_input_header(struct svz_importer *im, const char *s, size_t n);
size_t trace_cmd_input_prefix(struct svz_importer *im, const char *s, size_t n);
/* A line of `perf trace` (not perf script): "  0.000 bash/1 kmem:kmalloc(...)". */
bool perf_trace_line(const char *s, size_t n);
enum claim perf_detect(const char *s, size_t n);
enum claim bpftrace_detect(const char *s, size_t n);
void bpftrace_line(struct svz_importer *im, const char *s, size_t n, uint64_t line);
enum claim malloc_lab_detect(const char *s, size_t n);
void malloc_lab_line(struct svz_importer *im, const char *s, size_t n, uint64_t line);
void malloc_lab_end(struct svz_importer *im);

/* ---- text ---------------------------------------------------------------------- */

struct slice {
	const char *s;
	size_t len;
};

/* Inline always, as the character classes (lib/util.h): at -Oz strlen()
 * of the literal was a call per comparison. */
static inline __attribute__((always_inline)) bool slice_is(struct slice t, const char *s)
{
	return t.len == strlen(s) && memcmp(t.s, s, t.len) == 0;
}

/* The line without its leading blanks. */
static inline __attribute__((always_inline)) struct slice trimmed(const char *s, size_t n)
{
	while (n && is_space(*s))
		s++, n--;
	return (struct slice){ s, n };
}

/* The first blank-separated token of a value. */
static inline __attribute__((always_inline)) struct slice first_tok(struct slice v)
{
	size_t n = 0;
	while (n < v.len && !is_space(v.s[n]))
		n++;
	return (struct slice){ v.s, n };
}

/* The blank-separated tokens from s[*i] on, at most max; *i moves past
 * them. to_fields: stop after a third or later token holding '=' (an event
 * line's fields begin). */
size_t imp_tokens(const char *s, size_t n, size_t *i, struct slice *tk, size_t max, bool to_fields);

bool imp_parse_hex(const char *s, size_t len, uint64_t *out);
bool imp_parse_dec(const char *s, size_t len, uint64_t *out);
/* A kernel number "0x..." or decimal. */
bool imp_parse_knum(const char *s, size_t len, uint64_t *out);

/* Text shown in a message: at most `max` bytes, unprintable bytes as '?'. */
const char *imp_excerpt(const char *s, size_t len, size_t max, char *buf, size_t bufsize);

/* Handles the last line if it had no '\n' (at the end of the input). */
void imp_end_input(struct svz_importer *im);

/* ---- the report (framing.c, finish.c) ------------------------------------------ */

void imp_bad_line(struct svz_importer *im, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void imp_set_fatal(struct svz_importer *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Bump the count of `name` in a small name table (first SVZ_IMPORT_MAX_NAMES kept). */
void imp_count_name(struct svz_import_name_count *t, uint32_t *n, const char *s, size_t len);
/* A well-formed event that is not a kmem alloc/free, counted by name. */
void imp_other_event(struct svz_importer *im, const char *name, size_t len);
/* "... CPU:3 [LOST 1234 EVENTS]" (ftrace) / "Lost 12 events" (bpftrace): counted. */
bool imp_lost_line(struct svz_importer *im, const char *s, size_t n);
/* "#P:4" in an ftrace header, "cpus=4" in trace-cmd's. */
void imp_header_cpus(struct svz_importer *im, const char *s, size_t n, const char *tag);

/* ---- pointers and ops (pointers.c) ---------------------------------------------- */

struct pent *imp_ptab_find(struct svz_importer *im, uint64_t key);
/* A free of a pointer whose allocation was not kept: counted and skipped. */
bool imp_free_skipped(struct svz_importer *im, struct pent *e);
/* Remember a skipped allocation's pointer (state PS_SKIPPED or PS_ZERO). */
void imp_mark_ptr(struct svz_importer *im, uint64_t key, uint8_t state);
/* An allocation skipped (counted under `why`), its pointer remembered. */
void imp_skip_alloc(struct svz_importer *im, int why, uint64_t key, uint8_t state);
/* A kmalloc(size) the model can make? kmalloc(0) (ZERO_SIZE_PTR) and sizes
 * above the v1 limit are skipped here. */
bool imp_kmalloc_ok(struct svz_importer *im, uint64_t key, uint64_t size);
/* Binds key to a fresh object with handle "<prefix><key>[.gen]". NULL on OOM. */
struct pent *imp_bind_ptr(struct svz_importer *im, uint64_t key, uint32_t cache, uint32_t bytes,
			  const char *prefix, bool hex);
/* The live object at e is freed. */
void imp_free_ptr(struct svz_importer *im, struct pent *e);
void imp_note_cpu(struct svz_importer *im, int cpu);
void imp_skip_cpu_beyond(struct svz_importer *im, int64_t cpu);
bool imp_cpu_out_of_range(struct svz_importer *im, uint64_t line, uint64_t cpu, struct slice tok);
static inline void imp_skip(struct svz_importer *im, int why) { im->rep.skipped[why]++; }
struct svz_op *imp_push_op(struct svz_importer *im, uint8_t type, int cpu, uint64_t line);
/* A call-site label fit for v1 (`at=` token); 0 for none. */
uint32_t imp_intern_site(struct svz_importer *im, const char *s, size_t len);

/* ---- caches (caches.c) ---------------------------------------------------------- */

/* The cache for a kmem_cache_alloc: by name, or inferred from the sizes.
 * NONE with *skip set when it cannot be made (*skip < 0: out of memory). */
uint32_t imp_get_cache(struct svz_importer *im, const char *name, size_t nlen, uint32_t req,
		       uint32_t alloc, int *skip);
/* The first cache a kmem_cache_alloc name= made (adjusted as declared), NONE if none. */
uint32_t imp_named_cache(const struct svz_importer *im, const char *name, size_t nlen);
/* "kmalloc-64", "dma-kmalloc-8k" ...: the bucket size and its gfp bits; 0 if not one. */
uint32_t imp_kmalloc_name(const char *s, size_t len, uint32_t *gfp);
/* Inferred caches take the name their frees agree on (at the end). */
void imp_name_from_frees(struct svz_importer *im);

/* ---- kmem events (kmem.c) -------------------------------------------------------- */

enum ev_kind { EV_KMALLOC, EV_CACHE_ALLOC, EV_KFREE, EV_CACHE_FREE };

struct ev {
	int kind;
	int64_t cpu;             /* -1: no CPU column */
	bool node_event;         /* kmalloc_node / kmem_cache_alloc_node (before v6.1) */
	struct slice ptr, req, alloc, gfp, node, accounted, name, site;
};

/* The ev_kind of an event name, -1 if it is not a kmem alloc/free. */
int imp_kmem_kind(struct slice n);
void imp_init_ev(struct ev *ev, int kind, struct slice name, int64_t cpu);
/* Splits "k1=v1 k2=v 2 ..." into ev's fields; -1 with a message if the text
 * does not start with a key or gives a field the importer reads twice. */
int imp_parse_fields(const char *s, size_t n, struct ev *ev, char *msg, size_t msglen);
/* One kmem event: checks, then an op. */
void imp_apply_event(struct svz_importer *im, struct ev *ev, uint64_t line);

#endif
