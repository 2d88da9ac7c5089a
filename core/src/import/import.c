/* Importers for real allocation traces (docs/import.md).
 *
 * Input arrives in chunks; complete lines are handled at once, a partial
 * last line waits in `carry` (up to limits.max_line bytes). The format is
 * decided by the first line that is not blank or a '#' comment (unless the
 * caller names it):
 *
 *   slubviz-trace ...          native v1: kept whole, svz_trace_parse() at the end
 *   a single number            malloc-lab .rep (its header's first field)
 *   svz ... / Attaching ...    the bpftrace one-liner
 *   cpus=N / version = N       trace-cmd report
 *   anything else              event lines: ftrace, trace-cmd or perf script
 *                              (told apart by "kmem:" event prefixes)
 *
 * Event lines are anchored on "[CPU] ... TIMESTAMP: EVENT:" and read from
 * the CPU column rightwards, so task names may hold ':' and spaces. Fields
 * are "key=value" runs; a value ends where the next " key=" begins, so
 * "call_site=f+0x70/0xb0 [memleak]" and "ptr=  (null)" stay whole, and the
 * options/fields form "0x1000 (4096)" gives its decimal.
 *
 * Pointers pair allocations with frees through a hash table (one entry per
 * distinct pointer). Each pointer's object is a handle "p<hex>"; an
 * allocation of a pointer that is still live leaves the old object unpaired
 * and binds a fresh handle "p<hex>.<n>". */
#include "slubviz/import.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"
#include "lib/strtab.h"

#define NONE UINT32_MAX
#define MAX_OBJECT (64u << 20) /* the v1 limit on sizes */
#define MAX_SITE 128           /* call-site labels are cut here */
#define UNDECIDED_MAX (1u << 20) /* comment lines buffered before the format is known */

/* ---- small containers ------------------------------------------------------ */

static bool grow(void **p, uint32_t *cap, uint64_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	uint64_t ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX || ncap > SIZE_MAX / elem)
		return false;
	void *np = realloc(*p, (size_t)ncap * elem);
	if (!np)
		return false;
	*p = np;
	*cap = (uint32_t)ncap;
	return true;
}
#define GROW(arr, cap, need) grow((void **)&(arr), &(cap), (need), sizeof *(arr))

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *c = malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

/* ---- the importer ------------------------------------------------------------ */

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
	uint32_t vote;      /* free-name id + 1 from kmem_cache_free name=, 0 = none */
	bool vote_conflict;
};

/* A gfp string seen before: its value and whether it had unknown names. */
struct gfp_memo {
	uint32_t gfp;
	bool unknown;
};

struct svz_importer {
	enum svz_import_format fmt;
	bool fmt_given;
	struct svz_config base;
	struct svz_import_limits lim;
	struct svz_import_report rep;
	bool oom;

	char *carry;             /* a partial line */
	size_t carry_len, carry_cap;
	bool carry_long;         /* the line in progress is over max_line */
	uint64_t carry_total;    /* its length so far */

	char *text;              /* undecided prefix, then the whole v1 text */
	size_t text_len, text_cap;
	bool ftrace_hint;

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
	bool at_eof;             /* handling a last line that had no '\n' */
	uint32_t ptr_min;        /* the shortest non-NULL ptr= token so far (0: none yet) */
	uint64_t last_ts;
	bool have_ts;

	int ml_header;           /* malloc-lab header numbers read (0..4) */
	uint64_t ml_hdr[4];
};

static const struct { const char *name, *aliases, *label; } formats[SVZ_FMT__COUNT] = {
#define IMPORT_FORMAT(f, name, aliases, label) [f] = { name, aliases, label },
#include "import/import_formats.def"
#undef IMPORT_FORMAT
};

const char *svz_import_format_name(enum svz_import_format f)
{
	return (unsigned)f < SVZ_FMT__COUNT ? formats[f].name : "?";
}

const char *svz_import_format_aliases(enum svz_import_format f)
{
	return (unsigned)f < SVZ_FMT__COUNT ? formats[f].aliases : "";
}

const char *svz_import_format_label(enum svz_import_format f)
{
	return (unsigned)f < SVZ_FMT__COUNT ? formats[f].label : "";
}

const char *svz_import_format_list(void)
{
	static char list[128];

	if (!list[0])
		for (int f = 0; f < SVZ_FMT__COUNT; f++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", f ? ", " : "",
				 formats[f].name);
	return list;
}

/* The name or one of the space-separated aliases. */
int svz_import_format_parse(const char *name, enum svz_import_format *out)
{
	size_t len = name ? strlen(name) : 0;

	for (int f = 0; name && f < SVZ_FMT__COUNT; f++) {
		bool hit = strcmp(name, formats[f].name) == 0;

		for (const char *a = formats[f].aliases; !hit && *a;) {
			size_t n = strcspn(a, " ");

			hit = len && n == len && memcmp(a, name, n) == 0;
			a += n + (a[n] == ' ');
		}
		if (hit) {
			*out = (enum svz_import_format)f;
			return 0;
		}
	}
	return -1;
}

const char *svz_import_skip_name(enum svz_import_skip r)
{
	static const char *const names[SVZ_SKIP__COUNT] = {
		[SVZ_SKIP_FREE_NULL] = "free-null",
		[SVZ_SKIP_FREE_UNKNOWN] = "free-before-trace",
		[SVZ_SKIP_FREE_TWICE] = "free-not-live",
		[SVZ_SKIP_FREE_REBOUND] = "free-rebound",
		[SVZ_SKIP_FREE_SKIPPED] = "free-of-skipped",
		[SVZ_SKIP_ALLOC_FAILED] = "alloc-failed",
		[SVZ_SKIP_ZERO_SIZE] = "zero-size",
		[SVZ_SKIP_TOO_LARGE] = "too-large",
		[SVZ_SKIP_CPU_LIMIT] = "cpu-limit",
		[SVZ_SKIP_CACHE_LIMIT] = "cache-limit",
		[SVZ_SKIP_OP_LIMIT] = "op-limit",
	};
	return (unsigned)r < SVZ_SKIP__COUNT ? names[r] : "?";
}

void svz_import_limits_default(struct svz_import_limits *l)
{
	l->max_line = 65536;
	l->max_ops = SVZ_TRACE_MAX_OPS; /* the v1 limit: what the browser can replay */
	l->max_bytes = 2ull << 30;
	l->max_errors = 20;
	l->max_caches = 4096;
}

/* Text shown in a message: at most `max` bytes, unprintable bytes as '?'. */
static const char *excerpt(const char *s, size_t len, size_t max, char *buf, size_t bufsize)
{
	size_t n = len < max ? len : max, o = 0;
	for (size_t i = 0; i < n && o + 4 < bufsize; i++) {
		unsigned char c = (unsigned char)s[i];
		buf[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (n < len && o + 4 < bufsize) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = 0;
	return buf;
}

static void bad_line(struct svz_importer *im, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void bad_line(struct svz_importer *im, uint64_t line, const char *fmt, ...)
{
	struct svz_import_report *r = &im->rep;
	r->bad_lines++;
	if (r->nr_errors >= im->lim.max_errors)
		return;
	if (!r->errors) {
		r->errors = calloc(im->lim.max_errors, sizeof *r->errors);
		if (!r->errors) {
			im->oom = true;
			return;
		}
	}
	struct svz_import_error *e = &r->errors[r->nr_errors++];
	va_list ap;
	e->line = line;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
}

/* Bump the count of `name` in a small name table (first SVZ_IMPORT_MAX_NAMES kept). */
static void count_name(struct svz_import_name_count *t, uint32_t *n, const char *s, size_t len)
{
	if (len >= sizeof t->name)
		len = sizeof t->name - 1;
	for (uint32_t i = 0; i < *n; i++)
		if (strncmp(t[i].name, s, len) == 0 && t[i].name[len] == 0) {
			t[i].count++;
			return;
		}
	if (*n >= SVZ_IMPORT_MAX_NAMES)
		return;
	memcpy(t[*n].name, s, len);
	t[*n].name[len] = 0;
	t[*n].count = 1;
	(*n)++;
}

/* ---- pointer table ----------------------------------------------------------- */

static uint32_t hash_key(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (uint32_t)k;
}

static bool ptab_grow(struct svz_importer *im)
{
	uint32_t n = im->pslots ? im->pslots * 2 : 1024;
	if (n < im->pslots)
		return false;
	struct pent *t = calloc(n, sizeof *t);
	if (!t)
		return false;
	for (uint32_t i = 0; i < im->pslots; i++) {
		struct pent *e = &im->ptab[i];
		if (!e->state)
			continue;
		uint32_t j = hash_key(e->key) & (n - 1);
		while (t[j].state)
			j = (j + 1) & (n - 1);
		t[j] = *e;
	}
	free(im->ptab);
	im->ptab = t;
	im->pslots = n;
	return true;
}

static struct pent *ptab_find(struct svz_importer *im, uint64_t key)
{
	if (!im->pslots)
		return NULL;
	for (uint32_t i = hash_key(key) & (im->pslots - 1);; i = (i + 1) & (im->pslots - 1)) {
		struct pent *e = &im->ptab[i];
		if (!e->state)
			return NULL;
		if (e->key == key)
			return e;
	}
}

/* The entry for key, a new one (state 0 until set) if absent; NULL on OOM. */
static struct pent *ptab_get(struct svz_importer *im, uint64_t key, bool *isnew)
{
	struct pent *e = ptab_find(im, key);
	*isnew = false;
	if (e)
		return e;
	if (((uint64_t)im->pused + 1) * 2 > im->pslots && !ptab_grow(im))
		return NULL;
	uint32_t i = hash_key(key) & (im->pslots - 1);
	while (im->ptab[i].state)
		i = (i + 1) & (im->pslots - 1);
	e = &im->ptab[i];
	memset(e, 0, sizeof *e);
	e->key = key;
	e->handle = NONE;
	e->cache = NONE;
	e->state = PS_SKIPPED; /* placeholder; callers set the real state */
	im->pused++;
	*isnew = true;
	return e;
}

/* ---- outputs ------------------------------------------------------------------ */

static uint32_t new_handle(struct svz_importer *im, const char *prefix, uint64_t key, uint32_t gen,
			   bool hex)
{
	/* prefix, the key in hex or decimal, ".gen" when gen > 0 (no printf:
	 * this runs once per object) */
	char name[48], digits[24];
	size_t n = 0, d = 0;
	while (prefix[n])
		name[n] = prefix[n], n++;
	do {
		unsigned v = hex ? (unsigned)(key & 15) : (unsigned)(key % 10);
		digits[d++] = (char)(v < 10 ? '0' + v : 'a' + v - 10);
		key = hex ? key >> 4 : key / 10;
	} while (key);
	while (d)
		name[n++] = digits[--d];
	if (gen) {
		name[n++] = '.';
		do {
			digits[d++] = (char)('0' + gen % 10);
			gen /= 10;
		} while (gen);
		while (d)
			name[n++] = digits[--d];
	}
	name[n] = 0;
	if (!GROW(im->handles, im->cap_handles, (uint64_t)im->nr_handles + 1)) {
		im->oom = true;
		return NONE;
	}
	char *copy = malloc(n + 1);
	if (!copy) {
		im->oom = true;
		return NONE;
	}
	memcpy(copy, name, n + 1);
	im->handles[im->nr_handles] = copy;
	return im->nr_handles++;
}

static struct svz_op *push_op(struct svz_importer *im, uint8_t type, int cpu, uint64_t line)
{
	if (!GROW(im->ops, im->cap_ops, (uint64_t)im->nr_ops + 1)) {
		im->oom = true;
		return NULL;
	}
	struct svz_op *op = &im->ops[im->nr_ops++];
	memset(op, 0, sizeof *op);
	op->type = type;
	op->cpu = (uint16_t)cpu;
	op->node = SVZ_NO_NODE;
	op->cache = SVZ_NO_CACHE;
	op->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	im->rep.ops++;
	return op;
}

/* A call-site label fit for v1 (`at=` token): blanks dropped, '#', '{', '}',
 * '$' and other bytes outside '!'..'~' become '_'; cut at MAX_SITE. */
static uint32_t intern_site(struct svz_importer *im, const char *s, size_t len)
{
	char buf[MAX_SITE + 1];
	size_t o = 0;
	for (size_t i = 0; i < len && o < MAX_SITE; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\t')
			continue;
		buf[o++] = (c < 0x21 || c > 0x7e || c == '#' || c == '{' || c == '}' || c == '$') ? '_'
											      : (char)c;
	}
	if (!o)
		return 0;
	uint32_t id = strtab_intern(&im->sites, buf, o, NULL);
	if (id == NONE) {
		im->oom = true;
		return 0;
	}
	return id;
}

static bool cache_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == ':' || c == '-';
}

/* s->size the model computes for a declaration. 0 if impossible. */
static uint32_t geom_size(const struct svz_importer *im, uint32_t object, uint32_t align,
			  uint32_t flags, bool ctor)
{
	struct svz_geom_in in = {
		.object_size = object, .align = align, .flags = flags, .ctor = ctor,
		.page_size = im->base.topo.page_size ? im->base.topo.page_size : 4096,
		.nr_cpus = 4, .form = im->base.sw.order_form, .era = im->base.sw.era,
	};
	struct svz_geom g;
	char err[160];
	if (svz_calculate_geometry(&in, &g, err, sizeof err))
		return 0;
	return g.size;
}

/* Choose object_size/align/flags/ctor so the model's s->size is
 * bytes_alloc: plain, then SLAB_HWCACHE_ALIGN, then an explicit power-of-two
 * align; then the same three with a constructor, whose free pointer
 * calculate_sizes() moves after the object (radix_tree_node: 576 -> 584),
 * while s->object_size stays bytes_req. If none fits (slub_debug metadata,
 * odd alignments), object_size = bytes_alloc. Returns false if no slab can
 * hold the object. */
static bool choose_decl(const struct svz_importer *im, struct svz_cache_decl *d,
			struct svz_import_cache *info, uint32_t req, uint32_t alloc)
{
	uint32_t obj = req ? req : alloc;
	d->object_size = obj;
	d->align = 0;
	d->flags = 0;
	d->ctor = false;
	if (!geom_size(im, obj, 0, 0, false))
		return false;
	if (!req || !alloc || alloc < req)
		return true;
	for (int ctor = 0; ctor < 2; ctor++) {
		d->ctor = info->ctor = ctor;
		if (geom_size(im, req, 0, 0, ctor) == alloc)
			return true;
		if (geom_size(im, req, 0, SLAB_HWCACHE_ALIGN, ctor) == alloc) {
			d->flags = SLAB_HWCACHE_ALIGN;
			return true;
		}
		for (uint32_t a = 16; a <= 65536 && a <= alloc; a *= 2)
			if (geom_size(im, req, a, 0, ctor) == alloc) {
				d->align = a;
				return true;
			}
	}
	d->ctor = info->ctor = false;
	if (!geom_size(im, alloc, 0, 0, false))
		return false;
	d->object_size = alloc;
	info->size_fallback = true;
	return true;
}

/* The cache for a kmem_cache_alloc: by name (adjusted to v1's alphabet), or
 * inferred from the sizes. NONE with *skip set when it cannot be made. */
static uint32_t get_cache(struct svz_importer *im, const char *name, size_t nlen, uint32_t req,
			  uint32_t alloc, int *skip)
{
	char key[80];
	size_t klen;
	bool adjusted = false;
	if (nlen) {
		klen = 0;
		for (size_t i = 0; i < nlen && klen < 63; i++) {
			char c = cache_name_char(name[i]) ? name[i] : '_';
			adjusted |= c != name[i];
			key[klen++] = c;
		}
		adjusted |= nlen > 63;
		key[klen] = 0;
		/* v1 reserves these prefixes for the engine's own caches */
		if (strncmp(key, "kmalloc-", 8) == 0 || strncmp(key, "dma-kmalloc-", 12) == 0) {
			memmove(key + 2, key, klen + 1 > 62 ? 62 : klen + 1);
			key[0] = 'x';
			key[1] = '-';
			klen = strlen(key);
			adjusted = true;
		}
	} else {
		klen = (size_t)snprintf(key, sizeof key, "\1%u-%u", req, alloc);
	}
	uint32_t id = strtab_find(&im->cache_index, key, klen);
	if (id != NONE) {
		if (adjusted)
			im->rep.names_adjusted++;
		return id;
	}
	if (im->nr_caches >= im->lim.max_caches) {
		*skip = SVZ_SKIP_CACHE_LIMIT;
		return NONE;
	}
	struct svz_cache_decl d;
	struct svz_import_cache info;
	memset(&d, 0, sizeof d);
	memset(&info, 0, sizeof info);
	if (!choose_decl(im, &d, &info, req, alloc)) {
		*skip = SVZ_SKIP_TOO_LARGE;
		return NONE;
	}
	if (nlen)
		snprintf(d.name, sizeof d.name, "%.63s", key);
	else
		snprintf(d.name, sizeof d.name, "inferred-%u-%u", req, alloc);
	/* a trace may name a cache "inferred-8-8" too: declared names stay unique */
	char orig[64];
	memcpy(orig, d.name, sizeof orig);
	for (unsigned k = 2; strtab_find(&im->shown, d.name, strlen(d.name)) != NONE && k < 100000; k++)
		snprintf(d.name, sizeof d.name, "%.54s.%u", orig, k);
	if (strtab_intern(&im->shown, d.name, strlen(d.name), NULL) == NONE) {
		im->oom = true;
		return NONE;
	}
	if (!GROW(im->caches, im->cap_caches, (uint64_t)im->nr_caches + 1) ||
	    !GROW(im->cx, im->cap_cx, (uint64_t)im->nr_caches + 1)) {
		im->oom = true;
		return NONE;
	}
	id = strtab_intern(&im->cache_index, key, klen, NULL);
	if (id == NONE) {
		im->oom = true;
		return NONE;
	}
	if (adjusted)
		im->rep.names_adjusted++;
	im->caches[id] = d;
	struct cache_x *x = &im->cx[id];
	memset(x, 0, sizeof *x);
	x->info = info;
	memcpy(x->info.name, d.name, sizeof x->info.name);
	x->info.bytes_req = req;
	x->info.bytes_alloc = alloc;
	x->info.object_size = d.object_size;
	x->info.align = d.align;
	x->info.flags = d.flags;
	x->info.inferred = nlen == 0;
	im->nr_caches++;
	return id;
}

/* "kmalloc-64", "kmalloc-cg-1k", "kmalloc-rcl-96", "dma-kmalloc-8k",
 * "kmalloc-rnd-03-128": the bucket size and the gfp bits that select that
 * kmalloc type; 0 if not a kmalloc cache name. */
static uint32_t kmalloc_name(const char *s, size_t len, uint32_t *gfp)
{
	*gfp = 0;
	if (len > 4 && memcmp(s, "dma-", 4) == 0) {
		*gfp |= __GFP_DMA;
		s += 4;
		len -= 4;
	}
	if (len < 9 || memcmp(s, "kmalloc-", 8) != 0)
		return 0;
	s += 8;
	len -= 8;
	if (len > 3 && memcmp(s, "cg-", 3) == 0) {
		*gfp |= __GFP_ACCOUNT;
		s += 3;
		len -= 3;
	} else if (len > 4 && memcmp(s, "rcl-", 4) == 0) {
		*gfp |= __GFP_RECLAIMABLE;
		s += 4;
		len -= 4;
	} else if (len > 4 && memcmp(s, "rnd-", 4) == 0) {
		/* CONFIG_RANDOM_KMALLOC_CACHES copies: modelled as the plain bucket */
		s += 4;
		len -= 4;
		while (len && *s >= '0' && *s <= '9')
			s++, len--;
		if (!len || *s != '-')
			return 0;
		s++, len--;
	}
	uint64_t v = 0;
	size_t i = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && v < MAX_OBJECT; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (i == 0)
		return 0;
	if (i + 1 == len && s[i] == 'k')
		v *= 1024, i++;
	if (i != len || v == 0 || v > MAX_OBJECT)
		return 0;
	return (uint32_t)v;
}

/* ---- gfp ---------------------------------------------------------------------- */

/* Raw gfp numbers (options/fields, bpftrace) in the v6.x layout of
 * include/linux/gfp_types.h, which our bit values follow up to
 * __GFP_ACCOUNT; 0x200 (unused) and higher bits (ZEROTAGS, SKIP_KASAN,
 * NOLOCKDEP, NO_OBJ_EXT: config-dependent) are not modelled. */
#define KERNEL_GFP_KNOWN (0x7fffffu & ~0x200u)

struct gfp_alias {
	const char *name;
	uint32_t gfp;
};

/* Names the kernel printed that gfp.c does not know: older spellings
 * (GFP_ZERO for __GFP_ZERO, __GFP_WAIT, __GFP_REPEAT) and composites; the
 * ones with no effect on SLUB map to 0. */
static const struct gfp_alias gfp_aliases[] = {
	{ "GFP_ZERO", __GFP_ZERO }, { "GFP_NOWARN", __GFP_NOWARN }, { "GFP_COMP", __GFP_COMP },
	{ "GFP_HIGH", __GFP_HIGH }, { "GFP_IO", __GFP_IO }, { "GFP_FS", __GFP_FS },
	{ "GFP_NOFAIL", __GFP_NOFAIL }, { "GFP_NORETRY", __GFP_NORETRY },
	{ "GFP_MEMALLOC", __GFP_MEMALLOC }, { "GFP_NOMEMALLOC", __GFP_NOMEMALLOC },
	{ "GFP_HARDWALL", __GFP_HARDWALL }, { "GFP_THISNODE", __GFP_THISNODE },
	{ "GFP_RECLAIMABLE", __GFP_RECLAIMABLE }, { "GFP_MOVABLE", __GFP_MOVABLE },
	{ "GFP_HIGHMEM", __GFP_HIGHMEM }, { "GFP_ACCOUNT", __GFP_ACCOUNT },
	{ "GFP_WRITE", __GFP_WRITE }, { "GFP_WAIT", __GFP_RECLAIM }, { "__GFP_WAIT", __GFP_RECLAIM },
	{ "GFP_REPEAT", __GFP_RETRY_MAYFAIL }, { "__GFP_REPEAT", __GFP_RETRY_MAYFAIL },
	{ "GFP_HIGHUSER", GFP_USER | __GFP_HIGHMEM },
	{ "GFP_HIGHUSER_MOVABLE", GFP_USER | __GFP_HIGHMEM | __GFP_MOVABLE },
	{ "GFP_TRANSHUGE_LIGHT", (GFP_USER | __GFP_HIGHMEM | __GFP_MOVABLE | __GFP_COMP |
				  __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_RECLAIM },
	{ "GFP_TRANSHUGE", ((GFP_USER | __GFP_HIGHMEM | __GFP_MOVABLE | __GFP_COMP |
			     __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_RECLAIM) | __GFP_DIRECT_RECLAIM },
	{ "GFP_NOTRACK", 0 }, { "__GFP_NOTRACK", 0 }, { "GFP_NOTRACK_FALSE_POSITIVE", 0 },
	{ "GFP_COLD", 0 }, { "__GFP_COLD", 0 }, { "GFP_OTHER_NODE", 0 }, { "__GFP_OTHER_NODE", 0 },
	{ "GFP_NO_KSWAPD", 0 }, { "__GFP_NO_KSWAPD", 0 }, { "__GFP_NOLOCKDEP", 0 },
	{ "__GFP_SKIP_KASAN", 0 }, { "__GFP_SKIP_KASAN_POISON", 0 },
	{ "__GFP_SKIP_KASAN_UNPOISON", 0 }, { "__GFP_SKIP_ZERO", 0 }, { "__GFP_ZEROTAGS", 0 },
	{ "__GFP_UNMAPPED", 0 }, { "__GFP_ATOMIC", 0 }, { "__GFP_NOACCOUNT", 0 },
};

static bool parse_hex(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (!len || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		v = v << 4 | d;
	}
	*out = v;
	return true;
}

static bool parse_dec(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* A kernel number "0x..." or decimal. */
static bool parse_knum(const char *s, size_t len, uint64_t *out)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		size_t i = 2;
		while (i < len - 1 && s[i] == '0') /* leading zeros beyond 16 digits */
			i++;
		return parse_hex(s + i, len - i, out);
	}
	return parse_dec(s, len, out);
}

/* One gfp value: "GFP_KERNEL|__GFP_ZERO", "0xcc0", "none". Unknown names
 * and bits are dropped and (if `count`) counted. */
static uint32_t parse_gfp(struct svz_importer *im, const char *s, size_t len, bool *unknown,
			  bool count)
{
	uint32_t id = NONE;
	*unknown = false;
	if (len <= 160 && im->gfps.n < 4096) {
		bool added;
		id = strtab_intern(&im->gfps, s, len, &added);
		if (id != NONE && !added && !im->gfp_vals[id].unknown)
			return im->gfp_vals[id].gfp;
		if (id != NONE && !GROW(im->gfp_vals, im->cap_gfp_vals, (uint64_t)id + 1))
			id = NONE; /* not memoised; still parsed below */
	}
	uint32_t gfp = 0;
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && s[j] != '|')
			j++;
		const char *t = s + i;
		size_t tl = j - i;
		i = j + 1;
		if (!tl)
			continue;
		uint64_t num;
		bool ok = false;
		if (t[0] >= '0' && t[0] <= '9') {
			if (parse_knum(t, tl, &num)) {
				gfp |= (uint32_t)num & KERNEL_GFP_KNOWN;
				ok = (num & ~(uint64_t)KERNEL_GFP_KNOWN) == 0;
			}
		} else {
			char term[64], err[8];
			uint32_t v;
			if (tl < sizeof term) {
				memcpy(term, t, tl);
				term[tl] = 0;
				if (svz_gfp_parse(term, &v, err, sizeof err) == 0) {
					gfp |= v;
					ok = true;
				} else {
					for (size_t a = 0; a < sizeof gfp_aliases / sizeof gfp_aliases[0]; a++)
						if (strcmp(term, gfp_aliases[a].name) == 0) {
							gfp |= gfp_aliases[a].gfp;
							ok = true;
							break;
						}
				}
			}
		}
		if (!ok) {
			*unknown = true;
			if (count)
				count_name(im->rep.gfp_names, &im->rep.nr_gfp_names, t, tl);
		}
	}
	if (id != NONE) {
		im->gfp_vals[id].gfp = gfp;
		im->gfp_vals[id].unknown = *unknown;
	}
	return gfp;
}

/* ---- event lines -------------------------------------------------------------- */

enum ev_kind { EV_KMALLOC, EV_CACHE_ALLOC, EV_KFREE, EV_CACHE_FREE };

struct slice {
	const char *s;
	size_t len;
};

struct ev {
	int kind;
	int64_t cpu;             /* -1: no CPU column */
	bool node_event;         /* kmalloc_node / kmem_cache_alloc_node (before v6.1) */
	struct slice ptr, req, alloc, gfp, node, accounted, name, site;
};

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident(char c) { return is_ident_start(c) || is_digit(c); }

static bool slice_is(struct slice t, const char *s)
{
	return t.len == strlen(s) && memcmp(t.s, s, t.len) == 0;
}

/* The first blank-separated token of a value. */
static struct slice first_tok(struct slice v)
{
	size_t n = 0;
	while (n < v.len && !is_space(v.s[n]))
		n++;
	return (struct slice){ v.s, n };
}

/* "[003]": 1 and the CPU (INT64_MAX if huge); "[-1]": -1; otherwise 0. */
static int cpu_token(struct slice t, int64_t *cpu)
{
	if (t.len < 3 || t.s[0] != '[' || t.s[t.len - 1] != ']')
		return 0;
	size_t i = 1;
	bool neg = t.s[1] == '-';
	if (neg)
		i++;
	if (i >= t.len - 1)
		return 0;
	uint64_t v = 0;
	for (; i < t.len - 1; i++) {
		if (!is_digit(t.s[i]))
			return 0;
		v = v > 1000000000ull ? v : v * 10 + (uint64_t)(t.s[i] - '0');
	}
	if (neg)
		return -1;
	*cpu = v > 1000000000ull ? INT64_MAX : (int64_t)v;
	return 1;
}

/* "312444.111637:" or "1234:" (counter clocks). */
static bool ts_token(struct slice t, uint64_t *ts)
{
	if (t.len < 2 || t.s[t.len - 1] != ':' || !is_digit(t.s[0]))
		return false;
	uint64_t sec = 0, frac = 0;
	size_t i = 0, fd = 0;
	for (; i < t.len - 1 && is_digit(t.s[i]); i++)
		sec = sec < 100000000000ull ? sec * 10 + (uint64_t)(t.s[i] - '0') : sec;
	if (i < t.len - 1 && t.s[i] == '.') {
		i++;
		for (; i < t.len - 1 && is_digit(t.s[i]); i++, fd++)
			if (fd < 9)
				frac = frac * 10 + (uint64_t)(t.s[i] - '0');
	}
	if (i != t.len - 1)
		return false;
	for (; fd < 9; fd++)
		frac *= 10;
	*ts = sec * 1000000000ull + frac;
	return true;
}

/* "kmalloc:" or "kmem:kmalloc:" (perf): the event name without subsystem. */
static bool event_token(struct slice t, struct slice *name, bool *subsys)
{
	if (t.len < 2 || t.s[t.len - 1] != ':' || !is_ident_start(t.s[0]))
		return false;
	size_t start = 0, colons = 0;
	for (size_t i = 0; i < t.len - 1; i++) {
		if (t.s[i] == ':') {
			if (++colons > 1 || i + 1 >= t.len - 1 || !is_ident_start(t.s[i + 1]))
				return false;
			start = i + 1;
		} else if (!is_ident(t.s[i])) {
			return false;
		}
	}
	name->s = t.s + start;
	name->len = t.len - 1 - start;
	*subsys = colons != 0;
	return true;
}

static int kmem_kind(struct slice n)
{
	if (slice_is(n, "kmalloc") || slice_is(n, "kmalloc_node"))
		return EV_KMALLOC;
	if (slice_is(n, "kmem_cache_alloc") || slice_is(n, "kmem_cache_alloc_node"))
		return EV_CACHE_ALLOC;
	if (slice_is(n, "kfree"))
		return EV_KFREE;
	if (slice_is(n, "kmem_cache_free"))
		return EV_CACHE_FREE;
	return -1;
}

/* "key=" at s[i]? */
static bool starts_key(const char *s, size_t n, size_t i)
{
	if (i >= n || !is_ident_start(s[i]))
		return false;
	while (i < n && is_ident(s[i]))
		i++;
	return i < n && s[i] == '=';
}

/* Splits "k1=v1 k2=v 2 ..." into the fields we use. -1 with a message if
 * the text does not start with a key. */
static int parse_fields(const char *s, size_t n, struct ev *ev, char *msg, size_t msglen)
{
	size_t i = 0;
	while (i < n && is_space(s[i]))
		i++;
	while (i < n) {
		size_t k = i;
		while (i < n && is_ident(s[i]))
			i++;
		if (i == k || i >= n || s[i] != '=') {
			char ex[48];
			snprintf(msg, msglen, "expected key=value fields, got '%s'",
				 excerpt(s + k, n - k, 30, ex, sizeof ex));
			return -1;
		}
		struct slice key = { s + k, i - k };
		i++;
		/* the value runs to the next blank that is followed by "key=" */
		size_t v = i, end;
		while (v < n && is_space(s[v]))
			v++;
		if (v > i && starts_key(s, n, v)) {
			end = v; /* "ptr= bytes_req=...": empty */
		} else {
			size_t j = v;
			for (;;) {
				while (j < n && !is_space(s[j]))
					j++;
				end = j;
				while (j < n && is_space(s[j]))
					j++;
				if (j >= n || starts_key(s, n, j))
					break;
			}
		}
		struct slice val = { s + v, end > v ? end - v : 0 };
		if (slice_is(key, "ptr"))
			ev->ptr = val;
		else if (slice_is(key, "bytes_req"))
			ev->req = val;
		else if (slice_is(key, "bytes_alloc"))
			ev->alloc = val;
		else if (slice_is(key, "gfp_flags"))
			ev->gfp = val;
		else if (slice_is(key, "node"))
			ev->node = val;
		else if (slice_is(key, "accounted"))
			ev->accounted = val;
		else if (slice_is(key, "name"))
			ev->name = val;
		else if (slice_is(key, "call_site"))
			ev->site = val;
		i = end;
		while (i < n && is_space(s[i]))
			i++;
	}
	return 0;
}

/* A numeric field: "4096", "0x1000 (4096)", "(0)", "-1", "0xffffffff (-1)".
 * The parenthesised decimal of the options/fields form wins (it is signed). */
static bool field_num(struct slice v, int64_t *out, bool *overflow)
{
	*overflow = false;
	struct slice t = first_tok(v);
	const char *par = NULL;
	size_t plen = 0;
	if (t.len >= 2 && t.s[0] == '(') {
		par = t.s + 1;
		plen = t.len - 2;
	} else {
		size_t i = t.len;
		while (i < v.len && is_space(v.s[i]))
			i++;
		if (i < v.len && v.s[i] == '(') {
			size_t e = i + 1;
			while (e < v.len && v.s[e] != ')')
				e++;
			if (e < v.len) {
				par = v.s + i + 1;
				plen = e - i - 1;
			}
		}
	}
	uint64_t u;
	if (par && plen) {
		bool neg = par[0] == '-';
		if (!parse_dec(par + neg, plen - neg, &u) || u > (uint64_t)INT64_MAX) {
			*overflow = true;
			return false;
		}
		*out = neg ? -(int64_t)u : (int64_t)u;
		return true;
	}
	if (t.len && t.s[0] == '-') {
		if (!parse_dec(t.s + 1, t.len - 1, &u) || u > (uint64_t)INT64_MAX) {
			*overflow = t.len > 1 && is_digit(t.s[1]);
			return false;
		}
		*out = -(int64_t)u;
		return true;
	}
	if (!parse_knum(t.s, t.len, &u)) {
		*overflow = t.len > 0 && is_digit(t.s[0]);
		return false;
	}
	if (u > (uint64_t)INT64_MAX) {
		*overflow = true;
		return false;
	}
	*out = (int64_t)u;
	return true;
}

/* ptr= values: hashed "00000000cef40c80", raw "0xffff9e0e8571e000" or
 * "c147dd20", "(null)". */
static bool field_ptr(struct slice v, uint64_t *out, bool *hashed)
{
	struct slice t = first_tok(v);
	*hashed = false;
	if (slice_is(t, "(null)") || slice_is(t, "NULL")) {
		*out = 0;
		return true;
	}
	if (t.len > 2 && t.s[0] == '0' && (t.s[1] == 'x' || t.s[1] == 'X'))
		return parse_knum(t.s, t.len, out);
	if (!parse_hex(t.s, t.len, out))
		return false;
	*hashed = t.len == 16 && memcmp(t.s, "00000000", 8) == 0;
	return true;
}

/* A call-site label: the value without the options/fields "(decimal)". */
static struct slice site_text(struct slice v)
{
	struct slice t = first_tok(v);
	size_t i = t.len;
	while (i < v.len && is_space(v.s[i]))
		i++;
	if (i < v.len && v.s[i] == '(')
		return t;
	return v; /* "f+0x70/0xb0 [memleak]": the module stays */
}

static void note_cpu(struct svz_importer *im, int cpu)
{
	im->rep.cpus_seen[cpu / 64] |= 1ull << (cpu % 64);
	if (cpu > im->max_cpu)
		im->max_cpu = cpu;
}

static void skip_event(struct svz_importer *im, int why)
{
	im->rep.skipped[why]++;
}

/* A free of a pointer whose allocation was not kept: counted and skipped
 * (already freed, allocation skipped, or a NULL/zero-size allocation). A
 * pointer allocated again while live left its older object allocated: the
 * next free after the newer object's may be that object's (a hashed-%p
 * collision, or a lost free and a lost allocation), so it is not "already
 * freed"; it is skipped as free-rebound, and the older object stays. */
static bool free_skipped(struct svz_importer *im, struct pent *e)
{
	switch (e->state) {
	case PS_FREED:
		if (e->older) {
			e->older--;
			skip_event(im, SVZ_SKIP_FREE_REBOUND);
		} else {
			skip_event(im, SVZ_SKIP_FREE_TWICE);
		}
		return true;
	case PS_SKIPPED:
		e->state = PS_FREED;
		skip_event(im, SVZ_SKIP_FREE_SKIPPED);
		return true;
	case PS_ZERO:
		e->state = PS_FREED;
		skip_event(im, SVZ_SKIP_FREE_NULL);
		return true;
	}
	return false;
}

/* The entry for an allocation at key. A pointer allocated again while live
 * leaves its old object allocated (unpaired); the new one needs a new handle. */
static struct pent *alloc_ptr(struct svz_importer *im, uint64_t key)
{
	bool isnew;
	struct pent *e = ptab_get(im, key, &isnew);
	if (!e) {
		im->oom = true;
		return NULL;
	}
	if (!isnew && e->state == PS_LIVE) {
		im->rep.rebound++;
		im->live--;
		im->live_bytes -= e->bytes;
		e->gen++;
		e->older++;
		e->handle = NONE;
	}
	return e;
}

/* Remember a skipped allocation's pointer so its free is not mistaken for
 * the free of an object from before the trace. */
static void mark_ptr(struct svz_importer *im, uint64_t key, uint8_t state)
{
	struct pent *e = alloc_ptr(im, key);
	if (e)
		e->state = state;
}

static void live_add(struct svz_importer *im, uint32_t bytes)
{
	im->live++;
	im->live_bytes += bytes;
	if (im->live_bytes > im->rep.peak_live_bytes)
		im->rep.peak_live_bytes = im->live_bytes;
}

/* Binds key to a fresh object: a handle (reused if the last one was freed)
 * and the live state. NULL on OOM. */
static struct pent *bind_ptr(struct svz_importer *im, uint64_t key, uint32_t cache, uint32_t bytes,
			     const char *prefix, bool hex)
{
	struct pent *e = alloc_ptr(im, key);
	if (!e)
		return NULL;
	if (e->handle == NONE) {
		e->handle = new_handle(im, prefix, key, e->gen, hex);
		if (e->handle == NONE)
			return NULL;
	}
	e->state = PS_LIVE;
	e->cache = cache;
	e->bytes = bytes;
	live_add(im, bytes);
	return e;
}

/* Why a last line without '\n' is cut short, or NULL if it may be whole.
 * Every kernel from 2.6.32 on prints call_site and ptr first, then for
 * allocations bytes_req, bytes_alloc and gfp_flags (kmem.h; the 2025 name=
 * comes before bytes_req), then node= in the *_node events (before v6.1)
 * and accounted= after node= (v6.1 on: "... gfp_flags=%s node=%d
 * accounted=%s"). A line that stops before one of those, or in a value
 * (a gfp name we do not know, a ptr shorter than the others), was cut; a
 * cut inside the last value of an older format cannot be seen. */
static const char *cut_reason(struct svz_importer *im, const struct ev *ev)
{
	bool is_alloc = ev->kind == EV_KMALLOC || ev->kind == EV_CACHE_ALLOC;
	if (!ev->ptr.s || !ev->ptr.len)
		return "no ptr=";
	struct slice p = first_tok(ev->ptr);
	if (im->ptr_min && p.len < im->ptr_min && !slice_is(p, "(null)"))
		return "ptr= shorter than the trace's other pointers";
	if (!is_alloc)
		return NULL;
	if (!ev->req.s)
		return "no bytes_req=";
	if (!ev->alloc.s)
		return "no bytes_alloc=";
	if (!ev->gfp.s || !ev->gfp.len)
		return "no gfp_flags=";
	bool unknown;
	struct slice g = first_tok(ev->gfp);
	parse_gfp(im, g.s, g.len, &unknown, false);
	if (unknown)
		return "gfp_flags= ends in a name the kernel does not print";
	if (ev->node.s && !ev->node_event && !ev->accounted.s)
		return "node= without the accounted= that follows it";
	if (ev->accounted.s) {
		struct slice a = first_tok(ev->accounted);
		if (!slice_is(a, "true") && !slice_is(a, "false") && !slice_is(a, "(0)") &&
		    !slice_is(a, "(1)") && !slice_is(a, "0") && !slice_is(a, "1"))
			return "accounted= is neither true nor false";
	}
	return NULL;
}

/* One kmem event (from ftrace/trace-cmd/perf/bpftrace): checks, then an op. */
static void apply_event(struct svz_importer *im, struct ev *ev, uint64_t line)
{
	struct svz_import_report *r = &im->rep;
	char ex[64];
	static const char *const evname[] = { "kmalloc", "kmem_cache_alloc", "kfree",
					      "kmem_cache_free" };
	const char *en = evname[ev->kind];
	bool is_alloc = ev->kind == EV_KMALLOC || ev->kind == EV_CACHE_ALLOC;
	uint64_t ptr;
	bool hashed, of;

	if (im->at_eof) {
		const char *why = cut_reason(im, ev);
		if (why) {
			bad_line(im, line, "%s cut short: %s (the input ends in this line, without a "
				 "newline): not imported", en, why);
			return;
		}
	}

	if (!ev->ptr.s) {
		bad_line(im, line, "%s without ptr=", en);
		return;
	}
	if (!field_ptr(ev->ptr, &ptr, &hashed)) {
		bad_line(im, line, "expected ptr=HEX or (null), got 'ptr=%s'",
			 excerpt(ev->ptr.s, first_tok(ev->ptr).len, 40, ex, sizeof ex));
		return;
	}
	int64_t req = 0, alloc = 0, node = -1;
	if (is_alloc) {
		if (ev->req.s && !field_num(ev->req, &req, &of)) {
			bad_line(im, line, "expected bytes_req=NUMBER%s, got 'bytes_req=%s'",
				 of ? " below 2^63" : "",
				 excerpt(ev->req.s, first_tok(ev->req).len, 40, ex, sizeof ex));
			return;
		}
		if (ev->alloc.s && !field_num(ev->alloc, &alloc, &of)) {
			bad_line(im, line, "expected bytes_alloc=NUMBER%s, got 'bytes_alloc=%s'",
				 of ? " below 2^63" : "",
				 excerpt(ev->alloc.s, first_tok(ev->alloc).len, 40, ex, sizeof ex));
			return;
		}
		if (req < 0 || alloc < 0) {
			bad_line(im, line, "expected sizes >= 0, got bytes_req=%" PRId64 " bytes_alloc=%" PRId64,
				 req, alloc);
			return;
		}
		if (ev->kind == EV_KMALLOC && !ev->req.s) {
			bad_line(im, line, "kmalloc without bytes_req=");
			return;
		}
		if (ev->kind == EV_CACHE_ALLOC && !ev->name.s && !ev->req.s && !ev->alloc.s) {
			bad_line(im, line, "kmem_cache_alloc without name= or bytes_alloc=");
			return;
		}
		if (ev->node.s && !field_num(ev->node, &node, &of)) {
			bad_line(im, line, "expected node=NUMBER, got 'node=%s'",
				 excerpt(ev->node.s, first_tok(ev->node).len, 40, ex, sizeof ex));
			return;
		}
	}

	/* from here on the line is a well-formed kmem event */
	r->events++;
	if (ptr && (!im->ptr_min || first_tok(ev->ptr).len < im->ptr_min))
		im->ptr_min = (uint32_t)first_tok(ev->ptr).len;
	if (ptr) {
		if (hashed)
			r->hashed_ptrs++;
		else
			r->raw_ptrs++;
	}
	if (im->nr_ops >= im->lim.max_ops) {
		skip_event(im, SVZ_SKIP_OP_LIMIT);
		return;
	}
	/* a line without a CPU column replays on CPU 0 but is not "seen" there;
	 * every other event's CPU is seen, whether or not the event is kept */
	int cpu = 0;
	if (ev->cpu < 0) {
		r->no_cpu++;
	} else if (ev->cpu >= SVZ_MAX_CPUS) {
		skip_event(im, SVZ_SKIP_CPU_LIMIT);
		if (is_alloc && ptr)
			mark_ptr(im, ptr, PS_SKIPPED);
		return;
	} else {
		cpu = (int)ev->cpu;
		note_cpu(im, cpu);
	}

	if (!is_alloc) {
		if (ptr == 0 || ptr == 16) { /* NULL, ZERO_SIZE_PTR */
			skip_event(im, SVZ_SKIP_FREE_NULL);
			return;
		}
		struct pent *e = ptab_find(im, ptr);
		if (!e) {
			skip_event(im, SVZ_SKIP_FREE_UNKNOWN);
			return;
		}
		if (free_skipped(im, e))
			return;
		bool named = e->cache != NONE;
		struct svz_op *op = push_op(im, named && ev->kind == EV_CACHE_FREE ? SVZ_OP_FREE
										  : SVZ_OP_KFREE,
					    cpu, line);
		if (!op)
			return;
		if (op->type == SVZ_OP_FREE)
			op->cache = e->cache;
		op->handle = e->handle;
		if (ev->site.s) {
			struct slice st = site_text(ev->site);
			op->site = intern_site(im, st.s, st.len);
		}
		if (ev->kind == EV_CACHE_FREE && ev->name.s && named) {
			struct slice nm = first_tok(ev->name);
			struct cache_x *x = &im->cx[e->cache];
			if (x->info.inferred) {
				uint32_t v = strtab_intern(&im->votes, nm.s, nm.len, NULL);
				if (v == NONE)
					im->oom = true;
				else if (!x->vote)
					x->vote = v + 1;
				else if (x->vote != v + 1)
					x->vote_conflict = true;
			} else if (strlen(x->info.name) != nm.len ||
				   memcmp(x->info.name, nm.s, nm.len) != 0) {
				r->free_other_cache++;
			}
		}
		e->state = PS_FREED;
		im->live--;
		im->live_bytes -= e->bytes;
		r->kept++;
		return;
	}

	/* allocations */
	if (ptr == 0) {
		skip_event(im, SVZ_SKIP_ALLOC_FAILED);
		return;
	}
	uint32_t gfp = GFP_KERNEL;
	if (ev->gfp.s) {
		bool unknown;
		struct slice g = first_tok(ev->gfp);
		gfp = parse_gfp(im, g.s, g.len, &unknown, true);
		if (unknown)
			r->gfp_unknown++;
	}
	if (ev->accounted.s) {
		struct slice a = first_tok(ev->accounted);
		if (slice_is(a, "true") || slice_is(a, "1") || slice_is(a, "(1)"))
			gfp |= __GFP_ACCOUNT;
	}
	if (node >= SVZ_MAX_NODES) {
		r->node_dropped++;
		node = -1;
	} else if (node >= 0 && node > r->max_node) {
		r->max_node = (int)node;
	}
	if (node < -1)
		node = -1;

	uint32_t kgfp = 0, bucket = 0, cache = NONE;
	struct slice nm = ev->name.s ? first_tok(ev->name) : (struct slice){ NULL, 0 };
	bool as_kmalloc = ev->kind == EV_KMALLOC;
	if (ev->kind == EV_CACHE_ALLOC && nm.len) {
		bucket = kmalloc_name(nm.s, nm.len, &kgfp);
		as_kmalloc = bucket != 0;
	}
	uint64_t size = as_kmalloc && bucket ? bucket : (uint64_t)req;
	uint32_t page = im->base.topo.page_size ? im->base.topo.page_size : 4096;
	uint32_t bytes;
	if (as_kmalloc) {
		if (size == 0) {
			skip_event(im, SVZ_SKIP_ZERO_SIZE);
			mark_ptr(im, ptr, PS_ZERO);
			return;
		}
		if (size > MAX_OBJECT) {
			skip_event(im, SVZ_SKIP_TOO_LARGE);
			mark_ptr(im, ptr, PS_SKIPPED);
			return;
		}
		gfp |= kgfp;
		bytes = (uint32_t)svz_kmalloc_size_roundup(size, page);
		if (ev->kind == EV_KMALLOC && ev->alloc.s && (uint64_t)alloc != bytes)
			r->kmalloc_size_differs++;
	} else {
		if ((uint64_t)req > MAX_OBJECT || (uint64_t)alloc > MAX_OBJECT) {
			skip_event(im, SVZ_SKIP_TOO_LARGE);
			mark_ptr(im, ptr, PS_SKIPPED);
			return;
		}
		if (!nm.len && req == 0 && alloc == 0) {
			skip_event(im, SVZ_SKIP_ZERO_SIZE);
			mark_ptr(im, ptr, PS_SKIPPED);
			return;
		}
		if (nm.len && req == 0 && alloc == 0)
			req = 8; /* a named cache seen without sizes (bpftrace without bytes) */
		int why = -1;
		cache = get_cache(im, nm.s, nm.len, (uint32_t)req, (uint32_t)alloc, &why);
		if (cache == NONE) {
			if (why < 0)
				return; /* out of memory */
			skip_event(im, why);
			mark_ptr(im, ptr, PS_SKIPPED);
			return;
		}
		struct cache_x *x = &im->cx[cache];
		x->info.allocs++;
		bytes = x->info.bytes_alloc ? x->info.bytes_alloc : x->info.object_size;
	}
	struct pent *e = bind_ptr(im, ptr, cache, bytes, "p", true);
	if (!e)
		return;
	struct svz_op *op = push_op(im, as_kmalloc ? SVZ_OP_KMALLOC : SVZ_OP_ALLOC, cpu, line);
	if (!op)
		return;
	op->gfp = gfp;
	op->node = (int16_t)node;
	op->handle = e->handle;
	if (as_kmalloc)
		op->size = (uint32_t)size;
	else
		op->cache = cache;
	if (ev->site.s) {
		struct slice st = site_text(ev->site);
		op->site = intern_site(im, st.s, st.len);
	}
	r->kept++;
}

/* "... CPU:3 [LOST 1234 EVENTS]" (ftrace) / "Lost 12 events" (bpftrace). */
static bool lost_line(struct svz_importer *im, const char *s, size_t n)
{
	static const char tag[] = "[LOST ";
	for (size_t i = 0; i + sizeof tag - 1 < n; i++)
		if (memcmp(s + i, tag, sizeof tag - 1) == 0) {
			uint64_t v = 0;
			size_t j = i + sizeof tag - 1, k = j;
			while (k < n && is_digit(s[k]))
				k++;
			if (k > j && parse_dec(s + j, k - j, &v))
				im->rep.lost_events += v;
			return true;
		}
	if (n > 5 && memcmp(s, "Lost ", 5) == 0) {
		uint64_t v = 0;
		size_t k = 5;
		while (k < n && is_digit(s[k]))
			k++;
		if (k > 5 && parse_dec(s + 5, k - 5, &v)) {
			im->rep.lost_events += v;
			return true;
		}
	}
	return false;
}

/* Up to 64 blank-separated tokens of a line, from the start. */
#define MAX_PREFIX_TOKS 64

/* A function name as the function tracer prints it: "do_filp_open",
 * "xas_load.isra.0", "do_filp_open+0x4/0xd0" (sym-offset). */
static bool symbol_token(struct slice t)
{
	if (!t.len || !is_ident_start(t.s[0]))
		return false;
	for (size_t i = 1; i < t.len; i++)
		if (!is_ident(t.s[i]) && t.s[i] != '.' && t.s[i] != '+' && t.s[i] != '/')
			return false;
	return true;
}

/* What follows "TIMESTAMP:" when it is not "EVENT: fields" but another
 * tracer's standard output (tk: the tokens from there to the line's end):
 *   "<stack trace>" / "<user stack trace>"   options/stacktrace, perf-tools tpoint -s
 *   "func <-parent" / "func"                   the function tracer (print-parent on/off)
 * The kind it is counted under, or NULL. */
static const char *tracer_kind(const struct slice *tk, size_t n)
{
	if (n == 2 && slice_is(tk[0], "<stack") && slice_is(tk[1], "trace>"))
		return "<stack trace>";
	if (n == 3 && slice_is(tk[0], "<user") && slice_is(tk[1], "stack") && slice_is(tk[2], "trace>"))
		return "<user stack trace>";
	if (symbol_token(tk[0]) &&
	    (n == 1 || (n == 2 && tk[1].len > 2 && memcmp(tk[1].s, "<-", 2) == 0)))
		return "function";
	return NULL;
}

static void other_event(struct svz_importer *im, const char *name, size_t len)
{
	im->rep.other_events++;
	count_name(im->rep.other_names, &im->rep.nr_other_names, name, len);
}

/* libtraceevent's kmem plugin (trace-cmd report, perf script) prints the
 * call site it resolved before the event's own fields: "kmalloc:
 * (fw_core_handle_request+0x7b) call_site=... ptr=..." (plugin_kmem.c:
 * "(%s+0x%x) "). The text inside the parentheses, and *f moved past them;
 * an empty slice if there is none. */
static struct slice plugin_site(const char **f, const char *end)
{
	const char *p = *f;
	while (p < end && is_space(*p))
		p++;
	if (p >= end || *p != '(')
		return (struct slice){ NULL, 0 };
	const char *q = p + 1;
	while (q < end && *q != ')' && !is_space(*q))
		q++;
	if (q >= end || *q != ')' || q == p + 1 || (q + 1 < end && !is_space(q[1])))
		return (struct slice){ NULL, 0 };
	*f = q + 1;
	return (struct slice){ p + 1, (size_t)(q - p - 1) };
}

/* A call_site that is only a number: "%lx" before v5.4 ("c104deff"), or the
 * options/fields "0xffffffff92d10d97 (-1831793257)". */
static bool site_is_number(struct slice v)
{
	struct slice t = first_tok(v);
	uint64_t x;
	return parse_knum(t.s, t.len, &x) || parse_hex(t.s, t.len, &x);
}

static void init_ev(struct ev *ev, int kind, struct slice name, int64_t cpu)
{
	memset(ev, 0, sizeof *ev);
	ev->kind = kind;
	ev->cpu = cpu;
	ev->node_event = name.len > 5 && memcmp(name.s + name.len - 5, "_node", 5) == 0;
}

/* The kmem event "name:" whose fields start at f: parsed and applied. */
static void kmem_fields(struct svz_importer *im, struct slice name, int kind, int64_t cpu,
			const char *f, const char *end, uint64_t line)
{
	char msg[160];
	struct ev ev;
	init_ev(&ev, kind, name, cpu);
	struct slice plugin = plugin_site(&f, end);
	if (parse_fields(f, (size_t)(end - f), &ev, msg, sizeof msg)) {
		bad_line(im, line, "%.*s: %s", (int)name.len, name.s, msg);
		return;
	}
	/* the plugin's symbol names the site better than a bare address */
	if (plugin.len && (!ev.site.s || site_is_number(ev.site)))
		ev.site = plugin;
	apply_event(im, &ev, line);
}

/* ftrace / trace-cmd / perf script event lines. */
static void event_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct slice tk[MAX_PREFIX_TOKS];
	size_t nt = 0, i = 0;
	char ex[64];

	while (nt < MAX_PREFIX_TOKS) {
		while (i < n && is_space(s[i]))
			i++;
		if (i >= n)
			break;
		size_t b = i;
		while (i < n && !is_space(s[i]))
			i++;
		tk[nt++] = (struct slice){ s + b, i - b };
		/* stop scanning once the fields begin */
		if (memchr(tk[nt - 1].s, '=', tk[nt - 1].len) && nt > 2)
			break;
	}
	int64_t cpu = -1;
	int last_cpu_tok = -1;
	bool neg_cpu = false;
	for (size_t t = 0; t + 1 < nt; t++) {
		int64_t c;
		int k = cpu_token(tk[t], &c);
		if (k == 1) {
			cpu = c;
			last_cpu_tok = (int)t;
			neg_cpu = false;
			continue;
		}
		if (k == -1) {
			last_cpu_tok = (int)t;
			neg_cpu = true;
			continue;
		}
		uint64_t ts;
		if (!ts_token(tk[t], &ts))
			continue;
		size_t e = t + 1;
		struct slice name;
		bool subsys = false;
		const char *other = NULL;
		if (e < nt && !event_token(tk[e], &name, &subsys) && e + 1 < nt &&
		    parse_dec(tk[e].s, tk[e].len, &(uint64_t){ 0 }))
			e++; /* perf's sample period */
		if (e >= nt)
			continue;
		if (!event_token(tk[e], &name, &subsys) &&
		    (i < n || !(other = tracer_kind(tk + e, nt - e))))
			continue;
		if (last_cpu_tok < 0) {
			/* a task name like "x 1.5: y:" before the real columns? */
			bool later_cpu = false;
			for (size_t u = t + 1; u < nt && u < t + 5; u++)
				later_cpu |= cpu_token(tk[u], &(int64_t){ 0 }) != 0;
			if (later_cpu)
				continue;
		}
		/* found: TS at t, event at e */
		if (neg_cpu) {
			bad_line(im, line, "expected a CPU like [003], got '%s'",
				 excerpt(tk[last_cpu_tok].s, tk[last_cpu_tok].len, 20, ex, sizeof ex));
			return;
		}
		if (subsys && im->fmt == SVZ_FMT_FTRACE && !im->fmt_given)
			im->fmt = SVZ_FMT_PERF;
		if (im->have_ts && ts < im->last_ts)
			im->rep.ts_backwards++;
		im->last_ts = ts;
		im->have_ts = true;
		if (other) {
			other_event(im, other, strlen(other));
			return;
		}
		int kind = kmem_kind(name);
		if (kind < 0) {
			other_event(im, name.s, name.len);
			return;
		}
		kmem_fields(im, name, kind, last_cpu_tok >= 0 ? cpu : -1, tk[e].s + tk[e].len, s + n,
			    line);
		return;
	}
	if (lost_line(im, s, n))
		return;
	/* A line an author trimmed to "EVENT: fields" (no task, CPU or
	 * timestamp): the event with its CPU unknown. */
	struct slice name;
	bool subsys;
	if (nt >= 2 && event_token(tk[0], &name, &subsys) &&
	    (memchr(tk[1].s, '=', tk[1].len) || tk[1].s[0] == '(')) {
		int kind = kmem_kind(name);
		if (kind < 0)
			other_event(im, name.s, name.len);
		else
			kmem_fields(im, name, kind, -1, tk[0].s + tk[0].len, s + n, line);
		return;
	}
	/* perf script -g: "\t ffffffff8124d0a0 kmem_cache_alloc+0x1a0 ([kernel.kallsyms])";
	 * ftrace's stack trace: " => __kmalloc+0x1a0/0x2d0" (trace-cmd: "=> __kmalloc (ffff...)") */
	if ((nt >= 1 && (s[0] == '\t' || (im->fmt == SVZ_FMT_PERF && is_space(s[0]))) &&
	     parse_hex(tk[0].s, tk[0].len, &(uint64_t){ 0 })) ||
	    (nt >= 2 && slice_is(tk[0], "=>"))) {
		im->rep.callchain_lines++;
		return;
	}
	bad_line(im, line, "expected an event line 'TASK-PID [CPU] FLAGS TIMESTAMP: EVENT: "
		 "FIELDS', got '%s'", excerpt(s, n, 40, ex, sizeof ex));
}

/* The bpftrace one-liner: "svz CPU EVENT key=value ...". */
static void bpftrace_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	char ex[64], msg[160];
	size_t i = 0;
	struct slice tk[3];
	for (int t = 0; t < 3; t++) {
		while (i < n && is_space(s[i]))
			i++;
		size_t b = i;
		while (i < n && !is_space(s[i]))
			i++;
		tk[t] = (struct slice){ s + b, i - b };
	}
	if (!slice_is(tk[0], "svz")) {
		if ((n > 10 && memcmp(s, "Attaching ", 10) == 0) || lost_line(im, s, n)) {
			im->rep.comment_lines++;
			return;
		}
		bad_line(im, line, "expected 'svz CPU EVENT FIELDS' (the bpftrace one-liner), got '%s'",
			 excerpt(s, n, 40, ex, sizeof ex));
		return;
	}
	uint64_t cpu;
	if (!parse_dec(tk[1].s, tk[1].len, &cpu)) {
		bad_line(im, line, "expected a CPU number after 'svz', got '%s'",
			 excerpt(tk[1].s, tk[1].len, 20, ex, sizeof ex));
		return;
	}
	struct slice name = tk[2];
	if (name.len && name.s[name.len - 1] == ':')
		name.len--;
	int kind = kmem_kind(name);
	if (kind < 0) {
		if (!name.len) {
			bad_line(im, line, "expected an event name after the CPU, got end of line");
			return;
		}
		other_event(im, name.s, name.len);
		return;
	}
	struct ev ev;
	init_ev(&ev, kind, name, cpu > 1000000000ull ? INT64_MAX : (int64_t)cpu);
	if (parse_fields(s + i, n - i, &ev, msg, sizeof msg)) {
		bad_line(im, line, "%.*s: %s", (int)name.len, name.s, msg);
		return;
	}
	apply_event(im, &ev, line);
}

/* ---- malloc-lab ---------------------------------------------------------------- */

/* "a ID BYTES [@CPU]", "r ID BYTES [@CPU]", "f ID [@CPU]" after a header of
 * four numbers (heap size, ids, ops, weight). kmalloc/kfree on CPU 0 unless
 * '@CPU' says otherwise; realloc is krealloc(): in place while the object's
 * kmalloc size holds the new size, else kmalloc new + kfree old. */
static void malloc_lab_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct slice tk[5];
	size_t nt = 0, i = 0;
	char ex[64];
	struct svz_import_report *r = &im->rep;

	while (nt < 5) {
		while (i < n && is_space(s[i]))
			i++;
		if (i >= n)
			break;
		size_t b = i;
		while (i < n && !is_space(s[i]))
			i++;
		tk[nt++] = (struct slice){ s + b, i - b };
	}
	while (i < n && is_space(s[i]))
		i++;
	if (im->ml_header < 4) {
		uint64_t v;
		if (nt != 1 || !parse_dec(tk[0].s, tk[0].len, &v)) {
			static const char *const what[] = { "suggested heap size", "number of ids",
							    "number of ops", "weight" };
			bad_line(im, line, "expected the malloc-lab header's %s (a number), got '%s'",
				 what[im->ml_header], excerpt(s, n, 40, ex, sizeof ex));
			if (nt >= 2 && tk[0].len == 1 && strchr("arf", tk[0].s[0]))
				im->ml_header = 4; /* header missing: read ops from here */
			else
				return;
		} else {
			im->ml_hdr[im->ml_header++] = v;
			if (im->ml_header == 3)
				r->header_ops = v > INT64_MAX ? INT64_MAX : (int64_t)v;
			return;
		}
	}
	if (nt == 0)
		return;
	char opc = tk[0].len == 1 ? tk[0].s[0] : 0;
	size_t want = opc == 'f' ? 2 : 3;
	if (opc != 'a' && opc != 'r' && opc != 'f') {
		bad_line(im, line, "expected a malloc-lab op (a ID BYTES, r ID BYTES, f ID), got '%s'",
			 excerpt(tk[0].s, tk[0].len, 20, ex, sizeof ex));
		return;
	}
	uint64_t cpu = 0, id, size = 0;
	size_t args = nt;
	if (args > want && tk[args - 1].len > 1 && tk[args - 1].s[0] == '@') {
		if (!parse_dec(tk[args - 1].s + 1, tk[args - 1].len - 1, &cpu)) {
			bad_line(im, line, "expected @CPU, got '%s'",
				 excerpt(tk[args - 1].s, tk[args - 1].len, 20, ex, sizeof ex));
			return;
		}
		args--;
	}
	if (args != want || i < n) {
		bad_line(im, line, "expected '%s', got '%s'",
			 opc == 'f' ? "f ID [@CPU]" : opc == 'a' ? "a ID BYTES [@CPU]" : "r ID BYTES [@CPU]",
			 excerpt(s, n, 40, ex, sizeof ex));
		return;
	}
	if (!parse_dec(tk[1].s, tk[1].len, &id)) {
		bad_line(im, line, "expected an id (a number), got '%s'",
			 excerpt(tk[1].s, tk[1].len, 30, ex, sizeof ex));
		return;
	}
	if (want == 3 && !parse_dec(tk[2].s, tk[2].len, &size)) {
		bad_line(im, line, "expected a size in bytes, got '%s'",
			 excerpt(tk[2].s, tk[2].len, 30, ex, sizeof ex));
		return;
	}
	r->events++;
	if (im->nr_ops + 2 > im->lim.max_ops) {
		skip_event(im, SVZ_SKIP_OP_LIMIT);
		return;
	}
	if (cpu >= SVZ_MAX_CPUS) {
		skip_event(im, SVZ_SKIP_CPU_LIMIT);
		if (opc == 'a')
			mark_ptr(im, id, PS_SKIPPED);
		return;
	}
	uint32_t page = im->base.topo.page_size ? im->base.topo.page_size : 4096;
	struct pent *e = ptab_find(im, id);
	bool live = e && e->state == PS_LIVE;
	if (opc == 'r' && !live)
		opc = 'a'; /* realloc(NULL, n) == malloc(n) */
	if (opc == 'r' && size == 0)
		opc = 'f'; /* krealloc(p, 0) frees p */
	if (opc == 'f') {
		if (!e) {
			skip_event(im, SVZ_SKIP_FREE_UNKNOWN);
			return;
		}
		if (free_skipped(im, e))
			return;
		note_cpu(im, (int)cpu);
		struct svz_op *op = push_op(im, SVZ_OP_KFREE, (int)cpu, line);
		if (!op)
			return;
		op->handle = e->handle;
		e->state = PS_FREED;
		im->live--;
		im->live_bytes -= e->bytes;
		r->kept++;
		return;
	}
	if (size == 0) {
		skip_event(im, SVZ_SKIP_ZERO_SIZE);
		mark_ptr(im, id, PS_ZERO);
		return;
	}
	if (size > MAX_OBJECT) {
		skip_event(im, SVZ_SKIP_TOO_LARGE);
		mark_ptr(im, id, PS_SKIPPED);
		return;
	}
	uint32_t bytes = (uint32_t)svz_kmalloc_size_roundup(size, page);
	note_cpu(im, (int)cpu);
	if (opc == 'r') {
		if (e->bytes >= size) { /* krealloc: ksize() still holds it */
			r->realloc_in_place++;
			r->kept++;
			return;
		}
		uint32_t old = e->handle;
		e->state = PS_FREED; /* the new object takes a fresh handle below */
		im->live--;
		im->live_bytes -= e->bytes;
		e->gen++;
		e->handle = NONE;
		e = bind_ptr(im, id, NONE, bytes, "id", false);
		if (!e)
			return;
		struct svz_op *op = push_op(im, SVZ_OP_KMALLOC, (int)cpu, line);
		if (!op)
			return;
		op->gfp = GFP_KERNEL;
		op->size = (uint32_t)size;
		op->handle = e->handle;
		op = push_op(im, SVZ_OP_KFREE, (int)cpu, line);
		if (!op)
			return;
		op->handle = old;
		r->kept++;
		return;
	}
	e = bind_ptr(im, id, NONE, bytes, "id", false);
	if (!e)
		return;
	struct svz_op *op = push_op(im, SVZ_OP_KMALLOC, (int)cpu, line);
	if (!op)
		return;
	op->gfp = GFP_KERNEL;
	op->size = (uint32_t)size;
	op->handle = e->handle;
	r->kept++;
}

/* ---- lines and format detection -------------------------------------------------- */

static bool text_append(struct svz_importer *im, const char *s, size_t n)
{
	if (im->text_len + n + 1 > im->text_cap) {
		size_t cap = im->text_cap ? im->text_cap : 4096;
		while (cap < im->text_len + n + 1)
			cap *= 2;
		char *t = realloc(im->text, cap);
		if (!t) {
			im->oom = true;
			return false;
		}
		im->text = t;
		im->text_cap = cap;
	}
	memcpy(im->text + im->text_len, s, n);
	im->text_len += n;
	im->text[im->text_len] = 0;
	return true;
}

/* The format a first content line implies. */
static enum svz_import_format detect_line(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && is_space(s[i]))
		i++;
	s += i;
	n -= i;
	if (n >= 13 && memcmp(s, "slubviz-trace", 13) == 0 && (n == 13 || is_space(s[13])))
		return SVZ_FMT_V1;
	/* a v1 trace missing its header: let the v1 parser say so */
	static const char *const v1_words[] = { "page_size", "node", "cpus", "cpu_counts", "preset",
						"set", "seed", "cache", "repeat" };
	static const char *const v1_ops[] = { "alloc", "free", "kmalloc", "kfree", "alloc_bulk",
					      "free_bulk", "flush", "flush_all", "shrink", "destroy" };
	size_t w = 0;
	while (w < n && !is_space(s[w]))
		w++;
	for (size_t k = 0; k < sizeof v1_words / sizeof v1_words[0]; k++)
		if (w == strlen(v1_words[k]) && memcmp(s, v1_words[k], w) == 0)
			return SVZ_FMT_V1;
	if (w >= 2 && s[0] == 'c' && (is_digit(s[1]) || s[1] == '{' || s[1] == '$')) {
		size_t b = w;
		while (b < n && is_space(s[b]))
			b++;
		size_t e2 = b;
		while (e2 < n && !is_space(s[e2]))
			e2++;
		for (size_t k = 0; k < sizeof v1_ops / sizeof v1_ops[0]; k++)
			if (e2 - b == strlen(v1_ops[k]) && memcmp(s + b, v1_ops[k], e2 - b) == 0)
				return SVZ_FMT_V1;
	}
	size_t d = 0;
	while (d < n && is_digit(s[d]))
		d++;
	size_t e = d;
	while (e < n && is_space(s[e]))
		e++;
	if (d > 0 && e == n)
		return SVZ_FMT_MALLOC_LAB;
	if ((n > 4 && memcmp(s, "svz ", 4) == 0) || (n > 10 && memcmp(s, "Attaching ", 10) == 0))
		return SVZ_FMT_BPFTRACE;
	if ((n > 5 && memcmp(s, "cpus=", 5) == 0) || (n > 9 && memcmp(s, "version =", 9) == 0))
		return SVZ_FMT_TRACE_CMD;
	return SVZ_FMT_FTRACE;
}

/* "#P:4" in an ftrace header, "cpus=4" in trace-cmd's. */
static void header_cpus(struct svz_importer *im, const char *s, size_t n, const char *tag)
{
	size_t tl = strlen(tag);
	for (size_t i = 0; i + tl < n; i++)
		if (memcmp(s + i, tag, tl) == 0) {
			uint64_t v = 0;
			size_t k = i + tl;
			while (k < n && is_digit(s[k]) && v < 1000000)
				v = v * 10 + (uint64_t)(s[k++] - '0');
			if (k > i + tl && v > (uint64_t)im->rep.header_cpus)
				im->rep.header_cpus = v > 1000000 ? 1000000 : (int)v;
			return;
		}
}

static bool is_blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_space(s[i]))
			return false;
	return true;
}

/* Index of the first byte below 0x20 other than tab and CR, or DEL; n if
 * none. Eight bytes at a time: (x - 0x20..) & ~x & 0x80.. flags any byte
 * below 0x20, the same on x ^ 0x7f.. any 0x7f. */
static size_t control_byte(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x, d;
		memcpy(&x, s + i, 8);
		d = x ^ (ones * 0x7f);
		if (!(((x - ones * 0x20) & ~x & highs) | ((d - ones) & ~d & highs)))
			continue;
		for (size_t j = i; j < i + 8; j++) {
			unsigned char c = (unsigned char)s[j];
			if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
				return j;
		}
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return i;
	}
	return n;
}

/* A UTF-8 byte order mark (editors on Windows save one): not text. */
static size_t bom_len(const char *s, size_t n)
{
	return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

static void handle_line(struct svz_importer *im, const char *s, size_t n, uint64_t line)
{
	struct svz_import_report *r = &im->rep;

	if (n && s[n - 1] == '\r')
		n--;
	/* a v1 text keeps its BOM, so the v1 parser reads what svz_open() reads */
	const char *raw = s;
	size_t rawn = n, bom = line == 1 ? bom_len(s, n) : 0;
	s += bom;
	n -= bom;
	if (im->fmt == SVZ_FMT_V1) {
		text_append(im, raw, rawn);
		text_append(im, "\n", 1);
		return;
	}
	/* control bytes (NUL, escape sequences ...) never occur in these formats */
	size_t bad = control_byte(s, n);
	if (bad < n) {
		bad_line(im, line, "binary data: byte 0x%02X at column %zu", (unsigned char)s[bad],
			 bad + 1);
		if (im->fmt == SVZ_FMT_AUTO) { /* should this be v1, its parser will say */
			text_append(im, raw, rawn);
			text_append(im, "\n", 1);
		}
		return;
	}
	if (is_blank(s, n)) {
		r->blank_lines++;
		if (im->fmt == SVZ_FMT_AUTO) {
			text_append(im, raw, rawn);
			text_append(im, "\n", 1);
		}
		return;
	}
	size_t i = 0;
	while (i < n && is_space(s[i]))
		i++;
	if (s[i] == '#') {
		r->comment_lines++;
		header_cpus(im, s, n, "#P:");
		if (im->fmt == SVZ_FMT_AUTO) {
			/* "# tracer: nop", "# entries-in-buffer/..." */
			for (size_t k = i; k + 7 < n; k++)
				if (memcmp(s + k, "tracer:", 7) == 0 || memcmp(s + k, "entries-", 8) == 0)
					im->ftrace_hint = true;
			/* kept in case this is v1's description (past the cap only the
			 * line breaks, so v1 line numbers stay right) */
			if (im->text_len + rawn + 1 <= UNDECIDED_MAX)
				text_append(im, raw, rawn);
			text_append(im, "\n", 1);
		}
		return;
	}
	if (im->fmt == SVZ_FMT_AUTO) {
		im->fmt = detect_line(s, n);
		if (im->fmt == SVZ_FMT_V1) {
			text_append(im, raw, rawn);
			text_append(im, "\n", 1);
			return;
		}
		free(im->text);
		im->text = NULL;
		im->text_len = im->text_cap = 0;
	}
	switch (im->fmt) {
	case SVZ_FMT_MALLOC_LAB:
		malloc_lab_line(im, s, n, line);
		return;
	case SVZ_FMT_BPFTRACE:
		bpftrace_line(im, s, n, line);
		return;
	default:
		break;
	}
	/* ftrace family: a few header lines first */
	if ((n - i > 5 && memcmp(s + i, "cpus=", 5) == 0)) {
		r->comment_lines++;
		header_cpus(im, s, n, "cpus=");
		return;
	}
	if ((n - i > 9 && memcmp(s + i, "version =", 9) == 0) ||
	    (n - i > 12 && memcmp(s + i, "CPU ", 4) == 0 && memcmp(s + n - 8, "is empty", 8) == 0)) {
		r->comment_lines++;
		return;
	}
	event_line(im, s, n, line);
}

struct svz_importer *svz_importer_new(enum svz_import_format fmt, const struct svz_config *base,
				      const struct svz_import_limits *lim)
{
	struct svz_importer *im = calloc(1, sizeof *im);
	if (!im)
		return NULL;
	im->fmt = (unsigned)fmt < SVZ_FMT__COUNT ? fmt : SVZ_FMT_AUTO;
	im->fmt_given = im->fmt != SVZ_FMT_AUTO;
	if (base)
		im->base = *base;
	else
		svz_config_default(&im->base);
	if (lim)
		im->lim = *lim;
	else
		svz_import_limits_default(&im->lim);
	if (!im->lim.max_line)
		im->lim.max_line = 65536;
	im->rep.max_node = -1;
	im->rep.header_ops = -1;
	im->max_cpu = -1;
	if (strtab_intern(&im->sites, "", 0, NULL) == NONE) {
		free(im);
		return NULL;
	}
	return im;
}

uint64_t svz_importer_lines(const struct svz_importer *im) { return im ? im->rep.lines : 0; }
uint64_t svz_importer_bytes(const struct svz_importer *im) { return im ? im->rep.bytes : 0; }

static void too_long(struct svz_importer *im, uint64_t line, uint64_t len)
{
	im->rep.long_lines++;
	bad_line(im, line, "line longer than the limit of %u bytes (%" PRIu64 " bytes): skipped",
		 im->lim.max_line, len);
	/* v1 keeps every line: the first long one goes to the parser as a
	 * stand-in just past its limit, so it fails there as svz_open() does */
	if (im->fmt == SVZ_FMT_V1 || im->fmt == SVZ_FMT_AUTO) {
		char pad[1024];
		memset(pad, 'x', sizeof pad);
		for (uint32_t n = im->rep.long_lines == 1 ? SVZ_TRACE_MAX_LINE + 1 : 0; n;) {
			uint32_t k = n < sizeof pad ? n : (uint32_t)sizeof pad;
			text_append(im, pad, k);
			n -= k;
		}
		text_append(im, "\n", 1);
	}
}

void svz_importer_feed(struct svz_importer *im, const char *data, size_t len)
{
	if (!im || im->rep.truncated || !len)
		return;
	if (im->rep.bytes + len > im->lim.max_bytes) {
		len = (size_t)(im->lim.max_bytes - im->rep.bytes);
		im->rep.truncated = true;
	}
	im->rep.bytes += len;
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		size_t piece = end - pos;
		if (!nl) {
			/* a partial line: keep it for the next chunk */
			im->carry_total += piece;
			if (!im->carry_long && im->carry_len + piece > im->lim.max_line) {
				im->carry_long = true;
				im->carry_len = 0;
			}
			if (!im->carry_long) {
				if (im->carry_len + piece > im->carry_cap) {
					size_t cap = im->carry_cap ? im->carry_cap : 256;
					while (cap < im->carry_len + piece)
						cap *= 2;
					char *c = realloc(im->carry, cap);
					if (!c) {
						im->oom = true;
						return;
					}
					im->carry = c;
					im->carry_cap = cap;
				}
				memcpy(im->carry + im->carry_len, data + pos, piece);
				im->carry_len += piece;
			}
			return;
		}
		uint64_t line = ++im->rep.lines;
		if (im->carry_long || im->carry_total + piece > im->lim.max_line) {
			too_long(im, line, im->carry_total + piece);
		} else if (im->carry_len) {
			/* finish the carried line */
			if (im->carry_len + piece > im->carry_cap) {
				char *c = realloc(im->carry, im->carry_len + piece);
				if (!c) {
					im->oom = true;
					return;
				}
				im->carry = c;
				im->carry_cap = im->carry_len + piece;
			}
			memcpy(im->carry + im->carry_len, data + pos, piece);
			handle_line(im, im->carry, im->carry_len + piece, line);
		} else {
			handle_line(im, data + pos, piece, line);
		}
		im->carry_len = 0;
		im->carry_total = 0;
		im->carry_long = false;
		pos = end + 1;
	}
}

/* ---- finishing ---------------------------------------------------------------- */

static bool valid_cache_name(const char *s, size_t n)
{
	if (n == 0 || n > 63)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!cache_name_char(s[i]))
			return false;
	return strncmp(s, "kmalloc-", 8) != 0 && strncmp(s, "dma-kmalloc-", 12) != 0;
}

/* Inferred caches whose frees all named one cache take that name, unless
 * another cache has it or wants it. */
static void name_from_frees(struct svz_importer *im)
{
	for (uint32_t c = 0; c < im->nr_caches; c++) {
		struct cache_x *x = &im->cx[c];
		if (!x->info.inferred || !x->vote || x->vote_conflict)
			continue;
		const char *nm = im->votes.names[x->vote - 1];
		bool ok = valid_cache_name(nm, strlen(nm));
		for (uint32_t o = 0; ok && o < im->nr_caches; o++) {
			if (o == c)
				continue;
			if (strcmp(im->caches[o].name, nm) == 0 ||
			    (im->cx[o].info.inferred && im->cx[o].vote == x->vote && !im->cx[o].vote_conflict))
				ok = false;
		}
		if (!ok)
			continue;
		snprintf(im->caches[c].name, sizeof im->caches[c].name, "%s", nm);
		snprintf(x->info.name, sizeof x->info.name, "%s", nm);
		x->info.named_by_free = true;
	}
}

static void set_fatal(struct svz_importer *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_fatal(struct svz_importer *im, const char *fmt, ...)
{
	va_list ap;
	im->rep.fatal = true;
	va_start(ap, fmt);
	vsnprintf(im->rep.fatal_msg, sizeof im->rep.fatal_msg, fmt, ap);
	va_end(ap);
}

static void oom_err(struct svz_error *err)
{
	if (err) {
		memset(err, 0, sizeof *err);
		snprintf(err->msg, sizeof err->msg, "out of memory");
	}
}

static int finish_v1(struct svz_importer *im, struct svz_trace *out, struct svz_error *err)
{
	struct svz_error e;
	if (im->oom) {
		oom_err(err);
		return -1;
	}
	if (svz_trace_parse(im->text ? im->text : "", im->text_len, &im->base, out, &e)) {
		char buf[640];
		svz_error_format(&e, "trace", buf, sizeof buf);
		set_fatal(im, "%s", buf);
		if (err)
			*err = e;
		return -1;
	}
	im->rep.v1_ops = out->nr_ops;
	im->rep.v1_caches = out->nr_caches;
	im->rep.ops = out->nr_ops;
	im->rep.nr_cpus = out->config.topo.nr_cpus;
	im->rep.nr_nodes = out->config.topo.nr_nodes;
	im->rep.node_mem = out->config.topo.node_mem_bytes[0];
	return 0;
}

int svz_importer_finish(struct svz_importer *im, struct svz_trace *out,
			struct svz_import_report *report, struct svz_error *err)
{
	struct svz_error scratch;
	if (!err)
		err = &scratch;
	memset(err, 0, sizeof *err);
	memset(out, 0, sizeof *out);
	if (!im) {
		oom_err(err);
		if (report)
			memset(report, 0, sizeof *report);
		return -1;
	}
	/* the last line, if it had no '\n': a line that cannot be read in full
	 * there is where the input was cut */
	if (im->carry_long || im->carry_total) {
		uint64_t line = ++im->rep.lines, bad = im->rep.bad_lines;
		im->at_eof = true;
		if (im->carry_long)
			too_long(im, line, im->carry_total);
		else
			handle_line(im, im->carry, im->carry_len, line);
		if (im->rep.bad_lines > bad)
			im->rep.cut_line = line;
		im->carry_len = im->carry_total = 0;
		im->carry_long = false;
	}
	int rc = -1;
	struct svz_import_report *r = &im->rep;
	if (im->fmt == SVZ_FMT_AUTO && im->ftrace_hint)
		im->fmt = SVZ_FMT_FTRACE;
	r->format = im->fmt;
	if (im->oom) {
		oom_err(err);
		goto out;
	}
	if (im->fmt == SVZ_FMT_V1) {
		rc = finish_v1(im, out, err);
		goto out;
	}
	if (r->bytes == 0) {
		set_fatal(im, "empty input: nothing to import");
		goto fatal;
	}
	if (im->fmt == SVZ_FMT_AUTO) {
		if (r->bad_lines)
			set_fatal(im, "no trace lines recognised: %" PRIu64 " lines could not be read "
				  "(line %" PRIu64 ": %s)", r->bad_lines,
				  r->nr_errors ? r->errors[0].line : 0, r->nr_errors ? r->errors[0].msg : "");
		else
			set_fatal(im, "no trace lines: only blank lines and comments");
		goto fatal;
	}
	if (r->events == 0 && r->bad_lines > 0 && r->other_events == 0) {
		set_fatal(im, "no kmem events recognised as %s: %" PRIu64 " lines could not be read "
			  "(line %" PRIu64 ": %s)", svz_import_format_name(im->fmt), r->bad_lines,
			  r->nr_errors ? r->errors[0].line : 0, r->nr_errors ? r->errors[0].msg : "");
		goto fatal;
	}
	if (im->fmt == SVZ_FMT_MALLOC_LAB && im->ml_header < 4 && r->events == 0) {
		set_fatal(im, "malloc-lab header incomplete: %d of 4 numbers", im->ml_header);
		goto fatal;
	}

	name_from_frees(im);
	r->unpaired = im->live + r->rebound;

	/* suggested topology */
	struct svz_config cfg = im->base;
	struct svz_topology *t = &cfg.topo;
	int cpus = im->max_cpu + 1;
	if (r->header_cpus > cpus)
		cpus = r->header_cpus;
	if (cpus < 1)
		cpus = 1;
	if (cpus > SVZ_MAX_CPUS)
		cpus = SVZ_MAX_CPUS;
	int nodes = r->max_node + 1;
	if (nodes < 1)
		nodes = 1;
	uint64_t mem = 1ull << 30;
	while (mem < (1ull << 40) && r->peak_live_bytes * 2 / (uint64_t)nodes > mem)
		mem *= 2;
	uint32_t page = t->page_size ? t->page_size : 4096;
	memset(t, 0, sizeof *t);
	t->page_size = page;
	t->nr_nodes = nodes;
	for (int n = 0; n < nodes; n++)
		t->node_mem_bytes[n] = mem;
	t->nr_cpus = cpus;
	for (int c = 0; c < cpus; c++)
		t->cpu_node[c] = (int)((int64_t)c * nodes / cpus);
	t->possible = t->present = t->online = cpus;
	t->boot_online = 1;
	r->nr_cpus = cpus;
	r->nr_nodes = nodes;
	r->node_mem = mem;

	/* the report's cache list */
	if (im->nr_caches) {
		r->caches = calloc(im->nr_caches, sizeof *r->caches);
		if (!r->caches) {
			oom_err(err);
			goto out;
		}
		for (uint32_t c = 0; c < im->nr_caches; c++)
			r->caches[c] = im->cx[c].info;
		r->nr_caches = im->nr_caches;
	}
	char desc[256];
	snprintf(desc, sizeof desc,
		 "Imported from %s by slubviz: %" PRIu64 " events read, %" PRIu64 " kept, %" PRIu64
		 " skipped; %" PRIu64 " allocations never freed.",
		 svz_import_format_name(im->fmt), r->events, r->kept, r->events - r->kept, r->unpaired);
	out->description = dupstr(desc);
	if (!out->description) {
		oom_err(err);
		goto out;
	}
	out->config = cfg;
	if (im->nr_ops) {
		struct svz_op *ops = realloc(im->ops, im->nr_ops * sizeof *ops);
		if (ops)
			im->ops = ops;
	}
	out->ops = im->ops;
	out->nr_ops = im->nr_ops;
	im->ops = NULL;
	im->nr_ops = 0;
	out->caches = im->caches;
	out->nr_caches = im->nr_caches;
	im->caches = NULL;
	im->nr_caches = 0;
	out->handle_names = im->handles;
	out->nr_handles = im->nr_handles;
	im->handles = NULL;
	im->nr_handles = 0;
	out->sites = im->sites.names;
	out->nr_sites = im->sites.n;
	strtab_free(&im->sites, false);
	rc = 0;
	goto out;
fatal:
	if (err)
		snprintf(err->msg, sizeof err->msg, "%.511s", r->fatal_msg);
out:
	if (report) {
		*report = *r;
		im->rep.errors = NULL;
		im->rep.caches = NULL;
	}
	if (rc) {
		if (!r->fatal && report) {
			report->fatal = true;
			snprintf(report->fatal_msg, sizeof report->fatal_msg, "%s", err->msg);
		}
		svz_trace_free(out);
	}
	return rc;
}

void svz_importer_free(struct svz_importer *im)
{
	if (!im)
		return;
	free(im->carry);
	free(im->text);
	free(im->ops);
	free(im->caches);
	free(im->cx);
	strtab_free(&im->cache_index, true);
	if (im->handles)
		for (uint32_t i = 0; i < im->nr_handles; i++)
			free(im->handles[i]);
	free(im->handles);
	strtab_free(&im->sites, true);
	strtab_free(&im->votes, true);
	strtab_free(&im->shown, true);
	strtab_free(&im->gfps, true);
	free(im->gfp_vals);
	free(im->ptab);
	free(im->rep.errors);
	free(im->rep.caches);
	free(im);
}

void svz_import_report_free(struct svz_import_report *r)
{
	if (!r)
		return;
	free(r->errors);
	free(r->caches);
	r->errors = NULL;
	r->caches = NULL;
	r->nr_errors = r->nr_caches = 0;
}

int svz_import(const char *text, size_t len, enum svz_import_format fmt,
	       const struct svz_config *base, const struct svz_import_limits *lim,
	       struct svz_trace *out, struct svz_import_report *report, struct svz_error *err)
{
	struct svz_importer *im = svz_importer_new(fmt, base, lim);
	if (!im) {
		oom_err(err);
		memset(out, 0, sizeof *out);
		if (report)
			memset(report, 0, sizeof *report);
		return -1;
	}
	svz_importer_feed(im, text ? text : "", text ? len : 0);
	int rc = svz_importer_finish(im, out, report, err);
	svz_importer_free(im);
	return rc;
}

enum svz_import_format svz_import_detect(const char *text, size_t len)
{
	size_t pos = bom_len(text, len);
	bool hint = false;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *s = text + pos;
		size_t n = end - pos;
		pos = end + 1;
		if (n && s[n - 1] == '\r')
			n--;
		if (is_blank(s, n))
			continue;
		size_t i = 0;
		while (i < n && is_space(s[i]))
			i++;
		if (s[i] == '#') {
			for (size_t k = i; k + 7 < n; k++)
				if (memcmp(s + k, "tracer:", 7) == 0)
					hint = true;
			continue;
		}
		enum svz_import_format f = detect_line(s, n);
		if (f == SVZ_FMT_FTRACE) {
			/* perf script names events "kmem:kmalloc:" */
			for (size_t k = 0; k + 5 < n; k++)
				if (memcmp(s + k, " kmem:", 6) == 0)
					return SVZ_FMT_PERF;
		}
		return f;
	}
	return hint ? SVZ_FMT_FTRACE : SVZ_FMT_AUTO;
}
