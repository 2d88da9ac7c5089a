/* Trace format v1 parser (docs/trace-format.md).
 *
 * The text is read line by line into tokens that point into the caller's
 * buffer. Directives act on the config as they are read. Ops are "compiled"
 * into statements (tokens split into literal text, {expr} and $VAR parts),
 * then expanded: a top-level op once, a repeat block once per iteration.
 * An op without templates inside a repeat is parsed once and the resulting
 * svz_op copied, so large repeats stay cheap.
 *
 * Every error stops the parse with a 1-based line:col and an "expected ...,
 * got ..." message; all memory is released on failure. */
#include "slubviz/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slubviz/gfp.h"
#include "slubviz/sizing.h"
#include "lib/strtab.h"
#include "lib/util.h"

/* The limits on a whole trace are in trace.h (the importers share them). */
#define MAX_REPEAT_COUNT SVZ_TRACE_MAX_ITERATIONS /* one repeat may use them all */
#define MAX_REPEAT_DEPTH 8
#define MAX_EXPR_DEPTH 32
#define EVAL_STACK 64
#define MAX_OBJECT_SIZE (64u << 20) /* a 64 KiB page << MAX_PAGE_ORDER */
#define MAX_ALIGN 65536u
#define MAX_BULK 65536u
#define MAX_SHEAF_CAPACITY 65535u
#define NONE UINT32_MAX

struct tok {
	const char *s;
	uint32_t len, col;
};


/* ---- compiled statements (op lines and repeat blocks) -------------------- */

enum enode_kind { EN_NUM, EN_VAR, EN_NEG, EN_ADD, EN_SUB, EN_MUL, EN_DIV, EN_MOD };

struct enode {
	uint8_t kind;
	uint32_t col;
	int64_t val; /* EN_NUM: the number; EN_VAR: the repeat depth of the variable */
};

struct part {
	bool is_expr;
	const char *s; /* literal text */
	uint32_t len;
	uint32_t node0, nnodes;
};

/* A token that may carry templates; nparts == 0 means plain text. */
struct ttok {
	struct tok t;
	uint32_t part0, nparts;
};

enum stmt_kind { ST_OP, ST_REPEAT };

struct stmt {
	uint8_t kind;
	uint32_t line;
	uint32_t next; /* sibling in the same block, or NONE */
	/* ST_OP */
	uint32_t tok0, ntoks;
	bool templated, have_proto;
	struct svz_op proto;
	/* ST_REPEAT */
	struct tok kw, brace;
	struct ttok count;
	uint32_t body;
	/* What the statement expands to, when that does not depend on the
	 * repeat variables (!dyn): checked against the limits before expansion */
	bool dyn;
	struct tally { uint64_t ops, bulk, iters; } total;
	struct tally body_total; /* ST_REPEAT: one run of the body, if !body_dyn */
	bool body_dyn;
};

struct prog {
	struct stmt *stmts;
	uint32_t nstmts, cstmts;
	struct ttok *toks;
	uint32_t ntoks, ctoks;
	struct part *parts;
	uint32_t nparts, cparts;
	struct enode *nodes;
	uint32_t nnodes, cnodes;
};

struct scope {
	struct tok vars[MAX_REPEAT_DEPTH];
	int depth;
};

struct parser {
	const char *text;
	size_t len, pos;
	uint32_t line;
	struct tok *toks; /* current line */
	uint32_t ntoks, ctoks;

	struct svz_trace *t;
	struct svz_error *err;
	bool failed;
	bool quiet; /* counting ahead: an expression error is expansion's to report */
	char quoted[4][48];
	int qnext;

	bool header_seen, finalized, topo_declared;
	uint32_t first_op_line;
	uint32_t cpu_decl_line[SVZ_MAX_CPUS]; /* 0 = not declared */
	bool count_explicit[3];               /* possible, present, online */
	struct tok topo_tok;                  /* last directive that shaped the topology */
	uint32_t topo_line;

	struct strtab handles, sites, caches;
	struct strpool pool; /* handle names and sites, handed to the trace */
	uint32_t cap_ops, cap_lists, cap_caches;
	uint64_t iterations;
	uint64_t name_bytes; /* distinct handle names and sites, NULs included */

	struct prog prog;
	char *xbuf; /* expanded template text */
	size_t xlen, xcap;
	struct tok *xtoks; /* an expanded op line */
	size_t *xoffs;     /* where each expanded token starts in xbuf */
	uint32_t cxtoks, cxoffs;
	char *namebuf; /* bulk handle names */
	size_t cnamebuf;
};

/* ---- errors -------------------------------------------------------------- */

static int fail(struct parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;

	if (P->failed || P->quiet)
		return -1;
	P->failed = true;
	P->err->line = line;
	P->err->col = col;
	va_start(ap, fmt);
	vsnprintf(P->err->msg, sizeof P->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static int fail_tok(struct parser *P, uint32_t line, const struct tok *t, const char *fmt, ...)
{
	va_list ap;

	if (P->failed || P->quiet)
		return -1;
	P->failed = true;
	P->err->line = line;
	P->err->col = t->col;
	va_start(ap, fmt);
	vsnprintf(P->err->msg, sizeof P->err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

static int oom(struct parser *P, uint32_t line)
{
	return fail(P, line, 0, "out of memory");
}

/* Token text for messages, cut so one long token cannot swamp the message. */
static const char *q(struct parser *P, const char *s, size_t len)
{
	char *buf = P->quoted[P->qnext++ & 3];

	if (len < 40)
		snprintf(buf, 48, "%.*s", (int)len, s);
	else
		snprintf(buf, 48, "%.36s...", s);
	return buf;
}

static const char *qt(struct parser *P, const struct tok *t) { return q(P, t->s, t->len); }

/* The position just past the last token: where a missing token belongs. */
static uint32_t end_col(const struct tok *toks, uint32_t n)
{
	return n ? toks[n - 1].col + toks[n - 1].len : 1;
}

/* ---- small helpers ------------------------------------------------------- */

static bool tok_is(const struct tok *t, const char *s)
{
	size_t n = strlen(s);
	return t->len == n && memcmp(t->s, s, n) == 0;
}

/* "key=value": returns true and the (possibly empty) value if the token
 * starts with key=. */
static bool tok_opt(const struct tok *t, const char *key, struct tok *value)
{
	size_t n = strlen(key);

	if (t->len < n + 1 || memcmp(t->s, key, n) != 0 || t->s[n] != '=')
		return false;
	value->s = t->s + n + 1;
	value->len = t->len - (uint32_t)n - 1;
	value->col = t->col + (uint32_t)n + 1;
	return true;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident(char c) { return is_ident_start(c) || is_digit(c); }

/* Plain decimal, no sign; fails on overflow of max. */
static bool parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t x = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (!is_digit(s[i]) || x > (max - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*out = x;
	return true;
}

/* Bytes with an optional binary K/M/G/T suffix. */
static bool parse_size(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	unsigned shift = 0;
	uint64_t x;

	if (len > 1) {
		switch (s[len - 1]) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		case 'T': case 't': shift = 40; break;
		}
	}
	if (!parse_uint(s, shift ? len - 1 : len, max, &x) || (x << shift) >> shift != x ||
	    (x << shift) > max)
		return false;
	*out = x << shift;
	return true;
}

/* ---- string interning: strtab.c ------------------------------------------ */

/* ---- lexing -------------------------------------------------------------- */

/* Reads the next line's tokens. 1 = a line, 0 = end of text, -1 = error. */
static int next_line(struct parser *P)
{
	size_t start = P->pos, end, i;

	if (P->pos >= P->len)
		return 0;
	end = start;
	while (end < P->len && P->text[end] != '\n')
		end++;
	P->pos = end < P->len ? end + 1 : end;
	P->line++;
	P->ntoks = 0;
	/* The importers cut lines at the same length (a longer v1 line reaches
	 * this parser as SVZ_TRACE_MAX_LINE + 1 bytes), so every entry point
	 * reports it alike. */
	if (end - start > SVZ_TRACE_MAX_LINE)
		return fail(P, P->line, SVZ_TRACE_MAX_LINE + 1,
			    "expected lines of at most %u bytes, got a longer line", SVZ_TRACE_MAX_LINE);
	/* a UTF-8 byte order mark (editors on Windows write one) opens the text,
	 * not a token */
	i = start;
	if (start == 0 && end >= 3 && memcmp(P->text, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	for (; i < end; i++) {
		unsigned char c = (unsigned char)P->text[i];
		size_t j;

		if (c == '#')
			break;
		if (c == ' ' || c == '\t' || c == '\r')
			continue;
		if (c < 0x21 || c > 0x7e)
			return fail(P, P->line, (uint32_t)(i - start + 1),
				    "expected printable ASCII text, got byte 0x%02X", c);
		for (j = i; j < end && P->text[j] > 0x20 && P->text[j] < 0x7f && P->text[j] != '#'; j++)
			;
		if (!GROW(P->toks, P->ctoks, P->ntoks + 1))
			return oom(P, P->line);
		P->toks[P->ntoks++] = (struct tok){ P->text + i, (uint32_t)(j - i),
						    (uint32_t)(i - start + 1) };
		i = j - 1;
	}
	return 1;
}

/* Line and column just past the last byte: where "end of file" is. */
static void eof_pos(const struct parser *P, uint32_t *line, uint32_t *col)
{
	uint32_t l = 1;
	size_t last_nl = 0;
	bool any_nl = false;

	for (size_t i = 0; i < P->len; i++) {
		if (P->text[i] == '\n') {
			l++;
			last_nl = i;
			any_nl = true;
		}
	}
	*line = l;
	*col = (uint32_t)(P->len - (any_nl ? last_nl + 1 : 0)) + 1;
}

/* The opening run of '#' lines, without the '#' and one following space. */
static char *read_description(const char *text, size_t len)
{
	size_t pos = 0, out = 0;
	char *desc = malloc(len + 1);

	if (!desc)
		return NULL;
	while (pos < len) {
		size_t end;

		while (pos < len && (text[pos] == ' ' || text[pos] == '\t'))
			pos++;
		if (pos >= len || text[pos] != '#')
			break;
		pos++;
		if (pos < len && text[pos] == ' ')
			pos++;
		end = pos;
		while (end < len && text[end] != '\n')
			end++;
		if (out)
			desc[out++] = '\n';
		size_t n = end - pos;
		if (n && text[end - 1] == '\r')
			n--;
		memcpy(desc + out, text + pos, n);
		out += n;
		pos = end < len ? end + 1 : end;
	}
	desc[out] = 0;
	return desc;
}

/* ---- topology ------------------------------------------------------------ */

static const char *node_range(struct parser *P)
{
	char *buf = P->quoted[P->qnext++ & 3];
	int n = P->t->config.topo.nr_nodes;

	if (n <= 1)
		snprintf(buf, 48, "0");
	else
		snprintf(buf, 48, "0-%d", n - 1);
	return buf;
}

static const char *cpu_range(struct parser *P)
{
	char *buf = P->quoted[P->qnext++ & 3];
	int n = P->t->config.topo.nr_cpus;

	if (n <= 1)
		snprintf(buf, 48, "c0");
	else
		snprintf(buf, 48, "c0-c%d", n - 1);
	return buf;
}

/* The trace's topology replaces the base one entirely on its first
 * node/cpus directive; page size and explicitly set counts survive. */
static void begin_topology(struct parser *P)
{
	struct svz_topology *topo = &P->t->config.topo;

	if (P->topo_declared)
		return;
	P->topo_declared = true;
	topo->nr_nodes = 0;
	topo->nr_cpus = 0;
	memset(topo->node_mem_bytes, 0, sizeof topo->node_mem_bytes);
	memset(topo->cpu_node, 0, sizeof topo->cpu_node);
	topo->boot_online = 1;
}

static void note_topology(struct parser *P, const struct tok *first)
{
	P->topo_tok = *first;
	P->topo_line = P->line;
}

static int finalize(struct parser *P, uint32_t line, uint32_t col)
{
	struct svz_topology *topo = &P->t->config.topo;
	char msg[256];

	if (P->finalized)
		return 0;
	P->finalized = true;
	P->first_op_line = line;
	if (P->topo_declared) {
		int *counts[3] = { &topo->possible, &topo->present, &topo->online };

		if (topo->nr_cpus == 0)
			return fail(P, line, col,
				    "expected a 'cpus' directive before the first op (the trace "
				    "declares nodes), got none");
		for (int cpu = 0; cpu < topo->nr_cpus; cpu++)
			if (!P->cpu_decl_line[cpu])
				return fail(P, P->topo_line, P->topo_tok.col,
					    "expected CPU ids dense from 0, got no CPU %d (highest is %d)",
					    cpu, topo->nr_cpus - 1);
		for (int i = 0; i < 3; i++)
			if (!P->count_explicit[i])
				*counts[i] = topo->nr_cpus;
	}
	if (svz_topology_check(topo, msg, sizeof msg))
		return P->topo_line ? fail(P, P->topo_line, P->topo_tok.col, "%s", msg)
				    : fail(P, 0, 0, "%s", msg);
	return 0;
}

static int dir_node(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_topology *topo = &P->t->config.topo;
	struct tok v;
	uint64_t id, mem;

	begin_topology(P);
	note_topology(P, &tk[0]);
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected a node id, got end of line");
	if (!parse_uint(tk[1].s, tk[1].len, 1u << 20, &id) || id >= SVZ_MAX_NODES)
		return fail_tok(P, P->line, &tk[1], "expected a node id 0..%d, got '%s'",
				SVZ_MAX_NODES - 1, qt(P, &tk[1]));
	if (id != (uint64_t)topo->nr_nodes)
		return fail_tok(P, P->line, &tk[1],
				"expected node %d next (node ids are dense from 0), got '%s'",
				topo->nr_nodes, qt(P, &tk[1]));
	if (n < 3)
		return fail(P, P->line, end_col(tk, n), "expected mem=SIZE, got end of line");
	if (!tok_opt(&tk[2], "mem", &v))
		return fail_tok(P, P->line, &tk[2], "expected mem=SIZE, got '%s'", qt(P, &tk[2]));
	if (!parse_size(v.s, v.len, UINT64_MAX, &mem))
		return fail_tok(P, P->line, &v, "expected a size like 0, 512M or 16G, got '%s'",
				qt(P, &v));
	if (n > 3)
		return fail_tok(P, P->line, &tk[3], "expected end of line, got '%s'", qt(P, &tk[3]));
	topo->node_mem_bytes[topo->nr_nodes++] = mem;
	return 0;
}

static int dir_cpus(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_topology *topo = &P->t->config.topo;
	bool these[SVZ_MAX_CPUS] = { false };
	struct tok v;
	uint64_t node;
	uint32_t i = 0;

	begin_topology(P);
	note_topology(P, &tk[0]);
	if (n < 2)
		return fail(P, P->line, end_col(tk, n),
			    "expected a CPU list like 0-3,32-35, got end of line");
	while (i <= tk[1].len) {
		struct tok item = { tk[1].s + i, 0, tk[1].col + i };
		const char *dash;
		uint64_t lo, hi;

		while (i + item.len < tk[1].len && tk[1].s[i + item.len] != ',')
			item.len++;
		dash = memchr(item.s, '-', item.len);
		if (item.len == 0)
			return fail_tok(P, P->line, &tk[1], "expected a CPU list like 0-3,32-35, got '%s'",
					qt(P, &tk[1]));
		if (dash ? !parse_uint(item.s, (size_t)(dash - item.s), 1u << 20, &lo) ||
			   !parse_uint(dash + 1, item.len - (size_t)(dash - item.s) - 1, 1u << 20, &hi)
			 : !parse_uint(item.s, item.len, 1u << 20, &lo))
			return fail_tok(P, P->line, &item, "expected a CPU list like 0-3,32-35, got '%s'",
					qt(P, &item));
		if (!dash)
			hi = lo;
		if (lo > hi)
			return fail_tok(P, P->line, &item,
					"expected a CPU range low-high, got '%s'", qt(P, &item));
		if (hi >= SVZ_MAX_CPUS)
			return fail_tok(P, P->line, &item, "expected CPU ids 0..%d, got '%s'",
					SVZ_MAX_CPUS - 1, qt(P, &item));
		for (uint64_t cpu = lo; cpu <= hi; cpu++) {
			if (P->cpu_decl_line[cpu] || these[cpu])
				return fail_tok(P, P->line, &item,
						"expected each CPU once, got CPU %d again (declared on line %u)",
						(int)cpu, these[cpu] ? P->line : P->cpu_decl_line[cpu]);
			these[cpu] = true;
		}
		i += item.len + 1;
	}
	if (n < 3)
		return fail(P, P->line, end_col(tk, n), "expected node=N, got end of line");
	if (!tok_opt(&tk[2], "node", &v))
		return fail_tok(P, P->line, &tk[2], "expected node=N, got '%s'", qt(P, &tk[2]));
	if (!parse_uint(v.s, v.len, 1u << 20, &node) || node >= (uint64_t)topo->nr_nodes) {
		if (topo->nr_nodes == 0)
			return fail_tok(P, P->line, &tk[2],
					"expected node=N of a declared node (none declared yet), got '%s'",
					qt(P, &tk[2]));
		return fail_tok(P, P->line, &tk[2], "expected node=N of a declared node (%s), got '%s'",
				node_range(P), qt(P, &tk[2]));
	}
	if (n > 3)
		return fail_tok(P, P->line, &tk[3], "expected end of line, got '%s'", qt(P, &tk[3]));
	for (int cpu = 0; cpu < SVZ_MAX_CPUS; cpu++) {
		if (!these[cpu])
			continue;
		P->cpu_decl_line[cpu] = P->line;
		topo->cpu_node[cpu] = (int)node;
		if (cpu + 1 > topo->nr_cpus)
			topo->nr_cpus = cpu + 1;
	}
	return 0;
}

/* One config key through svz_config_set; counts set here stay explicit. */
static int set_key(struct parser *P, const struct tok *at, const char *key, size_t keylen,
		   const char *value, size_t valuelen)
{
	static const char *const count_keys[3] = { "possible", "present", "online" };
	char k[64], v[128], msg[sizeof P->err->msg];

	if (keylen >= sizeof k || valuelen >= sizeof v) {
		if (keylen >= sizeof k)
			return fail_tok(P, P->line, at, "expected a setting key, got '%s'",
					q(P, key, keylen));
		return fail_tok(P, P->line, at, "expected a shorter value, got '%s'",
				q(P, value, valuelen));
	}
	memcpy(k, key, keylen);
	k[keylen] = 0;
	memcpy(v, value, valuelen);
	v[valuelen] = 0;
	if (svz_config_set(&P->t->config, k, v, msg, sizeof msg))
		return fail_tok(P, P->line, at, "%s", msg);
	for (int i = 0; i < 3; i++) {
		if (strcmp(k, count_keys[i]) == 0) {
			P->count_explicit[i] = true;
			note_topology(P, at);
		}
	}
	if (strcmp(k, "page_size") == 0)
		note_topology(P, at);
	return 0;
}

static int dir_cpu_counts(struct parser *P, const struct tok *tk, uint32_t n)
{
	static const char *const keys[3] = { "possible", "present", "online" };
	bool seen[3] = { false };

	if (n < 2)
		return fail(P, P->line, end_col(tk, n),
			    "expected possible=N, present=N or online=N, got end of line");
	for (uint32_t i = 1; i < n; i++) {
		struct tok v;
		int k;

		for (k = 0; k < 3; k++)
			if (tok_opt(&tk[i], keys[k], &v))
				break;
		if (k == 3)
			return fail_tok(P, P->line, &tk[i],
					"expected possible=N, present=N or online=N, got '%s'",
					qt(P, &tk[i]));
		if (seen[k])
			return fail_tok(P, P->line, &tk[i], "expected each option once, got a second '%s='",
					keys[k]);
		seen[k] = true;
		if (set_key(P, &tk[i], keys[k], strlen(keys[k]), v.s, v.len))
			return -1;
	}
	note_topology(P, &tk[0]);
	return 0;
}

/* ---- caches -------------------------------------------------------------- */

static bool cache_name_ok(const struct tok *t)
{
	if (t->len == 0 || t->len > 63)
		return false;
	for (uint32_t i = 0; i < t->len; i++) {
		char c = t->s[i];
		if (!is_ident(c) && c != '.' && c != ':' && c != '-')
			return false;
	}
	return true;
}

static int parse_slab_flags(struct parser *P, const struct tok *v, uint32_t *out)
{
	uint32_t i = 0, flags = 0;

	while (i <= v->len) {
		struct tok item = { v->s + i, 0, v->col + i };
		char name[48], msg[256];
		uint32_t f;

		while (i + item.len < v->len && v->s[i + item.len] != ',' && v->s[i + item.len] != '|')
			item.len++;
		if (item.len == 0 && v->len == 0)
			break; /* "flags=" means none */
		if (item.len == 0 || item.len >= sizeof name)
			goto bad;
		memcpy(name, item.s, item.len);
		name[item.len] = 0;
		if (svz_slab_flags_parse(name, &f, msg, sizeof msg))
			goto bad;
		flags |= f;
		i += item.len + 1;
		continue;
bad:
		return fail_tok(P, P->line, &item,
				"expected a slab flag (HWCACHE_ALIGN, TYPESAFE_BY_RCU, ACCOUNT, "
				"RECLAIM_ACCOUNT, ...), got '%s'", qt(P, &item));
	}
	*out = flags;
	return 0;
}

static int dir_cache(struct parser *P, const struct tok *tk, uint32_t n)
{
	struct svz_trace *t = P->t;
	struct svz_cache_decl d;
	bool seen[5] = { false }; /* indexed by the option enum below */
	uint32_t id;

	memset(&d, 0, sizeof d);
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected a cache name, got end of line");
	if (!cache_name_ok(&tk[1]))
		return fail_tok(P, P->line, &tk[1],
				"expected a cache name of 1..63 letters, digits, '_', '.', ':' or "
				"'-', got '%s'", qt(P, &tk[1]));
	if ((tk[1].len >= 8 && memcmp(tk[1].s, "kmalloc-", 8) == 0) ||
	    (tk[1].len >= 12 && memcmp(tk[1].s, "dma-kmalloc-", 12) == 0))
		return fail_tok(P, P->line, &tk[1],
				"expected a cache name outside the kmalloc caches' names, got '%s'",
				qt(P, &tk[1]));
	if (t->nr_caches >= SVZ_TRACE_MAX_CACHES)
		return fail_tok(P, P->line, &tk[0], "expected at most %u caches, got a %uth",
				SVZ_TRACE_MAX_CACHES, SVZ_TRACE_MAX_CACHES + 1);
	id = strtab_find(&P->caches, tk[1].s, tk[1].len);
	if (id != NONE)
		return fail_tok(P, P->line, &tk[1],
				"expected a new cache name, got '%s' (declared on line %u)",
				qt(P, &tk[1]), t->caches[id].line);
	memcpy(d.name, tk[1].s, tk[1].len);
	d.line = P->line;
	for (uint32_t i = 2; i < n; i++) {
		enum { SIZE, ALIGN, FLAGS, SHEAF, CTOR, NR_OPTS } opt;
		static const char *const opt_names[NR_OPTS] = { "size=", "align=", "flags=",
								 "sheaf_capacity=", "ctor" };
		struct tok v;
		uint64_t x;

		if (tok_opt(&tk[i], "size", &v))
			opt = SIZE;
		else if (tok_opt(&tk[i], "align", &v))
			opt = ALIGN;
		else if (tok_opt(&tk[i], "flags", &v))
			opt = FLAGS;
		else if (tok_opt(&tk[i], "sheaf_capacity", &v))
			opt = SHEAF;
		else if (tok_is(&tk[i], "ctor"))
			opt = CTOR;
		else
			return fail_tok(P, P->line, &tk[i],
					"expected a cache option (size=, align=, flags=, ctor, "
					"sheaf_capacity=), got '%s'", qt(P, &tk[i]));
		if (seen[opt])
			return fail_tok(P, P->line, &tk[i], "expected each option once, got a second '%s'",
					opt_names[opt]);
		seen[opt] = true;
		switch (opt) {
		case SIZE:
			if (!parse_size(v.s, v.len, MAX_OBJECT_SIZE, &x) || x == 0)
				return fail_tok(P, P->line, &tk[i],
						"expected size=1..%u bytes, got '%s'", MAX_OBJECT_SIZE,
						qt(P, &tk[i]));
			d.object_size = (uint32_t)x;
			break;
		case ALIGN:
			if (!parse_size(v.s, v.len, MAX_ALIGN, &x) || (x & (x - 1)))
				return fail_tok(P, P->line, &tk[i],
						"expected align=0 or a power of two up to %u, got '%s'",
						MAX_ALIGN, qt(P, &tk[i]));
			d.align = (uint32_t)x;
			break;
		case FLAGS:
			if (parse_slab_flags(P, &v, &d.flags))
				return -1;
			break;
		case SHEAF:
			if (!parse_uint(v.s, v.len, MAX_SHEAF_CAPACITY, &x))
				return fail_tok(P, P->line, &tk[i],
						"expected sheaf_capacity=0..%u, got '%s'",
						MAX_SHEAF_CAPACITY, qt(P, &tk[i]));
			d.sheaf_capacity = (uint32_t)x;
			break;
		case CTOR:
			d.ctor = true;
			break;
		default:
			break;
		}
	}
	if (!seen[0])
		return fail(P, P->line, end_col(tk, n), "expected size=BYTES for cache '%s', got %s",
			    d.name, n > 2 ? "no size=" : "end of line");
	if (!GROW(t->caches, P->cap_caches, t->nr_caches + 1) ||
	    strtab_intern(&P->caches, tk[1].s, tk[1].len, NULL) == NONE)
		return oom(P, P->line);
	t->caches[t->nr_caches++] = d;
	return 0;
}

/* ---- ops ----------------------------------------------------------------- */

enum { OPT_GFP = 1, OPT_NODE = 2, OPT_AT = 4 };
enum { ARG_CACHE, ARG_HANDLE, ARG_SIZE, ARG_COUNT, ARG_PREFIX, ARG_SHEAF };

static const struct op_spec {
	const char *name;
	uint8_t type, nargs, args[3], opts;
} op_specs[] = {
	{ "alloc", SVZ_OP_ALLOC, 2, { ARG_CACHE, ARG_HANDLE }, OPT_GFP | OPT_NODE | OPT_AT },
	{ "free", SVZ_OP_FREE, 2, { ARG_CACHE, ARG_HANDLE }, OPT_AT },
	{ "kmalloc", SVZ_OP_KMALLOC, 2, { ARG_SIZE, ARG_HANDLE }, OPT_GFP | OPT_NODE | OPT_AT },
	{ "kfree", SVZ_OP_KFREE, 1, { ARG_HANDLE }, OPT_AT },
	{ "alloc_bulk", SVZ_OP_ALLOC_BULK, 3, { ARG_CACHE, ARG_COUNT, ARG_PREFIX }, OPT_GFP | OPT_AT },
	{ "free_bulk", SVZ_OP_FREE_BULK, 3, { ARG_CACHE, ARG_COUNT, ARG_PREFIX }, OPT_AT },
	{ "flush", SVZ_OP_FLUSH, 1, { ARG_CACHE }, 0 },
	{ "flush_all", SVZ_OP_FLUSH_ALL, 1, { ARG_CACHE }, 0 },
	{ "shrink", SVZ_OP_SHRINK, 1, { ARG_CACHE }, 0 },
	{ "destroy", SVZ_OP_DESTROY, 1, { ARG_CACHE }, 0 },
	/* prefilled sheaves (v6.18+) and kfree_rcu (v7.0 rcu_free sheaves) */
	{ "prefill_sheaf", SVZ_OP_PREFILL, 3, { ARG_CACHE, ARG_COUNT, ARG_SHEAF }, OPT_GFP | OPT_AT },
	{ "alloc_from_sheaf", SVZ_OP_ALLOC_FROM_SHEAF, 3, { ARG_CACHE, ARG_SHEAF, ARG_HANDLE },
	  OPT_GFP | OPT_AT },
	{ "return_sheaf", SVZ_OP_RETURN_SHEAF, 2, { ARG_CACHE, ARG_SHEAF }, OPT_GFP | OPT_AT },
	{ "kfree_rcu", SVZ_OP_KFREE_RCU, 1, { ARG_HANDLE }, OPT_AT },
	{ "rcu_barrier", SVZ_OP_RCU_BARRIER, 0, { 0 }, 0 },
};

#define NR_OP_SPECS (sizeof op_specs / sizeof op_specs[0])

static const struct op_spec *find_op(const struct tok *t)
{
	for (size_t i = 0; i < NR_OP_SPECS; i++)
		if (tok_is(t, op_specs[i].name))
			return &op_specs[i];
	return NULL;
}

const char *svz_op_name(enum svz_op_type t)
{
	for (size_t i = 0; i < NR_OP_SPECS; i++)
		if (op_specs[i].type == (uint8_t)t)
			return op_specs[i].name;
	return "?";
}

/* An op line starts with a CPU ("c3", "c{...}", "c$cpu"), or at least has an
 * op name second, so that "x3 alloc ..." is reported as a bad CPU. */
static bool looks_like_op(const struct tok *tk, uint32_t n)
{
	if (tk[0].len >= 2 && tk[0].s[0] == 'c' &&
	    (is_digit(tk[0].s[1]) || tk[0].s[1] == '{' || tk[0].s[1] == '$'))
		return true;
	return n >= 2 && find_op(&tk[1]);
}

static bool handle_name_ok(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!is_ident(c) && c != '.' && c != ':' && c != '[' && c != ']' && c != '-')
			return false;
	}
	return true;
}

/* A handle name or call-site label, interned within the names budget:
 * its id, or NONE with the error set. */
static uint32_t intern_name(struct parser *P, struct strtab *st, const char *s, size_t len,
			    uint32_t line, const struct tok *at)
{
	bool added;
	uint32_t id;

	if (P->name_bytes + len + 1 > SVZ_TRACE_MAX_NAME_BYTES && strtab_find(st, s, len) == NONE) {
		fail_tok(P, line, at,
			 "trace names more than %u bytes of distinct handles and call sites (the limit)",
			 SVZ_TRACE_MAX_NAME_BYTES);
		return NONE;
	}
	id = strtab_intern(st, s, len, &added);
	if (id == NONE)
		oom(P, line);
	else if (added)
		P->name_bytes += len + 1;
	return id;
}

static int push_op(struct parser *P, const struct svz_op *op, const struct tok *at)
{
	struct svz_trace *t = P->t;

	if (t->nr_ops >= SVZ_TRACE_MAX_OPS)
		return fail_tok(P, op->line, at, "trace expands to more than %u ops (the limit)",
				SVZ_TRACE_MAX_OPS);
	if (!GROW(t->ops, P->cap_ops, t->nr_ops + 1))
		return oom(P, op->line);
	t->ops[t->nr_ops++] = *op;
	return 0;
}

/* prefix[0] .. prefix[count-1] appended to handle_lists; returns the first index. */
static int push_bulk_handles(struct parser *P, const struct tok *prefix, uint32_t count,
			     uint32_t line, uint32_t *first)
{
	struct svz_trace *t = P->t;
	size_t need = prefix->len + 16;

	if ((uint64_t)t->nr_handle_lists + count > SVZ_TRACE_MAX_OPS)
		return fail_tok(P, line, prefix, "trace expands to more than %u bulk handles (the limit)",
				SVZ_TRACE_MAX_OPS);
	if (!GROW(t->handle_lists, P->cap_lists, t->nr_handle_lists + count))
		return oom(P, line);
	if (need > P->cnamebuf) {
		char *nb = realloc(P->namebuf, need);
		if (!nb)
			return oom(P, line);
		P->namebuf = nb;
		P->cnamebuf = need;
	}
	memcpy(P->namebuf, prefix->s, prefix->len);
	*first = t->nr_handle_lists;
	for (uint32_t i = 0; i < count; i++) {
		int n = snprintf(P->namebuf + prefix->len, 16, "[%u]", i);
		uint32_t id = intern_name(P, &P->handles, P->namebuf, prefix->len + (size_t)n, line,
					  prefix);

		if (id == NONE)
			return -1;
		t->handle_lists[t->nr_handle_lists++] = id;
	}
	return 0;
}

/* Parses one op line (already expanded). `dry` validates without interning
 * anything, for op lines of a repeat body before it runs. */
static int parse_op(struct parser *P, const struct tok *tk, uint32_t n, uint32_t line, bool dry,
		    struct svz_op *op)
{
	const struct svz_topology *topo = &P->t->config.topo;
	const struct op_spec *spec;
	const struct tok *handle = NULL, *gfp_tok = NULL, *node_tok = NULL, *at_tok = NULL,
			 *sheaf_tok = NULL;
	uint64_t cpu;
	char optlist[64] = "";

	memset(op, 0, sizeof *op);
	op->line = line;
	op->node = SVZ_NO_NODE;
	op->cache = SVZ_NO_CACHE;
	if (tk[0].len < 2 || tk[0].s[0] != 'c' ||
	    !parse_uint(tk[0].s + 1, tk[0].len - 1, 1u << 20, &cpu))
		return fail_tok(P, line, &tk[0], "expected a CPU like 'c3', got '%s'", qt(P, &tk[0]));
	if (cpu >= (uint64_t)topo->nr_cpus)
		return fail_tok(P, line, &tk[0], "expected a declared CPU (%s), got '%s'",
				cpu_range(P), qt(P, &tk[0]));
	op->cpu = (uint16_t)cpu;
	op->col = (uint16_t)(tk[0].col < UINT16_MAX ? tk[0].col : UINT16_MAX);
	if (n < 2)
		return fail(P, line, end_col(tk, n),
			    "expected an op (alloc, free, kmalloc, kfree, alloc_bulk, free_bulk, "
			    "flush, flush_all, shrink, destroy, prefill_sheaf, alloc_from_sheaf, "
			    "return_sheaf, kfree_rcu, rcu_barrier), got end of line");
	spec = find_op(&tk[1]);
	if (!spec)
		return fail_tok(P, line, &tk[1],
				"expected an op (alloc, free, kmalloc, kfree, alloc_bulk, free_bulk, "
				"flush, flush_all, shrink, destroy, prefill_sheaf, alloc_from_sheaf, "
				"return_sheaf, kfree_rcu, rcu_barrier), got '%s'", qt(P, &tk[1]));
	op->type = spec->type;
	if (spec->opts & OPT_GFP)
		op->gfp = GFP_KERNEL;

	for (uint32_t a = 0; a < spec->nargs; a++) {
		static const char *const what[] = { "a cache name", "a handle name", "a kmalloc size",
						    "a bulk count", "a handle prefix", "a sheaf handle name" };
		const struct tok *arg = &tk[2 + a];
		uint64_t x;

		if (2 + a >= n)
			return fail(P, line, end_col(tk, n), "expected %s, got end of line",
				     what[spec->args[a]]);
		switch (spec->args[a]) {
		case ARG_CACHE:
			op->cache = strtab_find(&P->caches, arg->s, arg->len);
			if (op->cache == NONE)
				return fail_tok(P, line, arg,
						"expected a cache declared with 'cache', got '%s'",
						qt(P, arg));
			break;
		case ARG_SIZE:
			if (!parse_size(arg->s, arg->len, MAX_OBJECT_SIZE, &x) || x == 0)
				return fail_tok(P, line, arg,
						"expected a kmalloc size of 1..%u bytes, got '%s'",
						MAX_OBJECT_SIZE, qt(P, arg));
			op->size = (uint32_t)x;
			break;
		case ARG_COUNT:
			if (!parse_uint(arg->s, arg->len, MAX_BULK, &x) || x == 0)
				return fail_tok(P, line, arg, "expected a bulk count of 1..%u, got '%s'",
						MAX_BULK, qt(P, arg));
			op->count = (uint32_t)x;
			break;
		case ARG_SHEAF:
		case ARG_HANDLE:
		case ARG_PREFIX:
			if (!handle_name_ok(arg->s, arg->len))
				return fail_tok(P, line, arg,
						"expected %s of letters, digits, '_', '.', ':', '[', "
						"']' or '-', got '%s'", what[spec->args[a]], qt(P, arg));
			if (arg->len > SVZ_TRACE_MAX_NAME)
				return fail_tok(P, line, arg, "expected %s of at most %u bytes, got %u bytes",
						what[spec->args[a]], SVZ_TRACE_MAX_NAME, arg->len);
			if (spec->args[a] == ARG_SHEAF)
				sheaf_tok = arg;
			else
				handle = arg;
			break;
		}
	}

	if (spec->opts & OPT_GFP)
		strcat(optlist, "gfp=, ");
	if (spec->opts & OPT_NODE)
		strcat(optlist, "node=, ");
	if (spec->opts & OPT_AT)
		strcat(optlist, "at=, ");
	if (optlist[0])
		optlist[strlen(optlist) - 2] = 0;
	for (uint32_t i = 2 + spec->nargs; i < n; i++) {
		const struct tok *o = &tk[i];
		const struct tok **slot;
		const char *key;
		struct tok v;

		if ((spec->opts & OPT_GFP) && tok_opt(o, "gfp", &v))
			slot = &gfp_tok, key = "gfp";
		else if ((spec->opts & OPT_NODE) && tok_opt(o, "node", &v))
			slot = &node_tok, key = "node";
		else if ((spec->opts & OPT_AT) && tok_opt(o, "at", &v))
			slot = &at_tok, key = "at";
		else if (!memchr(o->s, '=', o->len) && !optlist[0])
			return fail_tok(P, line, o, "expected end of line, got '%s'", qt(P, o));
		else if (!memchr(o->s, '=', o->len))
			return fail_tok(P, line, o, "expected end of line or an option (%s), got '%s'",
					optlist, qt(P, o));
		else if (!optlist[0])
			return fail_tok(P, line, o, "expected no options for %s, got '%s'", spec->name,
					qt(P, o));
		else
			return fail_tok(P, line, o, "expected an option of %s (%s), got '%s'",
					spec->name, optlist, qt(P, o));
		if (*slot)
			return fail_tok(P, line, o, "expected each option once, got a second '%s='", key);
		*slot = o;

		if (slot == &gfp_tok) {
			char val[128], msg[200];

			if (v.len >= sizeof val)
				return fail_tok(P, line, &v, "expected gfp flags, got '%s'", qt(P, &v));
			memcpy(val, v.s, v.len);
			val[v.len] = 0;
			if (svz_gfp_parse(val, &op->gfp, msg, sizeof msg))
				return fail_tok(P, line, &v, "%s", msg);
		} else if (slot == &node_tok) {
			uint64_t node;

			if (tok_is(&v, "-1")) {
				op->node = SVZ_NO_NODE;
			} else if (!parse_uint(v.s, v.len, 1u << 20, &node) ||
				   node >= (uint64_t)topo->nr_nodes) {
				return fail_tok(P, line, o, "expected node=-1 or a declared node (%s), got '%s'",
						node_range(P), qt(P, o));
			} else {
				op->node = (int16_t)node;
			}
		} else if (v.len == 0) {
			return fail_tok(P, line, o, "expected a call site after at=, got nothing");
		} else if (v.len > SVZ_TRACE_MAX_NAME) {
			return fail_tok(P, line, &v, "expected a call site of at most %u bytes, got %u bytes",
					SVZ_TRACE_MAX_NAME, v.len);
		}
	}

	if (dry)
		return 0;
	if (handle && (op->type == SVZ_OP_ALLOC_BULK || op->type == SVZ_OP_FREE_BULK)) {
		if (push_bulk_handles(P, handle, op->count, line, &op->handle))
			return -1;
	} else if (handle) {
		op->handle = intern_name(P, &P->handles, handle->s, handle->len, line, handle);
		if (op->handle == NONE)
			return -1;
	}
	if (sheaf_tok) {
		/* sheaf handles share the handle namespace; the op carries it in
		 * `sheaf` (the object handle, if any, stays in `handle`) */
		op->sheaf = intern_name(P, &P->handles, sheaf_tok->s, sheaf_tok->len, line, sheaf_tok);
		if (op->sheaf == NONE)
			return -1;
	}
	if (at_tok) {
		op->site = intern_name(P, &P->sites, at_tok->s + 3, at_tok->len - 3, line, at_tok);
		if (op->site == NONE)
			return -1;
	}
	return 0;
}

/* ---- templates and expressions ------------------------------------------- */

struct ecomp {
	struct parser *P;
	const struct scope *scope;
	const char *s;  /* token text */
	uint32_t len, pos, col0, line;
	int depth, sp, max_sp;
};

static int emit(struct ecomp *ec, uint8_t kind, int64_t val, uint32_t col)
{
	struct prog *pg = &ec->P->prog;

	if (!GROW(pg->nodes, pg->cnodes, pg->nnodes + 1))
		return oom(ec->P, ec->line);
	pg->nodes[pg->nnodes++] = (struct enode){ kind, col, val };
	ec->sp += kind <= EN_VAR ? 1 : kind == EN_NEG ? 0 : -1;
	if (ec->sp > ec->max_sp)
		ec->max_sp = ec->sp;
	return 0;
}

static uint32_t ecol(const struct ecomp *ec) { return ec->col0 + ec->pos; }

static int efail_here(struct ecomp *ec, const char *expected)
{
	if (ec->pos >= ec->len)
		return fail(ec->P, ec->line, ecol(ec), "expected %s, got end of token", expected);
	return fail(ec->P, ec->line, ecol(ec), "expected %s, got '%c'", expected, ec->s[ec->pos]);
}

/* $NAME at ec->pos: emits the variable's depth. */
static int e_var(struct ecomp *ec)
{
	uint32_t start = ec->pos, col = ecol(ec);
	size_t n;

	ec->pos++;
	if (ec->pos >= ec->len || !is_ident_start(ec->s[ec->pos]))
		return efail_here(ec, "a variable name after '$'");
	while (ec->pos < ec->len && is_ident(ec->s[ec->pos]))
		ec->pos++;
	n = ec->pos - start - 1;
	for (int d = ec->scope->depth - 1; d >= 0; d--) {
		const struct tok *v = &ec->scope->vars[d];
		if (v->len == n && memcmp(v->s, ec->s + start + 1, n) == 0)
			return emit(ec, EN_VAR, d, col);
	}
	{
		char vars[128] = "";

		for (int d = ec->scope->depth - 1; d >= 0; d--) {
			size_t used = strlen(vars);
			snprintf(vars + used, sizeof vars - used, "%s$%.*s", used ? ", " : "",
				 (int)ec->scope->vars[d].len, ec->scope->vars[d].s);
		}
		return fail(ec->P, ec->line, col, "expected a repeat variable (%s), got '%s'",
			    vars[0] ? vars : "none in scope", q(ec->P, ec->s + start, n + 1));
	}
}

static int e_sum(struct ecomp *ec);

static int e_unary(struct ecomp *ec)
{
	bool nests = ec->pos < ec->len && (ec->s[ec->pos] == '-' || ec->s[ec->pos] == '(');
	int r;

	/* Only '(' and a sign nest: 32 of them around a number are allowed. */
	if (nests && ++ec->depth > MAX_EXPR_DEPTH)
		return fail(ec->P, ec->line, ecol(ec),
			    "expected at most %d nested parentheses or signs, got more", MAX_EXPR_DEPTH);
	if (ec->pos < ec->len && ec->s[ec->pos] == '-') {
		uint32_t col = ecol(ec);

		ec->pos++;
		r = e_unary(ec) || emit(ec, EN_NEG, 0, col);
	} else if (ec->pos < ec->len && ec->s[ec->pos] == '(') {
		ec->pos++;
		r = e_sum(ec);
		if (!r && (ec->pos >= ec->len || ec->s[ec->pos] != ')'))
			r = efail_here(ec, "an operator or ')'");
		ec->pos++;
	} else if (ec->pos < ec->len && ec->s[ec->pos] == '$') {
		r = e_var(ec);
	} else if (ec->pos < ec->len && is_digit(ec->s[ec->pos])) {
		uint32_t start = ec->pos;
		uint64_t x;

		while (ec->pos < ec->len && is_digit(ec->s[ec->pos]))
			ec->pos++;
		if (!parse_uint(ec->s + start, ec->pos - start, INT64_MAX, &x))
			r = fail(ec->P, ec->line, ec->col0 + start, "expected a number below 2^63, got '%s'",
				 q(ec->P, ec->s + start, ec->pos - start));
		else
			r = emit(ec, EN_NUM, (int64_t)x, ec->col0 + start);
	} else {
		r = efail_here(ec, "a number, $VAR, '-' or '('");
	}
	if (nests)
		ec->depth--;
	return r ? -1 : 0;
}

static int e_product(struct ecomp *ec)
{
	if (e_unary(ec))
		return -1;
	while (ec->pos < ec->len && strchr("*/%", ec->s[ec->pos])) {
		char c = ec->s[ec->pos];
		uint32_t col = ecol(ec);

		ec->pos++;
		if (e_unary(ec) || emit(ec, c == '*' ? EN_MUL : c == '/' ? EN_DIV : EN_MOD, 0, col))
			return -1;
	}
	return 0;
}

static int e_sum(struct ecomp *ec)
{
	if (e_product(ec))
		return -1;
	while (ec->pos < ec->len && (ec->s[ec->pos] == '+' || ec->s[ec->pos] == '-')) {
		char c = ec->s[ec->pos];
		uint32_t col = ecol(ec);

		ec->pos++;
		if (e_product(ec) || emit(ec, c == '+' ? EN_ADD : EN_SUB, 0, col))
			return -1;
	}
	return 0;
}

static int add_part(struct parser *P, uint32_t line, struct part p)
{
	if (!GROW(P->prog.parts, P->prog.cparts, P->prog.nparts + 1))
		return oom(P, line);
	P->prog.parts[P->prog.nparts++] = p;
	return 0;
}

/* Splits a token into literal / {expr} / $VAR parts. Plain tokens get none. */
static int compile_token(struct parser *P, const struct tok *t, const struct scope *scope,
			 uint32_t line, struct ttok *out)
{
	struct ecomp ec = { P, scope, t->s, t->len, 0, t->col, line, 0, 0, 0 };
	uint32_t lit = 0;

	out->t = *t;
	out->part0 = P->prog.nparts;
	out->nparts = 0;
	if (!memchr(t->s, '{', t->len) && !memchr(t->s, '}', t->len) && !memchr(t->s, '$', t->len))
		return 0;
	while (ec.pos < ec.len) {
		char c = ec.s[ec.pos];
		struct part p = { true, NULL, 0, P->prog.nnodes, 0 };

		if (c != '{' && c != '$' && c != '}') {
			ec.pos++;
			continue;
		}
		if (c == '}')
			return fail(P, line, ecol(&ec), "expected '{' before '}', got a stray '}'");
		if (ec.pos > lit && add_part(P, line, (struct part){ false, ec.s + lit, ec.pos - lit, 0, 0 }))
			return -1;
		ec.sp = ec.max_sp = 0;
		if (c == '$') {
			if (e_var(&ec))
				return -1;
		} else {
			uint32_t open = ecol(&ec);

			ec.pos++;
			if (e_sum(&ec))
				return -1;
			if (ec.pos >= ec.len)
				return fail(P, line, ecol(&ec),
					    "expected '}' closing the '{' at column %u, got end of token", open);
			if (ec.s[ec.pos] != '}')
				return efail_here(&ec, "an operator (+ - * / %) or '}'");
			ec.pos++;
		}
		if (ec.max_sp > EVAL_STACK)
			return fail(P, line, t->col, "expected a simpler expression, got '%s'", qt(P, t));
		p.nnodes = P->prog.nnodes - p.node0;
		if (add_part(P, line, p))
			return -1;
		lit = ec.pos;
	}
	if (ec.len > lit && add_part(P, line, (struct part){ false, ec.s + lit, ec.len - lit, 0, 0 }))
		return -1;
	out->nparts = P->prog.nparts - out->part0;
	return 0;
}

static int eval(struct parser *P, const struct part *p, const int64_t *env, uint32_t line,
		int64_t *out)
{
	int64_t st[EVAL_STACK];
	int sp = 0;

	for (uint32_t i = 0; i < p->nnodes; i++) {
		const struct enode *e = &P->prog.nodes[p->node0 + i];
		int64_t a, b, r = 0;
		bool ovf = false;

		switch (e->kind) {
		case EN_NUM: st[sp++] = e->val; continue;
		case EN_VAR: st[sp++] = env[e->val]; continue;
		case EN_NEG:
			if (st[sp - 1] == INT64_MIN)
				goto overflow;
			st[sp - 1] = -st[sp - 1];
			continue;
		}
		b = st[--sp];
		a = st[sp - 1];
		switch (e->kind) {
		case EN_ADD: ovf = __builtin_add_overflow(a, b, &r); break;
		case EN_SUB: ovf = __builtin_sub_overflow(a, b, &r); break;
		case EN_MUL: ovf = __builtin_mul_overflow(a, b, &r); break;
		case EN_DIV:
		case EN_MOD:
			if (b == 0)
				return fail(P, line, e->col, "expected a non-zero divisor, got 0");
			if (a == INT64_MIN && b == -1)
				goto overflow;
			r = e->kind == EN_DIV ? a / b : a % b;
			break;
		}
		if (ovf)
			goto overflow;
		st[sp - 1] = r;
		continue;
overflow:
		return fail(P, line, e->col, "expected a result within 64 bits, got an overflow");
	}
	*out = st[0];
	return 0;
}

/* Expands a templated token into P->xbuf; returns its offset via *off. */
static int expand_token(struct parser *P, const struct ttok *tt, const int64_t *env,
			uint32_t line, size_t *off, uint32_t *len)
{
	*off = P->xlen;
	for (uint32_t i = 0; i < tt->nparts; i++) {
		const struct part *p = &P->prog.parts[tt->part0 + i];
		char num[24];
		const char *s = p->s;
		size_t n = p->len;

		if (p->is_expr) {
			int64_t v;

			if (eval(P, p, env, line, &v))
				return -1;
			n = (size_t)snprintf(num, sizeof num, "%lld", (long long)v);
			s = num;
		}
		if (P->xlen + n > P->xcap) {
			size_t ncap = P->xcap ? P->xcap * 2 : 256;
			char *nb;

			while (ncap < P->xlen + n)
				ncap *= 2;
			nb = realloc(P->xbuf, ncap);
			if (!nb)
				return oom(P, line);
			P->xbuf = nb;
			P->xcap = ncap;
		}
		memcpy(P->xbuf + P->xlen, s, n);
		P->xlen += n;
	}
	if (P->xlen - *off > UINT32_MAX / 2)
		return fail(P, line, tt->t.col, "expected a shorter token, got '%s'", qt(P, &tt->t));
	*len = (uint32_t)(P->xlen - *off);
	return 0;
}

/* ---- statements: compile, then expand ----------------------------------- */

static int new_stmt(struct parser *P, uint8_t kind, uint32_t *id)
{
	struct prog *pg = &P->prog;

	if (!GROW(pg->stmts, pg->cstmts, pg->nstmts + 1))
		return oom(P, P->line);
	*id = pg->nstmts++;
	memset(&pg->stmts[*id], 0, sizeof pg->stmts[*id]);
	pg->stmts[*id].kind = kind;
	pg->stmts[*id].line = P->line;
	pg->stmts[*id].next = NONE;
	pg->stmts[*id].body = NONE;
	return 0;
}

static int compile_op(struct parser *P, const struct scope *scope, bool validate, uint32_t *id)
{
	struct prog *pg = &P->prog;
	struct stmt *s;
	bool templated = false;

	if (new_stmt(P, ST_OP, id))
		return -1;
	if (!GROW(pg->toks, pg->ctoks, pg->ntoks + P->ntoks))
		return oom(P, P->line);
	pg->stmts[*id].tok0 = pg->ntoks;
	pg->stmts[*id].ntoks = P->ntoks;
	for (uint32_t i = 0; i < P->ntoks; i++) {
		struct ttok *tt = &pg->toks[pg->ntoks++];

		if (compile_token(P, &P->toks[i], scope, P->line, tt))
			return -1;
		templated |= tt->nparts > 0;
	}
	s = &pg->stmts[*id];
	s->templated = templated;
	s->total.ops = 1;
	/* A bulk op's handles count too: known unless its name or count is computed. */
	if (s->ntoks >= 2 && pg->toks[s->tok0 + 1].nparts) {
		s->dyn = true;
	} else if (s->ntoks >= 4) {
		const struct op_spec *spec = find_op(&pg->toks[s->tok0 + 1].t);
		const struct ttok *count = &pg->toks[s->tok0 + 3];
		uint64_t x;

		if (spec && (spec->type == SVZ_OP_ALLOC_BULK || spec->type == SVZ_OP_FREE_BULK)) {
			if (count->nparts)
				s->dyn = true;
			else if (parse_uint(count->t.s, count->t.len, MAX_BULK, &x))
				s->total.bulk = x;
		}
	}
	if (!templated && validate) {
		struct svz_op scratch;

		if (parse_op(P, P->toks, P->ntoks, P->line, true, &scratch))
			return -1;
	}
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* acc += count runs of a body (each run is one iteration) */
static void tally_times(struct tally *acc, uint64_t count, const struct tally *body)
{
	acc->ops = sat_add(acc->ops, sat_mul(count, body->ops));
	acc->bulk = sat_add(acc->bulk, sat_mul(count, body->bulk));
	acc->iters = sat_add(acc->iters, sat_add(count, sat_mul(count, body->iters)));
}

static int compile_repeat(struct parser *P, struct scope *scope, uint32_t *id);

/* Reads body lines up to the matching '}' into a sibling chain. */
static int compile_body(struct parser *P, struct scope *scope, uint32_t repeat_id)
{
	uint32_t last = NONE;
	int r;

	while ((r = next_line(P)) > 0) {
		const struct tok *tk = P->toks;
		uint32_t id;

		if (P->ntoks == 0)
			continue;
		if (tok_is(&tk[0], "}")) {
			if (P->ntoks > 1)
				return fail_tok(P, P->line, &tk[1], "expected end of line after '}', got '%s'",
						qt(P, &tk[1]));
			return 0;
		}
		if (tok_is(&tk[0], "repeat")) {
			if (compile_repeat(P, scope, &id))
				return -1;
		} else if (looks_like_op(tk, P->ntoks)) {
			if (compile_op(P, scope, true, &id))
				return -1;
		} else {
			return fail_tok(P, P->line, &tk[0],
					"expected an op, a nested repeat or '}' inside a repeat, got '%s'",
					qt(P, &tk[0]));
		}
		{
			struct stmt *rep = &P->prog.stmts[repeat_id];
			const struct stmt *s = &P->prog.stmts[id];

			if (last == NONE)
				rep->body = id;
			else
				P->prog.stmts[last].next = id;
			last = id;
			rep->body_dyn |= s->dyn;
			rep->body_total.ops = sat_add(rep->body_total.ops, s->total.ops);
			rep->body_total.bulk = sat_add(rep->body_total.bulk, s->total.bulk);
			rep->body_total.iters = sat_add(rep->body_total.iters, s->total.iters);
		}
	}
	if (r < 0)
		return -1;
	{
		const struct stmt *rep = &P->prog.stmts[repeat_id];
		return fail_tok(P, rep->line, &rep->brace,
				"expected '}' closing this repeat, got end of file");
	}
}

/* "repeat COUNT [VAR] {" at the current line, then its body. */
static int compile_repeat(struct parser *P, struct scope *scope, uint32_t *id)
{
	const struct tok *tk = P->toks;
	uint32_t n = P->ntoks, brace;
	struct stmt *s;
	struct tok var = { "i", 1, 0 };
	uint64_t count = 0;
	bool literal;

	if (scope->depth >= MAX_REPEAT_DEPTH)
		return fail_tok(P, P->line, &tk[0], "expected at most %d nested repeats, got a %dth",
				MAX_REPEAT_DEPTH, MAX_REPEAT_DEPTH + 1);
	if (n < 2 || tok_is(&tk[1], "{"))
		return n < 2 ? fail(P, P->line, end_col(tk, n), "expected a repeat count, got end of line")
			     : fail_tok(P, P->line, &tk[1], "expected a repeat count, got '{'");
	brace = n >= 3 && is_ident_start(tk[2].s[0]) ? 3 : 2;
	if (brace == 3) {
		for (uint32_t i = 0; i < tk[2].len; i++)
			if (!is_ident(tk[2].s[i]))
				return fail_tok(P, P->line, &tk[2], "expected a variable name, got '%s'",
						qt(P, &tk[2]));
		var = tk[2];
	}
	if (brace >= n)
		return fail(P, P->line, end_col(tk, n), "expected '{' at the end of the repeat line, got end of line");
	if (!tok_is(&tk[brace], "{"))
		return fail_tok(P, P->line, &tk[brace], "expected %s'{', got '%s'",
				brace == 2 ? "a variable name or " : "", qt(P, &tk[brace]));
	if (brace + 1 < n)
		return fail_tok(P, P->line, &tk[brace + 1], "expected end of line after '{', got '%s'",
				qt(P, &tk[brace + 1]));
	if (new_stmt(P, ST_REPEAT, id))
		return -1;
	s = &P->prog.stmts[*id];
	s->kw = tk[0];
	s->brace = tk[brace];
	if (compile_token(P, &tk[1], scope, P->line, &P->prog.stmts[*id].count))
		return -1;
	s = &P->prog.stmts[*id];
	literal = s->count.nparts == 0;
	if (literal && !parse_uint(tk[1].s, tk[1].len, MAX_REPEAT_COUNT, &count))
		return fail_tok(P, P->line, &tk[1], "expected a repeat count of 0..%u, got '%s'",
				MAX_REPEAT_COUNT, qt(P, &tk[1]));
	/* The variable's token points into the text, which outlives the scope. */
	scope->vars[scope->depth++] = var;
	if (compile_body(P, scope, *id)) {
		scope->depth--;
		return -1;
	}
	scope->depth--;
	s = &P->prog.stmts[*id];
	s->dyn = !literal || s->body_dyn;
	if (!s->dyn)
		tally_times(&s->total, count, &s->body_total);
	return 0;
}

static int expand(struct parser *P, uint32_t first, int64_t *env, int depth);

static int expand_op(struct parser *P, struct stmt *s, const int64_t *env)
{
	struct prog *pg = &P->prog;
	const struct ttok *tt = &pg->toks[s->tok0];
	struct svz_op op;

	if (s->have_proto)
		return push_op(P, &s->proto, &tt[0].t);
	if (!s->templated) {
		if (!GROW(P->xtoks, P->cxtoks, s->ntoks))
			return oom(P, s->line);
		for (uint32_t i = 0; i < s->ntoks; i++)
			P->xtoks[i] = tt[i].t;
		if (parse_op(P, P->xtoks, s->ntoks, s->line, false, &op))
			return -1;
		/* Same text every time: later iterations reuse the parsed op. */
		s->proto = op;
		s->have_proto = true;
		return push_op(P, &op, &tt[0].t);
	}
	if (!GROW(P->xtoks, P->cxtoks, s->ntoks) || !GROW(P->xoffs, P->cxoffs, s->ntoks))
		return oom(P, s->line);
	P->xlen = 0;
	for (uint32_t i = 0; i < s->ntoks; i++) {
		size_t off;
		uint32_t len;

		if (tt[i].nparts == 0) {
			P->xtoks[i] = tt[i].t;
			continue;
		}
		if (expand_token(P, &tt[i], env, s->line, &off, &len))
			return -1;
		/* Pointers only once all are expanded: xbuf may move meanwhile. */
		P->xoffs[i] = off;
		P->xtoks[i] = (struct tok){ NULL, len, tt[i].t.col };
	}
	for (uint32_t i = 0; i < s->ntoks; i++)
		if (tt[i].nparts)
			P->xtoks[i].s = P->xbuf + P->xoffs[i];
	if (parse_op(P, P->xtoks, s->ntoks, s->line, false, &op))
		return -1;
	return push_op(P, &op, &tt[0].t);
}

static int expand_repeat(struct parser *P, uint32_t id, int64_t *env, int depth)
{
	struct stmt *s = &P->prog.stmts[id];
	uint64_t count = 0;

	if (s->count.nparts == 0) {
		parse_uint(s->count.t.s, s->count.t.len, MAX_REPEAT_COUNT, &count);
	} else {
		size_t off;
		uint32_t len;

		P->xlen = 0;
		if (expand_token(P, &s->count, env, s->line, &off, &len))
			return -1;
		if (!parse_uint(P->xbuf + off, len, MAX_REPEAT_COUNT, &count))
			return fail_tok(P, s->line, &s->count.t,
					"expected a repeat count of 0..%u, got '%s'", MAX_REPEAT_COUNT,
					q(P, P->xbuf + off, len));
	}
	for (uint64_t k = 0; k < count; k++) {
		if (++P->iterations > SVZ_TRACE_MAX_ITERATIONS)
			return fail_tok(P, s->line, &s->kw,
					"trace expands to more than %u repeat iterations (the limit)",
					SVZ_TRACE_MAX_ITERATIONS);
		env[depth] = (int64_t)k;
		if (expand(P, P->prog.stmts[id].body, env, depth + 1))
			return -1;
	}
	return 0;
}

static int expand(struct parser *P, uint32_t first, int64_t *env, int depth)
{
	for (uint32_t id = first; id != NONE; id = P->prog.stmts[id].next) {
		struct stmt *s = &P->prog.stmts[id];

		if (s->kind == ST_OP ? expand_op(P, s, env) : expand_repeat(P, id, env, depth))
			return -1;
	}
	return 0;
}

static void prog_reset(struct prog *pg)
{
	pg->nstmts = pg->ntoks = pg->nparts = pg->nnodes = 0;
}

static void prog_free(struct prog *pg)
{
	free(pg->stmts);
	free(pg->toks);
	free(pg->parts);
	free(pg->nodes);
	memset(pg, 0, sizeof *pg);
}

/* ---- counting ahead: the limits before expansion ------------------------ */

enum { T_COUNTED, T_UNKNOWN, T_OPS, T_BULK, T_ITERS };

static int over_limits(const struct parser *P, const struct tally *acc)
{
	if (sat_add(P->t->nr_ops, acc->ops) > SVZ_TRACE_MAX_OPS)
		return T_OPS;
	if (sat_add(P->t->nr_handle_lists, acc->bulk) > SVZ_TRACE_MAX_OPS)
		return T_BULK;
	if (sat_add(P->iterations, acc->iters) > SVZ_TRACE_MAX_ITERATIONS)
		return T_ITERS;
	return T_COUNTED;
}

/* A computed token's text (a repeat count, an op name, a bulk count); false
 * if it does not evaluate (quietly: expansion reports it). */
static bool eval_token(struct parser *P, const struct ttok *tt, const int64_t *env, struct tok *out)
{
	size_t off;
	uint32_t len;

	if (!tt->nparts) {
		*out = tt->t;
		return true;
	}
	P->xlen = 0;
	if (expand_token(P, tt, env, 0, &off, &len))
		return false;
	*out = (struct tok){ P->xbuf + off, len, tt->t.col };
	return true;
}

/* Adds what the chain from `first` expands to into *acc, evaluating only
 * computed counts, and stops as soon as a limit is exceeded: T_COUNTED,
 * T_UNKNOWN when an expression fails (expansion stops there with its error,
 * within what was counted), or the limit exceeded. Runs with P->quiet. */
static int tally_chain(struct parser *P, uint32_t first, int64_t *env, int depth, struct tally *acc)
{
	for (uint32_t id = first; id != NONE; id = P->prog.stmts[id].next) {
		const struct stmt *s = &P->prog.stmts[id];
		const struct op_spec *spec;
		struct tok t;
		uint64_t count;
		int r;

		if (!s->dyn) {
			acc->ops = sat_add(acc->ops, s->total.ops);
			acc->bulk = sat_add(acc->bulk, s->total.bulk);
			acc->iters = sat_add(acc->iters, s->total.iters);
		} else if (s->kind == ST_OP) {
			/* only ops own tokens (toks stays NULL in a trace of repeats
			 * without ops) */
			const struct ttok *tt = &P->prog.toks[s->tok0];

			acc->ops = sat_add(acc->ops, 1);
			if (!eval_token(P, &tt[1], env, &t))
				return T_UNKNOWN;
			spec = find_op(&t);
			if (spec && (spec->type == SVZ_OP_ALLOC_BULK || spec->type == SVZ_OP_FREE_BULK) &&
			    s->ntoks >= 4) {
				if (!eval_token(P, &tt[3], env, &t) ||
				    !parse_uint(t.s, t.len, MAX_BULK, &count))
					return T_UNKNOWN;
				acc->bulk = sat_add(acc->bulk, count);
			}
		} else {
			if (!eval_token(P, &s->count, env, &t) ||
			    !parse_uint(t.s, t.len, MAX_REPEAT_COUNT, &count))
				return T_UNKNOWN;
			if (!s->body_dyn) {
				tally_times(acc, count, &s->body_total);
			} else {
				for (uint64_t k = 0; k < count; k++) {
					acc->iters = sat_add(acc->iters, 1);
					if ((r = over_limits(P, acc)) != T_COUNTED)
						return r;
					env[depth] = (int64_t)k;
					if ((r = tally_chain(P, P->prog.stmts[id].body, env, depth + 1, acc)) !=
					    T_COUNTED)
						return r;
				}
			}
		}
		if ((r = over_limits(P, acc)) != T_COUNTED)
			return r;
	}
	return T_COUNTED;
}

/* A top-level op or repeat: compile it; for a repeat, count what it expands
 * to and check the limits before building anything, then reserve exactly
 * that; expand it. */
static int run_statement(struct parser *P, bool is_repeat)
{
	struct scope scope = { .depth = 0 };
	int64_t env[MAX_REPEAT_DEPTH] = { 0 };
	struct tally acc = { 0, 0, 0 };
	uint32_t id;
	const struct stmt *s;
	int r;

	prog_reset(&P->prog);
	if (is_repeat ? compile_repeat(P, &scope, &id) : compile_op(P, &scope, false, &id))
		return -1;
	if (!is_repeat)
		return expand(P, id, env, 0);
	P->quiet = true;
	r = tally_chain(P, id, env, 0, &acc);
	P->quiet = false;
	s = &P->prog.stmts[id];
	if (r == T_OPS)
		return fail_tok(P, s->line, &s->kw, "trace expands to more than %u ops (the limit)",
				SVZ_TRACE_MAX_OPS);
	if (r == T_BULK)
		return fail_tok(P, s->line, &s->kw,
				"trace expands to more than %u bulk handles (the limit)", SVZ_TRACE_MAX_OPS);
	if (r == T_ITERS)
		return fail_tok(P, s->line, &s->kw,
				"trace expands to more than %u repeat iterations (the limit)",
				SVZ_TRACE_MAX_ITERATIONS);
	if (r == T_COUNTED &&
	    (!GROW(P->t->ops, P->cap_ops, P->t->nr_ops + (uint32_t)acc.ops) ||
	     !GROW(P->t->handle_lists, P->cap_lists, P->t->nr_handle_lists + (uint32_t)acc.bulk)))
		return oom(P, s->line);
	memset(env, 0, sizeof env);
	return expand(P, id, env, 0);
}

/* ---- directives ---------------------------------------------------------- */

static int dir_header(struct parser *P, const struct tok *tk, uint32_t n)
{
	if (!tok_is(&tk[0], "slubviz-trace"))
		return fail_tok(P, P->line, &tk[0], "expected the header 'slubviz-trace 1', got '%s'",
				qt(P, &tk[0]));
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected format version 1, got end of line");
	if (!tok_is(&tk[1], "1"))
		return fail_tok(P, P->line, &tk[1], "expected format version 1, got '%s'", qt(P, &tk[1]));
	if (n > 2)
		return fail_tok(P, P->line, &tk[2], "expected end of line, got '%s'", qt(P, &tk[2]));
	P->header_seen = true;
	return 0;
}

/* Directives that take exactly one value, handed to svz_config_set(). */
static int dir_single(struct parser *P, const struct tok *tk, uint32_t n, const char *key,
		      const char *what)
{
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected %s, got end of line", what);
	if (n > 2)
		return fail_tok(P, P->line, &tk[2], "expected end of line, got '%s'", qt(P, &tk[2]));
	return set_key(P, &tk[1], key, strlen(key), tk[1].s, tk[1].len);
}

static int dir_page_size(struct parser *P, const struct tok *tk, uint32_t n)
{
	if (dir_single(P, tk, n, "page_size", "a page size"))
		return -1;
	note_topology(P, &tk[0]);
	return 0;
}

static int dir_preset(struct parser *P, const struct tok *tk, uint32_t n)
{
	return dir_single(P, tk, n, "preset", "a preset name");
}

static int dir_seed(struct parser *P, const struct tok *tk, uint32_t n)
{
	return dir_single(P, tk, n, "seed", "a seed");
}

static int dir_set(struct parser *P, const struct tok *tk, uint32_t n)
{
	if (n < 2)
		return fail(P, P->line, end_col(tk, n), "expected KEY=VALUE, got end of line");
	for (uint32_t i = 1; i < n; i++) {
		const char *eq = memchr(tk[i].s, '=', tk[i].len);

		if (!eq || eq == tk[i].s)
			return fail_tok(P, P->line, &tk[i], "expected KEY=VALUE, got '%s'", qt(P, &tk[i]));
		if (set_key(P, &tk[i], tk[i].s, (size_t)(eq - tk[i].s), eq + 1,
			    tk[i].len - (size_t)(eq - tk[i].s) - 1))
			return -1;
	}
	return 0;
}

static const struct directive {
	const char *name;
	int (*fn)(struct parser *, const struct tok *, uint32_t);
} directives[] = {
	{ "node", dir_node },
	{ "cpus", dir_cpus },
	{ "cpu_counts", dir_cpu_counts },
	{ "set", dir_set },
	{ "cache", dir_cache },
	{ "page_size", dir_page_size },
	{ "preset", dir_preset },
	{ "seed", dir_seed },
};

/* The directive keywords, in table order (the manifest); NULL past the end. */
const char *svz_trace_directive_name(int i)
{
	return i >= 0 && (size_t)i < sizeof directives / sizeof directives[0] ? directives[i].name : NULL;
}

static int run_directive(struct parser *P, const struct directive *d, const struct tok *tk,
			 uint32_t n)
{
	if (P->finalized)
		return fail_tok(P, P->line, &tk[0],
				"expected an op or repeat (directives go before the first op, line %u), "
				"got '%s'", P->first_op_line, qt(P, &tk[0]));
	return d->fn(P, tk, n);
}

static int parse_lines(struct parser *P)
{
	int r;

	while ((r = next_line(P)) > 0) {
		const struct tok *tk = P->toks;
		uint32_t n = P->ntoks;
		const struct directive *d = NULL;

		if (n == 0)
			continue;
		if (!P->header_seen) {
			if (dir_header(P, tk, n))
				return -1;
			continue;
		}
		for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
			if (tok_is(&tk[0], directives[i].name))
				d = &directives[i];
		if (d) {
			if (run_directive(P, d, tk, n))
				return -1;
		} else if (tok_is(&tk[0], "repeat") || looks_like_op(tk, n)) {
			if (finalize(P, P->line, tk[0].col) ||
			    run_statement(P, tok_is(&tk[0], "repeat")))
				return -1;
		} else if (tok_is(&tk[0], "}")) {
			return fail_tok(P, P->line, &tk[0],
					"expected a directive or an op, got '}' (no repeat is open)");
		} else {
			return fail_tok(P, P->line, &tk[0],
					"expected a directive (page_size, node, cpus, cpu_counts, preset, "
					"set, seed, cache), an op like 'c0 alloc CACHE HANDLE' or repeat, "
					"got '%s'", qt(P, &tk[0]));
		}
	}
	if (r < 0)
		return -1;
	if (!P->header_seen) {
		uint32_t line, col;

		eof_pos(P, &line, &col);
		return fail(P, line, col, "expected the header 'slubviz-trace 1', got end of file");
	}
	if (!P->finalized) {
		uint32_t line, col;

		eof_pos(P, &line, &col);
		return finalize(P, line, col);
	}
	return 0;
}

/* ---- public API ---------------------------------------------------------- */

void svz_trace_free(struct svz_trace *t)
{
	if (!t)
		return;
	free(t->caches);
	free(t->ops);
	/* the parser's names are pooled, the importers' each malloc'd */
	if (t->handle_names && !t->name_pool)
		for (uint32_t i = 0; i < t->nr_handles; i++)
			free(t->handle_names[i]);
	free(t->handle_names);
	free(t->handle_lists);
	if (t->sites && !t->name_pool)
		for (uint32_t i = 0; i < t->nr_sites; i++)
			free(t->sites[i]);
	free(t->sites);
	strpool_free(t->name_pool);
	free(t->description);
	memset(t, 0, sizeof *t);
}

int svz_trace_parse(const char *text, size_t len, const struct svz_config *base,
		    struct svz_trace *out, struct svz_error *err)
{
	struct svz_error scratch_err;
	struct parser *P;
	int rc = -1;

	if (!err)
		err = &scratch_err;
	memset(err, 0, sizeof *err);
	if (!out) {
		snprintf(err->msg, sizeof err->msg, "no trace to parse into");
		return -1;
	}
	memset(out, 0, sizeof *out);
	P = calloc(1, sizeof *P);
	if (!P) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return -1;
	}
	P->text = text ? text : "";
	P->len = text ? len : 0;
	P->t = out;
	P->err = err;
	P->handles.pool = P->sites.pool = &P->pool;
	if (base)
		out->config = *base;
	else
		svz_config_default(&out->config);

	out->description = read_description(P->text, P->len);
	if (!out->description || strtab_intern(&P->sites, "", 0, NULL) == NONE) {
		oom(P, 0);
		goto done;
	}
	if (parse_lines(P))
		goto done;
	/* Doubling left up to half the arrays unused; give it back if we can. */
	if (out->nr_ops) {
		struct svz_op *ops = realloc(out->ops, out->nr_ops * sizeof *ops);
		if (ops)
			out->ops = ops;
	}
	if (out->nr_handle_lists) {
		uint32_t *lists = realloc(out->handle_lists, out->nr_handle_lists * sizeof *lists);
		if (lists)
			out->handle_lists = lists;
	}
	out->handle_names = P->handles.names;
	out->nr_handles = P->handles.n;
	out->sites = P->sites.names;
	out->nr_sites = P->sites.n;
	out->name_pool = P->pool.blocks;
	strtab_free(&P->handles, false);
	strtab_free(&P->sites, false);
	rc = 0;
done:
	if (rc) {
		/* Hand the tables to the trace so one free path releases everything. */
		out->handle_names = P->handles.names;
		out->nr_handles = P->handles.n;
		out->sites = P->sites.names;
		out->nr_sites = P->sites.n;
		out->name_pool = P->pool.blocks;
		strtab_free(&P->handles, false);
		strtab_free(&P->sites, false);
		svz_trace_free(out);
	}
	strtab_free(&P->caches, true);
	prog_free(&P->prog);
	free(P->toks);
	free(P->xbuf);
	free(P->xtoks);
	free(P->xoffs);
	free(P->namebuf);
	free(P);
	return rc;
}

void svz_error_format(const struct svz_error *e, const char *filename, char *buf, size_t len)
{
	const char *f = filename && filename[0] ? filename : "<trace>";

	if (!buf || !len)
		return;
	if (e->line && e->col)
		snprintf(buf, len, "%s:%u:%u: error: %s", f, e->line, e->col, e->msg);
	else if (e->line)
		snprintf(buf, len, "%s:%u: error: %s", f, e->line, e->msg);
	else
		snprintf(buf, len, "%s: error: %s", f, e->msg);
}
