/* The v1 parser's internals, shared by its files (docs/trace-format.md):
 *
 *   lex.c         lines into tokens; errors and token quoting; numbers
 *   directives.c  the directive table: topology, settings, caches
 *   ops.c         the op table and one op line into a struct svz_op
 *   expr.c        templates: {expr} and $VAR inside a token
 *   repeat.c      statements: compile an op or repeat block, count what it
 *                 expands to against the limits, expand it
 *   trace.c       the line loop and the public API (slubviz/trace.h)
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
#ifndef SVZ_TRACE_PARSER_H
#define SVZ_TRACE_PARSER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "slubviz/trace.h"
#include "lib/strtab.h"
#include "lib/util.h" /* the character classes */

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
	uint32_t cap_ops, cap_lists, cap_caches, cap_steps;
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

/* directives.c: the explicit schedule against the topology, once it is known. */
int schedule_finalize(struct parser *P);

/* ---- lex.c: errors ------------------------------------------------------- */

/* Record the first error (unless quiet) and return -1. */
int fail(struct parser *P, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int fail_tok(struct parser *P, uint32_t line, const struct tok *t, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int oom(struct parser *P, uint32_t line);
/* Token text for messages, cut so one long token cannot swamp the message
 * (one of four rotating buffers: up to four per message). */
const char *quote(struct parser *P, const char *s, size_t len);
const char *qtok(struct parser *P, const struct tok *t);

/* ---- lex.c: tokens, numbers, lines -------------------------------------- */

static inline bool tok_is(const struct tok *t, const char *s)
{
	size_t n = strlen(s);
	return t->len == n && memcmp(t->s, s, n) == 0;
}

/* "key=value": returns true and the (possibly empty) value if the token
 * starts with key=. */
static inline bool tok_opt(const struct tok *t, const char *key, struct tok *value)
{
	size_t n = strlen(key);

	if (t->len < n + 1 || memcmp(t->s, key, n) != 0 || t->s[n] != '=')
		return false;
	value->s = t->s + n + 1;
	value->len = t->len - (uint32_t)n - 1;
	value->col = t->col + (uint32_t)n + 1;
	return true;
}

/* The position just past the last token: where a missing token belongs. */
static inline uint32_t end_col(const struct tok *toks, uint32_t n)
{
	return n ? toks[n - 1].col + toks[n - 1].len : 1;
}

/* Plain decimal, no sign; fails on overflow of max. */
bool parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out);
/* Bytes with an optional binary K/M/G/T suffix. */
bool parse_size(const char *s, size_t len, uint64_t max, uint64_t *out);
/* Reads the next line's tokens into P->toks. 1 = a line, 0 = end of text,
 * -1 = error. */
int next_line(struct parser *P);
/* Line and column just past the last byte: where "end of file" is. */
void eof_pos(const struct parser *P, uint32_t *line, uint32_t *col);
/* The opening run of '#' lines, without the '#' and one following space. */
char *read_description(const char *text, size_t len);

/* ---- directives.c -------------------------------------------------------- */

struct directive;
const struct directive *find_directive(const struct tok *t);
/* A directive line; an error after the first op. */
int run_directive(struct parser *P, const struct directive *d, const struct tok *tk, uint32_t n);
/* The first line: "slubviz-trace 1". */
int dir_header(struct parser *P, const struct tok *tk, uint32_t n);
/* At the first op (or the end): the topology is complete and checked. */
int topology_finalize(struct parser *P, uint32_t line, uint32_t col);
/* "0-3", "c0-c7": the declared nodes and CPUs, for messages. */
const char *node_range(struct parser *P);
const char *cpu_range(struct parser *P);

/* ---- ops.c --------------------------------------------------------------- */

/* An op line starts with a CPU ("c3", "c{...}", "c$cpu"), or at least has an
 * op name second, so that "x3 alloc ..." is reported as a bad CPU. */
bool looks_like_op(const struct tok *tk, uint32_t n);
/* The token names alloc_bulk or free_bulk (a count of handles follows). */
bool is_bulk_op(const struct tok *t);
/* Parses one op line (already expanded). `dry` validates without interning
 * anything, for op lines of a repeat body before it runs. */
int parse_op(struct parser *P, const struct tok *tk, uint32_t n, uint32_t line, bool dry,
	     struct svz_op *op);
int push_op(struct parser *P, const struct svz_op *op, const struct tok *at);

/* ---- expr.c -------------------------------------------------------------- */

/* Splits a token into literal / {expr} / $VAR parts. Plain tokens get none. */
int compile_token(struct parser *P, const struct tok *t, const struct scope *scope,
		  uint32_t line, struct ttok *out);
/* Expands a templated token into P->xbuf at *off. */
int expand_token(struct parser *P, const struct ttok *tt, const int64_t *env, uint32_t line,
		 size_t *off, uint32_t *len);

/* ---- repeat.c ------------------------------------------------------------ */

/* A top-level op, or a repeat block (read to its '}'), into the trace. */
int run_statement(struct parser *P, bool is_repeat);
void prog_free(struct prog *pg);

#endif
